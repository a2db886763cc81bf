"""Tests of scripts/forms.py, the map of the timeouts outside the contract."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
FORMS = os.path.join(HERE, "..", "forms.py")

LINES = [
    "# form select native neg sec=-1 usec=0: EINVAL",
    "# form select native subsec sec=0 usec=1000000: 1",
    "# form SO_RCVTIMEO native neg sec=-1 usec=0: 0 read-back=0.000000",
    "# form SO_RCVTIMEO native subsec sec=0 usec=-1: EDOM",
    "# form poll native neg ms=-1: blocked",
    "# form poll native zero ms=0: 0",
    "# form poll compat zero ms=0: 0",
]


def verdict(lines):
    return {"tests": [{"name": "timeout_forms", "status": "PASS", "log": lines, "tests": []}]}


class Forms(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_forms.")
        self.addCleanup(shutil.rmtree, self.dir)

    def run_forms(self, old_lines, new_lines):
        for k, lines in (("base", old_lines), ("patched", new_lines)):
            os.makedirs(os.path.join(self.dir, k), exist_ok=True)
            with open(os.path.join(self.dir, k, "verdict.json"), "w") as f:
                json.dump(verdict(lines), f)
        return subprocess.run([sys.executable, FORMS, self.dir, "base", "patched"],
                              capture_output=True, text=True)

    def svg(self):
        with open(os.path.join(self.dir, "forms-base-patched.svg")) as f:
            return f.read()

    def test_same_answers_pass_and_exceptions_stand_out(self):
        r = self.run_forms(LINES, LINES)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("4 interfaces x ABIs, 7 inputs on both kernels, 5 interfaces not measured, "
                      "4 answers not the contract's", r.stdout)
        s = self.svg()
        # One row label per (interface, ABI), one red cell per exception.
        self.assertEqual(len(re.findall(r'font-weight="bold">[^<]+ \((native|compat)\)<', s)), 4)
        # And one row, with its reason, per interface the boot does not run.
        self.assertEqual(len(re.findall(r'font-weight="bold">[^<]+ \(not measured\)<', s)), 5)
        self.assertEqual(s.count('fill="#f4a6a6"'), 4)

    def test_a_difference_fails_named(self):
        changed = [l.replace("usec=1000000: 1", "usec=1000000: EINVAL") for l in LINES]
        r = self.run_forms(LINES, changed)
        self.assertEqual(r.returncode, 1)
        self.assertIn("select native subsec sec=0 usec=1000000: base answers 1, patched EINVAL",
                      r.stderr)

    def test_an_input_on_one_kernel_only_fails(self):
        r = self.run_forms(LINES, LINES[:-1])
        self.assertEqual(r.returncode, 1)
        self.assertIn("poll compat zero ms=0: measured on base only", r.stderr)

    def test_no_line_fails(self):
        r = self.run_forms([], [])
        self.assertEqual(r.returncode, 1)
        self.assertIn("no timeout_forms line", r.stderr)

    def test_the_picture_renders(self):
        if not shutil.which("rsvg-convert"):
            self.skipTest("rsvg-convert not installed (Debian librsvg2-bin; scripts/deps.sh)")
        self.assertEqual(self.run_forms(LINES, LINES).returncode, 0)
        m = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', self.svg())
        png = os.path.join(self.dir, "forms.png")
        subprocess.run(["rsvg-convert", "-o", png, os.path.join(self.dir, "forms-base-patched.svg")],
                       check=True)
        with open(png, "rb") as f:
            head = f.read(24)
        self.assertEqual(head[:8], b"\x89PNG\r\n\x1a\n")
        self.assertEqual(struct.unpack(">II", head[16:24]), (int(m[1]), int(m[2])))


if __name__ == "__main__":
    unittest.main()
