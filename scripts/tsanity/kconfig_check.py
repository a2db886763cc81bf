"""usage: scripts/kconfig_check.py SRC CONFIG FRAGMENT...

Checks that CONFIG (a .config) has every symbol the FRAGMENTs ask for,
with the value asked (a later fragment wins, as in merge_config.sh), using
the tree's own tools/testing/kunit/kunit_config.py (from SRC) to read and
compare them: tsanity.kconfig.check(), which the kconfig step runs in its
own process.  A symbol asked as n must be n or absent.  Names every
symbol that did not stick; exit 0 if all did, 1 if not, 2 on a usage error
or if the tree's module cannot be imported.
"""
import sys

from tsanity import kconfig


def main():
    if len(sys.argv) < 4:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    src, config, fragments = sys.argv[1], sys.argv[2], sys.argv[3:]
    try:
        bad = kconfig.check(src, config, fragments)
    except ImportError as e:
        print(f"error: cannot import kunit_config from {src}: {e}", file=sys.stderr)
        return 2
    for line in bad:
        print(f"error: {line}", file=sys.stderr)
    return 1 if bad else 0
