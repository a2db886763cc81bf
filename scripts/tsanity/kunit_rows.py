#!/usr/bin/env python3
"""usage: scripts/kunit_rows.py RESULTS_JSON SUITE_SOURCE LABEL

The judge of a KUnit run: reads the JSON that the tree's kunit.py writes
(run --json) and the suite's source in the patched tree, and passes the
run only if every case and row the source defines was reported and
passed, and nothing else ran.  What is expected comes from the source, not
from a number typed here.  The source is 7.3's series'
kernel/time/time_test.c, the suite whose struct kunit_suite has .name =
"timespec64_timeout".  Every entry of the struct kunit_case array its
.test_cases names is expected: a KUNIT_CASE() is one leaf; a
KUNIT_CASE_PARAM() whose generator a KUNIT_ARRAY_PARAM() defines runs
exactly one row per entry of that table (its top-level initializers,
counted by parsing its braces); a KUNIT_CASE_PARAM() with any other
generator (timeout32_gen_params, which keeps the rows that fit in 32
bits, so as many as the architecture allows) at least one row.

kunit.py's JSON nests a parameterised case as a group of its rows under
the suite's group; a case without rows is a leaf of the suite's group.
A SKIP fails too, reported as a skip: the suite needs nothing a kernel may
lack, so no skip has a reason to be accepted (the integration boot accepts
one named reason; see report.py).

(Named for the rows it judges: the tree's tools/testing/kunit, on the
same sys.path when a script imports kunit_parser, has a kunit_json.py of
its own.)

Exit 0: all passed; 1: a case or row missing, extra, failed or skipped,
or a wrong number of rows (each named); 2: usage, an unreadable file, or
a source whose expectation cannot be read (named).
"""
import collections
import dataclasses
import json
import re
import sys

# 7.3's suite, in kernel/time/time_test.c beside time_test_cases.
SUITE = "timespec64_timeout"


@dataclasses.dataclass(frozen=True)
class Case:
    """What one case of the suite must report.  rows: None for a case
    without parameters (one leaf), else exactly that many rows;
    0 < min_rows: at least that many.  why: where the expectation comes
    from, for the messages."""
    name: str
    rows: int | None = None
    min_rows: int = 0
    why: str = ""


@dataclasses.dataclass(frozen=True)
class Expected:
    suite: str
    cases: tuple   # of Case, in the source's order

    def rows(self):
        """(the number of leaves expected, whether it is a lower bound)."""
        n, bound = 0, False
        for c in self.cases:
            if c.rows is None and not c.min_rows:
                n += 1
            elif c.min_rows:
                n, bound = n + c.min_rows, True
            else:
                n += c.rows
        return n, bound


def cases(group, path=()):
    """Yield (path, status) for every leaf case under a kunit.py JSON group.

    path is the tuple of group names below the root, ending with the case's
    own name; status is kunit.py's "PASS", "SKIP", "FAIL" or "ERROR".
    """
    for case in group.get("test_cases", []):
        yield path + (case["name"],), case["status"]
    for sub in group.get("sub_groups", []):
        yield from cases(sub, path + (sub["name"],))


def load(path):
    """All leaf cases of the kunit.py JSON file at path, as cases() yields them."""
    with open(path) as f:
        return list(cases(json.load(f)))


# --- reading C -----------------------------------------------------------

def strip_comments(text):
    """TEXT with its comments blanked (newlines kept), string and
    character literals left as they are."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise ValueError("the suite's source has an unterminated comment")
            out.append(re.sub(r"[^\n]", " ", text[i:end + 2]))
            i = end + 2
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            if j >= n:
                raise ValueError("the suite's source has an unterminated literal")
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def closing(text, start):
    """The index of the bracket that closes the one at TEXT[START]
    (comments already blanked), literals skipped."""
    pairs = {"{": "}", "(": ")", "[": "]"}
    stack, i = [], start
    while i < len(text):
        c = text[i]
        if c in "\"'":
            j = i + 1
            while text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j
        elif c in pairs:
            stack.append(pairs[c])
        elif c in ")]}":
            if not stack or stack.pop() != c:
                raise ValueError(f"the suite's source has an unbalanced '{c}' at offset {i}")
            if not stack:
                return i
        i += 1
    raise ValueError(f"the suite's source has an unclosed '{text[start]}' at offset {start}")


def items(body, what):
    """The top-level initializers of an initializer list's BODY (between
    its braces), split at the commas outside any bracket or literal."""
    if re.search(r"^\s*#", body, re.M):
        raise ValueError(f"{what}: a preprocessor line inside the initializer "
                         "(its entries would depend on the configuration)")
    out, start, i = [], 0, 0
    while i < len(body):
        c = body[i]
        if c in "{([":
            i = closing(body, i)
        elif c in "\"'":
            j = i + 1
            while body[j] != c:
                j += 2 if body[j] == "\\" else 1
            i = j
        elif c == ",":
            out.append(body[start:i].strip())
            start = i + 1
        i += 1
    out.append(body[start:].strip())
    if out and not out[-1]:
        out.pop()   # the trailing comma
    if any(not x for x in out):
        raise ValueError(f"{what}: an empty initializer")
    return out


def initializer(text, name):
    """The body of the initializer list of the array NAME[] defined in
    TEXT (comments blanked)."""
    found = list(re.finditer(r"\b%s\s*\[(?P<size>[^\]]*)\]\s*=\s*\{" % re.escape(name), text))
    if not found:
        raise ValueError(f"the suite's source defines no initialized array {name}[]")
    if len(found) > 1:
        raise ValueError(f"the suite's source defines {name}[] {len(found)} times")
    m = found[0]
    if m["size"].strip():
        raise ValueError(f"{name}[{m['size'].strip()}]: a declared size; the entries "
                         "are counted only for an array sized by its initializer")
    start = m.end() - 1
    return text[start + 1:closing(text, start)]


def suite_struct(text, suite):
    """The designated initializers (.field = value) of the struct
    kunit_suite of TEXT whose .name is SUITE."""
    structs = []
    for m in re.finditer(r"\bstruct\s+kunit_suite\s+\w+\s*=\s*\{", text):
        start = m.end() - 1
        fields = {}
        for item in items(text[start + 1:closing(text, start)], "struct kunit_suite"):
            f = re.fullmatch(r"\.(\w+)\s*=\s*(.*)", item, re.S)
            if f:
                fields[f[1]] = f[2].strip()
        structs.append(fields)
    named = [s for s in structs if s.get("name") == f'"{suite}"']
    if len(named) != 1:
        raise ValueError(f"the suite's source has {len(named)} struct kunit_suite with "
                         f'.name = "{suite}" (wanted 1; suites: '
                         f"{', '.join(s.get('name', '?') for s in structs) or 'none'})")
    return named[0]


def expected(source, suite=SUITE):
    """What the suite SUITE of SOURCE must report."""
    text = strip_comments(source)
    array = suite_struct(text, suite).get("test_cases")
    if not array or not re.fullmatch(r"\w+", array):
        raise ValueError(f'suite "{suite}": no .test_cases array (got {array!r})')
    gens = {}
    for p in re.finditer(r"\bKUNIT_ARRAY_PARAM(?:_DESC)?\s*\(\s*(\w+)\s*,\s*(\w+)\s*,", text):
        gens[p[1] + "_gen_params"] = p[2]
    entries = items(initializer(text, array), f"{array}[]")
    if not entries or entries[-1] != "{}":
        raise ValueError(f"{array}[]: does not end with its terminator {{}}")
    out = []
    for e in entries[:-1]:
        m = re.fullmatch(r"(KUNIT_CASE|KUNIT_CASE_SLOW)\s*\(\s*(\w+)\s*\)", e)
        if m:
            out.append(Case(m[2], why=f"{array}[]: {m[1]}()"))
            continue
        m = re.fullmatch(r"KUNIT_CASE_PARAM\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)", e)
        if not m:
            raise ValueError(f"{array}[]: an entry this judge cannot read: {' '.join(e.split())}")
        case, gen = m[1], m[2]
        if gen in gens:
            table = gens[gen]
            n = len(items(initializer(text, table), f"{table}[]"))
            if n == 0:
                raise ValueError(f"{table}[] ({gen}, case {case}) has no entry")
            out.append(Case(case, rows=n, why=f"{table}[] has {n} entries ({gen})"))
        else:
            out.append(Case(case, min_rows=1,
                            why=f"{gen} is no KUNIT_ARRAY_PARAM table: at least one row"))
    if not out:
        raise ValueError(f"{array}[]: no case")
    names = [c.name for c in out]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"{array}[]: case(s) listed twice: {', '.join(dup)}")
    return Expected(suite, tuple(out))


# --- judging ---------------------------------------------------------------

def judge(rows, exp):
    """Problems of a run (rows as load() gives them) against EXP (an
    Expected); an empty list when it passed."""
    problems = []
    if not any(p[0] == exp.suite for p, _ in rows):
        problems.append(f"suite {exp.suite}: did not run (no case of it reported)")
    foreign = collections.Counter(p[0] for p, _ in rows if p[0] != exp.suite)
    for suite, n in sorted(foreign.items()):
        problems.append(f"suite {suite}: {n} rows ran, but the source's suite is {exp.suite}")
    want = {c.name: c for c in exp.cases}
    got = collections.defaultdict(list)   # case -> [row name]; leaf: [None]
    for path, status in rows:
        name = ".".join(path)
        if path[0] != exp.suite:
            continue
        if len(path) == 1:
            problems.append(f"suite {exp.suite}: reported as a leaf, no case ran ({status})")
            continue
        c = want.get(path[1])
        if c is None:
            problems.append(f"row {name}: ran, but the suite's source does not generate it"
                            f" (no case {path[1]})")
            continue
        if len(path) > 3 or (len(path) == 3 and c.rows is None and not c.min_rows):
            problems.append(f"row {name}: ran, but the suite's source does not generate it")
            continue
        got[c.name].append(path[2] if len(path) == 3 else None)
        if status == "SKIP":
            problems.append(f"row {name}: skipped (no skip is accepted in this suite)")
        elif status != "PASS":
            problems.append(f"row {name}: {status}")
    for c in exp.cases:
        name = f"{exp.suite}.{c.name}"
        reported = got.get(c.name, [])
        nrows = sum(1 for r in reported if r is not None)
        if not reported:
            problems.append(f"case {name}: in the suite's source ({c.why}), not reported")
            continue
        if c.rows is None and not c.min_rows:
            if len(reported) > 1:
                problems.append(f"case {name}: reported {len(reported)} times, a case "
                                "without parameters is one")
            continue
        if None in reported:
            problems.append(f"case {name}: reported without rows ({c.why})")
        if isinstance(c.rows, int) and nrows != c.rows:
            problems.append(f"case {name}: {nrows} rows reported, {c.why}")
        elif c.min_rows and nrows < c.min_rows:
            problems.append(f"case {name}: {nrows} rows reported, {c.why}")
    return problems


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    return check(*sys.argv[1:])


def check(results: str, source_path: str, label: str) -> int:
    """Judge the run of RESULTS against the suite of SOURCE_PATH, each
    problem named with LABEL; the summary line on stdout.  0, 1 or 2 as
    the module's docstring says."""
    try:
        rows = load(results)
        with open(source_path) as f:
            exp = expected(f.read())
    except (OSError, ValueError, KeyError) as e:
        print(f"error: kunit ({label}): {e}", file=sys.stderr)
        return 2
    problems = judge(rows, exp)
    for p in problems[:20]:
        print(f"error: kunit ({label}): {p}", file=sys.stderr)
    if len(problems) > 20:
        print(f"error: kunit ({label}): ... and {len(problems) - 20} more", file=sys.stderr)
    counts = collections.Counter(status for _, status in rows)
    n, bound = exp.rows()
    print(f"kunit ({label}): suite {exp.suite}, {len(exp.cases)} cases; {len(rows)} rows ran, "
          f"{'at least ' if bound else ''}{n} generated by the source; "
          + ", ".join(f"{k} {s}" for s, k in sorted(counts.items())))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
