"""Tests of make mbox's testing figures (scripts/tsanity/mbox/figures.py):
which results of make test, make fixes and make bench the cover letters
may quote, and the cost line made of make bench's rows.  Each test writes
its own results in a temporary directory.

Run from the repository's root:
  python3 -m unittest discover -s scripts/tests -p 'test_*.py'
"""
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tsanity import cli as ts_cli  # noqa: E402
from tsanity.layout import result_file  # noqa: E402
from tsanity.mbox import figures  # noqa: E402


class MboxFigures(unittest.TestCase):
    HEAD = "c" * 40

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_mbox.")
        self.addCleanup(shutil.rmtree, self.dir)
        self.layout = ts_cli.context({"TS_RESULTS": os.path.join(self.dir, "results")})[2]
        self.tests = self.layout.boot_results("tests")
        os.makedirs(self.tests)
        os.makedirs(os.path.join(self.dir, "work"))
        p = mock.patch.object(figures.kunit_rows, "load", return_value=[("a", "PASS")] * 3)
        p.start()
        self.addCleanup(p.stop)

    def report(self, old, new, verdict="PASS", commits=None, differences=0):
        j = {"verdict": verdict, "differences": differences,
             "kernels": {k: {"commit": (commits or {}).get(k)} for k in (old, new)}}
        with open(result_file(self.tests, "report", old=old, new=new, ext="json"), "w") as f:
            json.dump(j, f)

    def figures(self):
        with contextlib.redirect_stderr(io.StringIO()) as err:
            try:
                return figures.figures(self.layout, os.path.join(self.dir, "src"),
                                       self.HEAD), ""
            except SystemExit:
                return None, err.getvalue()

    def test_without_make_test(self):
        f, err = self.figures()
        self.assertIsNone(f)
        self.assertIn("no integration report", err)

    def test_make_test_only(self):
        self.report("base", "patched", differences=733)
        f, err = self.figures()
        self.assertEqual(f["test"]["differences"], 733)
        self.assertEqual((f["fixes"], f["refactor"], f["kunit_rows"]), (None, None, 3))

    def test_make_fixes_of_this_series(self):
        self.report("base", "patched", differences=733)
        self.report("base", "fixes", commits={"fixes": "f" * 40}, differences=733)
        self.report("fixes", "patched", commits={"fixes": "f" * 40, "patched": self.HEAD})
        f, err = self.figures()
        self.assertEqual((f["fixes"]["differences"], f["refactor"]["differences"]), (733, 0))

    def test_make_fixes_of_another_series(self):
        self.report("base", "patched")
        self.report("base", "fixes", commits={"fixes": "f" * 40})
        self.report("fixes", "patched", commits={"fixes": "f" * 40, "patched": "d" * 40})
        f, err = self.figures()
        self.assertEqual((f["fixes"], f["refactor"]), (None, None))

    def test_make_fixes_failed(self):
        self.report("base", "patched")
        self.report("base", "fixes", verdict="FAIL")
        self.report("fixes", "patched", commits={"patched": self.HEAD})
        f, err = self.figures()
        self.assertIsNone(f)
        self.assertIn("report-base-fixes.json: the last make fixes did not pass", err)

    def test_make_fixes_of_two_fixes_kernels(self):
        self.report("base", "patched")
        self.report("base", "fixes", commits={"fixes": "e" * 40})
        self.report("fixes", "patched", commits={"fixes": "f" * 40, "patched": self.HEAD})
        f, err = self.figures()
        self.assertIsNone(f)
        self.assertIn("of different fixes kernels", err)

    def bench(self, commit, rows):
        d = self.layout.named_results("bench")
        commit_file = result_file(d, "commit", kernel="patched")
        os.makedirs(os.path.dirname(commit_file), exist_ok=True)
        with open(commit_file, "w") as f:
            f.write(commit + "\n")
        if rows is not None:
            with open(result_file(d, "bench", ext="json"), "w") as f:
                json.dump(rows, f)

    ROWS = [
        {"abi": "x86_64", "entry": "io_getevents", "path": "quick", "fix": "0004",
         "fixes-base": "+4.00", "patched-fixes": "0"},
        {"abi": "x86_64", "entry": "io_getevents", "path": "refuse", "fix": "0004",
         "fixes-base": "n/a", "patched-fixes": "-3.00"},
        {"abi": "x86_64", "entry": "ppoll", "path": "refuse", "fix": None,
         "fixes-base": "0", "patched-fixes": "-12.00"},
        {"abi": "i386", "entry": "timerfd_settime32", "path": "quick", "fix": None,
         "fixes-base": "0", "patched-fixes": "+1.00"},
        {"abi": "i386", "entry": "setitimer", "path": "quick", "fix": None,
         "fixes-base": "0", "patched-fixes": "-2.00"},
    ]

    def test_bench_of_this_series_is_quoted(self):
        self.report("base", "patched")
        self.bench(self.HEAD, self.ROWS)
        f, err = self.figures()
        text = figures.cost_text(f["bench"])
        self.assertIn("5 paths (i386, x86_64)", text)
        self.assertIn("fixes - base: 0004 +4.00.", text)
        self.assertIn("the same on 1 paths, fewer on 2 refusal paths (-3 to -12", text)
        self.assertIn("fewer on 1 valid paths (i386:setitimer quick -2.00)", text)
        self.assertIn("more on 1 (i386:timerfd_settime32 quick +1.00)", text)

    def test_bench_of_another_series_or_failed_is_not_quoted(self):
        self.report("base", "patched")
        self.bench("d" * 40, self.ROWS)
        f, err = self.figures()
        self.assertIsNone(f["bench"])
        self.assertIn("make bench (instructions per call under QEMU -icount) was not run",
                      figures.cost_text(f["bench"]))
        self.bench(self.HEAD, None)  # a failed run leaves no bench.json
        os.remove(result_file(self.layout.named_results("bench"), "bench", ext="json"))
        f, err = self.figures()
        self.assertIsNone(f["bench"])


if __name__ == "__main__":
    unittest.main()
