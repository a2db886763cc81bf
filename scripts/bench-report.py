#!/usr/bin/env python3
"""usage: scripts/bench-report.py BENCH_DIR

Turn one `make bench` run into a table, BENCH_DIR/bench.md, and print it.

Reads every round's serial log, BENCH_DIR/<kernel>/serial-<round>.log for
kernel in base, fixes, patched (lines "# bench <entry> <path> insn/call:
r1 r2 ...", printed by qemu-config/bench.c in a guest that QEMU runs with
-icount shift=0,sleep=off, whose clock counts instructions), the
bloat-o-meter outputs and BENCH_DIR/objdiff.md (scripts/objdiff.py).  The
repeats of all rounds are pooled.

For each entry point and path: the median instructions per call of each
kernel, the spread of each (max - min of its repeats, in instructions and
in % of the median), and the differences fixes - base (what the fixes'
checks cost) and patched - fixes (what the refactor costs).  A
difference is "0" when it is within the larger spread of the two kernels.
These are instruction counts, not time.

Exit 1 if a line is missing, a kernel has fewer than 2 repeats of a path,
or a spread exceeds 0.5 % on a path that does not sleep (the quick paths
of nanosleep and clock_nanosleep-rel sleep for their timer slack, which
-icount counts as virtual time, and are shown but not judged).  A
refactor cost that is not 0 is listed with the functions whose object
code differs, for the reader to explain; it does not fail the run.
"""
import glob
import os
import re
import statistics
import sys

KERNELS = ("base", "fixes", "patched")
LINE = re.compile(r"#\s*bench (?P<entry>\S+) (?P<path>\S+) insn/call:(?P<vals>(?: \d+\.\d+)+)\s*$")
SLEEPS = {("nanosleep", "quick"), ("clock_nanosleep-rel", "quick")}
MAX_SPREAD = 0.5  # percent


def load(kdir):
    runs = {}
    logs = sorted(glob.glob(os.path.join(kdir, "serial-*.log")))
    if not logs:
        sys.exit(f"error: no serial-<round>.log in {kdir}")
    for path in logs:
        with open(path, errors="replace") as f:
            for line in f:
                m = LINE.search(line)
                if m:
                    runs.setdefault((m["entry"], m["path"]), []).extend(
                        float(v) for v in m["vals"].split())
    return runs


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[0])
    d = sys.argv[1]
    data = {k: load(os.path.join(d, k)) for k in KERNELS}
    keys = []
    for k in KERNELS:
        keys += [x for x in data[k] if x not in keys]
    errors, nonzero = [], []
    out = ["# Cost of the series, in instructions per call", "",
           "QEMU -icount shift=0,sleep=off: the guest clock advances one ns per instruction, "
           "so these are instruction counts (the loop's own included, the same on every "
           "kernel), not time. Spread: max - min of the repeats. A difference within the "
           "larger spread of its two kernels is shown as 0.", "",
           "| entry point | path | base | fixes | patched | spread b / f / p | fixes - base "
           "| patched - fixes |", "|---|---|---|---|---|---|---|---|"]
    if not keys:
        errors.append("no bench lines in any serial log")
    for key in keys:
        vals = {k: data[k].get(key) for k in KERNELS}
        missing = [k for k in KERNELS if not vals[k]]
        if missing:
            errors.append(f"bench {key[0]} {key[1]}: missing on {', '.join(missing)}")
            continue
        med = {k: statistics.median(vals[k]) for k in KERNELS}
        spr = {k: max(vals[k]) - min(vals[k]) for k in KERNELS}
        for k in KERNELS:
            if len(vals[k]) < 2:
                errors.append(f"bench {key[0]} {key[1]}: fewer than 2 repeats on {k}")
            pct = 100 * spr[k] / med[k] if med[k] else 0
            if key not in SLEEPS and pct > MAX_SPREAD:
                errors.append(f"bench {key[0]} {key[1]}: spread {pct:.2f} % on {k} "
                              f"(over {MAX_SPREAD} %: {vals[k]})")

        def diff(a, b):
            v = med[b] - med[a]
            return "0" if abs(v) <= max(spr[a], spr[b]) else f"{v:+.2f}"
        fb, pf = diff("base", "fixes"), diff("fixes", "patched")
        if pf != "0":
            nonzero.append((key, pf))
        note = " (sleeps: virtual time)" if key in SLEEPS else ""
        out.append(f"| {key[0]}{note} | {key[1]} | {med['base']:.2f} | {med['fixes']:.2f} | "
                   f"{med['patched']:.2f} | {spr['base']:.2f} / {spr['fixes']:.2f} / "
                   f"{spr['patched']:.2f} | {fb} | {pf} |")
    out += ["", "## The refactor (patched - fixes) where it is not 0", ""]
    if nonzero:
        out += [f"- {k[0]} {k[1]}: {v} instructions per call" for k, v in nonzero]
        out += ["", "The object code that differs (scripts/objdiff.py, fixes -> patched) "
                "explains these; see below."]
    else:
        out.append("None: 0 within the spread on every path.")
    for name in ("objdiff.md", "bloat-o-meter-base-fixes.txt", "bloat-o-meter-fixes-patched.txt"):
        path = os.path.join(d, name)
        if not os.path.exists(path):
            errors.append(f"{path} missing")
            continue
        with open(path) as f:
            body = f.read().rstrip("\n")
        out += ["", f"## {name}", ""] + (["```", body, "```"] if name.endswith(".txt") else [body])
    out.append("")
    text = "\n".join(out)
    with open(os.path.join(d, "bench.md"), "w") as f:
        f.write(text)
    print(text)
    for e in errors:
        print(f"error: {e}", file=sys.stderr)
    print(os.path.join(d, "bench.md"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
