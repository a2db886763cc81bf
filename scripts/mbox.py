#!/usr/bin/env python3
"""Entry point of tsanity.mbox.main (its docstring says what it does)."""
import sys

from tsanity.mbox import main as m

sys.exit(m.main())
