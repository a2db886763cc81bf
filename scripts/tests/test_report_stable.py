"""Tests of scripts/report.py on a stable kernel (--stable: base against
base + backports by mainline's rules, and the stable kernel's list of
expected failures), on synthetic boots (test_report.py's).

Run from the repository's root:
  python3 -m unittest discover -s scripts/tests -p 'test_*.py'
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from test_report import (ENV_612, Boots, leaf, program, report,  # noqa: E402
                         report_file, verdict)

# The expected failure of a 6.12 kernel that predates aio's fix (0006,
# not backported).
AIO_KNOWN = "timeout_classes/timeout.io_getevents_rel.time64 0006\n"


class StableReport(Boots):
    # --stable: a stable kernel's base against base + backports, by
    # mainline's rules (patches/intended-differences split by
    # tsanity.stable): aio's fix (0006) is not backported, so both kernels
    # keep its old answer, which is no failure there.
    AIO_OLD = {"x86_64 io_getevents rel sec=-1 nsec=0": "proceeds",
               "x86_64 io_getevents rel sec=0 nsec=NSEC_PER_SEC": "proceeds"}

    def setUp(self):
        super().setUp()
        with open(self.known, "w") as f:
            f.write(AIO_KNOWN)

    def run_stable(self, known_file=None):
        """report.py --stable as for 6.12, with KNOWN_FILE (default: the
        test's) as its list of expected failures."""
        return self.run_report("--stable", self.dir, "base", "stable",
                               known_file=known_file or self.known, env=ENV_612)

    def stable_verdict(self, answers):
        v = verdict()
        v["tests"][0]["tests"].append(leaf("io_getevents", "rel", answers))
        v["tests"][0] = program("timeout_classes", v["tests"][0]["tests"])
        return v

    def test_stable_predates_a_fix_not_backported(self):
        self.write("base", self.stable_verdict(self.AIO_OLD))
        self.write("stable", self.stable_verdict(self.AIO_OLD))
        rc, out, err = self.run_stable()
        self.assertEqual(rc, 0, err)
        self.assertIn("predates: base 2, stable 2 cases", out)
        self.assertIn("0006", out)
        j = self.report_json("base", "stable")
        self.assertEqual((j["differences"], j["kernels"]["stable"]["predates"]), (0, 2))
        with open(report_file(self.dir, "base", "stable", "md")) as f:
            self.assertIn("stable (6.12 + backports)", f.read())

    def test_stable_fails_only_as_listed(self):
        for k in ("base", "stable"):
            self.write(k, self.stable_verdict(self.AIO_OLD))
        rc, out, err = self.run_stable(os.devnull)
        self.assertEqual(rc, 1)
        for k in ("base", "stable"):
            self.assertIn(f"{k}: test FAIL: timeout_classes/timeout.io_getevents_rel.time64\n",
                          err)
        rc, out, err = self.run_stable()
        self.assertEqual(rc, 0, err)
        j = self.report_json("base", "stable")
        self.assertEqual(j["kernels"]["stable"]["expected_failures"],
                         ["timeout_classes/timeout.io_getevents_rel.time64"])
        with open(report_file(self.dir, "base", "stable", "md")) as f:
            self.assertIn("stable (6.12 + backports): 1 of the 1 tests that", f.read())
        # A test of a fix that 6.12 takes whole (0001): the base fails it,
        # base + backports must pass it.
        with open(self.known, "w") as f:
            f.write(AIO_KNOWN.replace("0006", "0001"))
        rc, out, err = self.run_stable()
        self.assertEqual(rc, 1)
        self.assertIn("stable: test FAIL: timeout_classes/timeout.io_getevents_rel.time64\n", err)
        # and its cases are 0006's, not 0001's.
        self.assertIn("base: test FAIL: timeout_classes/timeout.io_getevents_rel.time64 (listed "
                      "for 0001", err)

    def test_stable_passes_what_its_backports_fix(self):
        # liburing's test of a backported fix, as qemu-config/stable
        # adds it: FAIL on the base, PASS with the backports.
        name = "liburing/64/timeout-carry-overflow"

        def prog(status, end="exit status 1"):
            v = verdict()
            v["tests"].append({"name": name, "status": status, "tests": [], "log": [
                "boottime abs {1, LLONG_MAX}: timeout fired: res -62",
                f"# {name}: {end}"] if status == "FAIL" else []})
            return v
        with open(self.known, "w") as f:
            f.write("liburing/64/timeout-carry-overflow 0001\n")
        self.write("base", prog("FAIL"))
        self.write("stable", prog("PASS"))
        rc, out, err = self.run_stable()
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.report_json("base", "stable")["kernels"]["base"]
                         ["expected_failures"], ["liburing/64/timeout-carry-overflow"])
        # The backport that does not fix it: stable fails it.
        self.write("stable", prog("FAIL"))
        rc, out, err = self.run_stable()
        self.assertEqual(rc, 1)
        self.assertIn("stable: test FAIL: liburing/64/timeout-carry-overflow\n", err)
        # A base on which it hangs or crashes: no failure as listed.
        self.write("stable", prog("PASS"))
        self.write("base", prog("FAIL", "killed by the watchdog after 30 s"))
        rc, out, err = self.run_stable()
        self.assertEqual(rc, 1)
        self.assertIn("base: test FAIL: liburing/64/timeout-carry-overflow (listed for 0001", err)
        # A base that passes it: the test cannot tell, the list is wrong.
        self.write("base", prog("PASS"))
        self.write("stable", prog("PASS"))
        rc, out, err = self.run_stable()
        self.assertEqual(rc, 1)
        self.assertIn("base: test PASS: liburing/64/timeout-carry-overflow, which", err)

    def test_listed_test_with_another_wrong_answer_fails(self):
        wrong = dict(self.AIO_OLD)
        wrong["x86_64 io_getevents rel sec=-1 nsec=0"] = "ETIME"
        for k in ("base", "stable"):
            self.write(k, self.stable_verdict(wrong))
        rc, _, err = self.run_stable()
        self.assertEqual(rc, 1)
        self.assertIn("stable: test FAIL: timeout_classes/timeout.io_getevents_rel.time64 "
                      "(listed for 0006", err)

    def test_listed_test_that_passes_on_stable_fails(self):
        self.write("base", self.stable_verdict(self.AIO_OLD))
        self.write("stable", self.stable_verdict(None))
        rc, _, err = self.run_stable()
        self.assertEqual(rc, 1)
        self.assertIn("stable: test PASS: timeout_classes/timeout.io_getevents_rel.time64, "
                      "which", err)

    def test_stable_skip_for_what_the_kernel_lacks(self):
        v = verdict(skip="IORING_ENTER_ABS_TIMER: not in this kernel")
        v["tests"][0]["tests"].append(leaf("io_getevents", "rel", self.AIO_OLD))
        self.write("base", v)
        self.write("stable", v)
        rc, _, err = self.run_stable()
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.report_json("base", "stable")["kernels"]["stable"]["absent"],
                         {"IORING_ENTER_ABS_TIMER: not in this kernel": 1})
        # Not on the target kernel, whose boot must run every entry point.
        self.write("base", verdict(skip="IORING_ENTER_ABS_TIMER: not in this kernel"))
        self.write("patched", verdict(skip="IORING_ENTER_ABS_TIMER: not in this kernel"))
        rc, _, err = self.run_report(self.dir, "base", "patched", intended_file="/dev/null")
        self.assertEqual(rc, 1)
        self.assertIn("skipped, and not for want of an entry point of this ABI", err)

    def select_fails(self):
        """A verdict whose select_poll_timeout test fails."""
        log = ["#  RUN           global.select_folds ...",
               "# select_poll_timeout.c:114:select_folds:select {-1, 1000000}: 1 (ready)"]
        v = verdict()
        v["tests"].append({"name": "select_poll_timeout", "status": "FAIL",
                           "log": ["# select_poll_timeout: exit status 1"], "tests": [
                               {"name": "global.select_folds", "status": "FAIL", "log": log,
                                "tests": []}]})
        return v

    def test_other_test_fails_as_listed_for_a_mainline_commit(self):
        for k in ("base", "stable"):
            self.write(k, self.select_fails())
        with open(self.known, "w") as f:
            f.write('select_poll_timeout/global.select_folds "select: Check the timeval first"\n')
        rc, out, err = self.run_stable()
        self.assertEqual(rc, 0, err)
        with open(report_file(self.dir, "base", "stable", "md")) as f:
            self.assertIn('1 × "select: Check the timeval first"', f.read())
        # Unlisted: a failure.
        rc, _, err = self.run_stable(os.devnull)
        self.assertEqual(rc, 1)
        self.assertIn("stable: test FAIL: select_poll_timeout/global.select_folds\n", err)

    def test_stable_leniency_does_not_hang_on_predates_rules(self):
        # A stable series that backports every fix leaves no rule it
        # predates; its kernel may still lack an entry point.
        v = verdict(skip="IORING_ENTER_ABS_TIMER: not in this kernel")
        self.write("base", v)
        self.write("stable", v)
        problems, data = report.judge(self.dir, "base", "stable", [], stable=True)
        self.assertEqual(problems, [])
        self.assertEqual(data["kernels"]["stable"]["absent"],
                         {"IORING_ENTER_ABS_TIMER: not in this kernel": 1})
        problems, _ = report.judge(self.dir, "base", "stable", [])
        self.assertTrue(any("skipped, and not for want" in p for p in problems), problems)

    def test_stable_backport_that_changes_an_answer_fails(self):
        self.write("base", self.stable_verdict(self.AIO_OLD))
        self.write("stable", self.stable_verdict(None))
        rc, _, err = self.run_stable()
        self.assertEqual(rc, 1)
        self.assertIn("differs, and no rule of patches/intended-differences", err)

    def test_stable_other_wrong_answer_fails(self):
        wrong = dict(self.AIO_OLD)
        wrong["x86_64 io_getevents rel sec=-1 nsec=0"] = "ETIME"
        self.write("base", self.stable_verdict(wrong))
        self.write("stable", self.stable_verdict(wrong))
        rc, _, err = self.run_stable()
        self.assertEqual(rc, 1)
        self.assertIn("stable: case failed: x86_64 io_getevents rel sec=-1 nsec=0: "
                      "expected EINVAL, got ETIME", err)

    def test_stable_usage(self):
        self.write("base", verdict())
        self.write("stable", verdict())
        rc, _, err = self.run_report("--stable", self.dir, "base", "stable",
                                     intended_file="/dev/null")
        self.assertEqual(rc, 2)
        rc, _, err = self.run_report("--stable", self.dir, "base", "fixes")
        self.assertEqual(rc, 2)



if __name__ == "__main__":
    unittest.main()
