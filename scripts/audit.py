#!/usr/bin/env python3
"""Entry point of tsanity.audit.main (its docstring says what it does)."""
import sys

from tsanity.audit import main as m

sys.exit(m.run())
