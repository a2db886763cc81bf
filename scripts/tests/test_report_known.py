"""Tests of the lists of expected failures in scripts/report.py
(tsanity.expected: patches/expected-failures on the base), on synthetic
boots (test_report.py's): a test fails only where the list names it, for
the fix whose cases it fails by, and a test the list names must fail.

Run from the repository's root:
  python3 -m unittest discover -s scripts/tests -p 'test_*.py'
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from test_report import KNOWN, NEW_ANSWER, OLD_ANSWER, REPO, Boots, verdict  # noqa: E402


class BaseList(Boots):
    def test_failure_by_design_unlisted_fails(self):
        self.write("base", verdict(OLD_ANSWER))
        self.write("fixes", verdict(NEW_ANSWER))
        rc, out, err = self.run_report(self.dir, "base", "fixes", intended_file=self.rule,
                                       known_file=os.devnull)
        self.assertEqual(rc, 1)
        self.assertIn("base: test FAIL: timeout_classes/timeout.io_uring_timeout_rel.time64\n",
                      err)

    def test_listed_test_that_passes_fails(self):
        self.write("base", verdict())
        self.write("fixes", verdict())
        rc, out, err = self.run_report(self.dir, "base", "fixes", intended_file="/dev/null",
                                       known_file=self.known)
        self.assertEqual(rc, 1)
        self.assertIn("base: test PASS: timeout_classes/timeout.io_uring_timeout_rel.time64, "
                      f"which {self.known}:2 lists as an expected failure (0001): the list "
                      "is wrong", err)

    def test_listed_for_another_fix_fails(self):
        with open(self.known, "w") as f:
            f.write(KNOWN.replace("0001", "0003"))
        self.write("base", verdict(OLD_ANSWER))
        self.write("fixes", verdict(NEW_ANSWER))
        rc, out, err = self.run_report(self.dir, "base", "fixes", intended_file=self.rule,
                                       known_file=self.known)
        self.assertEqual(rc, 1)
        self.assertIn("base: test FAIL: timeout_classes/timeout.io_uring_timeout_rel.time64 "
                      f"(listed for 0003 in {self.known}:1, and it failed otherwise than by "
                      "that fix's cases)", err)

    def test_listed_test_that_did_not_run_fails(self):
        with open(self.known, "a") as f:
            f.write("timeout_classes/timeout.futex.time64 0003\n")
        self.write("base", verdict(OLD_ANSWER))
        self.write("fixes", verdict(NEW_ANSWER))
        rc, out, err = self.run_report(self.dir, "base", "fixes", intended_file=self.rule,
                                       known_file=self.known)
        self.assertEqual(rc, 1)
        self.assertIn(f"base: {self.known}:3: timeout_classes/timeout.futex.time64 is listed as "
                      "an expected failure and did not run", err)

    def test_other_program_fails_on_the_base_only_where_listed(self):
        def abi(status):
            log = ["# select_poll_timeout: exit status 1"] if status == "FAIL" else []
            return {"name": "select_poll_timeout", "status": status, "log": log, "tests": [
                {"name": "global.select_folds", "status": status, "log": [], "tests": []}]}
        self.write("base", verdict(extra=[abi("FAIL")]))
        self.write("fixes", verdict(extra=[abi("PASS")]))
        rc, out, err = self.run_report(self.dir, "base", "fixes", intended_file="/dev/null",
                                       known_file=os.devnull)
        self.assertEqual(rc, 1)
        self.assertIn("base: test FAIL: select_poll_timeout/global.select_folds\n", err)
        with open(self.known, "w") as f:
            f.write("select_poll_timeout/global.select_folds 0007\n")
        rc, out, err = self.run_report(self.dir, "base", "fixes", intended_file="/dev/null",
                                       known_file=self.known)
        self.assertEqual(rc, 0, err)
        # Not on the new kernel, which must pass it.
        self.write("fixes", verdict(extra=[abi("FAIL")]))
        rc, out, err = self.run_report(self.dir, "base", "fixes", intended_file="/dev/null",
                                       known_file=self.known)
        self.assertEqual(rc, 1)
        self.assertIn("fixes: test FAIL: select_poll_timeout/global.select_folds\n", err)

    def test_the_base_has_the_list(self):
        # The series' own list is the default, and only a base has one.
        self.assertTrue(os.path.isfile(os.path.join(REPO, "patches", "expected-failures")))
        self.write("fixes", verdict())
        self.write("patched", verdict())
        rc, out, err = self.run_report(self.dir, "fixes", "patched", intended_file="/dev/null",
                                       known_file=self.known)
        self.assertEqual(rc, 2)
        self.assertIn("--expected: only the base, or a stable kernel", err)

    def test_unreadable_list_fails(self):
        for text, says in (
                ("timeout_classes/x.y.z\n", "not 'PROGRAM/FIXTURE.VARIANT.TEST NNNN'"),
                ("nameless 0001\n", "not 'PROGRAM/FIXTURE.VARIANT.TEST NNNN'"),
                (KNOWN + KNOWN, "is listed twice (first at"),
                (KNOWN.replace("0001", "0019"), "0019 is not a fix this list may name"),
                (KNOWN.replace("0001", '"futex: Add the check"'),
                 "a mainline change is no reason here")):
            with open(self.known, "w") as f:
                f.write(text)
            self.write("base", verdict())
            self.write("fixes", verdict())
            rc, out, err = self.run_report(self.dir, "base", "fixes", intended_file="/dev/null",
                                           known_file=self.known)
            self.assertEqual(rc, 1, text)
            self.assertIn(f"error: {self.known}:", err)
            self.assertIn(says, err)



if __name__ == "__main__":
    unittest.main()
