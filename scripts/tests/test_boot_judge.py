"""Tests of the judge of one guest boot: tsanity.judge.boot (pure: each
problem it names, each beside a passing twin, so that no test passes on a
judge that says nothing) and `scripts/ts judge-boot`, what `scripts/ts boot`
runs after QEMU (end to end on small logs: what it prints, its exit, the
files it writes).  fixtures/boot/sanitized.log is a sanitized boot's log in
the shape the guest prints it (CRLF): a WARN at boot, then KASAN, UBSAN,
ODEBUG and lockdep reports inside three programs; sanitized-splats.json
and sanitized-splats.txt are what the tooling before the judge (commit
269a595: `scripts/splats.py scan`, run by the old boot.sh) wrote for it, the log's
path written as "LOG": the judge must write the same bytes.  The end-to-end
tests read the log with the tree's kunit_parser and console-badness.sh
(TS_SRC: make tree, as make check-scripts has it)."""
import argparse
import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
FIXTURES = os.path.join(HERE, "fixtures", "boot")
sys.path.insert(0, SCRIPTS)
from tsanity import cli as ts_cli, layout  # noqa: E402
from tsanity.judge import boot as judge  # noqa: E402
from tsanity.judge.boot import Kind  # noqa: E402

SRC = ts_cli.context()[2].src
KUNIT = os.path.join(SRC, "tools", "testing", "kunit")
BADNESS = os.path.join("tools", "testing", "selftests", "rcutorture", "bin", "console-badness.sh")


def verdict(failed=0, programs=3, init=True):
    """ktap.py's verdict.json of a boot whose /init said FAILED of
    PROGRAMS failed (init=False: it never said)."""
    return {"status": "PASS", "plan": programs,
            "counts": {"passed": 7, "failed": failed, "crashed": 0, "skipped": 2, "errors": 0},
            "errors": [], "boot_to_verdict_s": 4.25,
            "init": {"failed": failed, "programs": programs} if init else None,
            "tests": [{"name": f"p{i}", "status": "PASS", "log": [], "tests": []}
                      for i in range(programs)]}


def report(line, title, lines):
    """One report of splats.scan()."""
    return {"line": line, "kind": "KASAN", "title": title, "headlines": [title],
            "lines": [[line + i, t] for i, t in enumerate(lines)], "program": "timeout_classes",
            "input": None, "next": None, "syscall": "nanosleep"}


KASAN = ["==================================================================",
         "BUG: KASAN: slab-out-of-bounds in hrtimer_nanosleep+0x1a/0x40", "Call Trace:"]
# A plain boot's clean inputs: /init's verdict 1 (no program failed).
CLEAN = judge.Boot(rc=1, limit="120", verdict=verdict(), listed=3, programs="/i/tests")
# A sanitized boot's, with one report whose lines are every splat line.
SCAN = {"splat_lines": 3, "notes": [], "reports": [report(10, KASAN[1], KASAN)]}
SPLATS_JSON = layout.result_file("/r/tests-sanitized", "splats", kernel="base")
SANITIZED = dataclasses.replace(CLEAN, sanitized=True, splats=tuple(KASAN + [KASAN[1]]),
                                scan=SCAN, splats_json=SPLATS_JSON)


def kinds(b):
    return [p.kind for p in judge.judge(b)]


def texts(b):
    return [p.text for p in judge.judge(b)]


class Judge(unittest.TestCase):
    def test_clean_boot_passes(self):
        self.assertEqual(judge.judge(CLEAN), [])
        some_failed = dataclasses.replace(CLEAN, rc=3, verdict=verdict(failed=1))
        self.assertEqual(judge.judge(some_failed), [])

    def test_timeout(self):
        for rc in (124, 137):
            with self.subTest(rc=rc):
                b = dataclasses.replace(CLEAN, rc=rc)
                self.assertEqual(kinds(b), [Kind.TIMEOUT])
                self.assertEqual(texts(b), ["timeout: the guest did not finish within 120 s"])

    def test_qemu_exit_0_is_no_verdict(self):
        b = dataclasses.replace(CLEAN, rc=0)
        self.assertEqual(kinds(b), [Kind.NO_VERDICT])
        self.assertIn("(QEMU exit 0)", texts(b)[0])

    def test_other_qemu_exit(self):
        for rc in (2, 139):
            with self.subTest(rc=rc):
                b = dataclasses.replace(CLEAN, rc=rc)
                self.assertEqual(texts(b), [f"QEMU failed (exit {rc})"])

    def test_ktap_failure_and_nothing_read_behind_it(self):
        b = dataclasses.replace(CLEAN, ktap_rc=1, verdict=None)
        self.assertEqual(kinds(b), [Kind.KTAP_FAILED])
        self.assertEqual(texts(b), ["the KTAP reader (tsanity.ktap) could not read the serial log"])

    def test_init_that_never_finished(self):
        b = dataclasses.replace(CLEAN, verdict=verdict(init=False))
        self.assertEqual(kinds(b), [Kind.INIT_UNFINISHED])
        self.assertIn("QEMU exited 1, but /init never said how many programs failed", texts(b)[0])
        # Not checked when QEMU did not exit with /init's verdict.
        self.assertEqual(kinds(dataclasses.replace(b, rc=124)), [Kind.TIMEOUT])

    def test_program_count(self):
        b = dataclasses.replace(CLEAN, listed=14)
        self.assertEqual(kinds(b), [Kind.PROGRAM_COUNT])
        self.assertEqual(texts(b), ["/init ran 3 programs, the initramfs lists 14 (/i/tests)"])

    def test_exit_1_with_failures_and_3_without(self):
        b = dataclasses.replace(CLEAN, verdict=verdict(failed=2))
        self.assertEqual(texts(b), ["QEMU exited 1, but /init said 2 of 3 programs failed"])
        b = dataclasses.replace(CLEAN, rc=3)
        self.assertEqual(kinds(b), [Kind.VERDICT_MISMATCH])
        self.assertEqual(texts(b), ["QEMU exited 3, but /init said 0 of 3 programs failed"])

    def test_splat_on_a_plain_boot_shows_the_first_five(self):
        lines = tuple(f"WARNING: splat {i}" for i in range(7))
        (p,) = judge.judge(dataclasses.replace(CLEAN, splats=lines))
        self.assertEqual(p.kind, Kind.SPLAT)
        self.assertEqual(p.text, "kernel splat in the serial log (the first lines are above)")
        self.assertEqual(p.shown, lines[:5])

    def test_reports_fail_a_sanitized_boot(self):
        (p,) = judge.judge(SANITIZED)
        self.assertEqual(p.kind, Kind.REPORTS)
        self.assertEqual(p.text,
                         f"1 kernel report(s) in the serial log (named above; {SPLATS_JSON})")
        self.assertEqual(len(p.shown), 1)
        self.assertTrue(p.shown[0].startswith("  line 10: KASAN: BUG: KASAN: slab-out-of-bounds"))
        self.assertEqual(judge.findings(SANITIZED), ())

    def test_list_reports_makes_them_findings(self):
        b = dataclasses.replace(SANITIZED, list_reports=True)
        self.assertEqual(judge.judge(b), [])
        self.assertEqual(judge.findings(b), judge.listing(SANITIZED))
        # Only the reports: every other check stays.
        self.assertEqual(kinds(dataclasses.replace(b, rc=137)), [Kind.TIMEOUT])

    def test_sanitized_boot_without_splats_passes(self):
        b = dataclasses.replace(SANITIZED, splats=(), scan={**SCAN, "reports": []})
        self.assertEqual(judge.judge(b), [])

    def test_splat_line_the_grouping_missed(self):
        b = dataclasses.replace(SANITIZED, list_reports=True,
                                splats=SANITIZED.splats + ("    # WARNING: a program's line",))
        (p,) = judge.judge(b)
        self.assertEqual(p.kind, Kind.SPLATS_MISSED)
        self.assertEqual(p.shown, ("    # WARNING: a program's line",))
        self.assertIn("scripts/splats.py left out splat lines", p.text)

    def test_a_plain_boot_does_not_group_and_a_sanitized_does_not_fail_on_splats(self):
        self.assertEqual(kinds(dataclasses.replace(SANITIZED, sanitized=False)), [Kind.SPLAT])
        self.assertNotIn(Kind.SPLAT, kinds(SANITIZED))

    def test_problems_come_in_order(self):
        b = dataclasses.replace(SANITIZED, rc=3, listed=4,
                                splats=SANITIZED.splats + ("!!! stray",))
        self.assertEqual(kinds(b), [Kind.SPLATS_MISSED, Kind.REPORTS, Kind.PROGRAM_COUNT])
        b = dataclasses.replace(CLEAN, rc=124, splats=("Kernel panic",), ktap_rc=1, verdict=None)
        self.assertEqual(kinds(b), [Kind.TIMEOUT, Kind.SPLAT, Kind.KTAP_FAILED])

    def test_summary(self):
        self.assertEqual(judge.summary("patched", verdict(), "31.402"),
                         "patched boot: 3 of 3 programs reported; 7 tests passed, 0 failed, "
                         "2 skipped; boot-to-verdict 4.25 s, wall 31.402 s (judged by report.py)")


def clean_log(failed=0):
    """A plain boot's log (CRLF): three programs, /init's closing lines."""
    lines = ["[    0.000000] Linux version 7.3.0", "KTAP version 1", "1..3"]
    for n, name in enumerate(("timeout_classes", "timeout_classes_32", "futex_wait"), 1):
        status = "not ok" if n <= failed else "ok"
        lines += ["    KTAP version 1", "    1..1", f"    {status} 1 rel", f"# {name}: 0.100 s",
                  f"{status} {n} {name}"]
    lines += ["# boot-to-verdict: 4.250 s", f"# init: {failed} of 3 programs failed"]
    return "".join(line + "\r\n" for line in lines)


def judge_tree(parent):
    """PARENT/tree: the tree's kunit_parser (a link) and a copy of its
    console-badness.sh, all the judge reads of TS_SRC."""
    for path in (KUNIT, os.path.join(SRC, BADNESS)):
        if not os.path.exists(path):
            raise AssertionError(f"{path} not found: the judge reads with the tree's tools "
                                 "(make tree)")
    tree = os.path.join(parent, "tree")
    os.makedirs(os.path.dirname(os.path.join(tree, BADNESS)))
    os.symlink(KUNIT, os.path.join(tree, "tools", "testing", "kunit"))
    shutil.copy(os.path.join(SRC, BADNESS), os.path.join(tree, BADNESS))
    return tree


class JudgeBoot(unittest.TestCase):
    """`scripts/ts judge-boot` on a boot directory written here; TS_SRC is
    a tree of the real kunit_parser and console-badness.sh (or a broken
    one)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_boot_judge.")
        self.addCleanup(shutil.rmtree, self.dir)
        self.tree = judge_tree(self.dir)
        self.boots = os.path.join(self.dir, "tests-sanitized")
        self.programs = os.path.join(self.dir, "programs")
        with open(self.programs, "w") as f:
            f.write("timeout_classes\ntimeout_classes_32\nfutex_wait\n")

    def path(self, what, kernel="base"):
        return layout.result_file(self.boots, what, kernel=kernel)

    def boot(self, log, *args, rc=1, kernel="base"):
        """Write LOG (text, or None for none) as KERNEL's serial log and
        judge it: exit status, stdout, stderr."""
        os.makedirs(layout.run_dir(self.boots, kernel), exist_ok=True)
        if log is not None:
            with open(self.path("serial", kernel), "w", newline="") as f:
                f.write(log)
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "ts"), "judge-boot",
                            "--rc", str(rc), "--limit", "480", "--wall", "12.345", *args,
                            kernel, self.boots, self.programs],
                           capture_output=True, text=True, env={**os.environ, "TS_SRC": self.tree})
        return r.returncode, r.stdout, r.stderr

    def test_clean_boot_passes_with_its_summary(self):
        rc, out, err = self.boot(clean_log())
        self.assertEqual((rc, err), (0, ""))
        self.assertEqual(out.splitlines(), [
            "base boot: 3 of 3 programs reported; 3 tests passed, 0 failed, 0 skipped; "
            "boot-to-verdict 4.25 s, wall 12.345 s (judged by report.py)",
            f"base boot: serial log {self.path('serial')}, verdict {self.path('verdict')}"])
        self.assertTrue(os.path.isfile(self.path("verdict")))

    def test_failed_boot_names_each_problem_then_the_log(self):
        rc, out, err = self.boot(clean_log(failed=1), rc=1)
        self.assertEqual((rc, out), (1, ""))
        self.assertEqual(err.splitlines(), [
            "error: base boot: QEMU exited 1, but /init said 1 of 3 programs failed",
            f"error: base boot failed: serial log {self.path('serial')}"])
        self.assertEqual(self.boot(clean_log(failed=1), rc=3)[0], 0)

    def test_sanitized_boot_writes_what_the_old_tooling_wrote(self):
        with open(os.path.join(FIXTURES, "sanitized.log"), newline="") as f:
            log = f.read()
        rc, out, err = self.boot(log, "--sanitized")
        self.assertEqual((rc, out), (1, ""))
        with open(self.path("splats"), "rb") as f:
            written = f.read().replace(json.dumps(self.path("serial")).encode(), b'"LOG"')
        with open(os.path.join(FIXTURES, "sanitized-splats.json"), "rb") as f:
            self.assertEqual(written, f.read())
        with open(self.path("splats-text"), "rb") as f, \
                open(os.path.join(FIXTURES, "sanitized-splats.txt"), "rb") as g:
            listed = f.read()
            self.assertEqual(listed, g.read())
        shown = ["  " + line for line in listed.decode().splitlines()]
        self.assertEqual(err.splitlines(), shown + [
            f"error: base boot: 5 kernel report(s) in the serial log (named above; "
            f"{self.path('splats')})",
            f"error: base boot failed: serial log {self.path('serial')}"])
        # --list-reports: the same reports, listed as findings; the boot passes.
        rc, out, err = self.boot(log, "--sanitized", "--list-reports")
        self.assertEqual(rc, 0, err)
        self.assertEqual(err.splitlines(), [
            f"==> base: 5 kernel report(s), listed as findings in {self.path('splats')}:"] + shown)
        self.assertIn("base boot: 3 of 3 programs reported", out)

    def test_plain_boot_fails_on_a_splat(self):
        with open(os.path.join(FIXTURES, "sanitized.log"), newline="") as f:
            rc, out, err = self.boot(f.read())
        self.assertEqual(rc, 1)
        self.assertEqual(err.splitlines()[:6], [
            "WARNING: CPU: 0 PID: 1 at mm/slub.c:4242 kmem_cache_alloc_noprof+0x1a/0x40",
            "Call Trace:", "==================================================================",
            "BUG: KASAN: slab-out-of-bounds in hrtimer_nanosleep+0x1a/0x40", "Call Trace:",
            "error: base boot: kernel splat in the serial log (the first lines are above)"])
        self.assertFalse(os.path.exists(self.path("splats")))

    def test_what_the_ktap_reader_says_comes_before_the_problems(self):
        rc, _, err = self.boot("garbage\r\nKernel panic - not syncing: x\r\n", rc=137)
        self.assertEqual(rc, 1)
        lines = err.splitlines()
        self.assertEqual(lines[0], "Kernel panic - not syncing: x")
        self.assertTrue(lines[1].startswith(f"error: no KTAP test in {self.path('serial')}"))
        self.assertEqual(lines[2:5], [
            "error: base boot: timeout: the guest did not finish within 480 s",
            "error: base boot: kernel splat in the serial log (the first lines are above)",
            "error: base boot: the KTAP reader (tsanity.ktap) could not read the serial log"])

    def test_no_serial_log(self):
        rc, _, err = self.boot(None, rc=2)
        self.assertEqual(rc, 1)
        self.assertEqual(err, f"error: QEMU (exit 2) wrote no serial log {self.path('serial')}\n")

    def test_console_badness_missing_or_failing(self):
        os.remove(os.path.join(self.tree, BADNESS))
        rc, _, err = self.boot(clean_log())
        self.assertEqual(rc, 1)
        self.assertEqual(err, f"error: {os.path.join(self.tree, BADNESS)} not found\n")
        with open(os.path.join(self.tree, BADNESS), "w") as f:
            f.write("#!/bin/sh\necho 'no patterns' >&2\nexit 2\n")
        os.chmod(os.path.join(self.tree, BADNESS), 0o755)
        rc, _, err = self.boot(clean_log())
        self.assertEqual(rc, 1)
        self.assertEqual(err.splitlines(), [
            "no patterns", f"error: searching {self.path('serial')} for kernel splats failed"])


if __name__ == "__main__":
    unittest.main()
