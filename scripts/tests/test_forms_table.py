"""Tests of scripts/forms_table.py, the table of the other timeout forms."""
import copy
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..")
TABLE = os.path.join(SCRIPTS, "forms_table.py")
sys.path.insert(0, SCRIPTS)
from tsanity.forms import cli as forms_table  # noqa: E402
from tsanity.forms import core as forms_core  # noqa: E402
from tsanity.forms import drivers as forms_drivers  # noqa: E402
from tsanity.forms import newer as forms_newer  # noqa: E402

# The interfaces of issue 13 the map and the boot know by these ids.
KNOWN_IDS = ["select", "setitimer", "SO_RCVTIMEO", "SO_VM_SOCKETS_CONNECT_TIMEOUT",
             "poll", "epoll_wait", "PPS_FETCH", "CAN_BCM", "LPSETTIMEOUT",
             "PPSETTIME", "io_uring_min_wait_usec"]


# The kernel whose table --rst and --check-doc give (TS_KERNEL).
KERNEL = "6.12"


def cli(*args):
    return subprocess.run([sys.executable, TABLE] + list(args), capture_output=True, text=True,
                          env=dict(os.environ, TS_KERNEL=KERNEL))


def list_table_rows(text):
    """The rows of the one list-table in TEXT, each a list of cells, parsed
    by the structure RST gives it: the directive, its options, a blank
    line, then rows ("* - cell") and their further cells ("  - cell"),
    each continued on lines indented under its first word."""
    lines = text.splitlines()
    if not lines or lines[0] != ".. list-table::":
        raise ValueError("no list-table directive on the first line: %r" % lines[:1])
    i = 1
    while i < len(lines) and re.match(r"^   :[a-z-]+:", lines[i]):
        i += 1
    if i >= len(lines) or lines[i] != "":
        raise ValueError("no blank line after the options (line %d)" % (i + 1))
    rows = []
    for n, line in enumerate(lines[i + 1:], i + 2):
        if line.startswith("   * - "):
            rows.append([line[len("   * - "):]])
        elif line.startswith("     - ") and rows:
            rows[-1].append(line[len("     - "):])
        elif line.startswith("       ") and line.strip() and rows:
            # A cell continued on the next line, under its first word.
            rows[-1][-1] += " " + line.strip()
        else:
            raise ValueError("line %d is neither a row nor a cell: %r" % (n, line))
    return rows


class Table(unittest.TestCase):
    def test_check_doc_finds_the_table_and_names_a_change(self):
        with tempfile.TemporaryDirectory() as d:
            page = os.path.join(d, "timeouts.rst")
            table = forms_table.rst(forms_table.for_kernel(KERNEL).ENTRIES)
            with open(page, "w") as f:
                f.write("Title\n=====\n\n" + table + "\nMore text.\n")
            r = cli("--check-doc", page)
            self.assertEqual(r.returncode, 0, r.stderr)
            # One answer edited by hand: named, with its line.
            lines = table.splitlines()
            n = next(i for i, l in enumerate(lines) if "poll(2)" in l) + 2
            lines[n] = lines[n].replace("waits forever", "waits for ever")
            with open(page, "w") as f:
                f.write("Title\n=====\n\n" + "\n".join(lines) + "\n")
            r = cli("--check-doc", page)
            self.assertEqual(r.returncode, 1)
            self.assertIn("timeouts.rst:%d: the exceptions table differs" % (n + 4), r.stderr)
            # No table at all.
            with open(page, "w") as f:
                f.write("Title\n")
            r = cli("--check-doc", page)
            self.assertEqual(r.returncode, 1)
            self.assertIn("the exceptions table is missing", r.stderr)

    def test_the_table_is_valid(self):
        self.assertEqual(forms_table.validate(), [])
        r = cli("--check")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("%d entries" % len(forms_table.ENTRIES), r.stdout)

    def test_the_table_is_its_parts_in_order(self):
        # tsanity/forms/: the core kernel's interfaces, then those of
        # drivers and protocol families, then those new since 6.12; none of
        # the core's is a driver's, and each new one says since when.
        self.assertEqual(forms_table.ENTRIES, forms_core.ENTRIES + forms_drivers.ENTRIES
                         + forms_newer.ENTRIES)
        self.assertEqual([f for e in forms_core.ENTRIES for f in e["functions"]
                          if f.startswith("drivers/")], [])
        self.assertEqual([e["id"] for e in forms_newer.ENTRIES + forms_newer.SET_ASIDE
                          if "since" not in e], [])

    def test_the_known_interfaces_have_their_ids(self):
        ids = [e["id"] for e in forms_table.ENTRIES]
        for i in KNOWN_IDS:
            self.assertIn(i, ids)

    def test_validate_names_what_is_wrong(self):
        def problems(change):
            entries = copy.deepcopy(forms_table.ENTRIES)
            aside = copy.deepcopy(forms_table.SET_ASIDE)
            change(entries, aside)
            return "\n".join(forms_table.validate(entries, aside))
        self.assertIn("decision 'maybe'",
                      problems(lambda e, a: e[0].update(decision="maybe")))
        self.assertIn("id listed twice",
                      problems(lambda e, a: e.append(copy.deepcopy(e[0]))))
        self.assertIn("is also listed by",
                      problems(lambda e, a: a[0]["functions"].append(e[0]["functions"][0])))
        self.assertIn("answers for",
                      problems(lambda e, a: e[0]["answers"].pop("zero")))
        self.assertIn("RST would read as markup",
                      problems(lambda e, a: e[0].update(why="a *bold* claim")))
        self.assertIn("not file:function",
                      problems(lambda e, a: e[0]["functions"].append("kern_select")))
        self.assertIn("fields",
                      problems(lambda e, a: e[0].pop("why")))
        self.assertIn("since '7' is not a kernel X.Y",
                      problems(lambda e, a: e[0].update(since="7")))
        self.assertEqual("", problems(lambda e, a: a[0].update(since="7.3")))

    def test_for_kernel_leaves_out_what_is_newer(self):
        from tsanity.forms import table as forms_table_mod
        newer = [e["id"] for e in forms_table.ENTRIES + forms_table.SET_ASIDE if "since" in e]
        t612, t73 = forms_table.for_kernel("6.12"), forms_table.for_kernel("7.3")
        self.assertEqual(t73.ENTRIES, [e for e in forms_table.ENTRIES
                                       if e.get("since", "7.3") == "7.3"])
        ids612 = [e["id"] for e in t612.ENTRIES + t612.SET_ASIDE]
        for i in newer:
            self.assertNotIn(i, ids612)
        # A since of 7.3 drops the entry from 6.12 and keeps it on 7.3 and later.
        saved = forms_table_mod.ENTRIES
        try:
            forms_table_mod.ENTRIES = [dict(saved[0], since="7.3")] + saved[1:]
            self.assertNotIn(saved[0]["id"], [e["id"] for e in forms_table_mod.for_kernel("6.12").ENTRIES])
            self.assertIn(saved[0]["id"], [e["id"] for e in forms_table_mod.for_kernel("7.3").ENTRIES])
            self.assertIn(saved[0]["id"], [e["id"] for e in forms_table_mod.for_kernel("10.1").ENTRIES])
        finally:
            forms_table_mod.ENTRIES = saved

    def test_rst_is_a_list_table_with_one_row_per_exception(self):
        r = cli("--rst")
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = list_table_rows(r.stdout)
        self.assertEqual(rows[0], ["interface", "rule", "answers", "why it stays"])
        exceptions = [e for e in forms_table.for_kernel(KERNEL).ENTRIES
                      if e["rule"] != "contract"]
        self.assertGreater(len(exceptions), 0)
        self.assertEqual([row[0] for row in rows[1:]], [e["name"] for e in exceptions])
        for row in rows:
            self.assertEqual(len(row), 4, row)
        # setitimer follows the contract: not an exception
        self.assertNotIn("setitimer(2)", [row[0] for row in rows])

    def test_rst_parses_with_docutils(self):
        try:
            import docutils.core
            import docutils.utils
        except ImportError:
            self.skipTest("docutils not installed (Debian python3-docutils, with make htmldocs)")
        text = "Title\n=====\n\n" + cli("--rst").stdout
        doctree = docutils.core.publish_doctree(
            text, settings_overrides={"report_level": 1, "halt_level": 5,
                                      "warning_stream": False})
        nodes = list(getattr(doctree, "findall", doctree.traverse)())
        warnings = [n.astext() for n in nodes if n.tagname == "system_message"
                    and int(n["level"]) >= 2]
        self.assertEqual(warnings, [])
        tables = [n for n in nodes if n.tagname == "table"]
        self.assertEqual(len(tables), 1)
        rows = [n for n in getattr(tables[0], "findall", tables[0].traverse)()
                if n.tagname == "row"]
        self.assertEqual(len(rows), 1 + len(forms_table.exceptions(forms_table.for_kernel(KERNEL).ENTRIES)))

    def test_json_has_every_entry(self):
        r = cli("--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        d = json.loads(r.stdout)
        self.assertEqual([e["id"] for e in d["entries"]],
                         [e["id"] for e in forms_table.ENTRIES])
        self.assertEqual(len(d["set_aside"]), len(forms_table.SET_ASIDE))

    def test_usage(self):
        self.assertEqual(cli().returncode, 2)
        self.assertEqual(cli("--bogus").returncode, 2)


if __name__ == "__main__":
    unittest.main()
