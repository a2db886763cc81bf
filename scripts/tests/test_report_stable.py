"""Tests of scripts/report.py on a stable kernel (--stable: base against
base + backports by mainline's rules) and of the XFAIL that the selftest
reports where a kernel predates a fix, on synthetic boots (test_report.py's).

Run from the repository's root:
  python3 -m unittest discover -s scripts/tests -p 'test_*.py'
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from test_report import (NEW_ANSWER, OLD_ANSWER, Boots, leaf, program,  # noqa: E402
                         report, report_file, timeout_classes, verdict)


def xfail_leaf(entry, mode, answers, reason="x: refuses no invalid timeout: the kernel "
                                               "predates \"aio: Check\""):
    """leaf(), reported as the selftest reports a kernel that predates the
    change that brought the entry point onto the contract."""
    t = leaf(entry, mode, answers)
    variant = t["name"]
    log = [l for l in t["log"] if l.startswith("#  RUN") or timeout_classes.diag(l)
           or timeout_classes.DONE.match(l)]
    t.update(status="XFAIL", log=log + [f"#      XFAIL     {reason}", f"#            OK  {variant}"])
    return t


class StableReport(Boots):
    # --stable: a stable kernel's base against base + backports, by
    # mainline's rules (patches/intended-differences split by
    # tsanity.stable): aio's fix (0006) is not backported, so both kernels
    # keep its old answer, which is no failure there.
    AIO_OLD = {"x86_64 io_getevents rel sec=-1 nsec=0": "proceeds",
               "x86_64 io_getevents rel sec=0 nsec=NSEC_PER_SEC": "proceeds"}

    def stable_verdict(self, answers):
        v = verdict()
        v["tests"][0]["tests"].append(leaf("io_getevents", "rel", answers))
        v["tests"][0] = program("timeout_classes", v["tests"][0]["tests"])
        return v

    def test_stable_predates_a_fix_not_backported(self):
        self.write("base", self.stable_verdict(self.AIO_OLD))
        self.write("stable", self.stable_verdict(self.AIO_OLD))
        rc, out, err = self.run_report("--stable", self.dir, "base", "stable")
        self.assertEqual(rc, 0, err)
        self.assertIn("predates: base 2, stable 2 cases", out)
        self.assertIn("0006", out)
        j = self.report_json("base", "stable")
        self.assertEqual((j["differences"], j["kernels"]["stable"]["predates"]), (0, 2))
        with open(report_file(self.dir, "base", "stable", "md")) as f:
            self.assertIn("stable (6.12 + backports)", f.read())

    def test_stable_xfail_where_the_kernel_predates_the_fix(self):
        for k in ("base", "stable"):
            v = verdict()
            v["tests"][0] = program("timeout_classes", v["tests"][0]["tests"]
                                    + [xfail_leaf("io_getevents", "rel", self.AIO_OLD)])
            self.write(k, v)
        rc, out, err = self.run_report("--stable", self.dir, "base", "stable")
        self.assertEqual(rc, 0, err)
        j = self.report_json("base", "stable")
        self.assertEqual(j["kernels"]["stable"]["xfail"], 1)
        self.assertEqual(j["kernels"]["stable"]["not_ok"], 0)
        with open(report_file(self.dir, "base", "stable", "md")) as f:
            self.assertIn("1 tests XFAIL; 1 × x: refuses no invalid timeout", f.read())

    def test_xfail_that_hides_another_wrong_answer_fails(self):
        wrong = dict(self.AIO_OLD)
        wrong["x86_64 io_getevents rel sec=-1 nsec=0"] = "ETIME"
        for k in ("base", "stable"):
            v = verdict()
            v["tests"][0] = program("timeout_classes", v["tests"][0]["tests"]
                                    + [xfail_leaf("io_getevents", "rel", wrong)])
            self.write(k, v)
        rc, _, err = self.run_report("--stable", self.dir, "base", "stable")
        self.assertEqual(rc, 1)
        self.assertIn("stable: test XFAIL: timeout_classes/timeout.io_getevents_rel.time64", err)

    def test_xfail_by_design_on_base_passes_and_not_on_new(self):
        v = verdict()
        v["tests"][0] = program("timeout_classes", [
            v["tests"][0]["tests"][0], xfail_leaf("io_uring_timeout", "rel", OLD_ANSWER),
            v["tests"][0]["tests"][2]])
        self.write("base", v)
        self.write("patched", verdict(NEW_ANSWER))
        rc, _, err = self.run_report(self.dir, "base", "patched", intended_file=self.rule)
        self.assertEqual(rc, 0, err)
        self.write("patched", v)
        rc, _, err = self.run_report(self.dir, "base", "patched", intended_file=self.rule)
        self.assertEqual(rc, 1)
        self.assertIn("patched: test XFAIL: timeout_classes/timeout.io_uring_timeout_rel.time64",
                      err)

    def test_stable_skip_for_what_the_kernel_lacks(self):
        v = verdict(skip="IORING_ENTER_ABS_TIMER: not in this kernel")
        v["tests"][0]["tests"].append(leaf("io_getevents", "rel", self.AIO_OLD))
        self.write("base", v)
        self.write("stable", v)
        rc, _, err = self.run_report("--stable", self.dir, "base", "stable")
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.report_json("base", "stable")["kernels"]["stable"]["absent"],
                         {"IORING_ENTER_ABS_TIMER: not in this kernel": 1})
        # Not on the target kernel, whose boot must run every entry point.
        self.write("base", verdict(skip="IORING_ENTER_ABS_TIMER: not in this kernel"))
        self.write("patched", verdict(skip="IORING_ENTER_ABS_TIMER: not in this kernel"))
        rc, _, err = self.run_report(self.dir, "base", "patched", intended_file="/dev/null")
        self.assertEqual(rc, 1)
        self.assertIn("skipped, and not for want of an entry point of this ABI", err)

    def other_xfail(self, reason=True):
        """A verdict whose timeout_abi test reports XFAIL."""
        log = ["#  RUN           global.select_folds ...",
               "# timeout_abi.c:114:select_folds:select {-1, 1000000}: 1 (ready)"]
        if reason:
            log.append("#      XFAIL     select() folds a negative tv_sec: the kernel predates")
        v = verdict()
        v["tests"].append(program("timeout_abi", [
            {"name": "global.select_folds", "status": "XFAIL", "log": log, "tests": []}]))
        return v

    def test_other_xfail_only_on_a_stable_kernel(self):
        for k in ("base", "stable", "patched"):
            self.write(k, self.other_xfail())
        rc, out, err = self.run_report("--stable", self.dir, "base", "stable")
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.report_json("base", "stable")["kernels"]["stable"]["xfail"], 1)
        rc, _, err = self.run_report(self.dir, "base", "patched", intended_file="/dev/null")
        self.assertEqual(rc, 1)
        self.assertIn("patched: test XFAIL: timeout_abi/global.select_folds", err)
        self.assertNotIn("base: test XFAIL", err)
        # On the base alone, with the target kernel passing the test: the
        # base predates the fix (compat select(), 0007).
        passed = self.other_xfail()
        passed["tests"][-1]["tests"][0]["status"] = "PASS"
        self.write("patched", passed)
        rc, _, err = self.run_report(self.dir, "base", "patched", intended_file="/dev/null")
        self.assertEqual(rc, 0, err)
        self.write("patched", self.other_xfail())
        for k in ("base", "stable"):
            self.write(k, self.other_xfail(reason=False))
        rc, _, err = self.run_report("--stable", self.dir, "base", "stable")
        self.assertEqual(rc, 1)

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
        rc, _, err = self.run_report("--stable", self.dir, "base", "stable")
        self.assertEqual(rc, 1)
        self.assertIn("differs, and no rule of patches/intended-differences", err)

    def test_stable_other_wrong_answer_fails(self):
        wrong = dict(self.AIO_OLD)
        wrong["x86_64 io_getevents rel sec=-1 nsec=0"] = "ETIME"
        self.write("base", self.stable_verdict(wrong))
        self.write("stable", self.stable_verdict(wrong))
        rc, _, err = self.run_report("--stable", self.dir, "base", "stable")
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
