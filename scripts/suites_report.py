#!/usr/bin/env python3
"""Entry point of tsanity.suites_report (its docstring says what it does)."""
import sys

from tsanity import suites_report as m

sys.exit(m.main())
