#!/usr/bin/env python3
"""Entry point of tsanity.splats (its docstring has the usage)."""
import sys

from tsanity.splats import main

if __name__ == "__main__":
    sys.exit(main())
