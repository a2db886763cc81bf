#!/usr/bin/env python3
"""usage: scripts/bench-report.py BENCH_DIR

Turn one `make bench` run into a table, BENCH_DIR/bench.md, and print it.

Reads BENCH_DIR/bloat-o-meter.txt (scripts/bloat-o-meter, base vmlinux vs
patched vmlinux of the integration config) and every round's serial log,
BENCH_DIR/<kernel>/serial-<round>.log for kernel in base, patched (lines
"# bench <entry> <path> ns/call: r1 r2 ...", printed by qemu-config/bench.c in
the guest); the repeats of all rounds are pooled.

For each entry point and path: the median ns/call of each kernel, and the
ratio patched/base as min-median-max over the patched repeats (each
divided by the base median), next to the base's own spread (each
base repeat divided by its median). Fails if a line is missing or a
kernel has fewer than 5 repeats.
"""
import glob
import os
import re
import statistics
import sys

LINE = re.compile(r"#\s*bench (?P<entry>\S+) (?P<path>\S+) ns/call:(?P<vals>(?: \d+)+)\s*$")


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
                        int(v) for v in m["vals"].split())
    return runs


def spread(vals, ref):
    r = sorted(v / ref for v in vals)
    return f"{r[0]:.2f}-{statistics.median(r):.2f}-{r[-1]:.2f}"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[0])
    d = sys.argv[1]
    base = load(os.path.join(d, "base"))
    patched = load(os.path.join(d, "patched"))
    keys = sorted(set(base) | set(patched))
    errors = []
    out = ["# Cost of the series against 6.12", "",
           "## scripts/bloat-o-meter, base vmlinux -> patched vmlinux (integration config)", "",
           "```"]
    with open(os.path.join(d, "bloat-o-meter.txt")) as f:
        out += f.read().rstrip("\n").splitlines()
    out += ["```", "",
            "## Cost per call in the guest (TCG), ns",
            "",
            "| entry point | path | base median | patched median | patched/base min-median-max | base spread |",
            "|---|---|---|---|---|---|"]
    if not keys:
        errors.append("no bench lines in either serial log")
    for k in keys:
        b, p = base.get(k), patched.get(k)
        if not b or not p:
            errors.append(f"bench {k[0]} {k[1]}: missing on {'base' if not b else 'patched'}")
            continue
        if min(len(b), len(p)) < 5:
            errors.append(f"bench {k[0]} {k[1]}: fewer than 5 repeats")
        bm, pm = statistics.median(b), statistics.median(p)
        out.append(f"| {k[0]} | {k[1]} | {bm:.0f} | {pm:.0f} | {spread(p, bm)} | {spread(b, bm)} |")
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
