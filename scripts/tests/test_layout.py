"""Tests of the results layout's files (scripts/tsanity/layout.py,
RESULT_FILES): the paths they make, and every malformed request refused,
naming the field; `ts path result` the same.  The one test file besides
the layout that spells its paths: it says what they must be."""
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..")
sys.path.insert(0, SCRIPTS)
from tsanity import layout  # noqa: E402

TS = os.path.join(SCRIPTS, "ts")


class ResultFiles(unittest.TestCase):
    def test_paths_and_refusals(self):
        rf = layout.result_file
        self.assertEqual(rf("/r", "verdict", kernel="fixes"), "/r/fixes/verdict.json")
        self.assertEqual(rf("/r", "report", old="base", new="patched", ext="json"),
                         "/r/report-base-patched.json")
        self.assertEqual(rf("/r", "mbox-patch", index=2, name="fixes-vfs", number=3),
                         "/r/2-fixes-vfs.d/0003.patch")
        self.assertEqual(layout.run_dir("/r", "base"), "/r/base")
        for what, fields, msg in (
                ("nothing", {}, "no results file 'nothing'"),
                ("verdict", {}, "'verdict' needs kernel="),
                ("verdict", {"kernel": "other"}, "kernel=other \\(known: base"),
                ("verdict", {"kernel": "base", "round": 1}, "takes no round"),
                ("report", {"old": "base", "new": "fixes", "ext": "svg"}, "ext=svg"),
                ("bench", {"ext": "txt"}, "ext=txt"),
                ("mbox", {"index": 1, "name": "../x"}, "name='../x' is not a name"),
                ("mbox-patch", {"index": 1, "name": "x", "number": -1}, "number=-1"),
                ("mbox-patch", {"index": 1, "name": "x", "number": "2"}, "number='2'")):
            with self.subTest(what=what, fields=fields), self.assertRaisesRegex(ValueError, msg):
                rf("/r", what, **fields)

    def run_ts(self, *args):
        env = {k: v for k, v in os.environ.items() if not k.startswith("TS_")}
        return subprocess.run([sys.executable, TS] + list(args), capture_output=True, text=True,
                              env=env)

    def test_the_command_line(self):
        p = self.run_ts("path", "result", "/r", "mbox-patch", "index=1", "name=x", "number=a")
        self.assertEqual(p.returncode, 1)
        self.assertIn("number=a is not a count", p.stderr)
        p = self.run_ts("path", "result", "/r", "verdict", "kernel")
        self.assertEqual(p.returncode, 1)
        self.assertIn("'kernel': a field is FIELD=VALUE", p.stderr)
        p = self.run_ts("path", "result", "/r", "verdict", "kernel=stable")
        self.assertEqual((p.returncode, p.stdout), (0, "/r/stable/verdict.json\n"))


if __name__ == "__main__":
    unittest.main()
