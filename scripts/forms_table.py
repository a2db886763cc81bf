#!/usr/bin/env python3
"""Entry point of tsanity.forms.cli (its docstring says what it does)."""
import sys

from tsanity.forms import cli as m

sys.exit(m.main(sys.argv[1:]))
