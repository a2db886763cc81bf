"""Tests of scripts/suites_report.py, the judge of make subsystem-tests,
on synthetic verdict.json files in the form scripts/ktap.py writes."""
import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tsanity import suites_report as sr  # noqa: E402
from tsanity import layout  # noqa: E402


def verdict(tests):
    """tests: {name: [status of run 1, 2, ...]} -> a verdict.json tree."""
    return {"status": "PASS", "plan": 0, "counts": {}, "errors": [],
            "boot_to_verdict_s": 1.0, "init": None,
            "tests": [{"name": f"{name}/{n}", "status": s, "log": [f"{name} run {n} said {s}"],
                       "tests": []}
                      for name, runs in tests.items() for n, s in enumerate(runs, 1)]}


class Judge(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.rules = os.path.join(self.dir, "intended")
        self.write_rules("")

    def tearDown(self):
        self.tmp.cleanup()

    def write_rules(self, text):
        with open(self.rules, "w") as f:
            f.write(text)

    def boot(self, **kernels):
        for k, tests in kernels.items():
            os.makedirs(layout.run_dir(self.dir, k), exist_ok=True)
            with open(self.verdict_file(k), "w") as f:
                json.dump(verdict(tests), f)

    def verdict_file(self, kernel):
        return layout.result_file(self.dir, "verdict", kernel=kernel)

    def report_file(self, ext):
        return layout.result_file(self.dir, "suites-report", ext=ext)

    def run_judge(self):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = sr.main(["--rules", self.rules, self.dir])
        return rc, out.getvalue(), err.getvalue()

    def same(self, tests):
        self.boot(base=tests, fixes=tests, patched=tests)

    def test_same_everywhere_passes(self):
        self.same({"liburing/64/timeout": ["PASS"] * 3, "libaio/32/22": ["SKIP"] * 3})
        rc, out, err = self.run_judge()
        self.assertEqual(rc, 0, err)
        self.assertIn("liburing/64/timeout", out)
        with open(self.report_file("json")) as f:
            r = json.load(f)
        self.assertEqual(r["runs"], 3)
        self.assertEqual(r["problems"], [])

    def test_listed_difference_passes(self):
        self.write_rules("differs liburing/*/carry FAIL PASS PASS patch 0001\n")
        self.boot(base={"liburing/64/carry": ["FAIL"] * 3, "liburing/32/carry": ["FAIL"] * 3},
                  fixes={"liburing/64/carry": ["PASS"] * 3, "liburing/32/carry": ["PASS"] * 3},
                  patched={"liburing/64/carry": ["PASS"] * 3, "liburing/32/carry": ["PASS"] * 3})
        rc, out, err = self.run_judge()
        self.assertEqual(rc, 0, err)
        self.assertIn("listed: patch 0001", out)

    def test_listed_test_that_does_not_differ_fails(self):
        self.write_rules("differs liburing/*/carry FAIL PASS PASS patch 0001\n")
        self.same({"liburing/64/carry": ["PASS"] * 3})
        rc, _, err = self.run_judge()
        self.assertEqual(rc, 1)
        self.assertIn("liburing/64/carry: PASS PASS PASS", err)
        self.assertIn("wants FAIL PASS PASS", err)

    def test_unlisted_difference_fails(self):
        self.boot(base={"libaio/64/13": ["FAIL"] * 3}, fixes={"libaio/64/13": ["PASS"] * 3},
                  patched={"libaio/64/13": ["PASS"] * 3})
        rc, _, err = self.run_judge()
        self.assertEqual(rc, 1)
        self.assertIn("no differs rule lists it", err)

    def test_flaky_fails_with_output_unless_listed(self):
        tests = {"liburing/32/min-timeout-wait": ["PASS", "FAIL", "PASS"]}
        self.same(tests)
        rc, _, err = self.run_judge()
        self.assertEqual(rc, 1)
        self.assertIn("flaky", err)
        with open(self.report_file("md")) as f:
            md = f.read()
        self.assertIn("liburing/32/min-timeout-wait run 2 said FAIL", md)
        self.write_rules("flaky liburing/*/min-timeout-wait TCG timing\n")
        rc, out, err = self.run_judge()
        self.assertEqual(rc, 0, err)
        self.assertIn("flaky (listed: TCG timing)", out)

    def test_listed_flaky_test_steady_this_time_is_not_compared(self):
        self.write_rules("flaky liburing/*/min-timeout TCG timing\n")
        self.boot(base={"liburing/32/min-timeout": ["PASS"] * 3},
                  fixes={"liburing/32/min-timeout": ["FAIL"] * 3},
                  patched={"liburing/32/min-timeout": ["PASS"] * 3})
        rc, out, err = self.run_judge()
        self.assertEqual(rc, 0, err)
        self.assertIn("steady this time, not compared", out)
        # It must still have run everywhere.
        self.boot(patched={"liburing/64/other": ["PASS"] * 3})
        rc, _, err = self.run_judge()
        self.assertEqual(rc, 1)
        self.assertIn("liburing/32/min-timeout: not run on patched", err)

    def test_failing_everywhere_needs_a_rule(self):
        self.same({"libaio/64/23": ["FAIL"] * 3})
        rc, _, err = self.run_judge()
        self.assertEqual(rc, 1)
        self.assertIn("FAIL on every kernel", err)
        self.write_rules("fails libaio/*/23 needs more CPUs\n")
        rc, _, err = self.run_judge()
        self.assertEqual(rc, 0, err)

    def test_stale_rule_fails(self):
        self.write_rules("flaky liburing/*/gone reason\n")
        self.same({"liburing/64/timeout": ["PASS"] * 3})
        rc, _, err = self.run_judge()
        self.assertEqual(rc, 1)
        self.assertIn("matches no test", err)

    def test_missing_run_and_kernel(self):
        self.boot(base={"liburing/64/timeout": ["PASS"] * 3, "liburing/64/x": ["PASS"] * 3},
                  fixes={"liburing/64/timeout": ["PASS"] * 2, "liburing/64/x": ["PASS"] * 3},
                  patched={"liburing/64/timeout": ["PASS"] * 3})
        rc, _, err = self.run_judge()
        self.assertEqual(rc, 1)
        self.assertIn("fixes ran runs [1, 2]", err)
        self.assertIn("liburing/64/x: not run on patched", err)

    def test_missing_verdict_file(self):
        self.boot(base={"liburing/64/timeout": ["PASS"] * 3})
        rc, _, err = self.run_judge()
        self.assertEqual(rc, 1)
        self.assertIn("scripts/ts boot fixes suites", err)

    def test_bad_names_and_rules(self):
        for text in ("differs a PASS PASS\n", "differs a PASS PASS PASS same\n",
                     "weird a reason\n", "flaky a\n", "differs a FAIL OK PASS r\n"):
            self.write_rules(text)
            with self.assertRaises(ValueError, msg=text):
                sr.load_rules(self.rules)
        self.write_rules("")
        self.same({"liburing/64/timeout": ["PASS"]})
        with open(self.verdict_file("base")) as f:
            v = json.load(f)
        v["tests"].append({"name": "init-noise", "status": "PASS", "log": [], "tests": []})
        with open(self.verdict_file("base"), "w") as f:
            json.dump(v, f)
        rc, _, err = self.run_judge()
        self.assertEqual(rc, 1)
        self.assertIn("not SUITE/ABI/PROGRAM/RUN", err)

    def test_the_committed_listing_parses(self):
        rules = sr.load_rules(sr.default_rules())
        self.assertEqual(sorted(r.pattern for r in rules if r.kind == "differs"),
                         ["libaio/*/24",
                          "liburing/*/reg-wait-invalid-ts", "liburing/*/sync-cancel-invalid-ts",
                          "liburing/*/timeout-carry-overflow", "liburing/*/wait-timeout-huge"])


if __name__ == "__main__":
    unittest.main()
