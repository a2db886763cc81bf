"""Tests of the checkpatch waivers' one parser (scripts/tsanity/waivers.py),
of `scripts/ts waivers` that scripts/check-patches.sh reads, and of make
mbox's use of it (tsanity.mbox.figures): the project's waivers pass, and
each line the format refuses is named by file and line.

Run from the repository's root:
  python3 -m unittest discover -s scripts/tests -p 'test_*.py'
"""
import contextlib
import glob
import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
REPO = os.path.dirname(SCRIPTS)
sys.path.insert(0, SCRIPTS)

from tsanity import series, waivers  # noqa: E402
from tsanity.mbox import figures  # noqa: E402

TS = os.path.join(SCRIPTS, "ts")
A = "0001-a-Fix-one-thing.patch"
B = "0002-b-Fix-another.patch"


class Waivers(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_waivers.")
        self.addCleanup(shutil.rmtree, self.dir)
        self.series = os.path.join(self.dir, "series")
        with open(self.series, "w") as f:
            f.write(f"# part: fixes\n{A}\n{B}\n")
        self.file = waivers.path(self.dir)

    def write(self, text):
        with open(self.file, "w") as f:
            f.write(text)
        return self.file

    def refused(self, text, *words):
        self.write(text)
        with self.assertRaises(waivers.WaiverError) as e:
            waivers.load(self.file, self.series)
        for w in words:
            self.assertIn(w, str(e.exception))
        return str(e.exception)

    def test_the_projects_waivers_pass(self):
        files = glob.glob(os.path.join(REPO, "patches", "**", waivers.FILE), recursive=True)
        self.assertGreaterEqual(len(files), 3)
        for path in files:
            with self.subTest(path=os.path.relpath(path, REPO)):
                got = waivers.load(path, os.path.join(os.path.dirname(path), "series"))
                self.assertTrue(got)
                self.assertTrue(set(w.patch for w in got) <= set(
                    series.patches(os.path.join(os.path.dirname(path), "series"))))

    def test_comments_blanks_and_a_last_line_without_newline(self):
        self.write("# a comment\n\n   \t\n"
                   f"{A} LONG_LINE a reason, # and a comment\n"
                   f"  {A}\tUNKNOWN_COMMIT_ID   no upstream history here  \n"
                   f"{B} TYPO_SPELLING quoted as it is")
        got = waivers.load(self.file, self.series)
        self.assertEqual(got, [
            waivers.Waiver(4, A, "LONG_LINE", "a reason,"),
            waivers.Waiver(5, A, "UNKNOWN_COMMIT_ID", "no upstream history here"),
            waivers.Waiver(6, B, "TYPO_SPELLING", "quoted as it is")])
        self.assertEqual(waivers.by_patch(got),
                         {A: {"LONG_LINE", "UNKNOWN_COMMIT_ID"}, B: {"TYPO_SPELLING"}})

    def test_without_the_series_any_patch_passes(self):
        self.write("0099-elsewhere.patch LONG_LINE why\n")
        self.assertEqual([w.patch for w in waivers.load(self.file)], ["0099-elsewhere.patch"])

    def test_a_line_without_a_reason_is_named(self):
        self.refused(f"# header\n{A} LONG_LINE\n", f"{self.file}:2:",
                     "a waiver needs a patch file, a checkpatch type and a reason")
        self.refused(f"{A} LONG_LINE # the reason is a comment\n", f"{self.file}:1:")
        self.refused(f"{A}\n", f"{self.file}:1:")

    def test_a_type_that_is_no_checkpatch_type_is_named(self):
        self.refused(f"{A} long_line why\n", f"{self.file}:1:",
                     "'long_line' is not a checkpatch message type")
        self.refused(f"{A} LONG-LINE why\n", "'LONG-LINE'")

    def test_a_duplicate_is_named_with_both_lines(self):
        self.refused(f"{A} LONG_LINE one reason\n{B} LONG_LINE why\n{A} LONG_LINE another\n",
                     f"{self.file}:3:", f"{A} LONG_LINE is waived already on line 1")

    def test_a_patch_the_series_does_not_list_is_named(self):
        self.refused(f"{A} LONG_LINE why\n0003-c-Gone.patch SPACING why\n",
                     f"{self.file}:2:", f"0003-c-Gone.patch is not a patch of {self.series}")

    def test_a_missing_file_is_named(self):
        with self.assertRaises(waivers.WaiverError) as e:
            waivers.load(os.path.join(self.dir, "nothing"))
        self.assertIn("nothing: No such file", str(e.exception))
        self.write(f"{A} LONG_LINE why\n")
        with self.assertRaises(waivers.WaiverError) as e:
            waivers.load(self.file, os.path.join(self.dir, "no-series"))
        self.assertIn("no-series", str(e.exception))

    def run_ts(self, *args):
        env = {"PATH": os.environ["PATH"], "HOME": self.dir}
        return subprocess.run([TS, "waivers", *args], env=env, capture_output=True, text=True)

    def test_the_command_line_prints_line_patch_type(self):
        # What scripts/check-patches.sh reads.
        self.write(f"# header\n{A} LONG_LINE why\n{B} SPACING why not\n")
        p = self.run_ts(self.file, self.series)
        self.assertEqual((p.returncode, p.stderr), (0, ""))
        self.assertEqual(p.stdout, f"2\t{A}\tLONG_LINE\n3\t{B}\tSPACING\n")

    def test_the_command_line_names_a_bad_line(self):
        self.write(f"{A} LONG_LINE why\n{A} LONG_LINE again\n")
        p = self.run_ts(self.file, self.series)
        self.assertEqual((p.returncode, p.stdout), (1, ""))
        self.assertEqual(p.stderr, f"error: {self.file}:2: {A} LONG_LINE is waived already "
                         "on line 1\n")

    def test_make_mbox_dies_naming_a_bad_line(self):
        self.write(f"{A} LONG_LINE why\n{A} Bad why\n")
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
            figures.load_waivers(self.dir)
        self.assertIn(f"{self.file}:2: 'Bad' is not a checkpatch message type", err.getvalue())

    def test_make_mbox_reads_the_same_waivers(self):
        self.write(f"{A} LONG_LINE why\n{A} SPACING why\n")
        w = figures.load_waivers(self.dir)
        self.assertEqual(w, {A: {"LONG_LINE", "SPACING"}})
        self.assertIn("LONG_LINE (patch 1); SPACING (patch 1)", figures.waiver_text([A, B], w))


if __name__ == "__main__":
    unittest.main()
