"""Tests of scripts/report.py, the judge of the integration boot, and of
the modules around it (tsanity/timeout_classes.py, intended.py and coverage.py).

Run from the repository's root:
  python3 -m unittest discover -s scripts/tests -p 'test_*.py'

The synthetic tests build small verdict.json trees, in the form
scripts/ktap.py writes, in a temporary directory.  The tests on real data
read real boots: test_report_real.py.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
REPO = os.path.dirname(SCRIPTS)
REPORT = os.path.join(SCRIPTS, "report.py")
# The judge runs as for 7.3 (its texts, its series' intended differences
# and expected failures): the fixtures are 7.3's; test_report_stable.py
# runs it as for the stable kernel 6.12.
ENV_73 = dict(os.environ, TS_KERNEL="7.3")
ENV_612 = dict(os.environ, TS_KERNEL="6.12")
sys.path.insert(0, SCRIPTS)

from tsanity import intended  # noqa: E402
from tsanity import cli as ts_cli, expected, layout  # noqa: E402
from tsanity import report  # noqa: E402
from tsanity import timeout_classes  # noqa: E402

# The inputs of the synthetic timeout_classes: (sec name, nsec name,
# kernel_sec, kernel_nsec, class).  The last one is the kind that
# patch 0001 changes for io_uring_timeout: a tv_nsec of a second or more.
INPUTS = [
    ("-1", "0", -1, 0, "invalid"),
    ("0", "1", 0, 1, "valid-relative"),
    ("1", "0", 1, 0, "valid-relative"),
    ("0", "NSEC_PER_SEC", 0, 1000000000, "invalid"),
]
BIG_NSEC = "x86_64 io_uring_timeout rel sec=0 nsec=NSEC_PER_SEC"
RULE = "io_uring_timeout * nsec>=1000000000,sec>=0 proceeds EINVAL 0001\n"
# The base's expected failure of RULE's test (tsanity.expected's format).
KNOWN = "timeout_classes/timeout.io_uring_timeout_rel.time64 0001\n"


def leaf(entry, mode, answers=None, skip=None):
    """A kselftest_harness test of timeout_classes for x86_64: answers maps
    a case name to what the kernel answered (default: the contract's
    answer); skip, the reason of a SKIP."""
    variant = f"timeout.{entry}_{mode}.time64"
    log = [f"#  RUN           {variant} ..."]
    if skip:
        log += [f"#      SKIP      {skip}", f"#            OK  {variant}"]
        return {"name": variant, "status": "SKIP", "log": log, "tests": []}
    wrong = 0
    for sec, nsec, ksec, knsec, cls in INPUTS:
        name = f"x86_64 {entry} {mode} sec={sec} nsec={nsec}"
        exp = "EINVAL" if cls in ("invalid", "expired") else "proceeds"
        got = (answers or {}).get(name, exp)
        wrong += got != exp
        log.append(f"# {name}: kernel_sec={ksec} kernel_nsec={knsec} class={cls} "
                   f"expected={exp} got={got}")
    log.append(f"# x86_64 {entry} {mode}: {len(INPUTS)} inputs, {wrong} not answered "
               "as the contract says")
    if wrong:
        log += [f"# timeout_classes.c:745:time64:Expected 0 (0) == wrong ({wrong})",
                "# time64: Test failed", f"#          FAIL  {variant}"]
    else:
        log.append(f"#            OK  {variant}")
    return {"name": variant, "status": "FAIL" if wrong else "PASS", "log": log, "tests": []}


def program(name, leaves):
    failed = any(t["status"] not in ("PASS", "SKIP") for t in leaves)
    log = [f"# {name}: exit status 1"] if failed else []
    return {"name": name, "status": "FAIL" if failed else "PASS", "log": log + [f"# {name}: 0.1 s"],
            "tests": leaves}


def verdict(answers=None, skip=None, extra=()):
    """A verdict.json of a boot that ran timeout_classes (nanosleep rel,
    io_uring_timeout rel, and a test that skips) and an other program."""
    leaves = [leaf("nanosleep", "rel", answers), leaf("io_uring_timeout", "rel", answers),
              leaf("io_uring_enter", "rel", skip=skip or
                   "rel: no entry point of this kind on x86_64")]
    other = {"name": "other_test", "status": "PASS", "log": [], "tests": [
        {"name": "case 1", "status": "PASS", "log": [], "tests": []}]}
    progs = [program("timeout_classes", leaves), other] + list(extra)
    return {"status": "PASS", "plan": len(progs),
            "counts": {"passed": 1, "failed": 0, "crashed": 0, "skipped": 0, "errors": 0},
            "errors": [], "boot_to_verdict_s": 1.5, "tests": progs}


def kernel_file(d, kernel, what="verdict"):
    """KERNEL's file WHAT in D (layout.RESULT_FILES), its directory made."""
    os.makedirs(layout.run_dir(d, kernel), exist_ok=True)
    return layout.result_file(d, what, kernel=kernel)


def report_file(d, old, new, ext="json"):
    return layout.result_file(d, "report", old=old, new=new, ext=ext)


# The answers of the base and of a kernel with the fixes to the case of RULE.
OLD_ANSWER = {BIG_NSEC: "proceeds"}
NEW_ANSWER = {BIG_NSEC: "EINVAL"}


class Boots(unittest.TestCase):
    """Synthetic boots in a temporary directory, and report.py run on them
    (test_report_stable.py uses it too)."""
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_report.")
        self.addCleanup(shutil.rmtree, self.dir)
        self.rule = os.path.join(self.dir, "intended")
        with open(self.rule, "w") as f:
            f.write("# entry mode inputs base patched patch\n" + RULE)
        self.known = os.path.join(self.dir, "known")
        with open(self.known, "w") as f:
            f.write("# test fix\n" + KNOWN)

    def write(self, kernel, v, commit=None):
        with open(kernel_file(self.dir, kernel), "w") as f:
            json.dump(v, f)
        if commit:
            with open(kernel_file(self.dir, kernel, "commit"), "w") as f:
                f.write(commit + "\n")

    def run_report(self, *args, intended_file=None, known_file=os.devnull, env=ENV_73):
        """report.py on ARGS (... OLD NEW); a base OLD gets KNOWN_FILE as
        its list of expected failures (default: none), not the series'."""
        cmd = [sys.executable, REPORT]
        if intended_file is not None:
            cmd += ["--intended", intended_file]
        if known_file != os.devnull or args[-2:-1] == ("base",):
            cmd += ["--expected", known_file]
        p = subprocess.run(cmd + list(args), capture_output=True, text=True, cwd=REPO,
                           env=env)
        return p.returncode, p.stdout, p.stderr

    def report_json(self, old, new):
        with open(report_file(self.dir, old, new)) as f:
            return json.load(f)


class Synthetic(Boots):
    # (a) identical kernels, nothing allowed to differ: PASS.
    def test_identical_kernels_pass(self):
        self.write("base", verdict(), commit="a" * 40)
        self.write("patched", verdict())
        rc, out, err = self.run_report(self.dir, "base", "patched", intended_file="/dev/null")
        self.assertEqual(rc, 0, err)
        self.assertEqual(err, "")
        # Its two files beside the inputs, and no other (an older one wrote three).
        self.assertEqual(set(os.listdir(self.dir)) - {"base", "patched", "intended", "known"}, {
            os.path.basename(report_file(self.dir, "base", "patched", e)) for e in ("md", "json")})
        j = self.report_json("base", "patched")
        self.assertEqual(j["verdict"], "PASS")
        self.assertEqual((j["old"], j["new"]), ("base", "patched"))
        self.assertEqual(sorted(j["kernels"]), ["base", "patched"])
        self.assertEqual(j["differences"], 0)
        self.assertEqual(j["kernels"]["base"]["commit"], "a" * 40)
        self.assertIsNone(j["kernels"]["patched"]["commit"])
        k = j["kernels"]["patched"]
        self.assertEqual((k["tests"], k["passed"], k["skipped"], k["not_ok"]), (4, 3, 1, 0))
        self.assertEqual(k["contract_cases"], 2 * len(INPUTS))
        self.assertEqual(k["cells"]["x86_64 nanosleep rel invalid"], 2)
        with open(report_file(self.dir, "base", "patched", "md")) as f:
            md = f.read()
        self.assertIn("base (7.3)", md)
        self.assertIn("patched (7.3 + series)", md)
        self.assertNotRegex(md, r"(?i)baseline|unpatched")

    def test_random_inputs_must_be_the_same(self):
        for kernel, rnd in (("base", "7 64"), ("patched", "8 64")):
            self.write(kernel, verdict())
            with open(kernel_file(self.dir, kernel, "random"), "w") as f:
                f.write(rnd + "\n")
        rc, out, err = self.run_report(self.dir, "base", "patched", intended_file="/dev/null")
        self.assertEqual(rc, 1)
        self.assertIn("the kernels ran different random inputs: base 7 64, patched 8 64", err)
        with open(kernel_file(self.dir, "patched", "random"), "w") as f:
            f.write("7 64\n")
        rc, out, err = self.run_report(self.dir, "base", "patched", intended_file="/dev/null")
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.report_json("base", "patched")["random"], ["7", "64"])
        with open(report_file(self.dir, "base", "patched", "md")) as f:
            self.assertIn("replay: TS_SEED=7 TS_RANDOM=64 make random", f.read())

    def test_empty_intended_file_allows_nothing(self):
        empty = os.path.join(self.dir, "empty")
        open(empty, "w").close()
        self.write("base", verdict(OLD_ANSWER))
        self.write("patched", verdict(NEW_ANSWER))
        rc, out, err = self.run_report(self.dir, "base", "patched", intended_file=empty)
        self.assertEqual(rc, 1)
        self.assertIn(f"differs, and no rule of {empty} covers it: {BIG_NSEC}", err)

    # (b) a difference that no rule covers: FAIL, naming the case.
    def test_unintended_difference_fails(self):
        case = "x86_64 nanosleep rel sec=1 nsec=0"
        self.write("base", verdict())
        self.write("patched", verdict({case: "EINVAL"}))
        rc, out, err = self.run_report(self.dir, "base", "patched", intended_file=self.rule)
        self.assertEqual(rc, 1)
        self.assertIn(f"differs, and no rule of {self.rule} covers it: {case}: "
                      "base proceeds, patched EINVAL", err)
        self.assertIn(f"patched: case failed: {case}", err)
        j = self.report_json("base", "patched")
        self.assertEqual(j["verdict"], "FAIL")
        self.assertEqual(j["not_intended"], 1)
        self.assertTrue(any(case in p for p in j["problems"]))

    # (c) a difference that a rule covers: PASS; the base fails the
    # contract on it by design, and the test as its list of expected
    # failures says.
    def test_intended_difference_passes(self):
        self.write("base", verdict(OLD_ANSWER))
        self.write("fixes", verdict(NEW_ANSWER))
        rc, out, err = self.run_report(self.dir, "base", "fixes", intended_file=self.rule,
                                       known_file=self.known)
        self.assertEqual(rc, 0, err)
        j = self.report_json("base", "fixes")
        self.assertEqual(sorted(j["kernels"]), ["base", "fixes"])
        self.assertEqual((j["differences"], j["intended"]["seen"], j["intended"]["listed"],
                          j["not_intended"]), (1, 1, 1, 0))
        self.assertEqual(j["kernels"]["base"]["failed_by_design"], 1)
        self.assertEqual(j["kernels"]["base"]["not_ok"], 1)
        self.assertIn("base: 1 cases fail the contract by design", out)
        with open(report_file(self.dir, "base", "fixes", "md")) as f:
            md = f.read()
        self.assertIn("fixes (7.3 + fixes)", md)
        self.assertIn("Wanted: base (7.3) proceeds, fixes (7.3 + fixes) EINVAL.", md)
        self.assertIn("base (7.3): 1 of the 1 tests that", md)
        self.assertEqual(j["kernels"]["base"]["expected_failures"],
                         ["timeout_classes/timeout.io_uring_timeout_rel.time64"])

    def test_intended_difference_with_other_outcome_fails(self):
        with open(self.rule, "w") as f:
            f.write(RULE.replace("EINVAL", "ETIME"))
        self.write("base", verdict(OLD_ANSWER))
        self.write("patched", verdict(NEW_ANSWER))
        rc, out, err = self.run_report(self.dir, "base", "patched", intended_file=self.rule)
        self.assertEqual(rc, 1)
        self.assertIn(f"intended difference not seen: {BIG_NSEC}: base proceeds, "
                      f"patched EINVAL; {self.rule}:1 wants base proceeds, patched ETIME", err)

    def test_intended_difference_not_shown_fails(self):
        self.write("base", verdict(NEW_ANSWER))
        self.write("patched", verdict(NEW_ANSWER))
        rc, out, err = self.run_report(self.dir, "base", "patched", intended_file=self.rule)
        self.assertEqual(rc, 1)
        self.assertIn(f"intended difference not seen: {BIG_NSEC}: base EINVAL, patched EINVAL",
                      err)

    def test_rule_without_case_fails(self):
        with open(self.rule, "a") as f:
            f.write("futex_wait * class=invalid proceeds EINVAL futex\n")
        self.write("base", verdict(OLD_ANSWER))
        self.write("patched", verdict(NEW_ANSWER))
        rc, out, err = self.run_report(self.dir, "base", "patched", intended_file=self.rule)
        self.assertEqual(rc, 1)
        self.assertIn(f"{self.rule}:3: the rule covers no case that the kernels ran", err)

    # (d) a test that fails on NEW: FAIL, even where the same failure is
    # by design on OLD.
    def test_failure_by_design_on_new_fails(self):
        self.write("base", verdict(OLD_ANSWER))
        self.write("patched", verdict(OLD_ANSWER))
        rc, out, err = self.run_report(self.dir, "base", "patched", intended_file=self.rule,
                                       known_file=self.known)
        self.assertEqual(rc, 1)
        self.assertIn(f"patched: case failed: {BIG_NSEC}: expected EINVAL, got proceeds", err)
        self.assertIn("patched: test FAIL: timeout_classes/timeout.io_uring_timeout_rel.time64",
                      err)
        self.assertNotIn("error: base:", err)

    def test_failing_other_program_on_new_fails(self):
        bad = {"name": "futex_test", "status": "FAIL", "log": ["# futex_test: exit status 1"],
               "tests": [{"name": "wait", "status": "FAIL", "log": [], "tests": []}]}
        self.write("base", verdict())
        self.write("patched", verdict(extra=[bad]))
        rc, out, err = self.run_report(self.dir, "base", "patched", intended_file="/dev/null")
        self.assertEqual(rc, 1)
        self.assertIn("patched: test FAIL: futex_test/wait", err)
        self.assertIn("patched: test FAIL: futex_test\n", err)
        self.assertIn("tests end differently on the two kernels", err)

    def test_unallowed_failure_on_old_fails(self):
        # Fails on OLD without a rule: not by design.
        case = "x86_64 nanosleep rel sec=-1 nsec=0"
        self.write("base", verdict({case: "proceeds"}))
        self.write("patched", verdict({case: "proceeds"}))
        rc, out, err = self.run_report(self.dir, "base", "patched", intended_file="/dev/null")
        self.assertEqual(rc, 1)
        self.assertIn(f"base: case failed: {case}", err)
        self.assertIn("base: test FAIL: timeout_classes/timeout.nanosleep_rel.time64", err)

    def test_incomplete_test_fails(self):
        v = verdict()
        log = v["tests"][0]["tests"][0]["log"]
        v["tests"][0]["tests"][0]["log"] = [l for l in log if not timeout_classes.DONE.match(l)]
        self.write("base", verdict())
        self.write("patched", v)
        rc, out, err = self.run_report(self.dir, "base", "patched", intended_file="/dev/null")
        self.assertEqual(rc, 1)
        self.assertIn("patched: timeout_classes/timeout.nanosleep_rel.time64: 4 cases logged, "
                      "and no closing line", err)

    def test_missing_verdict_fails(self):
        self.write("base", verdict())
        rc, out, err = self.run_report(self.dir, "base", "patched", intended_file="/dev/null")
        self.assertEqual(rc, 1)
        self.assertIn("patched: no verdict", err)
        self.assertEqual(self.report_json("base", "patched")["verdict"], "FAIL")

    # (e) a SKIP for another reason than a missing entry point: FAIL.
    def test_unknown_skip_reason_fails(self):
        reason = "io_uring_enter: not in this kernel (ENOSYS)"
        self.write("base", verdict())
        self.write("patched", verdict(skip=reason))
        rc, out, err = self.run_report(self.dir, "base", "patched", intended_file="/dev/null")
        self.assertEqual(rc, 1)
        self.assertIn("patched: timeout_classes/timeout.io_uring_enter_rel.time64: skipped, "
                      "and not for want of an entry point of this ABI", err)
        self.assertIn(reason, err)
        self.assertNotIn("error: base:", err)

    # (f) usage errors: exit 2, no report.
    def test_usage_errors(self):
        self.write("base", verdict())
        self.write("patched", verdict())
        for args in ([], [self.dir], [self.dir, "base"], [self.dir, "base", "patched", "x"],
                     [self.dir, "base", "unpatched"], [self.dir, "patched", "base"],
                     [self.dir, "base", "base"], [self.dir + "/nothing", "base", "patched"],
                     ["--intended", self.dir + "/nothing", self.dir, "base", "patched"],
                     ["--bogus", self.dir, "base", "patched"]):
            with self.subTest(args=args):
                rc, out, err = self.run_report(*args)
                self.assertEqual(rc, 2, err)
                self.assertIn("usage: scripts/report.py", err)
        self.assertEqual([n for n in os.listdir(self.dir) if n.startswith("report")], [])

    def test_unreadable_rule_fails(self):
        with open(self.rule, "w") as f:
            f.write("io_uring_timeout * nsec>=1000000000 proceeds EINVAL\n")
        self.write("base", verdict())
        self.write("patched", verdict())
        rc, out, err = self.run_report(self.dir, "base", "patched", intended_file=self.rule)
        self.assertEqual(rc, 1)
        self.assertIn(f"{self.rule}:1: 5 fields, expected 6", err)

    def test_rerun_replaces_the_report(self):
        self.write("base", verdict())
        self.write("patched", verdict())
        self.assertEqual(self.run_report(self.dir, "base", "patched",
                                         intended_file="/dev/null")[0], 0)
        self.write("patched", verdict({"x86_64 nanosleep rel sec=1 nsec=0": "EINVAL"}))
        self.assertEqual(self.run_report(self.dir, "base", "patched",
                                         intended_file="/dev/null")[0], 1)
        self.assertEqual(self.report_json("base", "patched")["verdict"], "FAIL")

    def test_default_intended_is_the_series_list(self):
        # The series' list has rules that these synthetic kernels do not
        # run: each is named.
        self.write("base", verdict())
        self.write("patched", verdict())
        rc, out, err = self.run_report(self.dir, "base", "patched")
        self.assertEqual(rc, 1)
        self.assertIn(os.path.join(ts_cli.series_dir(ENV_73), "intended-differences") + ":", err)
        self.assertIn("the rule covers no case that the kernels ran", err)

    # judge() and the renderers, without the CLI.
    def test_judge_and_render(self):
        self.write("base", verdict(OLD_ANSWER))
        self.write("patched", verdict(NEW_ANSWER))
        rules = intended.load(self.rule)
        known = expected.load(self.known, {"0001"}, False)
        problems, data = report.judge(self.dir, "base", "patched", rules, known=(known, {}))
        self.assertEqual(problems, [])
        self.assertEqual(data["seen"], 1)
        self.assertEqual([w[:3] for w in data["wanted"]], [(BIG_NSEC, "proceeds", "EINVAL")])
        self.assertEqual(data["kernels"]["base"]["by_design"], 1)
        self.assertEqual(data["kernels"]["patched"]["by_design"], 0)
        j = report.render_json(problems, data)
        self.assertEqual(j["verdict"], "PASS")
        md = report.render_md(problems, data, "7.3")
        self.assertIn("**Verdict: PASS**", md)
        # The same kernels judged the other way round: the by-design
        # failure now is on NEW.
        problems, data = report.judge(self.dir, "patched", "base", rules, known=(known, {}))
        self.assertIn(f"base: case failed: {BIG_NSEC}: expected EINVAL, got proceeds", problems)
        self.assertIn("**Verdict: FAIL**", report.render_md(problems, data, "7.3"))


class TimeoutClassesFormat(unittest.TestCase):
    LINE = ("# x86_64 io_uring_timeout rel sec=S64_MAX nsec=NSEC_PER_SEC: "
            "kernel_sec=9223372036854775807 kernel_nsec=1000000000 class=invalid "
            "expected=EINVAL got=proceeds")

    def test_diag(self):
        d = timeout_classes.diag(self.LINE)
        self.assertEqual(d, {"name": "x86_64 io_uring_timeout rel sec=S64_MAX nsec=NSEC_PER_SEC",
                             "sec": 9223372036854775807, "nsec": 1000000000,
                             "cls": "invalid", "exp": "EINVAL", "got": "proceeds"})
        m = timeout_classes.case_name(d["name"])
        self.assertEqual((m["abi"], m["entry"], m["mode"], m["sec"], m["nsec"]),
                         ("x86_64", "io_uring_timeout", "rel", "S64_MAX", "NSEC_PER_SEC"))
        self.assertEqual(timeout_classes.sec_group(m["sec"]), "tv_sec >= KTIME_SEC_MAX-1")
        self.assertEqual(timeout_classes.sec_group("INT_MIN"), "tv_sec < 0")
        self.assertEqual(timeout_classes.sec_group("1"), "0 <= tv_sec <= INT_MAX")

    def test_random_and_pointer_cases(self):
        d = timeout_classes.diag("# x86_64 nanosleep rel sec=-5 nsec=4294967296 rand=77/3: "
                                 "kernel_sec=-5 kernel_nsec=4294967296 class=invalid "
                                 "expected=EINVAL got=EINVAL")
        m = timeout_classes.case_name(d["name"])
        self.assertEqual((m["sec"], m["nsec"], m["seed"], m["i"]), ("-5", "4294967296", "77", "3"))
        self.assertIsNone(timeout_classes.case_name("x86_64 nanosleep rel sec=0 nsec=0 rand=x"))
        self.assertIsNone(timeout_classes.case_name(self.LINE[2:].split(":")[0] + " extra"))
        self.assertIsNone(timeout_classes.case_name(
            timeout_classes.diag(self.LINE)["name"])["seed"])
        for sec, group in (("-5", "tv_sec < 0"), ("0", "0 <= tv_sec <= INT_MAX"),
                           ("2147483647", "0 <= tv_sec <= INT_MAX"),
                           ("2147483648", "INT_MAX < tv_sec < KTIME_SEC_MAX-1"),
                           ("9223372035", "tv_sec >= KTIME_SEC_MAX-1"),
                           ("9223372034", "INT_MAX < tv_sec < KTIME_SEC_MAX-1")):
            self.assertEqual(timeout_classes.sec_group(sec), group, sec)
        p = timeout_classes.diag("# i386 futex_time64 wait ptr=straddling: class=unreadable "
                                 "expected=EFAULT got=EFAULT")
        self.assertEqual((p["name"], p["sec"], p["cls"], p["got"]),
                         ("i386 futex_time64 wait ptr=straddling", None, "unreadable", "EFAULT"))
        self.assertIsNone(timeout_classes.case_name(p["name"]))
        self.assertEqual(timeout_classes.pointer_case(p["name"])["ptr"], "straddling")
        # A bad pointer is no rule's case, whatever the rule's entry and mode.
        r = intended.Rule("t:1", "futex*", "*", "class=invalid", "proceeds", "EINVAL", "x")
        self.assertFalse(r.covers(p["name"], p))

    def test_rule_on_the_exact_sum(self):
        # ns is sec * 10^9 + nsec exactly, past what an s64 holds: the
        # carried tv_nsec that wraps a ktime_t.
        r = intended.Rule("t:1", "io_uring_timeout", "abs*",
                          "class=carried,ns>9223372036854775807,sec<9223372036",
                          "fires", "waits", "x")
        line = ("# x86_64 io_uring_timeout abs sec=1 nsec=LONG_MAX: kernel_sec=1 "
                "kernel_nsec=9223372036854775807 class=carried expected=waits got=fires")
        d = timeout_classes.diag(line)
        self.assertTrue(r.covers(d["name"], d))
        d = timeout_classes.diag(line.replace("sec=1 nsec", "sec=0 nsec")
                                 .replace("kernel_sec=1", "kernel_sec=0"))
        self.assertFalse(r.covers(d["name"], d))  # LONG_MAX alone fits
        with self.assertRaises(ValueError):
            intended.Rule("t:2", "x", "*", "nss>1", "a", "b", "x")

    def test_diag_before_issue_5(self):
        d = timeout_classes.diag("# i386 nanosleep rel sec=0 nsec=0: class=valid-relative "
                                 "expected=proceeds got=proceeds")
        self.assertEqual((d["sec"], d["nsec"], d["cls"]), (None, None, "valid-relative"))

    def test_not_diag(self):
        for line in ("# x86_64 io_uring_timeout rel: 63 inputs, 12 not answered as the "
                     "contract says", "# time64: Test failed", "#  RUN           x ..."):
            self.assertIsNone(timeout_classes.diag(line), line)

    def test_failed_test_log(self):
        log = ["#  RUN           timeout.io_uring_timeout_rel.time64 ...", self.LINE,
               "# x86_64 io_uring_timeout rel: 63 inputs, 12 not answered as the contract says",
               "# timeout_classes.c:745:time64:Expected 0 (0) == wrong (12)",
               "# time64: Test failed", "#          FAIL  timeout.io_uring_timeout_rel.time64"]
        self.assertTrue(all(timeout_classes.only_failed_inputs(l) for l in log))
        self.assertFalse(timeout_classes.only_failed_inputs("# something else"))
        self.assertEqual([(m["test"], m["n"], m["k"]) for m in timeout_classes.closing(log)],
                         [("x86_64 io_uring_timeout rel", "63", "12")])
        self.assertEqual(timeout_classes.expect_wrong(log), [12])

    def test_skip(self):
        self.assertTrue(timeout_classes.skipped_structurally(
            ["#      SKIP      rel: no entry point of this kind on i386"]))
        self.assertFalse(timeout_classes.skipped_structurally(
            ["#      SKIP      io_uring_setup: EPERM (kernel.io_uring_disabled)"]))
        # io_uring_enter()'s summed wait timeout refuses nothing by its ABI;
        # a test that found no input it accepts is not structural.
        self.assertTrue(timeout_classes.skipped_structurally(
            ["#      SKIP      ext_arg-rel: no timeout of this mode is refused (ABI)"]))
        self.assertFalse(timeout_classes.skipped_structurally(
            ["#      SKIP      ext_arg-rel: no timeout of this mode is accepted (ABI)"]))

    def test_one_owner_of_the_format(self):
        # The selftest's lines are spelled in timeout_classes.py only.
        for name in ("tsanity/report.py", "tsanity/intended.py", "tsanity/ktap.py"):
            with open(os.path.join(SCRIPTS, name)) as f:
                src = f.read()
            for word in ("kernel_sec=", "expected=", "got=", "not answered", "Expected 0",
                         "Test failed", "no entry point of this kind", "RUN ", "S64_MIN",
                         "KTIME_SEC_MAX", "sec=(?P"):
                self.assertNotIn(word, src, f"{name} spells timeout_classes' output: {word}")

    def test_no_environment_for_the_list(self):
        with open(os.path.join(SCRIPTS, "tsanity", "intended.py")) as f:
            self.assertNotIn("TS_INTENDED", f.read())
        self.assertEqual(intended.load(os.devnull), [])


class Coverage(unittest.TestCase):
    def test_new_and_old_report(self):
        d = tempfile.mkdtemp(prefix="test_report.")
        self.addCleanup(shutil.rmtree, d)
        for k in ("base", "patched"):
            with open(kernel_file(d, k), "w") as f:
                json.dump(verdict(), f)
        subprocess.run([sys.executable, REPORT, "--intended", "/dev/null", "--expected",
                        os.devnull, d, "base", "patched"], check=True, capture_output=True)
        new = report_file(d, "base", "patched")
        before = os.path.join(REPO, "docs", "coverage-before.json")
        p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "coverage.py"), before, new],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("| x86_64 | nanosleep | rel | invalid |", p.stdout)
        self.assertRegex(p.stdout, r"^Cells: \d+ before, 4 after")


if __name__ == "__main__":
    unittest.main()
