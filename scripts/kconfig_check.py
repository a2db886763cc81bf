#!/usr/bin/env python3
"""Entry point of tsanity.kconfig_check (its docstring says what it does)."""
import sys

from tsanity import kconfig_check as m

sys.exit(m.main())
