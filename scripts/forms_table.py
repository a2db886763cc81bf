#!/usr/bin/env python3
"""Entry point of tsanity.forms.cli (its docstring has the usage), and the
forms table the audit loads by path (--forms-table): ENTRIES, SET_ASIDE,
validate(), exceptions() and for_kernel(), as a test's table gives them."""
import sys

from tsanity.forms.cli import (ENTRIES, SET_ASIDE, exceptions, for_kernel,  # noqa: F401
                               main, validate)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
