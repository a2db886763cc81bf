#!/usr/bin/env python3
"""Entry point of tsanity.bench_report (its docstring says what it does)."""
import sys

from tsanity import bench_report as m

sys.exit(m.main())
