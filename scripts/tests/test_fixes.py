"""Tests of scripts/tsanity/fixes.py, the fixes part fix by fix: the real
file of the series holds, and every malformed file is refused, naming
the file, the line and what is wrong."""
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
from tsanity import config, fixes  # noqa: E402

REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
SERIES = "# part: fixes\n0001-a.patch\n0002-b.patch\n# part: refactor\n0003-c.patch\n"
GOOD = ("# comment\n"
        "0001 yes e-one,e-two x/a.c:f | one refused\n"
        "0002 no  - - | two saturated\n")


class Fixes(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        self.write("series", SERIES)

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w") as fh:
            fh.write(text)

    def test_a_good_file(self):
        self.write("fixes", GOOD)
        got = fixes.load(self.dir)
        self.assertEqual([f.patch for f in got], ["0001", "0002"])
        self.assertEqual(got[0].bench, ("e-one", "e-two"))
        self.assertTrue(got[0].refuses)
        self.assertEqual(got[1].bench, ())
        self.assertEqual(got[1].what, "two saturated")
        self.assertEqual(fixes.audit_expect(got), "x/a.c:f")

    def test_bad_files_are_named(self):
        for text, msg in (
                (GOOD + "0003 maybe - - | x\n", r"fixes:4: not PATCH yes\|no"),
                (GOOD + "0001 no - - | again\n", r"fixes:4: patch 0001 again \(line 2\)"),
                (GOOD.replace("x/a.c:f", "x/a.c"), r"fixes:2: not FILE.c:FUNCTION: x/a.c"),
                (GOOD.replace("yes e-one,e-two", "yes -"), r"fixes:2: patch 0001 refuses, but "
                 "names no bench entry"),
                (GOOD.replace(" | one refused", ""), r"fixes:2: not PATCH"),
                ("0002 no - - | two\n0001 no - - | one\n", r"0002 0001 are not the fixes part "
                 r"of .*series: 0001 0002"),
                ("0001 no - - | one\n", r"0001 are not the fixes part of .*: 0001 0002")):
            with self.subTest(msg=msg):
                self.write("fixes", text)
                with self.assertRaisesRegex(fixes.FixesError, msg):
                    fixes.load(self.dir)

    def test_a_missing_file_is_named(self):
        with self.assertRaisesRegex(fixes.FixesError, r"fixes: No such file"):
            fixes.load(self.dir)

    def test_the_series_file(self):
        # 7.3's fixes file holds its series' fixes part, and the
        # configuration derives the audit's expectation from it, in the
        # order of the fixes; a kernel without a series (the stable
        # kernels) expects none.
        want = ("io_uring/io_uring.c:io_get_ext_arg "
                "io_uring/cancel.c:io_sync_cancel fs/aio.c:sys_io_getevents")
        got = fixes.load(os.path.join(REPO, "patches"))
        self.assertEqual(fixes.audit_expect(got), want)
        cfg = config.from_environ({"HOME": "/h", "TS_KERNEL": "7.3"})
        self.assertEqual(cfg["TS_AUDIT_BASE_EXPECT"], want)
        for version in ("6.12", "6.1"):
            with self.subTest(version=version):
                cfg = config.from_environ({"HOME": "/h", "TS_KERNEL": version})
                self.assertEqual(cfg["TS_AUDIT_BASE_EXPECT"], "")

if __name__ == "__main__":
    unittest.main()
