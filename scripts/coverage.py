#!/usr/bin/env python3
"""Entry point of tsanity.coverage (its docstring says what it does)."""
import sys

from tsanity import coverage as m

sys.exit(m.main())
