"""Tests of scripts/splats.py, the reader and judge of a sanitized boot's
kernel reports.  The logs are written here in the shape a guest prints
(CRLF, /init's indentation, kernel lines at column 0), the reports in the
shape 6.12 prints them.  The tree's console-badness.sh is used where the
patched tree exists (make tree), else a stand-in with the same patterns."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SPLATS = os.path.join(HERE, "..", "splats.py")
sys.path.insert(0, os.path.join(HERE, ".."))
from tsanity import cli as ts_cli, layout  # noqa: E402
from tsanity import splats  # noqa: E402

SRC = ts_cli.context()[2].src
TREE_BADNESS = os.path.join(SRC, "tools", "testing", "selftests", "rcutorture", "bin",
                            "console-badness.sh")
# 6.12's patterns (console-badness.sh), for a machine without the tree.
STAND_IN = r"""#!/bin/bash
grep -E 'Badness|WARNING:|Warn|BUG|===========|BUG: KCSAN:|Call Trace:|Oops:|detected stalls on CPUs/tasks:|self-detected stall on CPU|Stall ended before state dump start|\?\?\? Writer stall state|rcu_.*kthread starved for|!!!' |
grep -v 'ODEBUG: ' |
grep -v 'This means that this is a DEBUG kernel and it is'
"""


def case(sec, nsec, got="EINVAL"):
    return (f"    # x86_64 nanosleep rel sec={sec} nsec={nsec}: kernel_sec=0 kernel_nsec=0 "
            f"class=invalid expected=EINVAL got={got}")


KASAN = [
    "==================================================================",
    "BUG: KASAN: slab-out-of-bounds in hrtimer_nanosleep+0x1a/0x40",
    "Read of size 8 at addr ffff888004a1c2f8 by task timeout_classes/57",
    "",
    "CPU: 0 UID: 0 PID: 57 Comm: timeout_classes Not tainted 6.12.0 #1",
    "Call Trace:",
    " <TASK>",
    " dump_stack_lvl+0x1a/0x30",
    " kasan_report+0xb0/0xe0",
    " hrtimer_nanosleep+0x1a/0x40",
    " __x64_sys_nanosleep+0x50/0x80",
    " do_syscall_64+0x40/0xe0",
    " </TASK>",
    "Memory state around the buggy address:",
    " ffff888004a1c280: 00 00 00 00 00 00 00 00 fc fc fc fc fc fc fc fc",
    ">ffff888004a1c2f0: 00 fc fc fc fc fc fc fc fc fc fc fc fc fc fc fc",
    "                                                                ^",
    "==================================================================",
]


def ubsan(what="shift-out-of-bounds in kernel/time/hrtimer.c:12:3", fn="__ia32_sys_futex"):
    return [
        "------------[ cut here ]------------",
        f"UBSAN: {what}",
        "shift exponent 64 is too large for 64-bit type 'long long int'",
        "CPU: 0 UID: 0 PID: 58 Comm: timeout_classes Not tainted 6.12.0 #1",
        "Call Trace:",
        " <TASK>",
        f" {fn}+0x50/0x80",
        " </TASK>",
        "---[ end trace ]---",
    ]


ODEBUG = [
    "------------[ cut here ]------------",
    "ODEBUG: activate active (active state 0) object: ffffc90000197d60 object type: hrtimer hint: hrtimer_wakeup+0x0/0x30",
    "WARNING: CPU: 0 PID: 60 at lib/debugobjects.c:514 debug_print_object+0x82/0xb0",
    "Call Trace:",
    " __x64_sys_io_uring_enter+0x10/0x20",
    "---[ end trace 0000000000000000 ]---",
]

LOCKDEP = [
    "",
    "======================================================",
    "WARNING: possible circular locking dependency detected",
    "6.12.0 #1 Not tainted",
    "------------------------------------------------------",
    " Possible unsafe locking scenario:",
    "",
    "       CPU0                    CPU1",
    "       ----                    ----",
    "    lock(&ctx->uring_lock);",
    "                               lock(&ctx->timeout_lock);",
    "",
    " *** DEADLOCK ***",
    "Call Trace:",
    " __do_sys_io_uring_enter+0x10/0x20",
]


def program(name, body, n, status="ok"):
    return ["    TAP version 13", "    1..1"] + body + [f"# {name}: 0.100 s", f"{status} {n} {name}"]


def log(*parts, boot=()):
    lines = list(boot) + ["KTAP version 1", "1..3"]
    for p in parts:
        lines += p
    return lines + ["# boot-to-verdict: 1.000 s", "# init: 0 of 3 programs failed"]


class WithBadness(unittest.TestCase):
    """A temporary directory, and the console-badness.sh to use."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_splats.")
        self.addCleanup(shutil.rmtree, self.dir)
        self.badness = TREE_BADNESS
        if not os.access(TREE_BADNESS, os.X_OK):
            self.badness = os.path.join(self.dir, "console-badness.sh")
            with open(self.badness, "w") as f:
                f.write(STAND_IN)
            os.chmod(self.badness, 0o755)


class Splats(WithBadness):
    def scan(self, lines, kernel="base"):
        os.makedirs(layout.run_dir(self.dir, kernel), exist_ok=True)
        path = layout.result_file(self.dir, "serial", kernel=kernel)
        with open(path, "w", newline="") as f:
            f.write("".join(line + "\r\n" for line in lines))
        out = layout.result_file(self.dir, "splats", kernel=kernel)
        r = subprocess.run([sys.executable, SPLATS, "scan", "--badness", self.badness, path, out],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            return json.load(f)["reports"]

    def judge(self):
        return subprocess.run([sys.executable, SPLATS, "report", self.dir, "base", "patched"],
                              capture_output=True, text=True)

    def test_clean_log_has_no_report(self):
        lines = log(program("timeout_classes", [case(0, -1), case(0, 1)], 1))
        self.assertEqual(self.scan(lines), [])

    def test_kasan_report_belongs_to_the_input_line_after_it(self):
        lines = log(program("timeout_classes", [case(0, -1)] + KASAN + [case(1, -1), case(2, -1)], 1))
        reps = self.scan(lines)
        self.assertEqual(len(reps), 1, reps)
        r = reps[0]
        self.assertEqual(r["kind"], "KASAN")
        self.assertEqual(r["title"], KASAN[1])
        self.assertEqual(r["program"], "timeout_classes")
        self.assertIn("sec=1 nsec=-1:", r["input"][1])
        self.assertEqual(r["syscall"], "nanosleep")
        # Both lines of "=" and the call trace are the report's.
        texts = [t for _, t in r["lines"]]
        self.assertEqual(texts.count(KASAN[0]), 2)
        self.assertIn("Call Trace:", texts)

    def test_each_ubsan_report_is_one_and_odebug_keeps_its_warn(self):
        body = [case(0, -1)] + ubsan() + ubsan("array-index-out-of-bounds in x.c:1:1") + [case(3, 0)]
        body += ODEBUG + [case(4, 0)]
        reps = self.scan(log(program("timeout_classes", body, 1)))
        self.assertEqual([r["kind"] for r in reps], ["UBSAN", "UBSAN", "debugobjects"], reps)
        self.assertEqual([r["syscall"] for r in reps], ["futex", "futex", "io_uring_enter"])
        self.assertTrue(all("sec=3 nsec=0:" in r["input"][1] for r in reps[:2]))
        self.assertIn("sec=4 nsec=0:", reps[2]["input"][1])
        self.assertEqual(reps[2]["headlines"], ODEBUG[1:3])

    def test_lockdep_scenario_lines_stay_in_the_report(self):
        # "    lock(" is indented like a program's line, but is not one.
        reps = self.scan(log(program("timeout_classes", [case(0, -1)] + LOCKDEP + [case(5, 0)], 1)))
        self.assertEqual(len(reps), 1, reps)
        self.assertEqual(reps[0]["kind"], "lockdep")
        self.assertEqual(reps[0]["syscall"], "io_uring_enter")
        self.assertIn("sec=5 nsec=0:", reps[0]["input"][1])

    def test_program_without_input_lines_and_forms_lines(self):
        futex = program("futex_wait", ["    # futex_wait: step one"] + ubsan() + ["    ok 1 futex step"], 2)
        forms = program("timeout_forms", ubsan() + ["    # form poll native neg ms=-1: blocked"], 3)
        reps = self.scan(log(program("timeout_classes", [case(0, 0)], 1), futex, forms))
        self.assertEqual([r["program"] for r in reps], ["futex_wait", "timeout_forms"])
        self.assertIsNone(reps[0]["input"])
        self.assertEqual(reps[0]["next"][1], "ok 1 futex step")
        self.assertEqual(reps[1]["input"][1], "# form poll native neg ms=-1: blocked")

    def test_report_at_the_end_of_a_program_takes_no_input_of_the_next(self):
        first = program("timeout_classes", [case(0, 0)] + KASAN, 1, "not ok")
        reps = self.scan(log(first, program("timeout_classes_32", [case(9, 9)], 2)))
        self.assertEqual(len(reps), 1)
        self.assertEqual(reps[0]["program"], "timeout_classes")
        self.assertIsNone(reps[0]["input"])

    def test_boot_and_unfinished_program(self):
        boot = ["WARNING: CPU: 0 PID: 1 at mm/foo.c:1 foo+0x0/0x10"]
        lines = ["KTAP version 1", "1..3", "    TAP version 13", case(0, 0)] + ubsan()
        reps = self.scan(boot + lines)
        self.assertEqual([r["program"] for r in reps],
                         ["(boot, before the first program)", "program 1 (its part of the log did not end)"])
        self.assertEqual(reps[0]["kind"], "WARN")

    def test_every_splat_line_is_in_a_report(self):
        # A stray line of the badness list with no headline is a report.
        reps = self.scan(log(program("timeout_classes", [case(0, 0), "!!! something", case(1, 0)], 1)))
        self.assertEqual(len(reps), 1)
        self.assertEqual(reps[0]["title"], "!!! something")
        self.assertEqual(reps[0]["kind"], "other")

    def test_judge_lists_base_and_fails_on_patched(self):
        self.scan(log(program("timeout_classes", [case(0, 0)] + KASAN + [case(7, 7)], 1)), "base")
        self.scan(log(program("timeout_classes", [case(0, 0), case(7, 7)], 1)), "patched")
        r = self.judge()
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(layout.result_file(self.dir, "sanitizer-reports", old="base", new="patched")) as f:
            md = f.read()
        self.assertIn("## base: 1 report", md)
        self.assertIn("sec=7 nsec=7:", md)
        self.assertIn("patched gave no report", md)
        self.scan(log(program("timeout_classes", [case(0, 0)] + ubsan() + [case(7, 7)], 1)), "patched")
        r = self.judge()
        self.assertEqual(r.returncode, 1)
        self.assertIn("patched: report at", r.stderr)
        self.assertIn("UBSAN: shift-out-of-bounds", r.stderr)
        self.assertIn("sec=7 nsec=7:", r.stderr)

    def test_judge_says_base_had_none_and_fails_without_a_scan(self):
        self.scan(log(program("timeout_classes", [case(0, 0)], 1)), "base")
        r = self.judge()
        self.assertEqual(r.returncode, 1)
        self.assertIn("patched: no reports read", r.stderr)
        self.scan(log(program("timeout_classes", [case(0, 0)], 1)), "patched")
        r = self.judge()
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(layout.result_file(self.dir, "sanitizer-reports", old="base", new="patched")) as f:
            self.assertIn("base gave no report", f.read())

    def test_a_checker_that_stopped_is_noted(self):
        body = [case(0, 0)] + KASAN + ["Disabling lock debugging due to kernel taint", case(1, 0)]
        path = layout.result_file(self.dir, "splats", kernel="base")
        self.scan(log(program("timeout_classes", body, 1)))
        with open(path) as f:
            notes = json.load(f)["notes"]
        self.assertEqual([t for _, t in notes], ["Disabling lock debugging due to kernel taint"])

    def test_failing_badness_script_fails_the_scan(self):
        bad = os.path.join(self.dir, "bad.sh")
        with open(bad, "w") as f:
            f.write("#!/bin/sh\nexit 2\n")
        os.chmod(bad, 0o755)
        path = os.path.join(self.dir, "console.log")
        with open(path, "w") as f:
            f.write("KTAP version 1\n")
        r = subprocess.run([sys.executable, SPLATS, "scan", "--badness", bad, path,
                            os.path.join(self.dir, "s.json")], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("failed (exit 2)", r.stderr)


class Detect(WithBadness):
    """detect(), the one detector: what a plain boot fails on and what a
    sanitized boot's reports are made of."""

    def test_clean_lines_have_no_splat(self):
        found = splats.detect(log(program("timeout_classes", [case(0, 0)], 1)), self.badness)
        self.assertEqual((found.plain(), found.numbers()), ([], []))

    def test_plain_lists_badness_then_the_panic_path_and_leaves_odebug(self):
        lines = ["boot"] + KASAN[:3] + ["Kernel panic - not syncing: x"] + ODEBUG[:2]
        found = splats.detect(lines, self.badness)
        # console-badness.sh's lines (BUG: KASAN: is one), then the panic
        # path's (BUG: KASAN: again, Kernel panic); ODEBUG: is neither's.
        self.assertEqual(found.plain(), [KASAN[0], KASAN[1], KASAN[1], lines[4]])
        self.assertEqual([n for n, _ in found.odebug], [7])
        # A sanitized boot groups each once, ODEBUG's too.
        self.assertEqual(found.numbers(), [2, 3, 5, 7])

    def test_failing_badness_script_is_named_with_what_it_said(self):
        bad = os.path.join(self.dir, "bad.sh")
        with open(bad, "w") as f:
            f.write("#!/bin/sh\necho 'no patterns' >&2\nexit 2\n")
        os.chmod(bad, 0o755)
        with self.assertRaises(splats.BadnessFailed) as cm:
            splats.detect(["KTAP version 1"], bad)
        self.assertEqual(cm.exception.stderr, "no patterns\n")
        self.assertIn(f"{bad} failed (exit 2): no patterns", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
