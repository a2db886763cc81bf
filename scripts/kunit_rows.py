#!/usr/bin/env python3
"""Entry point of tsanity.kunit_rows (its docstring has the usage)."""
import sys

from tsanity.kunit_rows import main

if __name__ == "__main__":
    sys.exit(main())
