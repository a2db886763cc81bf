#!/usr/bin/env python3
"""usage: scripts/kconfig_check.py SRC CONFIG FRAGMENT...

Checks that CONFIG (a .config) has every symbol the FRAGMENTs ask for,
with the value asked (a later fragment wins, as in merge_config.sh), using
the tree's own tools/testing/kunit/kunit_config.py (from SRC) to read and
compare them.  A symbol asked as n must be n or absent.  Names every symbol
that did not stick; exit 0 if all did, 1 if not, 2 on a usage error or if
the tree's module cannot be imported.  Run by lib.sh's kconfig().
"""
import os
import sys


def main():
    if len(sys.argv) < 4:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    src, config, fragments = sys.argv[1], sys.argv[2], sys.argv[3:]
    sys.path.insert(0, os.path.join(src, "tools", "testing", "kunit"))
    try:
        import kunit_config
    except ImportError as e:
        print(f"error: cannot import kunit_config from {src}: {e}", file=sys.stderr)
        return 2
    want = kunit_config.Kconfig()
    for frag in fragments:
        want.merge_in_entries(kunit_config.parse_file(frag))
    have = kunit_config.parse_file(config)
    have_by_name = {e.name: e.value for e in have.as_entries()}
    bad = 0
    for e in want.as_entries():
        one = kunit_config.Kconfig()
        one.add_entry(e.name, e.value)
        if not one.is_subset_of(have):
            got = have_by_name.get(e.name, "n")
            print(f"error: CONFIG_{e.name}: the fragments ask for {e.value}, "
                  f"{config} has {got}", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
