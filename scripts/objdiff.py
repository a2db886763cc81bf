#!/usr/bin/env python3
"""Entry point of tsanity.objdiff (its docstring says what it does)."""
import sys

from tsanity import objdiff as m

sys.exit(m.main())
