#!/usr/bin/env python3
"""Entry point of tsanity.forms.judge (its docstring says what it does)."""
import sys

from tsanity.forms import judge as m

sys.exit(m.main())
