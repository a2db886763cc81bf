"""Tests of scripts/kunit_rows.py, the judge of a KUnit run, on both
layouts of the series' suite:

 - fixtures/kunit/time_test.c: kernel/time/time_test.c of the 7.3 tree
   with patches/series applied (0011, "time: Test the timeout family with
   KUnit"), as it is: the suite timespec64_timeout;
 - fixtures/kunit/timespec64_kunit.c: the file that 6.12's series adds
   (patches/v6.12/0008), as it is: the suite timespec64.

The runs are kunit.py's JSON as its kunit_json.py writes it: a group per
suite, in it a leaf per case without parameters and a group per
parameterised case, its rows the leaves.  Each wrong run changes one thing
of a run that passes (passing_new(), passing_old()).  The expected numbers
below are counted by hand from the fixtures, not by the judge."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
FIXTURES = os.path.join(HERE, "fixtures", "kunit")
NEW_SOURCE = os.path.join(FIXTURES, "time_test.c")
OLD_SOURCE = os.path.join(FIXTURES, "timespec64_kunit.c")
sys.path.insert(0, SCRIPTS)
import kunit_rows  # noqa: E402
from tsanity import cli as ts_cli, layout  # noqa: E402

SUITE = "timespec64_timeout"
# timespec64_timeout_cases[] of the fixture: each case and its rows as
# counted by hand (None: a case without parameters).  classify_cases[]
# has 13 entries, timeout_cases[] 18; timeout32_gen_params keeps those
# whose fields fit in 32 bits: 12 of them.
NEW_CASES = [
    ("timespec64_classify_test", 13),
    ("timespec64_class_to_errno_test", None),
    ("timespec64_to_timeout_test", 18),
    ("get_timespec64_timeout_test", 18),
    ("get_old_timespec32_timeout_test", 12),
    ("get_timespec64_timeout_fault_test", None),
]
CLASSIFY, ERRNO, TO_TIMEOUT, GET_TIMEOUT, GET_OLD, FAULT = (c for c, _ in NEW_CASES)

# 6.12's suite: 9 secs[] times 7 nsecs[], relative and absolute.
OLD_CASES = ["timespec64_classify_test", "timespec64_check_timeout_test",
             "timespec64_valid_test", "itimerspec64_check_timeout_test"]
OLD_SECS = ["S64_MIN", "INT_MIN", "-1", "0", "1", "INT_MAX", "KTIME_SEC_MAX-1",
            "KTIME_SEC_MAX", "S64_MAX"]
OLD_NSECS = ["LONG_MIN", "-1", "0", "1", "NSEC_PER_SEC-1", "NSEC_PER_SEC", "LONG_MAX"]
OLD_ROWS = [f"{m} sec={s} nsec={n}" for m in ("rel", "abs") for s in OLD_SECS for n in OLD_NSECS]


def run_json(suites):
    """A kunit.py JSON document: suite -> {case: status (a case without
    parameters) or [(row, status)] (a parameterised case)}."""
    def suite(name, cases):
        return {"name": name,
                "test_cases": [{"name": c, "status": v} for c, v in cases.items()
                               if isinstance(v, str)],
                "sub_groups": [{"name": c, "sub_groups": [],
                                "test_cases": [{"name": r, "status": s} for r, s in v]}
                               for c, v in cases.items() if not isinstance(v, str)]}
    return {"name": "KUnit Test Group", "test_cases": [],
            "sub_groups": [suite(n, c) for n, c in suites.items()]}


def rows(n, status="PASS"):
    return [(f"row {i}", status) for i in range(n)]


def passing_new():
    """Every case of the fixture's suite passed; a test changes one thing."""
    return {SUITE: {c: "PASS" if n is None else rows(n) for c, n in NEW_CASES}}


def passing_old():
    return {"timespec64": {c: [(r, "PASS") for r in OLD_ROWS] for c in OLD_CASES}}


def read(path):
    with open(path) as f:
        return f.read()


class Judge(unittest.TestCase):
    """scripts/kunit_rows.py as kunit.sh runs it, on a run written here."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def judge(self, run, source=NEW_SOURCE):
        path = layout.result_file(self.tmp.name, "kunit-json")
        with open(path, "w") as f:
            json.dump(run_json(run), f)
        return subprocess.run([sys.executable, os.path.join(SCRIPTS, "kunit_rows.py"),
                               path, source, "test"], capture_output=True, text=True)

    def fails(self, run, *messages, source=NEW_SOURCE):
        r = self.judge(run, source)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        for m in messages:
            self.assertIn(m, r.stderr)
        return r

    def source(self, text):
        path = os.path.join(self.tmp.name, "suite.c")
        with open(path, "w") as f:
            f.write(text)
        return path


class NewLayout(Judge):
    """7.3's suite timespec64_timeout in kernel/time/time_test.c."""

    def test_the_expectation_comes_from_the_real_source(self):
        e = kunit_rows.expected(read(NEW_SOURCE))
        self.assertEqual(e.suite, SUITE)
        got = [(c.name, c.rows, c.min_rows) for c in e.cases]
        self.assertEqual(got, [
            (CLASSIFY, 13, 0), (ERRNO, None, 0), (TO_TIMEOUT, 18, 0),
            (GET_TIMEOUT, 18, 0), (GET_OLD, None, 1), (FAULT, None, 0)])
        self.assertEqual(e.rows(), (13 + 1 + 18 + 18 + 1 + 1, True))

    def test_all_pass(self):
        r = self.judge(passing_new())
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, "")
        self.assertIn("suite timespec64_timeout, 6 cases; 63 rows ran, "
                      "at least 52 generated by the source; 63 PASS", r.stdout)

    def test_the_32_bit_generator_takes_any_number_of_rows_but_none(self):
        for n in (1, 18):
            run = passing_new()
            run[SUITE][GET_OLD] = rows(n)
            r = self.judge(run)
            self.assertEqual(r.returncode, 0, f"{n} rows: {r.stderr}")
        run = passing_new()
        del run[SUITE][GET_OLD]
        self.fails(run, f"case {SUITE}.{GET_OLD}: in the suite's source "
                   "(timeout32_gen_params is no KUNIT_ARRAY_PARAM table: at least one row), "
                   "not reported")
        run = passing_new()
        run[SUITE][GET_OLD] = "PASS"    # a leaf: the generator gave no row
        self.fails(run, f"case {SUITE}.{GET_OLD}: reported without rows",
                   f"case {SUITE}.{GET_OLD}: 0 rows reported")

    def test_a_missing_case_fails(self):
        run = passing_new()
        del run[SUITE][FAULT]
        self.fails(run, f"case {SUITE}.{FAULT}: in the suite's source "
                   "(timespec64_timeout_cases[]: KUNIT_CASE()), not reported")
        run = passing_new()
        del run[SUITE][CLASSIFY]
        self.fails(run, f"case {SUITE}.{CLASSIFY}: in the suite's source "
                   "(classify_cases[] has 13 entries (classify_gen_params)), not reported")

    def test_an_extra_row_of_an_array_table_fails(self):
        run = passing_new()
        run[SUITE][TO_TIMEOUT].append(("one more", "PASS"))
        self.fails(run, f"case {SUITE}.{TO_TIMEOUT}: 19 rows reported, "
                   "timeout_cases[] has 18 entries (timeout_gen_params)")

    def test_a_missing_row_of_an_array_table_fails(self):
        run = passing_new()
        run[SUITE][CLASSIFY].pop()
        self.fails(run, f"case {SUITE}.{CLASSIFY}: 12 rows reported, "
                   "classify_cases[] has 13 entries (classify_gen_params)")

    def test_a_skipped_row_fails_and_says_skipped(self):
        run = passing_new()
        run[SUITE][GET_TIMEOUT][3] = ("row 3", "SKIP")
        self.fails(run, f"row {SUITE}.{GET_TIMEOUT}.row 3: skipped")
        run = passing_new()
        run[SUITE][ERRNO] = "SKIP"
        self.fails(run, f"row {SUITE}.{ERRNO}: skipped")

    def test_a_failed_row_fails(self):
        for status in ("FAIL", "ERROR"):
            run = passing_new()
            run[SUITE][GET_OLD][0] = ("row 0", status)
            self.fails(run, f"row {SUITE}.{GET_OLD}.row 0: {status}")
        run = passing_new()
        run[SUITE][FAULT] = "FAIL"
        self.fails(run, f"row {SUITE}.{FAULT}: FAIL")

    def test_an_unknown_case_or_row_fails(self):
        run = passing_new()
        run[SUITE]["no_such_test"] = "PASS"
        self.fails(run, f"row {SUITE}.no_such_test: ran, but the suite's source does not "
                   "generate it (no case no_such_test)")
        run = passing_new()
        run[SUITE][ERRNO] = rows(2)     # rows under a case without parameters
        self.fails(run, f"row {SUITE}.{ERRNO}.row 0: ran, but the suite's source does not "
                   "generate it")

    def test_another_suite_alone_fails(self):
        self.fails({"time_test_cases": {"time64_to_tm_test_date_range": "PASS"}},
                   f"suite {SUITE}: did not run",
                   f"suite time_test_cases: 1 rows ran, but the source's suite is {SUITE}")

    def test_the_old_expectation_does_not_pass_a_new_run(self):
        # The same run judged by 6.12's source: nothing of it is expected.
        self.fails(passing_new(), "suite timespec64: did not run",
                   f"suite {SUITE}: 63 rows ran, but the source's suite is timespec64",
                   source=OLD_SOURCE)


class OldLayout(Judge):
    """6.12's suite timespec64 in kernel/time/tests/timespec64_kunit.c."""

    def test_the_rows_come_from_the_real_source(self):
        e = kunit_rows.expected(read(OLD_SOURCE))
        self.assertEqual(e.suite, "timespec64")
        self.assertEqual([c.name for c in e.cases], OLD_CASES)
        for c in e.cases:
            self.assertEqual(c.rows, tuple(OLD_ROWS))
        self.assertEqual(e.rows(), (4 * 2 * 9 * 7, False))

    def test_all_pass(self):
        r = self.judge(passing_old(), OLD_SOURCE)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("504 rows ran, 504 generated by the source; 504 PASS", r.stdout)

    def test_a_skip_fails_and_says_skipped(self):
        run = passing_old()
        run["timespec64"][OLD_CASES[1]][2] = (OLD_ROWS[2], "SKIP")
        self.fails(run, f"timespec64.{OLD_CASES[1]}.rel sec=S64_MIN nsec=0: skipped",
                   source=OLD_SOURCE)

    def test_a_missing_row_fails(self):
        run = passing_old()
        run["timespec64"][OLD_CASES[3]].pop()
        self.fails(run, f"row timespec64.{OLD_CASES[3]}.abs sec=S64_MAX nsec=LONG_MAX: "
                   "generated by the source, not reported", source=OLD_SOURCE)
        run = passing_old()
        del run["timespec64"][OLD_CASES[0]]
        self.fails(run, f"case timespec64.{OLD_CASES[0]}: in the suite's source "
                   "(timespec64_gen_params: 126 rows, secs[] x nsecs[], rel and abs), "
                   "not reported", source=OLD_SOURCE)

    def test_an_unknown_or_repeated_row_fails(self):
        run = passing_old()
        run["timespec64"][OLD_CASES[0]].append(("rel sec=2 nsec=0", "PASS"))
        self.fails(run, "rel sec=2 nsec=0: ran, but the suite's source does not generate it",
                   source=OLD_SOURCE)
        run = passing_old()
        run["timespec64"][OLD_CASES[0]].append((OLD_ROWS[0], "PASS"))
        self.fails(run, f"{OLD_CASES[0]}.{OLD_ROWS[0]}: reported 2 times", source=OLD_SOURCE)

    def test_a_failed_row_fails(self):
        run = passing_old()
        run["timespec64"][OLD_CASES[0]][0] = (OLD_ROWS[0], "FAIL")
        self.fails(run, f"timespec64.{OLD_CASES[0]}.rel sec=S64_MIN nsec=LONG_MIN: FAIL",
                   source=OLD_SOURCE)

    def test_the_new_expectation_does_not_pass_an_old_run(self):
        self.fails(passing_old(), f"suite {SUITE}: did not run",
                   f"suite timespec64: 504 rows ran, but the source's suite is {SUITE}")


# A suite written to be hard to count: comments and literals holding
# braces and commas, nested and multi-line entries, a KUNIT_ARRAY_PARAM_DESC
# table without a trailing comma, a suite of another name before it.
TRICKY = r'''
struct pair { int a[2]; const char *s; };

static const struct pair nested[] = {
	{ { 1, 2 }, "a, {b}" },		/* one, { two, */
	{
		{ 3,
		  4 },
		"}"
	},
	// {{ not, an, entry }},
	{ { (5), ARRAY_SIZE(((int[]){ 6, 7 })) }, "\", {" },
};

static const struct pair last[] = {
	{ { 0, 0 }, "x" },
	{ { 0, 1 }, "y" }
};

KUNIT_ARRAY_PARAM(nested, nested, NULL);
KUNIT_ARRAY_PARAM_DESC(last, last, s);

static struct kunit_case other_cases[] = {
	KUNIT_CASE(other_test),
	{}
};

static struct kunit_suite other_suite = {
	.name = "timespec64_timeout_other",
	.test_cases = other_cases,
};

static struct kunit_case cases[] = {
	KUNIT_CASE_PARAM(nested_test,
			 nested_gen_params),
	KUNIT_CASE_PARAM(last_test, last_gen_params),
	KUNIT_CASE(plain_test),
	{}
};

static struct kunit_suite the_suite = {
	.name = "timespec64_timeout",	/* "{" */
	.test_cases = cases,
};
'''


class Parsing(Judge):
    """The expectation read from sources written to mislead a counter;
    a source the judge cannot read exits 2, named."""

    def test_braces_comments_literals_and_lines(self):
        e = kunit_rows.expected(TRICKY)
        self.assertEqual([(c.name, c.rows) for c in e.cases],
                         [("nested_test", 3), ("last_test", 2), ("plain_test", None)])
        src = self.source(TRICKY)
        run = {SUITE: {"nested_test": rows(3), "last_test": rows(2), "plain_test": "PASS"}}
        self.assertEqual(self.judge(run, src).returncode, 0)
        run[SUITE]["nested_test"] = rows(4)
        self.fails(run, "case timespec64_timeout.nested_test: 4 rows reported, "
                   "nested[] has 3 entries (nested_gen_params)", source=src)

    def unreadable(self, text, message):
        r = self.judge(passing_new(), self.source(text))
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn(message, r.stderr)

    def test_a_table_that_cannot_be_counted_exits_2(self):
        self.unreadable(TRICKY.replace("\t// {{ not", "#ifdef CONFIG_X\n\t{ { 8, 9 }, \"z\" },\n"
                                       "#endif\n\t// {{ not"),
                        "nested[]: a preprocessor line inside the initializer")
        self.unreadable(TRICKY.replace("nested[] = {", "nested[4] = {"),
                        "nested[4]: a declared size")
        self.unreadable(TRICKY.replace("last[] = {", "last[];\nstatic int z = {"),
                        "defines no initialized array last[]")

    def test_a_suite_or_case_that_cannot_be_read_exits_2(self):
        self.unreadable(TRICKY.replace('"timespec64_timeout",', '"renamed",'),
                        'has 0 struct kunit_suite with .name = "timespec64_timeout"')
        self.unreadable(TRICKY.replace("KUNIT_CASE(plain_test)", "KUNIT_CASE_ATTR(plain_test, a)"),
                        "cases[]: an entry this judge cannot read: KUNIT_CASE_ATTR(plain_test, a)")
        self.unreadable(TRICKY.replace("KUNIT_CASE(plain_test),\n\t{}", "KUNIT_CASE(plain_test),"),
                        "cases[]: does not end with its terminator {}")

    def test_usage(self):
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "kunit_rows.py")],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("usage:", r.stderr)


class Tree(unittest.TestCase):
    """The patched tree's own suite source (make tree, as make
    check-scripts has it), chosen as scripts/kunit.sh chooses it, is one
    the judge reads: a series that moves or reshapes its suite fails
    here, not in a KUnit run."""

    def test_the_trees_suite_source_is_read(self):
        src = ts_cli.context()[2].src
        old = os.path.join(src, "kernel", "time", "tests", "timespec64_kunit.c")
        path = old if os.path.exists(os.path.join(os.path.dirname(old), ".kunitconfig")) \
            else os.path.join(src, "kernel", "time", "time_test.c")
        if not os.path.exists(path):
            raise AssertionError(f"{path} not found: the judge reads the patched tree (make tree)")
        e = kunit_rows.expected(read(path))
        self.assertIn(e.suite, (SUITE, "timespec64"))
        self.assertTrue(e.cases)
        self.assertTrue(any(c.rows or c.min_rows for c in e.cases),
                        f"{path}: no parameterised case")


if __name__ == "__main__":
    unittest.main()
