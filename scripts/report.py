#!/usr/bin/env python3
"""Entry point of tsanity.report (its docstring says what it does)."""
import sys

from tsanity import report as m

sys.exit(m.main())
