#!/usr/bin/env python3
"""usage: scripts/report.py RESULTS_DIR

The one judge of the integration boot: compares the unpatched (base) and
the patched kernel and writes RESULTS_DIR/report.md and report.json.

Reads RESULTS_DIR/<kernel>/verdict.json for base and patched, the KTAP tree
that scripts/ktap.py read from the serial log.  A contract case is one input
of timeout_classes: a diagnostic line "# <case>: kernel_sec=<s>
kernel_nsec=<ns> class=<c> expected=<e> got=<g>" in the log of the test
that ran it, which ends with "# <abi> <entry> <mode>: N inputs, K not
answered as the contract says".

The two kernels must answer every case alike, except the cases that the
rules of patches/intended-differences (scripts/intended.py) cover: those
must differ, with exactly the outcomes the rule gives.  On the base kernel
they, and only they, may fail the contract, and a test may fail only by
them.  Fails (exit 1) on a test or case that failed where no rule allows
it, on a difference no rule covers, on a covered case that does not show
its difference, and on anything the reader found wrong; each is named.
"""
import collections
import json
import os
import re
import sys

import intended

KERNELS = ("base", "patched")
NAME = intended.NAME
# The closing line of a timeout_classes test (tools/testing/selftests/timers).
DONE = re.compile(r"^# (?P<test>\S+ \S+ \S+): (?P<n>\d+) inputs, (?P<k>\d+) not answered "
                  r"as the contract says$")
NEGATIVE = {"S64_MIN", "INT_MIN", "-1"}
HUGE = {"KTIME_SEC_MAX-1", "KTIME_SEC_MAX", "S64_MAX"}


# A timeout_classes test may fail on 6.12 only by its by-design cases: its
# log then holds nothing but these lines besides the cases themselves.
# The harness's own line for the test's EXPECT_EQ(0, wrong).
EXPECT_WRONG = re.compile(r"^# \S+:\d+:\S+:Expected 0 \(0\) == wrong \((?P<k>\d+)\)$")
BY_DESIGN_LOG = [DONE, EXPECT_WRONG] + [re.compile(r) for r in (
    r"^# +RUN +\S+ \.\.\.$", r"^# \S+: Test failed$", r"^# +FAIL +\S+$")]
# The one reason a timeout_classes test may skip in the integration boot.
SKIP_STRUCTURAL = re.compile(r"^# +SKIP +.*: no entry point of this kind on \S+$")


def nodes(tests, path=()):
    """(path, test) for every test of a verdict's tree, parents first."""
    for t in tests:
        yield path + (t["name"],), t
        yield from nodes(t["tests"], path + (t["name"],))


def load(results, kernel, problems):
    """A kernel's verdict: every test by path (leaves and programs), its
    contract cases by name (each with the path of its test), and the boot
    time."""
    path = os.path.join(results, kernel, "verdict.json")
    try:
        with open(path) as f:
            v = json.load(f)
    except (OSError, ValueError) as e:
        problems.append(f"{kernel}: no verdict ({e}): the boot did not run or was not read")
        return {}, {}, None
    problems += [f"{kernel}: KTAP: {e}" for e in v["errors"]]
    if v["counts"]["errors"] and not v["errors"]:
        problems.append(f"{kernel}: KTAP: the parser counted {v['counts']['errors']} errors")
    if not v["tests"]:
        problems.append(f"{kernel}: the verdict holds no test program")
    tests, diags = {}, {}
    for p, t in nodes(v["tests"]):
        name = "/".join(p)
        tests[name] = t
        for line in t["log"]:
            d = intended.diag(line)
            if d:
                d["test"] = name
                diags[d["name"]] = d
    return tests, diags, v["boot_to_verdict_s"]


def judge(kernel, tests, diags, rules, problems):
    """Problems of one kernel's tests and cases; returns how many cases
    failed the contract by design (base only), and the tests that failed
    by them alone."""
    failing, by_design = collections.defaultdict(list), 0
    for case, d in sorted(diags.items()):
        if d["exp"] == d["got"]:
            continue
        try:
            ok = kernel == "base" and intended.fails_by_design(rules, d)
        except ValueError as e:
            problems.append(str(e))
            ok = False
        failing[d["test"]].append((case, ok))
        if ok:
            by_design += 1
        else:
            print(f"[FAILED] {kernel}: {case}: expected {d['exp']}, got {d['got']}",
                  file=sys.stderr)
            problems.append(f"{kernel}: case failed: {case}: expected {d['exp']}, got {d['got']}")
    ok_tests = set()
    contract_programs = {d["test"].split("/")[0] for d in diags.values()}
    # Leaves first: a program's failure is judged by its tests'.
    for name, t in sorted(tests.items(), key=lambda nt: -nt[0].count("/")):
        st, log, leaf = t["status"], t["log"], not t["tests"]
        cases = [l for l in log if intended.diag(l)]
        done = [m for m in map(DONE.match, log) if m]
        contract = leaf and name.split("/")[0] in contract_programs
        if contract and st != "SKIP":
            if len(done) != 1 or int(done[0]["n"]) != len(cases) or not cases:
                problems.append(f"{kernel}: {name}: {len(cases)} cases logged, and "
                                + (f"its closing line says {done[0]['n']}" if done else
                                   "no closing line: it did not run all of its inputs"))
            elif int(done[0]["k"]) != len(failing[name]):
                problems.append(f"{kernel}: {name}: says {done[0]['k']} inputs failed, "
                                f"its log shows {len(failing[name])}")
        if contract and st == "SKIP" and not any(SKIP_STRUCTURAL.match(l) for l in log):
            problems.append(f"{kernel}: {name}: skipped, and not for want of an entry point "
                            "of this ABI: " + "; ".join(l for l in log if "SKIP" in l))
        if st in ("PASS", "SKIP"):
            continue
        if leaf:
            others = [l for l in log if not intended.diag(l)
                      and not any(r.match(l) for r in BY_DESIGN_LOG)]
            allowed = (failing[name] and all(ok for _, ok in failing[name]) and not others
                       and any(m and int(m["k"]) == len(failing[name])
                               for m in map(EXPECT_WRONG.match, log)))
        else:
            below = [n for n in tests if n.startswith(name + "/") and not tests[n]["tests"]
                     and tests[n]["status"] not in ("PASS", "SKIP")]
            allowed = (below and all(n in ok_tests for n in below)
                       and f"# {t['name']}: exit status 1" in log
                       and not [l for l in log if "killed" in l or "left processes" in l])
        if allowed:
            ok_tests.add(name)
        else:
            print(f"[FAILED] {kernel}: {name}: {st}", file=sys.stderr)
            problems.append(f"{kernel}: test {st}: {name}")
    return by_design, ok_tests


def row_of(sec, cls):
    group = "tv_sec < 0" if sec in NEGATIVE else \
        "tv_sec >= KTIME_SEC_MAX-1" if sec in HUGE else "0 <= tv_sec <= INT_MAX"
    return f"{cls}, {group}"


def cell(counter):
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items())) or "-"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[0])
    results = sys.argv[1]
    # A run that stops early must not leave an older verdict behind.
    for old in ("report.md", "report.json"):
        if os.path.exists(os.path.join(results, old)):
            os.remove(os.path.join(results, old))
    problems = []
    data = {k: load(results, k, problems) for k in KERNELS}
    try:
        rules = intended.load()
    except (OSError, ValueError) as e:
        sys.exit(f"error: {e}")

    def rule_of(case):
        """The intended-differences rule of a contract case, or None."""
        d = data["patched"][1].get(case) or data["base"][1].get(case)
        if d is None:
            return None
        try:
            return intended.rule_for(rules, case, d)
        except ValueError as e:
            problems.append(str(e))
            return None

    # Every test of either kernel, by its path in the KTAP tree, and every
    # contract case.  On the base kernel a case that a rule covers fails
    # the contract by design when it answered what the rule says 6.12
    # answers; a test may fail only by such cases, all of its inputs run.
    # Otherwise the kernels' tests must end alike.
    names = sorted(set(data["base"][0]) | set(data["patched"][0]))
    by_design, failed_by_design = {}, {}
    for kernel in KERNELS:
        tests, diags, boot = data[kernel]
        by_design[kernel], failed_by_design[kernel] = judge(kernel, tests, diags, rules,
                                                            problems)
        if boot is None:
            problems.append(f"{kernel}: no boot-to-verdict line in the serial log")
        if by_design[kernel]:
            print(f"{kernel}: {by_design[kernel]} cases fail the contract by design, each "
                  "listed in patches/intended-differences (6.12 answers them as the list "
                  "says, and the fixes change exactly these): not failures of this run")
    changed = []
    for name in names:
        st = [data[k][0][name]["status"] if name in data[k][0] else "missing" for k in KERNELS]
        if st[0] != st[1] and not (st == ["FAIL", "PASS"] and name in failed_by_design["base"]):
            changed.append(f"test {name}: base {st[0]}, patched {st[1]}")
    if changed:
        problems.append(f"{len(changed)} tests end differently on the two kernels, the first: "
                        + changed[0])

    # The contract cases: what each kernel answered, case by case.
    cases = sorted(set(data["base"][1]) | set(data["patched"][1]))
    diffs, wanted = [], []
    by_rule = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    matrix = collections.defaultdict(lambda: collections.defaultdict(
        lambda: {k: collections.Counter() for k in KERNELS}))
    columns = collections.defaultdict(list)
    for case in cases:
        got = {k: (data[k][1][case]["got"] if case in data[k][1] else "missing") for k in KERNELS}
        r = rule_of(case)
        if r is not None:
            wanted.append((case, got["base"], got["patched"], r))
            m = NAME.match(case)
            by_rule[r][(m["abi"], m["entry"], m["mode"])][(got["base"], got["patched"])] += 1
            if (got["base"], got["patched"]) != (r.base, r.patched):
                problems.append(f"intended difference not seen: {case}: base {got['base']}, "
                                f"patched {got['patched']}; {r.where} wants base {r.base}, "
                                f"patched {r.patched}")
        elif got["base"] != got["patched"]:
            diffs.append((case, got["base"], got["patched"]))
        m = NAME.match(case)
        if not m:
            continue
        d = data["patched"][1].get(case) or data["base"][1][case]
        col = f"{m['entry']} {m['mode']}"
        if col not in columns[m["abi"]]:
            columns[m["abi"]].append(col)
        for k in KERNELS:
            matrix[m["abi"]][(row_of(m["sec"], d["cls"]), col)][k][got[k]] += 1
    # Differences first, answers before absences: they name the entry points
    # and inputs that changed.
    diffs.sort(key=lambda d: ("missing" in d[1:], d[0]))
    answered = [d for d in diffs if "missing" not in d[1:]]
    problems += [f"differs, and no rule of patches/intended-differences covers it: {case}: "
                 f"base {b}, patched {p}" for case, b, p in answered]
    for i, k in enumerate(KERNELS):
        gone = [d[0] for d in diffs if d[1 + i] == "missing"]
        if gone:
            problems.append(f"{k}: {len(gone)} cases the other kernel ran are missing, "
                            f"the first: {gone[0]}")
    for r in rules:
        if r not in by_rule:
            problems.append(f"{r.where}: the rule covers no case that the kernels ran")

    out = ["# Integration boot: baseline 6.12 vs patched", ""]
    verdict = "PASS" if not problems else "FAIL"
    out += [f"**Verdict: {verdict}**", ""]
    out += ["| kernel | tests | passed | skipped | not ok | contract cases | boot-to-verdict |",
            "|---|---|---|---|---|---|---|"]
    for k in KERNELS:
        tests, diags, boot = data[k]
        statuses = {n: t["status"] for n, t in tests.items() if not t["tests"]}
        c = collections.Counter(statuses.values())
        bad = len(statuses) - c["PASS"] - c["SKIP"]
        bt = f"{boot:.2f} s" if boot is not None else "missing"
        out.append(f"| {k} | {len(statuses)} | {c['PASS']} | {c['SKIP']} | {bad} | {len(diags)} | {bt} |")
    seen = sum(1 for c, b, p, r in wanted if (b, p) == (r.base, r.patched))
    out += ["", f"Differences between the kernels: {len(diffs) + seen}, "
            f"of them intended: {seen} of the {len(wanted)} cases that "
            "patches/intended-differences lists; not intended: "
            f"{len(diffs)}", ""]
    if diffs:
        out += ["### Differences that no rule covers", "",
                "| case | base | patched |", "|---|---|---|"]
        out += [f"| {c} | {b} | {p} |" for c, b, p in diffs]
        out.append("")
    if wanted:
        out += ["## Intended differences", "",
                "The cases of each rule of patches/intended-differences, before (6.12) and",
                "after (patched), as entry point and mode, with the number of cases.", ""]
        for r in rules:
            out += [f"### {r.entry} {r.mode}: {r.inputs} ({r.patch})", "",
                    f"Wanted: base {r.base}, patched {r.patched}.", "",
                    "| ABI | entry point | mode | cases | base -> patched |", "|---|---|---|---|---|"]
            for (abi, entry, mode), c in sorted(by_rule.get(r, {}).items()):
                out.append(f"| {abi} | {entry} | {mode} | {sum(c.values())} | "
                           + ", ".join(f"{b} -> {p}: {n}" for (b, p), n in sorted(c.items())) + " |")
            out.append("")
        out += ["<details><summary>Every intended case</summary>", "",
                "| case | base | patched |", "|---|---|---|"]
        out += [f"| {c} | {b} | {p} |" for c, b, p, r in wanted]
        out += ["", "</details>", ""]
    out += ["## Semantics matrix", "",
            "Rows: the input classes of the boundary table (class as the ABI delivers the",
            "value to the kernel, and the tv_sec group). Cells: baseline / patched, each as",
            "outcome and number of cases; `proceeds` means the call went on to its normal",
            "outcome (slept, EAGAIN on a mismatching futex value, EDEADLK on our own PI",
            "lock, a timer armed).", ""]
    for abi in sorted(columns):
        cols = columns[abi]
        rows = sorted({r for (r, _) in matrix[abi]})
        out += [f"### {abi}", "", "| input class | " + " | ".join(cols) + " |",
                "|---|" + "---|" * len(cols)]
        for r in rows:
            cells = []
            for col in cols:
                v = matrix[abi].get((r, col))
                cells.append(f"{cell(v['base'])} / {cell(v['patched'])}" if v else "")
            out.append(f"| {r} | " + " | ".join(cells) + " |")
        out.append("")
    contract_programs = {d["test"].split("/")[0] for k in KERNELS for d in data[k][1].values()}
    others = sorted({n.split("/")[0] for n in names} - contract_programs)
    if others:
        out += ["## Other guest tests", "", "| program | base | patched |", "|---|---|---|"]
        for prog in others:
            row = []
            for k in KERNELS:
                c = collections.Counter(t["status"] for n, t in data[k][0].items()
                                        if n.split("/")[0] == prog and not t["tests"])
                row.append(cell(c))
            out.append(f"| {prog} | {row[0]} | {row[1]} |")
        out.append("")
    if problems:
        out += ["## Problems", ""] + [f"- {p}" for p in problems] + [""]

    path = os.path.join(results, "report.md")
    with open(path, "w") as f:
        f.write("\n".join(out))
    # The same verdict and figures for programs (scripts/mbox.py reads it).
    summary = {
        "verdict": verdict,
        "kernels": {},
        "differences": len(diffs) + seen,
        "intended": {"seen": seen, "listed": len(wanted),
                     "rules": [str(r) for r in rules]},
        "not_intended": len(diffs),
        "problems": problems,
    }
    for k in KERNELS:
        tests, diags, boot = data[k]
        statuses = {n: t["status"] for n, t in tests.items() if not t["tests"]}
        c = collections.Counter(statuses.values())
        abis = collections.Counter(NAME.match(n)["abi"] for n in diags if NAME.match(n))
        # Coverage: inputs per (ABI, entry point, mode, class of the input).
        cells = collections.Counter(
            " ".join((m["abi"], m["entry"], m["mode"], d["cls"]))
            for n, d in diags.items() for m in [NAME.match(n)] if m)
        summary["kernels"][k] = {
            "tests": len(statuses), "passed": c["PASS"], "skipped": c["SKIP"],
            "not_ok": len(statuses) - c["PASS"] - c["SKIP"],
            "contract_cases": len(diags), "contract_cases_by_abi": dict(sorted(abis.items())),
            "failed_by_design": by_design[k],
            "cells": dict(sorted(cells.items())), "boot_to_verdict_s": boot}
    with open(os.path.join(results, "report.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
        f.write("\n")
    for p in problems[:200]:
        print(f"error: {p}", file=sys.stderr)
    if len(problems) > 200:
        print(f"error: ... and {len(problems) - 200} more, see {path}", file=sys.stderr)
    n = len(data["patched"][1])
    print(f"report: {verdict}: {n} contract cases, {seen} intended differences "
          f"(of {len(wanted)} listed), {len(diffs)} not intended, {len(problems)} problems")
    print(path)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
