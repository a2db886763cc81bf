"""usage: scripts/report.py [--intended FILE | --stable] RESULTS_DIR OLD NEW

The one judge of the integration boot: compares kernel OLD with kernel NEW
and writes RESULTS_DIR/report-OLD-NEW.md and RESULTS_DIR/report-OLD-NEW.json.
The kernels, in their order: base (Debian's linux-source-X.Y of
TS_KERNEL), fixes (base + the fixes part of the kernel's series) and
patched (base + the whole series); OLD comes before NEW.

Reads RESULTS_DIR/OLD/verdict.json and RESULTS_DIR/NEW/verdict.json, the
KTAP trees that scripts/ktap.py read from the serial logs, and
RESULTS_DIR/<kernel>/commit where it exists (the git commit the kernel was
built from), and RESULTS_DIR/<kernel>/random (`scripts/ts boot`: the seed
and the number of random inputs per test the guest was given; both
kernels must have had the same).  A contract case is one input of
timeout_classes, as scripts/tsanity/timeout_classes.py reads it: a diagnostic line
in the log of the test that ran it, which ends with a closing line that
counts its inputs.  Its boundary inputs, its random inputs and its bad
pointers are all contract cases.

The two kernels must answer every case alike, except the cases that the
rules of FILE (default patches/intended-differences, read by
scripts/tsanity/intended.py; /dev/null or an empty file: none) cover: those must
differ, with exactly the outcomes the rule gives, the rule's base column
on OLD and its patched column on NEW.  On OLD they, and only they, may
fail the contract.  A test may fail only where a list of expected failures
names it (tsanity.expected: patches/expected-failures, on the base when
OLD is base), and a contract test only by the cases of the fix the list
names; a test the list names must fail.  Exits 1 on a test or
case that failed where no rule allows it, on a difference no rule covers,
on a covered case that does not show its difference, and on anything the
reader found wrong, each named on stderr; 2 on a usage error; 0 otherwise.

--stable (make stable): TS_KERNEL is a stable kernel, OLD its base and NEW
stable, base + its backports (patches/stable/X.Y/), both booted with
mainline's selftests.  The rules are mainline's
(patches/intended-differences), split by tsanity.stable.split_rules():
the rules of the backported fixes are the differences, as above; a case of
a rule of a fix that is not backported is one the kernel predates: it may
fail the contract on both kernels, with the rule's base answer on both
(counted as "predates"), and must be answered alike.  The kernels fail
the tests that patches/stable/X.Y/expected-failures lists, and no other:
the base every test listed, stable those of the fixes not backported
(and those listed for a mainline change); stable must pass the others.
"""
import argparse
import collections
import json
import os
import sys

from tsanity import intended
from tsanity import timeout_classes as tc
from tsanity import context as ts_context
from tsanity import expected as ts_expected
from tsanity import layout
from tsanity import stable as ts_stable
from tsanity.repo import REPO

# The kernels, oldest first.
KERNELS = ("base", "fixes", "patched", "stable")


def kernel_words(version):
    """The words the report uses for each kernel of Linux VERSION."""
    return {"base": f"base ({version})", "fixes": f"fixes ({version} + fixes)",
            "patched": f"patched ({version} + series)",
            "stable": f"stable ({version} + backports)"}


def nodes(tests, path=()):
    """(path, test) for every test of a verdict's tree, parents first."""
    for t in tests:
        yield path + (t["name"],), t
        yield from nodes(t["tests"], path + (t["name"],))


def read_kernel(results, kernel, problems):
    """A kernel's verdict: every test by path (leaves and programs), its
    contract cases by name (each with the path of its test), the boot time
    and the commit it was built from."""
    commit = None
    try:
        with open(layout.result_file(results, "commit", kernel=kernel)) as f:
            commit = f.read().strip() or None
    except OSError:
        pass
    try:
        with open(layout.result_file(results, "random", kernel=kernel)) as f:
            rnd = f.read().split()
    except OSError:
        rnd = None
    k = {"name": kernel, "tests": {}, "diags": {}, "boot": None, "commit": commit,
         "random": rnd}
    path = layout.result_file(results, "verdict", kernel=kernel)
    try:
        with open(path) as f:
            v = json.load(f)
    except (OSError, ValueError) as e:
        problems.append(f"{kernel}: no verdict ({e}): the boot did not run or was not read")
        return k
    problems += [f"{kernel}: KTAP: {e}" for e in v["errors"]]
    if v["counts"]["errors"] and not v["errors"]:
        problems.append(f"{kernel}: KTAP: the parser counted {v['counts']['errors']} errors")
    if not v["tests"]:
        problems.append(f"{kernel}: the verdict holds no test program")
    for p, t in nodes(v["tests"]):
        name = "/".join(p)
        k["tests"][name] = t
        for line in t["log"]:
            d = tc.diag(line)
            if d:
                d["test"] = name
                k["diags"][d["name"]] = d
    k["boot"] = v["boot_to_verdict_s"]
    if k["boot"] is None:
        problems.append(f"{kernel}: no boot-to-verdict line in the serial log")
    return k


# /init's lines (qemu-config/init.c) at the end of a guest program that
# failed: its exit status, or why it was killed.
def init_exit_1(prog):
    return f"# {prog}: exit status 1"


INIT_KILLED = ("killed", "left processes")


def killed(log):
    """True if /init's lines in LOG say the program was killed."""
    return any(w in l for l in log for w in INIT_KILLED)


def judge_kernel(k, rules, old, problems, predates=(), stable=False, known=None):
    """Problems of one kernel's tests and cases.  Cases may fail the
    contract by design only on the old kernel, and by a change the kernel
    predates (PREDATES: rules of fixes not backported) on both.  A test
    may fail only where KNOWN ({test: tsanity.expected.Entry}, the
    kernel's list of expected failures) names it, and a contract test
    only by such cases, each of a rule of the fix the list names; a test
    listed must fail.  On a STABLE kernel a test may also skip for want of
    what the kernel lacks.  Sets k["by_design"], how many cases failed by
    design, k["predates"], how many by a change the kernel predates, and
    k["failed_by_design"], the tests that failed as listed."""
    kernel, tests, diags = k["name"], k["tests"], k["diags"]
    known = known or {}
    failing, by_design, before = collections.defaultdict(list), 0, 0
    # The reasons of the tests that skipped for want of something a stable
    # kernel lacks.
    k["absent"] = collections.Counter()
    for case, d in sorted(diags.items()):
        if d["exp"] == d["got"]:
            continue
        patch = None
        try:
            ok = old and intended.fails_by_design(rules, d)
            older = not ok and intended.fails_by_design(predates, d)
            if ok or older:
                patch = intended.rule_for(rules if ok else predates, d["name"], d).patch
        except ValueError as e:
            problems.append(str(e))
            ok = older = False
        failing[d["test"]].append((case, ok or older, patch))
        before += older
        by_design += bool(ok)
        if not (ok or older):
            problems.append(f"{kernel}: case failed: {case}: expected {d['exp']}, got {d['got']}")
    ok_tests = set()
    contract_programs = {d["test"].split("/")[0] for d in diags.values()}
    # Leaves first: a program's failure is judged by its tests'.
    for name, t in sorted(tests.items(), key=lambda nt: -nt[0].count("/")):
        st, log, leaf = t["status"], t["log"], not t["tests"]
        cases = [l for l in log if tc.diag(l)]
        done = tc.closing(log)
        contract = leaf and name.split("/")[0] in contract_programs
        if contract and st != "SKIP":
            if len(done) != 1 or int(done[0]["n"]) != len(cases) or not cases:
                problems.append(f"{kernel}: {name}: {len(cases)} cases logged, and "
                                + (f"its closing line says {done[0]['n']}" if done else
                                   "no closing line: it did not run all of its inputs"))
            elif int(done[0]["k"]) != len(failing[name]):
                problems.append(f"{kernel}: {name}: says {done[0]['k']} inputs failed, "
                                f"its log shows {len(failing[name])}")
        if contract and st == "SKIP" and not tc.skipped_structurally(log):
            reason = tc.skipped_absent(log) if stable else None
            if reason:
                k["absent"][reason] += 1
            else:
                problems.append(f"{kernel}: {name}: skipped, and not for want of an entry "
                                "point of this ABI" + (" or of this kernel" if stable
                                                       else "") + ": "
                                + "; ".join(l for l in log if "SKIP" in l))
        entry = known.get(name)
        if entry and not leaf:
            problems.append(f"{kernel}: {entry.where}: {name} is a program, not a test: a list "
                            "names the tests that fail")
            entry = None
        if leaf and entry and st != "FAIL":
            problems.append(f"{kernel}: test {st}: {name}, which {entry.where} lists as an "
                            f"expected failure ({entry.reason()}): the list is wrong")
            continue
        if st in ("PASS", "SKIP"):
            continue
        if leaf and not entry:
            allowed = False
        elif leaf and contract:
            # Failed by the listed fix's cases alone, all inputs tried.
            allowed = bool(failing[name] and all(ok for _, ok, _ in failing[name])
                           and (entry.patch is None
                                or all(p == entry.patch for _, _, p in failing[name]))
                           and all(tc.only_failed_inputs(l) for l in log)
                           and len(failing[name]) in tc.expect_wrong(log))
        elif leaf:
            # A failure, not a crash or a hang: nothing killed it, and a
            # program of its own (a top-level leaf) exited with status 1.
            top = name == t["name"]
            allowed = (not killed(log)
                       and (not top or init_exit_1(t["name"]) in log))
        else:
            below = [n for n in tests if n.startswith(name + "/") and not tests[n]["tests"]
                     and tests[n]["status"] not in ("PASS", "SKIP")]
            allowed = bool(below and all(n in ok_tests for n in below)
                           and init_exit_1(t["name"]) in log
                           and not killed(log))
        if allowed:
            ok_tests.add(name)
        else:
            problems.append(f"{kernel}: test {st}: {name}"
                            + (f" (listed for {entry.reason()} in {entry.where}, and it failed "
                               "otherwise than by that fix's cases)" if leaf and entry else ""))
    for name, entry in sorted(known.items()):
        if name not in tests:
            problems.append(f"{kernel}: {entry.where}: {name} is listed as an expected failure "
                            "and did not run")
    k["by_design"], k["predates"], k["failed_by_design"] = by_design, before, ok_tests


def judge(results, old, new, rules, label="the list of intended differences", predates=(),
          stable=False, known=({}, {})):
    """Judge kernel new against kernel old from the verdicts under results,
    with the rules of intended.load(); label names their list in the
    problems; KNOWN: the lists of expected failures of old and new
    (tsanity.expected.for_base(), for_stable()).  Returns (problems, data): the problems found (none: PASS)
    and what render_md() and render_json() show."""
    problems: list[str] = []
    ks = {name: read_kernel(results, name, problems) for name in (old, new)}
    a, b = ks[old], ks[new]

    def rule_of(case):
        """The rule of a contract case, or None."""
        d = b["diags"].get(case) or a["diags"].get(case)
        if d is None:
            return None
        try:
            return intended.rule_for(rules, case, d)
        except ValueError as e:
            problems.append(str(e))
            return None

    # Every test of either kernel, by its path in the KTAP tree, and every
    # contract case.  On the old kernel a case that a rule covers fails
    # the contract by design when it answered what the rule says the base
    # answers; a test may fail only by such cases, all of its inputs run.
    # Otherwise the kernels' tests must end alike.
    if a["random"] != b["random"]:
        problems.append(f"the kernels ran different random inputs: {old} "
                        f"{' '.join(a['random'] or ['none'])}, {new} "
                        f"{' '.join(b['random'] or ['none'])} (seed, inputs per test)")
    names = sorted(set(a["tests"]) | set(b["tests"]))
    for k, listed in zip((a, b), known):
        judge_kernel(k, rules, k is a, problems, predates, stable, listed)
    changed = []
    for name in names:
        st = [k["tests"][name]["status"] if name in k["tests"] else "missing" for k in (a, b)]
        if st[0] != st[1] and not (st[0] == "FAIL" and st[1] == "PASS"
                                   and name in a["failed_by_design"]):
            changed.append(f"test {name}: {old} {st[0]}, {new} {st[1]}")
    if changed:
        problems.append(f"{len(changed)} tests end differently on the two kernels, the first: "
                        + changed[0])

    # The contract cases: what each kernel answered, case by case.
    cases = sorted(set(a["diags"]) | set(b["diags"]))
    diffs, wanted = [], []
    # {rule: {(abi, entry, mode): Counter((old answer, new answer))}}
    by_rule: collections.defaultdict[intended.Rule, collections.defaultdict[
        tuple[str, str, str], collections.Counter[tuple[str, str]]]] = \
        collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
    # {abi: {(row, column): {kernel: Counter(answer)}}}
    matrix: collections.defaultdict[str, collections.defaultdict[
        tuple[str, str], dict[str, collections.Counter[str]]]] = \
        collections.defaultdict(lambda: collections.defaultdict(
            lambda: {old: collections.Counter(), new: collections.Counter()}))
    columns: collections.defaultdict[str, list[str]] = collections.defaultdict(list)
    for case in cases:
        got = {k["name"]: (k["diags"][case]["got"] if case in k["diags"] else "missing")
               for k in (a, b)}
        m = tc.case_name(case)
        r = rule_of(case)
        if r is not None:
            wanted.append((case, got[old], got[new], r))
            by_rule[r][(m["abi"], m["entry"], m["mode"])][(got[old], got[new])] += 1
            if (got[old], got[new]) != (r.base, r.patched):
                problems.append(f"intended difference not seen: {case}: {old} {got[old]}, "
                                f"{new} {got[new]}; {r.where} wants {old} {r.base}, "
                                f"{new} {r.patched}")
        elif got[old] != got[new]:
            diffs.append((case, got[old], got[new]))
        if not m:
            continue
        d = b["diags"].get(case) or a["diags"][case]
        col = f"{m['entry']} {m['mode']}"
        if col not in columns[m["abi"]]:
            columns[m["abi"]].append(col)
        row = f"{d['cls']}, {tc.sec_group(m['sec'])}"
        for name in (old, new):
            matrix[m["abi"]][(row, col)][name][got[name]] += 1
    # Differences first, answers before absences: they name the entry points
    # and inputs that changed.
    diffs.sort(key=lambda d: ("missing" in d[1:], d[0]))
    answered = [d for d in diffs if "missing" not in d[1:]]
    problems += [f"differs, and no rule of {label} covers it: {case}: {old} {o}, {new} {n}"
                 for case, o, n in answered]
    for i, k in enumerate((a, b)):
        gone = [d[0] for d in diffs if d[1 + i] == "missing"]
        if gone:
            problems.append(f"{k['name']}: {len(gone)} cases the other kernel ran are missing, "
                            f"the first: {gone[0]}")
    for r in rules:
        if r not in by_rule:
            problems.append(f"{r.where}: the rule covers no case that the kernels ran")

    contract_programs = {d["test"].split("/")[0] for k in (a, b) for d in k["diags"].values()}
    data = {
        "old": old, "new": new, "kernels": ks, "rules": rules, "label": label,
        "diffs": diffs, "wanted": wanted, "by_rule": by_rule,
        "seen": sum(1 for c, o, n, r in wanted if (o, n) == (r.base, r.patched)),
        "matrix": matrix, "columns": columns,
        "others": sorted({n.split("/")[0] for n in names} - contract_programs),
        "random": b["random"], "predates": predates, "stable": stable,
        "known": dict(zip((old, new), known)),
        "n_random": sum(1 for c in cases if (tc.case_name(c) or {"seed": None})["seed"]),
        "n_pointers": sum(1 for c in cases if tc.pointer_case(c)),
    }
    return problems, data


def leaf_counts(k):
    """tests, passed, skipped, not ok: the leaves of a kernel's tree."""
    statuses = [t["status"] for t in k["tests"].values() if not t["tests"]]
    c = collections.Counter(statuses)
    return len(statuses), c["PASS"], c["SKIP"], len(statuses) - c["PASS"] - c["SKIP"]


def cell(counter):
    return ", ".join(f"{k} {v}" for k, v in sorted(counter.items())) or "-"


def render_md(problems, data, version):
    """report-OLD-NEW.md: the verdict, and what it rests on, for Linux
    VERSION."""
    old, new, ks, label = data["old"], data["new"], data["kernels"], data["label"]
    words = kernel_words(version)
    O, N = words.get(old, old), words.get(new, new)
    diffs, wanted, seen = data["diffs"], data["wanted"], data["seen"]
    out = [f"# Integration boot: {O} vs {N}", ""]
    out += [f"**Verdict: {'PASS' if not problems else 'FAIL'}**", ""]
    out += ["| kernel | commit | tests | passed | skipped | not ok | contract cases | "
            "boot-to-verdict |", "|---|---|---|---|---|---|---|---|"]
    for name in (old, new):
        k = ks[name]
        n, passed, skipped, bad = leaf_counts(k)
        bt = f"{k['boot']:.2f} s" if k["boot"] is not None else "missing"
        commit = k["commit"][:12] if k["commit"] else "-"
        out.append(f"| {words.get(name, name)} | {commit} | {n} | {passed} | {skipped} | "
                   f"{bad} | {len(k['diags'])} | {bt} |")
    if data["rules"]:
        out += ["", f"Differences between the kernels: {len(diffs) + seen}, "
                f"of them intended: {seen} of the {len(wanted)} cases that "
                f"{label} lists; not intended: {len(diffs)}", ""]
    else:
        out += ["", f"Differences between the kernels: {len(diffs)}; none is allowed "
                f"({label} lists no rule)", ""]
    for name in (old, new):
        k = ks[name]
        listed = data["known"][name]
        if listed:
            failed = ts_expected.by_reason(listed, k.get("failed_by_design", ()))
            where = next(iter(listed.values())).where.rsplit(":", 1)[0]
            out += [f"{words.get(name, name)}: {sum(failed.values())} of the "
                    f"{len(listed)} tests that {os.path.relpath(where, REPO)} lists as expected "
                    "failures failed as listed (by the change each waits for: "
                    + (", ".join(f"{n} × {r}" for r, n in sorted(failed.items())) or "none")
                    + ").", ""]
        if k.get("absent"):
            out += [f"{words.get(name, name)}: skipped for want of what this kernel lacks: "
                    + ", ".join(f"{n} × {r}" for r, n in sorted(k["absent"].items())) + ".",
                    ""]
    if data["predates"]:
        out += [f"Cases that fail the contract by a change this kernel predates (the rules of "
                f"the fixes not backported: "
                f"{', '.join(sorted({r.patch for r in data['predates']}))}; answered alike, "
                f"the old answer): {O} {ks[old].get('predates', 0)}, "
                f"{N} {ks[new].get('predates', 0)}", ""]
    rnd = data["random"]
    out += [f"Contract cases: the boundary table, "
            + (f"{data['n_random']} random inputs (seed {rnd[0]}, {rnd[1]} per test; "
               f"replay: TS_SEED={rnd[0]} TS_RANDOM={rnd[1]} make random)" if rnd else
               "no random inputs")
            + f", and {data['n_pointers']} timeouts the kernel cannot read (bad pointers).", ""]
    if diffs:
        out += ["### Differences that no rule covers", "",
                f"| case | {O} | {N} |", "|---|---|---|"]
        out += [f"| {c} | {o} | {n} |" for c, o, n in diffs]
        out.append("")
    if wanted:
        out += ["## Intended differences", "",
                f"The cases of each rule of {label},",
                f"on {O} and on {N}, as entry point and mode, with the number of cases.", ""]
        for r in data["rules"]:
            out += [f"### {r.entry} {r.mode}: {r.inputs} ({r.patch})", "",
                    f"Wanted: {O} {r.base}, {N} {r.patched}.", "",
                    f"| ABI | entry point | mode | cases | {old} -> {new} |",
                    "|---|---|---|---|---|"]
            for (abi, entry, mode), c in sorted(data["by_rule"].get(r, {}).items()):
                out.append(f"| {abi} | {entry} | {mode} | {sum(c.values())} | "
                           + ", ".join(f"{o} -> {n}: {x}" for (o, n), x in sorted(c.items()))
                           + " |")
            out.append("")
        out += ["<details><summary>Every intended case</summary>", "",
                f"| case | {O} | {N} |", "|---|---|---|"]
        out += [f"| {c} | {o} | {n} |" for c, o, n, r in wanted]
        out += ["", "</details>", ""]
    out += ["## Semantics matrix", "",
            "Rows: the input classes of the boundary and random inputs (class as the ABI delivers the",
            f"value to the kernel, and the tv_sec group). Cells: {O} / {N},",
            "each as outcome and number of cases; `proceeds` means the call went on to its",
            "normal outcome (slept, EAGAIN on a mismatching futex value, EDEADLK on our own",
            "PI lock, a timer armed).", ""]
    for abi in sorted(data["columns"]):
        cols, matrix = data["columns"][abi], data["matrix"][abi]
        out += [f"### {abi}", "", "| input class | " + " | ".join(cols) + " |",
                "|---|" + "---|" * len(cols)]
        for row in sorted({r for (r, _) in matrix}):
            cells = []
            for col in cols:
                v = matrix.get((row, col))
                cells.append(f"{cell(v[old])} / {cell(v[new])}" if v else "")
            out.append(f"| {row} | " + " | ".join(cells) + " |")
        out.append("")
    if data["others"]:
        out += ["## Other guest tests", "", f"| program | {O} | {N} |", "|---|---|---|"]
        for prog in data["others"]:
            row = [cell(collections.Counter(t["status"] for n, t in ks[name]["tests"].items()
                                            if n.split("/")[0] == prog and not t["tests"]))
                   for name in (old, new)]
            out.append(f"| {prog} | {row[0]} | {row[1]} |")
        out.append("")
    if problems:
        out += ["## Problems", ""] + [f"- {p}" for p in problems] + [""]
    return "\n".join(out)


def render_json(problems, data):
    """report-OLD-NEW.json: the same verdict and figures for programs
    (scripts/mbox.py and scripts/coverage.py read it); "kernels" is keyed
    by the kernels' names."""
    summary = {
        "verdict": "PASS" if not problems else "FAIL",
        "old": data["old"], "new": data["new"],
        "kernels": {},
        "differences": len(data["diffs"]) + data["seen"],
        "intended": {"seen": data["seen"], "listed": len(data["wanted"]),
                     "rules": [str(r) for r in data["rules"]]},
        "not_intended": len(data["diffs"]),
        "random": data["random"], "random_cases": data["n_random"],
        "pointer_cases": data["n_pointers"],
        "problems": problems,
    }
    for name in (data["old"], data["new"]):
        k = data["kernels"][name]
        n, passed, skipped, bad = leaf_counts(k)
        names = [(tc.case_name(c), d) for c, d in k["diags"].items()]
        abis = collections.Counter(m["abi"] for m, d in names if m)
        # Coverage: inputs per (ABI, entry point, mode, class of the input).
        cells = collections.Counter(" ".join((m["abi"], m["entry"], m["mode"], d["cls"]))
                                    for m, d in names if m)
        summary["kernels"][name] = {
            "tests": n, "passed": passed, "skipped": skipped, "not_ok": bad,
            "contract_cases": len(k["diags"]),
            "contract_cases_by_abi": dict(sorted(abis.items())),
            "failed_by_design": k.get("by_design", 0),
            "cells": dict(sorted(cells.items())), "boot_to_verdict_s": k["boot"],
            "commit": k["commit"]}
        if data["stable"]:
            summary["kernels"][name]["predates"] = k.get("predates", 0)
            summary["kernels"][name]["absent"] = dict(sorted(k.get("absent", {}).items()))
        if data["known"][name]:
            summary["kernels"][name]["expected_failures"] = sorted(
                n for n in data["known"][name] if n in k.get("failed_by_design", ()))
    return summary


class Usage(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        print(f"error: {message}", file=sys.stderr)
        sys.exit(2)


def main(argv=None):
    ap = Usage(prog="scripts/report.py",
               description="Compare kernel OLD with kernel NEW (see the module's docstring).")
    ap.add_argument("--intended", metavar="FILE", default=None,
                    help="the differences allowed (default: patches/intended-differences; "
                         "/dev/null: none)")
    ap.add_argument("--expected", metavar="FILE", default=None,
                    help="the tests expected to fail (default: patches/expected-failures on "
                         "the base, patches/stable/X.Y/expected-failures with --stable)")
    ap.add_argument("--stable", action="store_true",
                    help="a stable kernel: base against base + backports, by mainline's rules")
    ap.add_argument("results", metavar="RESULTS_DIR")
    ap.add_argument("old", metavar="OLD", choices=list(KERNELS))
    ap.add_argument("new", metavar="NEW", choices=list(KERNELS))
    args = ap.parse_args(argv)
    V = ts_context.version_or_exit()
    order = list(KERNELS)
    if order.index(args.old) >= order.index(args.new):
        ap.error(f"OLD ({args.old}) must come before NEW ({args.new}) in: " + ", ".join(order))
    if not os.path.isdir(args.results):
        ap.error(f"{args.results} is not a directory")
    out = {ext: layout.result_file(args.results, "report", old=args.old, new=args.new, ext=ext)
           for ext in ("md", "json")}
    # A run that stops early must not leave an older verdict behind.
    for path in out.values():
        if os.path.exists(path):
            os.remove(path)
    if args.stable and args.intended is not None:
        ap.error("--stable derives its rules from mainline's list: no --intended with it")
    if args.stable and (args.old, args.new) != ("base", "stable"):
        ap.error("--stable compares base with stable")
    if args.stable:
        args.intended = os.path.join(REPO, ts_stable.MAINLINE_DIR, "intended-differences")
    elif args.intended is None:
        args.intended = intended.default()
    predates = []
    try:
        rules = intended.load(args.intended)
        if args.stable:
            rules, predates = ts_stable.split_rules(rules, V)
    except OSError as e:
        ap.error(f"--intended: {e}")
    except (ValueError, ts_stable.StableError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    # The list as the report names it: the series' own by its place in the repo.
    label = args.intended
    if os.path.abspath(label) == intended.default(required=False):
        label = os.path.relpath(label, REPO)

    if args.stable:
        label = f"{os.path.relpath(args.intended, REPO)} (the rules of the fixes backported to {V})"
    if args.expected and not args.stable and args.old != "base":
        ap.error("--expected: only the base, or a stable kernel, has expected failures")
    try:
        known = (ts_expected.for_stable(V, REPO, args.expected) if args.stable else
                 ts_expected.for_base(os.path.dirname(intended.default()), args.expected)
                 if args.old == "base" else ({}, {}))
    except (OSError, ts_expected.ExpectedError, ts_stable.StableError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    problems, data = judge(args.results, args.old, args.new, rules, label, predates,
                           args.stable, known)

    with open(out["md"], "w") as f:
        f.write(render_md(problems, data, V))
    summary = render_json(problems, data)
    with open(out["json"], "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
        f.write("\n")
    k = data["kernels"][args.old]
    if k["by_design"]:
        print(f"{args.old}: {k['by_design']} cases fail the contract by design, each listed in "
              f"{label} ({V} answers them as the list says, and the fixes change exactly "
              "these): not failures of this run")
    if predates:
        print("predates: " + ", ".join(f"{n} {data['kernels'][n]['predates']}" for n in
                                       (args.old, args.new))
              + " cases fail the contract by a change this kernel predates (the rules of "
              "the fixes not backported: " + ", ".join(sorted({r.patch for r in predates}))
              + "): not failures of this run")
    for p in problems:
        print(f"error: {p}", file=sys.stderr)
    print(f"report: {summary['verdict']}: {args.old} vs {args.new}: "
          f"{len(data['kernels'][args.new]['diags'])} contract cases, {data['seen']} intended "
          f"differences (of {len(data['wanted'])} listed), {len(data['diffs'])} not intended, "
          f"{len(problems)} problems")
    print(out["md"])
    return 1 if problems else 0
