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
sys.path.insert(0, os.path.dirname(HERE))
from tsanity import layout  # noqa: E402

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
    # The measured interfaces of LINES, and the two NOT_MEASURED gives a
    # reason for: the table the map must cover.
    IDS = ["select", "SO_RCVTIMEO", "poll", "LPSETTIMEOUT", "PPSETTIME"]

    def setUp(self):
        self.ids = list(self.IDS)
        self.dir = tempfile.mkdtemp(prefix="test_forms.")
        self.addCleanup(shutil.rmtree, self.dir)

    def run_forms(self, old_lines, new_lines, rules=""):
        for k, lines in (("base", old_lines), ("patched", new_lines)):
            os.makedirs(layout.run_dir(self.dir, k), exist_ok=True)
            with open(layout.result_file(self.dir, "verdict", kernel=k), "w") as f:
                json.dump(verdict(lines), f)
        intended = os.path.join(self.dir, "intended")
        with open(intended, "w") as f:
            f.write(rules)
        ids = os.path.join(self.dir, "ids")
        with open(ids, "w") as f:
            f.write("\n".join(self.ids) + "\n")
        return subprocess.run([sys.executable, FORMS, "--intended", intended, "--ids", ids,
                               self.dir, "base", "patched"], capture_output=True, text=True)

    def map_file(self, ext):
        """The map of base and patched, as EXT (md, svg, json)."""
        return layout.result_file(self.dir, "forms", old="base", new="patched", ext=ext)

    def svg(self):
        with open(self.map_file("svg")) as f:
            return f.read()

    def test_same_answers_pass_and_exceptions_stand_out(self):
        r = self.run_forms(LINES, LINES)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("4 interfaces x ABIs, 7 inputs on both kernels, 0 answered differently "
                      "(intended), 2 interfaces not measured, 4 answers not the contract's",
                      r.stdout)
        s = self.svg()
        # One row label per (interface, ABI) of report.json's rows, one red
        # cell per (row, input class) that holds an exception.
        with open(self.map_file("json")) as f:
            rows = json.load(f)["rows"]
        labels = re.findall(r'font-weight="bold">([^<]+) \((native|compat)\)<', s)
        self.assertEqual(sorted(labels), sorted((r["interface"], r["abi"]) for r in rows))
        self.assertEqual(len(labels), 4)
        # And one row, with its reason, per interface the boot does not run.
        self.assertEqual(len(re.findall(r'font-weight="bold">[^<]+ \(not measured\)<', s)), 2)
        self.assertEqual(s.count('fill="#f4a6a6"'), 4)
        # A column per input class, in order.
        self.assertEqual(re.findall(r'y="62" font-weight="bold">(\w+)<', s),
                         ["neg", "zero", "tiny", "huge", "subsec"])

    def test_an_intended_difference_passes_with_its_rule(self):
        changed = [l.replace("usec=1000000: 1", "usec=1000000: EINVAL") for l in LINES]
        rule = "form:select * usec>=1000000 1 EINVAL select\n"
        r = self.run_forms(LINES, changed, rule)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("1 answered differently (intended)", r.stdout)
        # The same rule where the kernels answer alike fails, named.
        r = self.run_forms(LINES, LINES, rule)
        self.assertEqual(r.returncode, 1)
        self.assertIn("select native subsec sec=0 usec=1000000: ", r.stderr)
        self.assertIn("both answer 1", r.stderr)
        # A rule whose answers are not the ones measured fails.
        r = self.run_forms(LINES, changed, "form:select * usec>=1000000 1 EDOM select\n")
        self.assertEqual(r.returncode, 1)
        self.assertIn("says 1 -> EDOM", r.stderr)
        # A rule that covers no input fails.
        r = self.run_forms(LINES, changed, rule + "form:PPS_FETCH * nsec<0 * EINVAL pps\n")
        self.assertEqual(r.returncode, 1)
        self.assertIn("the form rule covers no input", r.stderr)

    def test_every_interface_of_the_table_is_on_the_map(self):
        # An interface the audit knows that the boot does not measure and
        # that has no reason fails, named; so does a measured one that the
        # table lacks.
        self.ids = self.IDS + ["SO_NEWTIMEOUT"]
        r = self.run_forms(LINES, LINES)
        self.assertEqual(r.returncode, 1)
        self.assertIn("SO_NEWTIMEOUT: an interface of scripts/forms_table.py that the boot "
                      "did not measure", r.stderr)
        self.ids = [i for i in self.IDS if i != "poll"]
        r = self.run_forms(LINES, LINES)
        self.assertEqual(r.returncode, 1)
        self.assertIn("poll: measured, but not an interface", r.stderr)

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
        subprocess.run(["rsvg-convert", "-o", png, self.map_file("svg")], check=True)
        with open(png, "rb") as f:
            head = f.read(24)
        self.assertEqual(head[:8], b"\x89PNG\r\n\x1a\n")
        self.assertEqual(struct.unpack(">II", head[16:24]), (int(m[1]), int(m[2])))


if __name__ == "__main__":
    unittest.main()
