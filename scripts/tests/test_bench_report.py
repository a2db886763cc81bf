"""Tests of scripts/bench-report.py, the instruction-count table of make bench."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "bench-report.py")
sys.path.insert(0, os.path.dirname(HERE))
from tsanity import layout  # noqa: E402


class BenchReport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_bench_report.")
        self.addCleanup(shutil.rmtree, self.dir)
        self.json = layout.result_file(self.dir, "bench", ext="json")
        for path in (layout.result_file(self.dir, "objdiff"),
                     layout.result_file(self.dir, "bloat-o-meter", old="base", new="fixes"),
                     layout.result_file(self.dir, "bloat-o-meter", old="fixes", new="patched")):
            with open(path, "w") as f:
                f.write(os.path.basename(path) + "\n")

    def round_log(self, kernel, n):
        """The serial log of round N of KERNEL, its directory made."""
        os.makedirs(layout.run_dir(self.dir, kernel), exist_ok=True)
        return layout.result_file(self.dir, "serial-round", kernel=kernel, round=n)

    def run_report(self, lines, raw=None, version="7.3"):
        """lines: {kernel: ["# bench" lines without the prefix, ...]} of one
        round; raw: {kernel: [other serial lines]}; version: the series'
        kernel (TS_KERNEL), whose fixes part the report judges by."""
        for k, ls in lines.items():
            with open(self.round_log(k, 1), "w") as f:
                f.write("".join(f"    # bench {l}\n" for l in ls))
                f.write("".join(f"{l}\n" for l in (raw or {}).get(k, [])))
        env = dict(os.environ, TS_KERNEL=version)
        return subprocess.run([sys.executable, REPORT, self.dir], capture_output=True, text=True,
                              env=env)

    @staticmethod
    def fixed_entries(base_refuse):
        """The quick and refuse paths of every fixes' entry of 7.3's
        series, one ABI each; base answers base_refuse on the refusing
        fixes' refuse paths.  The saturating fixes' entries (io_uring's SQE
        timeouts and wait) cost the same everywhere, and every kernel
        refuses the SQE timeouts' {-1, 0}."""
        entries = ("io_uring_enter-reg_wait", "io_uring_register-sync_cancel", "io_getevents",
                   "setsockopt-vsock_connect_timeout", "ioctl-pps_fetch")
        out = {"base": [], "fixes": [], "patched": []}
        for i, e in enumerate(entries):
            out["base"] += [f"x86_64:{e} quick insn/call: {600 + i}.00 {600 + i}.00",
                            f"x86_64:{e} refuse not refused: {base_refuse}"]
            for k in ("fixes", "patched"):
                out[k] += [f"x86_64:{e} quick insn/call: {604 + i}.00 {604 + i}.00",
                           f"x86_64:{e} refuse insn/call: 500.00 500.00"]
        for k in out:
            out[k] += ["x86_64:io_uring_enter-ext_arg quick insn/call: 700.00 700.00",
                       "x86_64:io_uring-timeout quick insn/call: 900.00 900.00",
                       "x86_64:io_uring-timeout refuse insn/call: 500.00 500.00"]
        return out

    def test_equal_counts_are_zero_and_a_difference_shows(self):
        lines = self.fixed_entries("0")
        lines["base"].append("x86_64:ppoll refuse insn/call: 380.18 380.18 380.18")
        lines["fixes"].append("x86_64:ppoll refuse insn/call: 380.18 380.18 380.18")
        lines["patched"].append("x86_64:ppoll refuse insn/call: 381.18 381.18 381.20")
        r = self.run_report(lines)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("| ppoll | x86_64 | refuse | 380.18 | 380.18 | 381.18 | "
                      "0.00 / 0.00 / 0.02 | 0 | +1.00 |", r.stdout)
        self.assertIn("- x86_64:ppoll refuse: +1.00 instructions per call", r.stdout)
        with open(self.json) as f:
            rows = {(x["entry"], x["path"]): x for x in json.load(f)}
        self.assertIsNone(rows[("ppoll", "refuse")]["fix"])
        self.assertEqual(rows[("io_uring_enter-ext_arg", "quick")]["fix"], "0002")

    def test_the_abi_is_a_column(self):
        r = self.run_report({
            k: ["i386:futex_time32-wait quick insn/call: 1108.73 1108.73",
                "i386:futex_time64-wait quick insn/call: 1137.73 1137.73"]
            for k in ("base", "fixes", "patched")})
        self.assertIn("| futex_time32-wait | i386 | quick | 1108.73 |", r.stdout)
        self.assertIn("| futex_time64-wait | i386 | quick | 1137.73 |", r.stdout)

    def test_a_difference_within_the_spread_is_zero(self):
        r = self.run_report({
            "base": ["x86_64:futex_wait refuse insn/call: 470.19 470.10 470.30"],
            "fixes": ["x86_64:futex_wait refuse insn/call: 470.19 470.10 470.30"],
            "patched": ["x86_64:futex_wait refuse insn/call: 470.25 470.20 470.28"],
        })
        self.assertIn("None: 0 within the spread on every path.", r.stdout)

    def test_a_spread_over_half_a_percent_fails_named(self):
        r = self.run_report({
            "base": ["x86_64:setitimer refuse insn/call: 360.00 364.00 360.00"],
            "fixes": ["x86_64:setitimer refuse insn/call: 360.00 360.00 360.00"],
            "patched": ["x86_64:setitimer refuse insn/call: 357.00 357.00 357.00"],
        })
        self.assertEqual(r.returncode, 1)
        self.assertIn("bench x86_64:setitimer refuse: spread 1.11 % on base", r.stderr)

    def test_the_sleeping_quick_paths_of_every_abi_are_not_judged(self):
        lines = ["{}:{} quick insn/call: 50000.00 51000.00".format(*e) for e in
                 (("x86_64", "nanosleep"), ("i386", "nanosleep_time32"),
                  ("i386", "clock_nanosleep_time64-rel"), ("i386", "clock_nanosleep_time32-rel"))]
        r = self.run_report({k: lines for k in ("base", "fixes", "patched")})
        self.assertNotIn("spread", r.stderr)
        self.assertIn("| clock_nanosleep_time32-rel (sleeps: virtual time) | i386 | quick |",
                      r.stdout)
        # The absolute sleep returns at once: it is judged.
        r = self.run_report({k: ["i386:clock_nanosleep_time32-abs quick insn/call: 3600.00 "
                                 "3700.00"] for k in ("base", "fixes", "patched")})
        self.assertEqual(r.returncode, 1)
        self.assertIn("bench i386:clock_nanosleep_time32-abs quick: spread", r.stderr)

    def test_a_path_missing_on_one_kernel_fails(self):
        with open(self.json, "w") as f:
            f.write("[]\n")  # an earlier run's
        r = self.run_report({
            "base": ["x86_64:ppoll refuse insn/call: 380.18 380.18"],
            "fixes": ["x86_64:ppoll refuse insn/call: 380.18 380.18"],
            "patched": ["x86_64:pselect6 refuse insn/call: 373.20 373.20"],
        })
        self.assertEqual(r.returncode, 1)
        self.assertIn("bench x86_64:ppoll refuse: missing on patched", r.stderr)
        # A failed run leaves no figures to quote, not even an earlier run's.
        self.assertFalse(os.path.exists(self.json))

    def test_a_fixed_entry_not_refused_on_base_is_shown_and_passes(self):
        r = self.run_report(self.fixed_entries("blocked"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("| io_getevents | x86_64 | refuse | not refused (blocked) | 500.00 | "
                      "500.00 | - / 0.00 / 0.00 | n/a | 0 |", r.stdout)
        with open(self.json) as f:
            rows = json.load(f)
        row = [x for x in rows if x["entry"] == "io_getevents" and x["path"] == "refuse"][0]
        self.assertEqual(row["not refused"], {"base": ["blocked"]})
        self.assertEqual(row["fixes-base"], "n/a")
        self.assertEqual(row["fix"], "0006")

    def test_the_cost_of_each_fix_is_stated(self):
        r = self.run_report(self.fixed_entries("0"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("- 0006 aio: the io_getevents() and io_pgetevents() timeout checked: "
                      "x86_64:io_getevents +4.00 (+4.00)", r.stdout)
        self.assertIn("- 0009 PPS_FETCH: a negative nsec refused: x86_64:ioctl-pps_fetch "
                      "+4.00 (+4.00)", r.stdout)

    def test_a_fix_without_a_measured_entry_fails(self):
        lines = self.fixed_entries("0")
        for k in lines:
            lines[k] = [l for l in lines[k] if "ioctl-pps_fetch" not in l]
        r = self.run_report(lines)
        self.assertEqual(r.returncode, 1)
        self.assertIn("fix 0009: no quick path of ioctl-pps_fetch measured", r.stderr)

    def test_a_fixed_entry_not_refused_on_fixes_or_patched_fails(self):
        for k in ("fixes", "patched"):
            lines = self.fixed_entries("ETIME")
            lines[k] = [l.replace("io_getevents refuse insn/call: 500.00 500.00",
                                  "io_getevents refuse not refused: ETIME")
                        for l in lines[k]]
            r = self.run_report(lines)
            self.assertEqual(r.returncode, 1, k)
            self.assertIn(f"bench x86_64:io_getevents refuse: not refused on {k} (ETIME): "
                          "fixes and patched must refuse it", r.stderr)

    def test_another_entry_not_refused_fails_even_on_base(self):
        r = self.run_report({
            "base": ["x86_64:ppoll refuse not refused: 0"],
            "fixes": ["x86_64:ppoll refuse insn/call: 380.18 380.18"],
            "patched": ["x86_64:ppoll refuse insn/call: 380.18 380.18"],
        })
        self.assertEqual(r.returncode, 1)
        self.assertIn("bench x86_64:ppoll refuse: not refused on base (0): only the fixes' "
                      "entries may be not refused, on base", r.stderr)

    def test_a_fixed_entry_refused_on_base_fails(self):
        lines = self.fixed_entries("0")
        lines["base"] = [l.replace("ioctl-pps_fetch refuse not refused: 0",
                                   "ioctl-pps_fetch refuse insn/call: 500.00 500.00")
                         for l in lines["base"]]
        r = self.run_report(lines)
        self.assertEqual(r.returncode, 1)
        self.assertIn("bench x86_64:ioctl-pps_fetch refuse: refused on base, so it does not try "
                      "what the fix refuses", r.stderr)

    def test_a_wrong_answer_or_a_failed_guest_test_fails(self):
        ok = ["x86_64:ppoll refuse insn/call: 380.18 380.18"]
        r = self.run_report({
            "base": ok, "fixes": ok,
            "patched": ok + ["x86_64:ppoll quick wrong answer: EINVAL (expected 0)"],
        })
        self.assertEqual(r.returncode, 1)
        self.assertIn("patched: bench x86_64:ppoll quick wrong answer: EINVAL (expected 0)",
                      r.stderr)
        r = self.run_report({"base": ok, "fixes": ok, "patched": ok},
                            raw={"fixes": ["    not ok 3 bench x86_64:ppoll quick"]})
        self.assertEqual(r.returncode, 1)
        self.assertIn("fixes: guest test failed: bench x86_64:ppoll quick", r.stderr)

    def test_a_line_without_its_abi_fails(self):
        ok = ["x86_64:ppoll refuse insn/call: 380.18 380.18"]
        r = self.run_report({"base": ok, "fixes": ok,
                             "patched": ok + ["ppoll quick insn/call: 863.74 863.74"]})
        self.assertEqual(r.returncode, 1)
        self.assertIn("patched: unreadable bench line: ppoll quick insn/call", r.stderr)

    def test_a_single_repeat_fails(self):
        r = self.run_report({
            "base": ["x86_64:ppoll refuse insn/call: 380.18 380.18"],
            "fixes": ["x86_64:ppoll refuse insn/call: 380.18"],
            "patched": ["x86_64:ppoll refuse insn/call: 380.18 380.18"],
        })
        self.assertEqual(r.returncode, 1)
        self.assertIn("bench x86_64:ppoll refuse: fewer than 2 repeats on fixes", r.stderr)

    def test_refused_in_one_round_and_not_in_another_fails(self):
        lines = self.fixed_entries("ENOENT")
        self.run_report(lines)
        with open(self.round_log("base", 2), "w") as f:
            f.write("    # bench x86_64:io_uring_register-sync_cancel refuse insn/call: "
                    "636.74 636.74\n")
        r = subprocess.run([sys.executable, REPORT, self.dir], capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("bench x86_64:io_uring_register-sync_cancel refuse: refused in one round "
                      "and not in another on base (ENOENT)", r.stderr)

    def test_inits_own_time_line_is_not_a_bench_line(self):
        ok = ["x86_64:ppoll refuse insn/call: 380.18 380.18"]
        r = self.run_report({k: ok for k in ("base", "fixes", "patched")},
                            raw={k: ["# bench: 0.603 s", "# bench_32: 0.875 s"]
                                 for k in ("base", "fixes", "patched")})
        self.assertNotIn("unreadable", r.stderr)


class BenchReport73(unittest.TestCase):
    """7.3's series: io_uring's SQE timeouts and wait saturate (every kernel
    refuses the SQE timeouts' {-1, 0}; the wait has no refuse path), and
    the registered wait region, sync cancel, aio, vsock and PPS refuse."""

    setUp = BenchReport.setUp
    run_report = BenchReport.run_report
    round_log = BenchReport.round_log

    def lines73(self, ext_arg_refuse=None, timeout_base="insn/call: 500.00 500.00"):
        out = {"base": [], "fixes": [], "patched": []}
        refusing = ("io_uring_enter-reg_wait", "io_uring_register-sync_cancel", "io_getevents",
                    "setsockopt-vsock_connect_timeout", "ioctl-pps_fetch")
        for i, e in enumerate(refusing):
            out["base"] += [f"x86_64:{e} quick insn/call: {600 + i}.00 {600 + i}.00",
                            f"x86_64:{e} refuse not refused: ETIME"]
            for k in ("fixes", "patched"):
                out[k] += [f"x86_64:{e} quick insn/call: {604 + i}.00 {604 + i}.00",
                           f"x86_64:{e} refuse insn/call: 500.00 500.00"]
        for k in out:
            out[k] += ["x86_64:io_uring_enter-ext_arg quick insn/call: 700.00 700.00",
                       "x86_64:io_uring-timeout quick insn/call: 900.00 900.00",
                       "x86_64:io_uring-timeout refuse " +
                       (timeout_base if k == "base" else "insn/call: 500.00 500.00")]
            if ext_arg_refuse:
                out[k].append(f"x86_64:io_uring_enter-ext_arg refuse {ext_arg_refuse}")
        return out

    def test_saturating_fixes_are_costed_and_the_refusing_ones_judged(self):
        r = self.run_report(self.lines73(), version="7.3")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("- 0002 io_uring_enter(): the EXT_ARG wait timeout saturated: "
                      "x86_64:io_uring_enter-ext_arg +0.00 (0)", r.stdout)
        self.assertIn("- 0003 io_uring_enter(): the wait timeout of a registered wait region "
                      "checked: x86_64:io_uring_enter-reg_wait +4.00 (+4.00)", r.stdout)
        self.assertIn("| io_uring_enter-reg_wait | x86_64 | refuse | not refused (ETIME) |",
                      r.stdout)
        with open(self.json) as f:
            rows = {(x["entry"], x["path"]): x for x in json.load(f)}
        self.assertEqual(rows[("io_uring_register-sync_cancel", "refuse")]["fix"], "0005")
        self.assertEqual(rows[("io_uring-timeout", "quick")]["fix"], "0001")

    def test_a_saturating_fixs_entry_not_refused_on_base_fails(self):
        r = self.run_report(self.lines73(timeout_base="not refused: 0"), version="7.3")
        self.assertEqual(r.returncode, 1)
        self.assertIn("io_uring-timeout refuse: not refused on base (0): only the fixes' "
                      "entries may be not refused, on base", r.stderr)

    def test_a_kernel_without_a_series_fails_named(self):
        # The stable kernels have backports, not a series of their own.
        for version in ("6.1", "6.12"):
            r = self.run_report(self.lines73(), version=version)
            self.assertNotEqual(r.returncode, 0, version)
            self.assertIn(f"knows no fixes part of Linux {version}:", r.stderr)


if __name__ == "__main__":
    unittest.main()
