#!/usr/bin/env python3
"""usage: scripts/forms.py RESULTS_DIR OLD NEW

The map of the timeouts Linux takes outside the timespec contract, as
qemu-config/timeout_forms.c measured them on two kernels: reads
RESULTS_DIR/{OLD,NEW}/verdict.json (scripts/ktap.py) and writes
RESULTS_DIR/forms-OLD-NEW.md and forms-OLD-NEW.svg, one row per interface
and ABI, one column per input, each cell the answer on OLD / NEW, then one
row per interface the boot does not run (NOT_MEASURED), with the reason.  A cell
whose answer is not what the contract would answer for that input (an
interval: a negative value or a sub-second field out of range is EINVAL,
anything else is accepted) is marked as an exception.

This program owns timeout_forms' output format, one line per input:

  # form <interface> <abi> <class> <field>=<value>...: <answer>

Exit 1 if the two kernels answer any input differently (the series
changes none of these interfaces), if an input is measured on one kernel
only, or if no input was measured; 2 on a usage error.
"""
import html
import json
import os
import re
import sys

FORM = re.compile(r"^# form (?P<iface>\S+) (?P<abi>\S+) (?P<cls>\S+) (?P<input>[^:]+): (?P<answer>.+)$")
LIMITS = {"LONG_MIN": -2**63, "LONG_MAX": 2**63 - 1, "INT_MIN": -2**31, "INT_MAX": 2**31 - 1}
# Interfaces with a timeout of their own that the boot does not run yet,
# each with the reason: a row of the map all the same.
NOT_MEASURED = {
    "PPS_FETCH": "PPS_CLIENT_KTIMER not in the guest configuration yet",
    "CAN_BCM": "CAN_VCAN and CAN_BCM not in the guest configuration yet",
    "LPSETTIMEOUT": "needs an emulated parallel port (lp)",
    "PPSETTIME": "needs an emulated parallel port (ppdev)",
    "io_uring_min_wait_usec": "not written yet",
}
ACCEPTED = re.compile(r"^(\d+|blocked)( read-back=\S+)?$")


def lines(results, kernel):
    """{(iface, abi, cls, input): answer} of a kernel's verdict."""
    with open(os.path.join(results, kernel, "verdict.json")) as f:
        v = json.load(f)
    out = {}

    def walk(tests):
        for t in tests:
            for line in t["log"]:
                m = FORM.match(line)
                if m:
                    out[(m["iface"], m["abi"], m["cls"], m["input"])] = m["answer"]
            walk(t["tests"])
    walk(v["tests"])
    return out


def value(text):
    return LIMITS[text] if text in LIMITS else int(text)


def contract_accepts(inp):
    """What the contract answers for this input, read as an interval."""
    f = {k: value(v) for k, v in (kv.split("=") for kv in inp.split())}
    if "ms" in f:
        return f["ms"] >= 0
    return f["sec"] >= 0 and 0 <= f["usec"] < 1000000


def is_exception(inp, answer):
    """True if the answer is not the contract's: accepted where the
    contract refuses, or the other way round, or refused with another
    errno than EINVAL."""
    accepted = bool(ACCEPTED.match(answer))
    return accepted != contract_accepts(inp) or (not accepted and answer != "EINVAL")


def svg(rows, cols, cells, old, new):
    cw, rh, lw, top = 136, 34, 290, 150
    # Room on the right for the last column's slanted label.
    w, h = lw + cw * len(cols) + 140, top + rh * (len(rows) + len(NOT_MEASURED)) + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="10" y="20" font-size="15" font-weight="bold">Timeouts outside the '
           f'timespec contract: answer on {old} / {new}</text>',
           '<text x="10" y="38">Red: not what the contract answers for the input '
           '(negative or out-of-range field: EINVAL). Grey: as the contract.</text>']
    for j, (cls, inp) in enumerate(cols):
        x = lw + j * cw + cw // 2
        out.append(f'<text transform="translate({x},{top - 8}) rotate(-40)">'
                   f'{html.escape(cls + " " + inp)}</text>')
    for i, (iface, abi) in enumerate(rows):
        y = top + i * rh
        out.append(f'<text x="10" y="{y + rh // 2 + 4}" font-weight="bold">'
                   f'{html.escape(iface)} ({abi})</text>')
        for j, col in enumerate(cols):
            x = lw + j * cw
            c = cells.get((iface, abi) + col)
            if c is None:
                fill, text = "#ffffff", "-"
            else:
                fill = "#f4a6a6" if c["exception"] else "#e6e6e6"
                text = c["old"] if c["old"] == c["new"] else f'{c["old"]} / {c["new"]}'
            out.append(f'<rect x="{x}" y="{y}" width="{cw - 2}" height="{rh - 2}" fill="{fill}"/>')
            out.append(f'<text x="{x + 4}" y="{y + rh // 2 + 4}">'
                       f'{html.escape(text.replace(" read-back=", " rb="))}</text>')
    for i, (iface, why) in enumerate(sorted(NOT_MEASURED.items()), len(rows)):
        y = top + i * rh
        out.append(f'<text x="10" y="{y + rh // 2 + 4}" font-weight="bold">'
                   f'{html.escape(iface)} (not measured)</text>')
        out.append(f'<rect x="{lw}" y="{y}" width="{cw * len(cols) - 2}" height="{rh - 2}" '
                   f'fill="#ffffff" stroke="#bbbbbb"/>')
        out.append(f'<text x="{lw + 4}" y="{y + rh // 2 + 4}" font-style="italic">'
                   f'{html.escape(why)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    results, old, new = sys.argv[1:]
    try:
        a, b = lines(results, old), lines(results, new)
    except (OSError, ValueError, KeyError) as e:
        print(f"error: forms: cannot read a verdict: {e}", file=sys.stderr)
        return 1
    problems = []
    if not a or not b:
        problems.append(f"no timeout_forms line on {'/'.join(k for k, d in ((old, a), (new, b)) if not d)}")
    for key in sorted(set(a) ^ set(b)):
        problems.append(f"{' '.join(key)}: measured on {old if key in a else new} only")
    cells = {}
    for key in sorted(set(a) & set(b)):
        if a[key] != b[key]:
            problems.append(f"{' '.join(key)}: {old} answers {a[key]}, {new} {b[key]}")
        cells[key] = {"old": a[key], "new": b[key], "exception": is_exception(key[3], a[key])}
    rows = sorted({k[:2] for k in cells})
    cols = []  # in the order the program measured them
    for k in a:
        if k in cells and k[2:] not in cols:
            cols.append(k[2:])
    md = [f"# Timeouts outside the contract: {old} / {new}", "",
          "One row per interface and ABI, one column per input; **bold**: not what "
          "the contract answers for that input.", ""]
    for iface, abi in rows:
        md += [f"## {iface} ({abi})", "", "| input | answer |", "|---|---|"]
        for col in cols:
            c = cells.get((iface, abi) + col)
            if c:
                t = c["old"] if c["old"] == c["new"] else f'{c["old"]} / {c["new"]}'
                md.append(f"| {col[0]} {col[1]} | {'**' + t + '**' if c['exception'] else t} |")
        md.append("")
    md += ["## Not measured", "", "| interface | why |", "|---|---|"]
    md += [f"| {k} | {v} |" for k, v in sorted(NOT_MEASURED.items())] + [""]
    base = os.path.join(results, f"forms-{old}-{new}")
    with open(base + ".md", "w") as f:
        f.write("\n".join(md))
    with open(base + ".svg", "w") as f:
        f.write(svg(rows, cols, cells, old, new))
    for p in problems:
        print(f"error: forms: {p}", file=sys.stderr)
    print(f"forms: {len(rows)} interfaces x ABIs, {len(cells)} inputs on both kernels, "
          f"{len(NOT_MEASURED)} interfaces not measured, "
          f"{sum(c['exception'] for c in cells.values())} answers not the contract's, "
          f"{len(problems)} problems")
    print(base + ".svg")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
