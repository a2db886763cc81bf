#!/usr/bin/env python3
"""Entry point of tsanity.ktap (its docstring has the usage), reading with
the patched tree's kunit_parser (TS_SRC)."""
import sys

from tsanity import cli
from tsanity.ktap import main

if __name__ == "__main__":
    sys.exit(main(cli.context()[2].src))
