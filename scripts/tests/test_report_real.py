"""Tests of scripts/report.py on real data: three boots of 7.3, trimmed,
from scripts/tests/fixtures (test_report.py has the synthetic ones).

Run from the repository's root:
  python3 -m unittest discover -s scripts/tests -p 'test_*.py'
"""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from test_report import ENV_73, REPO, REPORT, kernel_file, report_file  # noqa: E402

# Real data: three boots of 7.3 (base, fixes and patched, TS_SEED=1 and
# TS_RANDOM=128), trimmed by fixtures/trim_verdict.py to the tests of
# timeout_classes and timeout_classes_32 that patches/expected-failures
# lists and a few others (every case of the intended differences is in
# them); fixtures/report-*.json are what report.py said of them when they
# were cut (the thirteenth session's boots, after the series' selftests
# moved into their subsystems' directories and timeout_classes became the
# project's own).
FIXTURES = os.path.join(HERE, "fixtures")


def figures_of(j, names):
    """The judged figures of a report.json, with its kernels renamed by
    names (old name -> new name)."""
    j = json.loads(json.dumps(j))
    j["kernels"] = {names.get(k, k): v for k, v in j["kernels"].items()}
    return j


class RealData(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_report.")
        self.addCleanup(shutil.rmtree, self.dir)

    def kernel(self, fixture, name):
        with gzip.open(os.path.join(FIXTURES, f"verdict-{fixture}.json.gz"), "rt") as f, \
                open(kernel_file(self.dir, name), "w") as out:
            out.write(f.read())
        with open(kernel_file(self.dir, name, "random"), "w") as f:
            f.write("1 128\n")

    def run_report(self, *args):
        p = subprocess.run([sys.executable, REPORT] + list(args), capture_output=True,
                           text=True, cwd=REPO, env=ENV_73)
        return p.returncode, p.stderr

    def load(self, path):
        with open(path) as f:
            return json.load(f)

    def test_base_patched_as_before(self):
        self.kernel("base", "base")
        self.kernel("patched", "patched")
        rc, err = self.run_report(self.dir, "base", "patched")
        self.assertEqual(rc, 0, err)
        new = self.load(report_file(self.dir, "base", "patched"))
        self.assertEqual((new["verdict"], new["differences"], new["intended"]["seen"],
                          new["intended"]["listed"], new["not_intended"]),
                         ("PASS", 1325, 1325, 1325, 0))
        self.assertEqual(new["kernels"]["patched"]["contract_cases"], 2868)
        # The base fails what patches/expected-failures lists, all of it.
        self.assertEqual(len(new["kernels"]["base"]["expected_failures"]), 14)
        self.assertEqual(figures_of(new, {}),
                         self.load(report_file(FIXTURES, "base", "patched")))

    def test_base_fixes_as_before(self):
        self.kernel("base", "base")
        self.kernel("fixes", "fixes")
        rc, err = self.run_report(self.dir, "base", "fixes")
        self.assertEqual(rc, 0, err)
        new = self.load(report_file(self.dir, "base", "fixes"))
        self.assertEqual((new["verdict"], new["differences"], new["intended"]["seen"],
                          new["not_intended"]), ("PASS", 1325, 1325, 0))
        self.assertEqual(sorted(new["kernels"]), ["base", "fixes"])
        self.assertEqual(figures_of(new, {}),
                         self.load(report_file(FIXTURES, "base", "fixes")))

    def test_fixes_patched_no_difference(self):
        self.kernel("fixes", "fixes")
        self.kernel("patched", "patched")
        rc, err = self.run_report("--intended", "/dev/null", self.dir, "fixes", "patched")
        self.assertEqual(rc, 0, err)
        new = self.load(report_file(self.dir, "fixes", "patched"))
        self.assertEqual((new["verdict"], new["differences"], new["intended"]["listed"]),
                         ("PASS", 0, 0))
        for k in ("fixes", "patched"):
            self.assertEqual(new["kernels"][k]["contract_cases"], 2868)
            self.assertEqual(new["kernels"][k]["not_ok"], 0)
        # The series' list demands its differences of these two: FAIL.
        rc, err = self.run_report(self.dir, "fixes", "patched")
        self.assertEqual(rc, 1)
        self.assertIn("intended difference not seen", err)

    def test_a_changed_answer_is_caught(self):
        """The negative experiment: one answer of patched changed in the
        real data is a difference that no rule allows."""
        self.kernel("base", "base")
        self.kernel("patched", "patched")
        path = kernel_file(self.dir, "patched")
        v = self.load(path)
        prog = next(p for p in v["tests"] if p["name"] == "timeout_classes")
        test = next(t for t in prog["tests"] if t["name"] == "timeout.nanosleep.time64_refused")
        i = next(i for i, line in enumerate(test["log"]) if "expected=EINVAL got=EINVAL" in line)
        test["log"][i] = test["log"][i].replace("got=EINVAL", "got=proceeds")
        with open(path, "w") as f:
            json.dump(v, f)
        rc, err = self.run_report(self.dir, "base", "patched")
        self.assertEqual(rc, 1)
        self.assertIn("nanosleep", err)

    def test_a_lost_check_fails(self):
        """The negative experiment for the list: the new kernel lost aio's
        check (its test fails as on the base, which the list allows the
        base only), and an empty list does not let the base fail."""
        self.kernel("base", "base")
        self.kernel("base", "patched")
        rc, err = self.run_report(self.dir, "base", "patched")
        self.assertEqual(rc, 1)
        self.assertIn("patched: test FAIL: timeout_classes/timeout.io_getevents.time64_refused", err)
        self.kernel("patched", "patched")
        rc, err = self.run_report("--expected", os.devnull, self.dir, "base", "patched")
        self.assertEqual(rc, 1)
        self.assertIn("base: test FAIL: timeout_classes/timeout.io_getevents.time64_refused", err)



if __name__ == "__main__":
    unittest.main()
