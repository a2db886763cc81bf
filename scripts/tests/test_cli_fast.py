"""Tests of `scripts/ts path`'s answer without argparse (cli.fast_path):
for every path the layout prints, the same answer as the parser's, and
every wrong question left to the parser (None), which refuses it as it
always did."""
import contextlib
import io
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from tsanity import cli, layout  # noqa: E402

# An argument list per path, as the shell asks them.
ARGS = {"tree": ["patched"], "worktree": ["bisect"], "check-state": ["check-bisect"],
        "guest": ["fixes", "sanitized"], "initramfs": ["tests"], "kunit-build": ["i386"],
        "check-build": ["integration"], "htmldocs-build": ["base"], "kunit-results": ["arm64"],
        "boot-results": ["tests", "sanitized"], "named-results": ["audit"],
        "staging": ["mbox"], "suite-source": ["liburing"], "suite-record": ["libaio"],
        "suite-build": ["liburing", "32"], "suite-patched": ["libaio"],
        "suite-stage": ["liburing"], "man-source": ["man-pages"], "man-record": ["man-pages"],
        "result": ["/r", "serial", "kernel=base"], "run": ["/r", "fixes"]}


def answer(fn, argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = fn(argv)
        except SystemExit as e:
            rc = e.code
    return rc, out.getvalue(), err.getvalue()


def parsed(argv):
    """main()'s parser, the fast path bypassed."""
    old, cli.fast_path = cli.fast_path, lambda argv: None
    try:
        return answer(cli.main, argv)
    finally:
        cli.fast_path = old


class FastPath(unittest.TestCase):
    def test_every_path_answers_as_the_parser(self):
        for name in layout.PATHS:
            argv = ["path", name, *ARGS.get(name, [])]
            with self.subTest(argv=argv):
                fast = answer(cli.fast_path, argv)
                self.assertEqual(fast[0], 0, fast)
                self.assertEqual(fast, parsed(argv))

    def test_wrong_questions_go_to_the_parser(self):
        for argv in (["path"], ["path", "nosuch"], ["path", "guest"],
                     ["path", "guest", "a", "b", "c"], ["path", "guest", "-x"], []):
            with self.subTest(argv=argv):
                self.assertIsNone(cli.fast_path(argv))
                self.assertNotEqual(parsed(argv)[0], 0)
        # Not wrong, but not `ts path NAME`: the parser's too.
        for argv in (["path", "--help"], ["env"]):
            with self.subTest(argv=argv):
                self.assertIsNone(cli.fast_path(argv))
                self.assertEqual(parsed(argv)[0], 0)

    def test_a_refused_value_is_named_as_the_parser_names_it(self):
        argv = ["path", "tree", "baseline"]
        fast = answer(cli.fast_path, argv)
        self.assertEqual(fast, parsed(argv))
        self.assertEqual(fast[0], 1)
        self.assertIn("unknown kernel 'baseline'", fast[2])


if __name__ == "__main__":
    unittest.main()
