"""usage: scripts/suites_report.py [--rules FILE] RESULTS_DIR

The judge of make subsystem-tests: liburing's and libaio's own tests,
booted on the base, fixes and patched kernels with the initramfs "suites"
(scripts/ts initramfs suites; scripts/ts boot K suites).  Reads
RESULTS_DIR/<kernel>/verdict.json, the KTAP tree that scripts/ktap.py read
from each serial log, in which every program run is a test named
SUITE/ABI/PROGRAM/RUN, and writes RESULTS_DIR/report.md and report.json.

A test is SUITE/ABI/PROGRAM.  On each kernel it ran the same runs
(qemu-config/init.c's verdicts: PASS, SKIP, FAIL; ERROR when the KTAP
parser could not tell); its verdict there is the verdict of its runs.
  - A test whose runs disagree on a kernel is flaky: it fails the stage,
    with the output of its runs, unless a `flaky` rule names it.  A
    listed flaky test is reported but never compared, whether or not its
    runs disagreed this time: its verdict under TCG is noise either way,
    and a judge that needed it to vary would itself be flaky.
  - Every test must have the same verdict on the three kernels, unless a
    `differs` rule names it: then it must have exactly the rule's
    verdicts (a listed test that does not differ is a failure).
  - A test that fails on all three kernels proves nothing about the
    series: it fails the stage unless a `fails` rule names it.
  - A rule that matches no test that needs it is a failure (a stale
    list): a `flaky` rule one that names no test that ran, a `differs` or
    `fails` rule one that names no test its kind applies to.

FILE (default qemu-config/suites/intended) holds one rule a line, fields
separated by white space, # starting a comment:
  differs TEST BASE FIXES PATCHED REASON
  flaky   TEST REASON
  fails   TEST REASON
TEST is a shell glob over SUITE/ABI/PROGRAM, a verdict PASS, SKIP or FAIL.
Exits 1 on any failure, each named on stderr; 2 on a usage error.
"""
import argparse
import fnmatch
import json
import os
import re
import sys

from tsanity import layout
from tsanity.repo import REPO

KERNELS = ("base", "fixes", "patched")
VERDICTS = ("PASS", "SKIP", "FAIL")
NAME = re.compile(r"^([^/\s]+/[^/\s]+/[^/\s]+)/(\d+)$")


def default_rules():
    return os.path.join(REPO, "qemu-config", "suites", "intended")


class Rule:
    def __init__(self, kind, pattern, verdicts, reason, where):
        self.kind, self.pattern, self.verdicts = kind, pattern, verdicts
        self.reason, self.where, self.used = reason, where, False

    def matches(self, test):
        return fnmatch.fnmatchcase(test, self.pattern)


def load_rules(path):
    """The rules of FILE; ValueError names a malformed line."""
    rules = []
    with open(path) as fh:
        lines = fh.read().splitlines()
    for n, line in enumerate(lines, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{path}:{n}"
        f = line.split(None, 5)
        if f[0] == "differs":
            if len(f) < 6 or any(v not in VERDICTS for v in f[2:5]):
                raise ValueError(f"{where}: not 'differs TEST BASE FIXES PATCHED REASON' "
                                 f"(verdicts: {' '.join(VERDICTS)}): {line}")
            if len(set(f[2:5])) == 1:
                raise ValueError(f"{where}: a differs rule whose verdicts do not differ: {line}")
            rules.append(Rule("differs", f[1], dict(zip(KERNELS, f[2:5])), f[5], where))
        elif f[0] in ("flaky", "fails"):
            f = line.split(None, 2)
            if len(f) < 3:
                raise ValueError(f"{where}: not '{f[0]} TEST REASON': {line}")
            rules.append(Rule(f[0], f[1], None, f[2], where))
        else:
            raise ValueError(f"{where}: unknown kind '{f[0]}' (differs, flaky, fails): {line}")
    return rules


def read_runs(results, kernel, problems):
    """{test: {run: (status, log)}} of a kernel's verdict.json."""
    path = layout.result_file(results, "verdict", kernel=kernel)
    try:
        with open(path) as f:
            v = json.load(f)
    except (OSError, ValueError) as e:
        problems.append(f"{kernel}: cannot read {path} ({e}): run scripts/ts boot {kernel} suites")
        return {}
    for err in v.get("errors", []):
        problems.append(f"{kernel}: the KTAP parser: {err}")
    runs: dict[str, dict[int, tuple[str, list[str]]]] = {}
    for t in v.get("tests", []):
        m = NAME.match(t["name"])
        if not m:
            problems.append(f"{kernel}: '{t['name']}' is not SUITE/ABI/PROGRAM/RUN")
            continue
        runs.setdefault(m[1], {})[int(m[2])] = (t["status"], t.get("log", []))
    return runs


def judge(kernels, rules):
    """kernels: {kernel: {test: {run: (status, log)}}}.  Returns (rows,
    problems, flaky): rows (test, {kernel: verdict}, note) for the table."""
    problems, flaky, rows = [], [], []
    tests = sorted(set().union(*(set(r) for r in kernels.values())))
    runs = sorted(set(n for r in kernels.values() for t in r.values() for n in t))

    def rule(kind, test):
        for r in rules:
            if r.kind == kind and r.matches(test):
                r.used = True
                return r
        return None

    for test in tests:
        verdicts, unstable = {}, False
        for k in KERNELS:
            got = kernels.get(k, {}).get(test)
            if got is None:
                problems.append(f"{test}: not run on {k}")
                continue
            if sorted(got) != runs:
                problems.append(f"{test}: {k} ran runs {sorted(got)}, the boots ran {runs}")
            statuses = [got[n][0] for n in sorted(got)]
            if len(set(statuses)) > 1:
                unstable = True
                flaky.append({"test": test, "kernel": k,
                              "runs": {n: {"status": s, "log": lg} for n, (s, lg) in sorted(got.items())}})
                verdicts[k] = "/".join(statuses)
            else:
                verdicts[k] = statuses[0]
        note = ""
        fl = rule("flaky", test)
        if unstable and not fl:
            problems.append(f"{test}: flaky: its runs disagree ({', '.join(f'{k} {v}' for k, v in verdicts.items())})")
        if fl:
            note = f"flaky (listed: {fl.reason})" + ("" if unstable else "; steady this time, not compared")
        if unstable or fl:
            rows.append((test, verdicts, note or "flaky"))
            continue
        d = rule("differs", test)
        if len(verdicts) != len(KERNELS):
            rows.append((test, verdicts, "missing"))
            continue
        if d:
            if verdicts != d.verdicts:
                want = " ".join(d.verdicts[k] for k in KERNELS)
                problems.append(f"{test}: {' '.join(verdicts[k] for k in KERNELS)}, "
                                f"{d.where} wants {want} ({d.reason})")
            note = f"listed: {d.reason}"
        elif len(set(verdicts.values())) > 1:
            problems.append(f"{test}: differs ({', '.join(f'{k} {v}' for k, v in verdicts.items())}) "
                            "and no differs rule lists it")
        elif verdicts["base"] in ("FAIL", "ERROR"):
            f = rule("fails", test)
            if f:
                note = f"fails everywhere (listed: {f.reason})"
            else:
                problems.append(f"{test}: {verdicts['base']} on every kernel, and no fails rule lists it")
        rows.append((test, verdicts, note))
    for r in rules:
        if not r.used:
            problems.append(f"{r.where}: the {r.kind} rule '{r.pattern}' matches no test that needs it")
    return rows, problems, flaky


def markdown(rows, problems, flaky, runs_per_kernel):
    out = ["# liburing and libaio on base, fixes and patched", "",
           f"Runs per program per boot: {runs_per_kernel}.", "",
           "| test | " + " | ".join(KERNELS) + " | note |",
           "|---|" + "---|" * len(KERNELS) + "---|"]
    for test, v, note in rows:
        out.append(f"| {test} | " + " | ".join(v.get(k, "-") for k in KERNELS) + f" | {note} |")
    out += ["", f"## Problems ({len(problems)})", ""] + [f"- {p}" for p in problems]
    out += ["", f"## Flaky ({len(flaky)})", ""]
    for f in flaky:
        out.append(f"### {f['test']} on {f['kernel']}")
        for n, r in f["runs"].items():
            out += ["", f"run {n}: {r['status']}", "", "```"] + r["log"] + ["```"]
    return "\n".join(out) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(prog="scripts/suites_report.py",
                                 description="Judge the subsystems' suites on base, fixes and patched.")
    ap.add_argument("--rules", metavar="FILE", default=None,
                    help="the listing (default: qemu-config/suites/intended)")
    ap.add_argument("results", metavar="RESULTS_DIR")
    args = ap.parse_args(argv)
    if not os.path.isdir(args.results):
        ap.error(f"{args.results} is not a directory")
    out = {ext: layout.result_file(args.results, "suites-report", ext=ext)
           for ext in ("md", "json")}
    for p in out.values():
        if os.path.exists(p):
            os.remove(p)
    try:
        rules = load_rules(args.rules or default_rules())
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    problems: list[str] = []
    kernels = {k: read_runs(args.results, k, problems) for k in KERNELS}
    rows, more, flaky = judge(kernels, rules)
    problems += more
    nruns = len(set(n for r in kernels.values() for t in r.values() for n in t))
    with open(out["md"], "w") as f:
        f.write(markdown(rows, problems, flaky, nruns))
    with open(out["json"], "w") as f:
        json.dump({"runs": nruns, "problems": problems, "flaky": flaky,
                   "tests": [{"test": t, "verdicts": v, "note": n} for t, v, n in rows]},
                  f, indent=1)
        f.write("\n")
    width = max([len(t) for t, _, _ in rows] + [4])
    print(f"{'test':<{width}}  " + "  ".join(f"{k:<8}" for k in KERNELS) + "  note")
    for test, v, note in rows:
        print(f"{test:<{width}}  " + "  ".join(f"{v.get(k, '-'):<8}" for k in KERNELS) + f"  {note}")
    for p in problems:
        print(f"error: {p}", file=sys.stderr)
    print(f"suites report: {len(rows)} tests, {len(flaky)} flaky, {len(problems)} problem(s); "
          f"{out['md']}")
    return 1 if problems else 0
