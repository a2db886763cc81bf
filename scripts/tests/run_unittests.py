"""Run every scripts/tests/test_*.py with unittest, print how many tests
ran, failed and were skipped, and fail on any failure or skip: every test
of the tooling runs on a fresh clone, so a skip is a test that did not
run."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    suite = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py")
    result = unittest.TextTestRunner(verbosity=1).run(suite)
    bad = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    print(f"python tests: {result.testsRun} ran, {bad} failed, {len(result.skipped)} skipped")
    for test, reason in result.skipped:
        print(f"error: skipped: {test.id()}: {reason}", file=sys.stderr)
    return 0 if bad == 0 and not result.skipped and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
