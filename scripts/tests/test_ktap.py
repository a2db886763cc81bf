"""Tests of scripts/ktap.py, the one reader of a guest boot's serial log.
Each test feeds it a log, written here in the shape /init prints it (a
KTAP document of the programs, each program's own KTAP indented, then
/init's two closing lines), and reads the verdict.json it writes.  What
ktap.py fails on (exit 1, the problem named): a log it cannot read, a log
without any KTAP test, a tree whose kunit_parser it cannot import.  What
it records for the judges (scripts/report.py, `scripts/ts judge-boot`):
a failed test, a plan the programs fall short of, a program cut short,
an /init that never finished, a missing plan.  Each failing input has a
passing twin, so that no test passes on a reader that says nothing.  The
parser is the tree's (TS_SRC: make tree, as make check-scripts has it)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
KTAP = os.path.join(HERE, "..", "ktap.py")
sys.path.insert(0, os.path.join(HERE, ".."))
from tsanity import cli as ts_cli  # noqa: E402

SRC = ts_cli.context()[2].src
PARSER = os.path.join(SRC, "tools", "testing", "kunit", "kunit_parser.py")


def program(n, name, results=("ok 1 one", "ok 2 two"), status="ok"):
    """Program N's part of the log: its own KTAP (indented by /init), its
    time and /init's result line."""
    inner = ["KTAP version 1", f"1..{len(results)}", *results]
    return [f"    {line}" for line in inner] + [f"# {name}: 0.100 s", f"{status} {n} {name}"]


def boot(*programs, plan=None, failed=0, closing=True):
    """A whole log: /init's KTAP document of PROGRAMS (each program()'s
    lines), planned PLAN (default: as many), and its closing lines."""
    lines = ["[    0.000000] Linux version 7.3.0", "KTAP version 1"]
    if plan != "none":
        lines.append(f"1..{len(programs) if plan is None else plan}")
    for p in programs:
        lines += p
    if closing:
        lines += ["# boot-to-verdict: 2.500 s",
                  f"# init: {failed} of {len(programs)} programs failed"]
    return lines


class Ktap(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.isfile(PARSER):
            raise AssertionError(f"{PARSER} not found: ktap.py reads with the tree's kunit_parser "
                                 "(make tree)")

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="test_ktap.")
        self.addCleanup(self.tmp.cleanup)
        self.log = os.path.join(self.tmp.name, "console.log")
        self.out = os.path.join(self.tmp.name, "read.json")

    def run_ktap(self, lines, env=None, crlf=True):
        """ktap.py on LINES (CRLF, as the guest's console writes them):
        its exit status, its stderr and the verdict it wrote (or None)."""
        with open(self.log, "w", newline="") as f:
            f.write("".join(line + ("\r\n" if crlf else "\n") for line in lines))
        r = subprocess.run([sys.executable, KTAP, self.log, self.out], capture_output=True,
                           text=True, env={**os.environ, **(env or {})})
        verdict = None
        if os.path.exists(self.out):
            with open(self.out) as f:
                verdict = json.load(f)
        return r.returncode, r.stderr, verdict

    def passes(self, lines):
        rc, err, v = self.run_ktap(lines)
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(v["status"], "PASS", v)
        self.assertEqual(v["errors"], [])
        return v

    def test_clean_boot_is_read_whole(self):
        v = self.passes(boot(program(1, "timeout_classes"), program(2, "futex_wait")))
        self.assertEqual(v["plan"], 2)
        self.assertEqual(v["counts"], {"passed": 4, "failed": 0, "crashed": 0, "skipped": 0,
                                       "errors": 0})
        self.assertEqual(v["boot_to_verdict_s"], 2.5)
        self.assertEqual(v["init"], {"failed": 0, "programs": 2})
        self.assertEqual([t["name"] for t in v["tests"]], ["timeout_classes", "futex_wait"])
        self.assertEqual([t["name"] for t in v["tests"][0]["tests"]], ["one", "two"])

    def test_crlf_and_lf_logs_read_the_same(self):
        lines = boot(program(1, "timeout_classes"))
        _, _, crlf = self.run_ktap(lines)
        _, _, lf = self.run_ktap(lines, crlf=False)
        self.assertEqual(crlf, lf)

    def test_not_ok_program_is_a_failure(self):
        self.passes(boot(program(1, "a"), program(2, "b")))
        rc, _, v = self.run_ktap(boot(program(1, "a"), program(2, "b", status="not ok"), failed=1))
        self.assertEqual(rc, 0)  # read; judging it is report.py's
        # The program's status; the run's is the parser's sum (6.x's counts
        # only the subtests, which passed).
        self.assertEqual([(t["name"], t["status"]) for t in v["tests"]],
                         [("a", "PASS"), ("b", "FAIL")])
        self.assertEqual(v["init"], {"failed": 1, "programs": 2})

    def test_nested_failure_fails_the_run(self):
        self.passes(boot(program(1, "a", results=("ok 1 one", "ok 2 two"))))
        rc, _, v = self.run_ktap(boot(program(1, "a", results=("ok 1 one", "not ok 2 two"))))
        self.assertEqual(rc, 0)
        self.assertEqual(v["status"], "FAIL")
        self.assertEqual([(t["name"], t["status"]) for t in v["tests"][0]["tests"]],
                         [("one", "PASS"), ("two", "FAIL")])
        self.assertEqual(v["counts"]["failed"], 1)

    def test_programs_short_of_the_plan_are_an_error(self):
        self.passes(boot(program(1, "a"), program(2, "b"), plan=2))
        rc, _, v = self.run_ktap(boot(program(1, "a"), program(2, "b"), plan=3))
        self.assertEqual(rc, 0)
        self.assertEqual(v["status"], "ERROR")
        self.assertEqual(v["plan"], 3)
        self.assertTrue(any("missing expected subtest" in e for e in v["errors"]), v["errors"])

    def test_program_cut_short_is_an_error(self):
        # The guest died inside the second program: no result line, no
        # closing lines.
        self.passes(boot(program(1, "a"), program(2, "b")))
        cut = program(2, "b")[:3]
        rc, err, v = self.run_ktap(boot(program(1, "a"), cut, closing=False))
        if rc == 0:  # 7.x's parser: the cut program is an ERROR
            self.assertEqual(v["status"], "ERROR")
            self.assertTrue(any("missing expected subtest" in e for e in v["errors"]), v["errors"])
            self.assertEqual(v["tests"][1]["status"], "ERROR")
            self.assertIsNone(v["init"])
        else:  # 6.x's raises, and ktap.py fails with it
            self.assertEqual(rc, 1)
            self.assertIn("going past EOF", err)

    def test_init_that_never_finished_has_no_init_line(self):
        rc, _, v = self.run_ktap(boot(program(1, "a"), closing=False))
        self.assertEqual(rc, 0)
        self.assertIsNone(v["init"])
        self.assertIsNone(v["boot_to_verdict_s"])
        self.assertEqual(self.passes(boot(program(1, "a")))["init"], {"failed": 0, "programs": 1})

    def test_missing_plan_is_recorded_for_the_judge(self):
        rc, _, v = self.run_ktap(boot(program(1, "a"), plan="none"))
        self.assertEqual(rc, 0)
        self.assertIsNone(v["plan"])
        self.assertEqual(self.passes(boot(program(1, "a")))["plan"], 1)

    def test_xfail_and_xpass_directives_are_kept(self):
        results = ("ok 1 one # XFAIL known", "ok 2 two # XPASS")
        v = self.passes(boot(program(1, "a", results=results)))
        self.assertEqual([(t["name"], t["status"]) for t in v["tests"][0]["tests"]],
                         [("one", "XFAIL"), ("two", "XPASS")])

    def test_log_without_ktap_fails_naming_it(self):
        for lines in (["[    0.000000] Linux version 7.3.0", "Kernel panic - not syncing: x"], []):
            with self.subTest(lines=lines):
                rc, err, v = self.run_ktap(lines)
                self.assertEqual(rc, 1)
                self.assertIn(f"error: no KTAP test in {self.log}", err)
                self.assertEqual(v["tests"], [])
                self.assertEqual(v["status"], "ERROR")

    def test_unreadable_log_fails_naming_it(self):
        r = subprocess.run([sys.executable, KTAP, self.log + ".missing", self.out],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn(self.log + ".missing", r.stderr)
        self.assertFalse(os.path.exists(self.out))

    def test_tree_without_kunit_parser_fails_naming_it(self):
        rc, err, v = self.run_ktap(boot(program(1, "a")), env={"TS_SRC": self.tmp.name})
        self.assertEqual(rc, 1)
        self.assertIn("cannot import the tree's kunit_parser from "
                      f"{os.path.join(self.tmp.name, 'tools', 'testing', 'kunit')}", err)
        self.assertIsNone(v)

    def test_usage(self):
        r = subprocess.run([sys.executable, KTAP, self.log], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("usage: scripts/ktap.py SERIAL_LOG VERDICT_JSON", r.stderr)


if __name__ == "__main__":
    unittest.main()
