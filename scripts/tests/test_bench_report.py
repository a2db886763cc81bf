"""Tests of scripts/bench-report.py, the instruction-count table of make bench."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "bench-report.py")


class BenchReport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_bench_report.")
        self.addCleanup(shutil.rmtree, self.dir)
        for name in ("objdiff.md", "bloat-o-meter-base-fixes.txt",
                     "bloat-o-meter-fixes-patched.txt"):
            with open(os.path.join(self.dir, name), "w") as f:
                f.write(name + "\n")

    def run_report(self, lines):
        """lines: {kernel: [serial line, ...]} of one round."""
        for k, ls in lines.items():
            os.makedirs(os.path.join(self.dir, k), exist_ok=True)
            with open(os.path.join(self.dir, k, "serial-1.log"), "w") as f:
                f.write("".join(f"    # bench {l}\n" for l in ls))
        return subprocess.run([sys.executable, REPORT, self.dir], capture_output=True, text=True)

    def test_equal_counts_are_zero_and_a_difference_shows(self):
        r = self.run_report({
            "base": ["ppoll einval insn/call: 380.18 380.18 380.18"],
            "fixes": ["ppoll einval insn/call: 380.18 380.18 380.18"],
            "patched": ["ppoll einval insn/call: 381.18 381.18 381.20"],
        })
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("| ppoll | einval | 380.18 | 380.18 | 381.18 | 0.00 / 0.00 / 0.02 | 0 | +1.00 |",
                      r.stdout)
        self.assertIn("- ppoll einval: +1.00 instructions per call", r.stdout)

    def test_a_difference_within_the_spread_is_zero(self):
        r = self.run_report({
            "base": ["futex_wait einval insn/call: 470.19 470.10 470.30"],
            "fixes": ["futex_wait einval insn/call: 470.19 470.10 470.30"],
            "patched": ["futex_wait einval insn/call: 470.25 470.20 470.28"],
        })
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("None: 0 within the spread on every path.", r.stdout)

    def test_a_spread_over_half_a_percent_fails_named(self):
        r = self.run_report({
            "base": ["setitimer einval insn/call: 360.00 364.00 360.00"],
            "fixes": ["setitimer einval insn/call: 360.00 360.00 360.00"],
            "patched": ["setitimer einval insn/call: 357.00 357.00 357.00"],
        })
        self.assertEqual(r.returncode, 1)
        self.assertIn("bench setitimer einval: spread 1.11 % on base", r.stderr)

    def test_a_path_missing_on_one_kernel_fails(self):
        r = self.run_report({
            "base": ["ppoll einval insn/call: 380.18 380.18"],
            "fixes": ["ppoll einval insn/call: 380.18 380.18"],
            "patched": ["pselect6 einval insn/call: 373.20 373.20"],
        })
        self.assertEqual(r.returncode, 1)
        self.assertIn("bench ppoll einval: missing on patched", r.stderr)


if __name__ == "__main__":
    unittest.main()
