"""usage: scripts/forms.py [--intended FILE] [--ids FILE] RESULTS_DIR OLD NEW

The map of the timeouts Linux takes outside the timespec contract, as
qemu-config/timeout_forms.c measured them on two kernels: reads
RESULTS_DIR/{OLD,NEW}/verdict.json (scripts/ktap.py) and writes
RESULTS_DIR/forms-OLD-NEW.md and forms-OLD-NEW.svg, one row per interface
and ABI, one column per input class (negative, zero, tiny, huge,
sub-second field out of range), each cell the answers of that class's
inputs on OLD / NEW, then one row per interface the boot does not run
(NOT_MEASURED), with the reason.  An answer that is not what the contract
would answer for that input (an interval: a negative value or a
sub-second field out of range is EINVAL, anything else is accepted; an
ETIMEDOUT or ETIME at the end of the wait is an accepted timeout) is
marked as an exception, and so is its cell.

This program owns timeout_forms' output format, one line per input:

  # form <interface> <abi> <class> <field>=<value>...: <answer>

Every interface of scripts/forms_table.py (the table the audit checks
its findings against; --ids FILE: the ids listed in FILE, one a line,
instead) must be measured or have its reason in NOT_MEASURED.  The two
kernels must answer every input alike, except where a form rule
of FILE (default patches/intended-differences, entries form:<interface>,
read by scripts/tsanity/intended.py; /dev/null: none) says otherwise: the rule
gives the OLD and NEW answers as shell globs.  Exit 1 if an input is
answered differently without a rule or otherwise than its rule says, if
a rule covers an input answered alike or covers no input, if an input is
measured on one kernel only, or if no input was measured; 2 on a usage
error.
"""
import argparse
import fnmatch
import html
import json
import os
import re
import sys
from typing import Any

from tsanity.forms import table as forms_table
from tsanity import intended
from tsanity import context as ts_context
from tsanity import layout
from tsanity.timeout_forms import FORM
LIMITS = {"LONG_MIN": -2**63, "LONG_MAX": 2**63 - 1, "INT_MIN": -2**31, "INT_MAX": 2**31 - 1,
          "LLONG_MIN": -2**63, "LLONG_MAX": 2**63 - 1}
# The input classes, in the map's column order.
CLASSES = ["neg", "zero", "tiny", "huge", "subsec"]
# The interfaces of scripts/forms_table.py (what the audit finds) that the
# boot does not run, each with the reason: a row of the map all the same.
# forms.py fails unless every interface of the table is measured or listed
# here, and every measured one is in the table.
NOT_MEASURED = {
    "IBWAIT": "needs a GPIB board",
    "NTSYNC_IOC_WAIT": "the guest kernel is built without CONFIG_NTSYNC",
    "LEAPRAID_COMMAND": "needs a LeapRAID adapter",
    "LPSETTIMEOUT": "needs an emulated parallel port (lp)",
    "PPSETTIME": "needs an emulated parallel port (ppdev)",
    "BINDER_FREEZE": "needs Android binder and a process with transactions pending",
    "IPMICTL_SEND_COMMAND_SETTIME": "needs an IPMI controller",
    "RDMA_CM_RESOLVE_ADDR": "needs an RDMA device",
    "RDMA_CM_RESOLVE_ROUTE": "needs an RDMA device",
    "CEC_RECEIVE": "needs a CEC adapter",
    "MPTCOMMAND": "needs a Fusion MPT controller",
    "MPT3COMMAND": "needs an mpt3sas controller",
    "IF_PROTO_CISCO": "needs a synchronous serial (HDLC) device",
    "NVME_IOCTL_CMD": "needs an NVMe controller",
    "RIO_WAIT_FOR_ASYNC": "needs a RapidIO controller",
    "SG_IO": "needs a SCSI device",
    "CDROM_SEND_PACKET": "needs a CD-ROM drive",
    "USBDEVFS_CONTROL": "needs a USB device",
    "USBDEVFS_BULK": "needs a USB device",
    "IOCTL_GNTDEV_DMABUF_EXP_WAIT_RELEASED": "needs Xen",
    "BT_ISO_QOS": "needs a Bluetooth controller",
}
ACCEPTED = re.compile(r"^(\d+|blocked|ETIMEDOUT|ETIME)( read-back=\S+)?$")


def lines(results, kernel):
    """{(iface, abi, cls, input): answer} of a kernel's verdict."""
    with open(layout.result_file(results, "verdict", kernel=kernel)) as f:
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


def fields(inp):
    """{field: value} of an input, "sec=0 usec=-1"."""
    return {k: value(v) for k, v in (kv.split("=") for kv in inp.split())}


def contract_accepts(inp):
    """What the contract answers for this input, read as an interval."""
    f = fields(inp)
    for unit in ("ms", "us", "s"):
        if unit in f:
            return f[unit] >= 0
    if "nsec" in f:
        return f["sec"] >= 0 and 0 <= f["nsec"] < 1000000000
    return f["sec"] >= 0 and 0 <= f["usec"] < 1000000


def is_exception(inp, answer):
    """True if the answer is not the contract's: accepted where the
    contract refuses, or the other way round, or refused with another
    errno than EINVAL."""
    accepted = bool(ACCEPTED.match(answer))
    return accepted != contract_accepts(inp) or (not accepted and answer != "EINVAL")


def cell_lines(c):
    """The lines of a map cell: one per input of the class, "value: answer"."""
    out = []
    for inp, v in c["inputs"]:
        t = v["old"] if v["old"] == v["new"] else f'{v["old"]} / {v["new"]}'
        val = " ".join(kv.split("=", 1)[1] for kv in inp.split())
        out.append(f"{val}: {t.replace(' read-back=', ' rb=')}")
    return out


def svg(rows, cells, old, new, not_measured):
    # Widths from the longest text, at about 7 px a character of 11 px
    # sans-serif, so that nothing is cut.
    lh, top = 13, 70
    longest = max([len(x) for c in cells.values() for x in cell_lines(c)] + [30])
    cw = int(longest * 7) + 12
    labels = [f"{i} ({abi})" for i, abi in rows] + [f"{i} (not measured)" for i in not_measured]
    lw = int(max(len(x) for x in labels + ["x" * 20]) * 7) + 20
    heights = [max([len(cells[r + (c,)]["inputs"]) for c in CLASSES if r + (c,) in cells] + [1])
               * lh + 10 for r in rows]
    w = lw + cw * len(CLASSES) + 10
    h = top + sum(heights) + 34 * len(not_measured) + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="10" y="20" font-size="15" font-weight="bold">Timeouts outside the '
           f'timespec contract: answer on {old} / {new}</text>',
           '<text x="10" y="38">Red: some answer of the class is not the contract\'s '
           '(a negative value or an out-of-range field: EINVAL). Grey: as the contract. '
           'Blue edge: the kernels answer differently.</text>']
    for j, cls in enumerate(CLASSES):
        out.append(f'<text x="{lw + j * cw + 4}" y="{top - 8}" font-weight="bold">'
                   f'{html.escape(cls)}</text>')
    y = top
    for (iface, abi), rh in zip(rows, heights):
        out.append(f'<text x="10" y="{y + 16}" font-weight="bold">'
                   f'{html.escape(iface)} ({abi})</text>')
        for j, cls in enumerate(CLASSES):
            x = lw + j * cw
            c = cells.get((iface, abi, cls))
            if c is None:
                out.append(f'<rect x="{x}" y="{y}" width="{cw - 2}" height="{rh - 2}" '
                           'fill="#ffffff" stroke="#dddddd"/>')
                continue
            fill = "#f4a6a6" if c["exception"] else "#e6e6e6"
            stroke = ' stroke="#1f5fbf" stroke-width="2"' if c["differs"] else ""
            out.append(f'<rect x="{x}" y="{y}" width="{cw - 2}" height="{rh - 2}" '
                       f'fill="{fill}"{stroke}/>')
            for k, line in enumerate(cell_lines(c)):
                out.append(f'<text x="{x + 4}" y="{y + 14 + k * lh}">{html.escape(line)}</text>')
        y += rh
    for iface, why in sorted(not_measured.items()):
        out.append(f'<text x="10" y="{y + 20}" font-weight="bold">'
                   f'{html.escape(iface)} (not measured)</text>')
        out.append(f'<rect x="{lw}" y="{y}" width="{cw * len(CLASSES) - 2}" height="32" '
                   f'fill="#ffffff" stroke="#bbbbbb"/>')
        out.append(f'<text x="{lw + 4}" y="{y + 20}" font-style="italic">'
                   f'{html.escape(why)}</text>')
        y += 34
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(prog="scripts/forms.py")
    ap.add_argument("--intended", metavar="FILE", default=None,
                    help="the list of intended differences (default: %(default)s)")
    ap.add_argument("--ids", metavar="FILE",
                    help="the interfaces, one id a line (default: scripts/forms_table.py's)")
    ap.add_argument("results")
    ap.add_argument("old")
    ap.add_argument("new")
    args = ap.parse_args()
    results, old, new = args.results, args.old, args.new
    if args.intended is None:
        args.intended = intended.default()
    try:
        rules = intended.load(args.intended, forms=True)
    except OSError as e:
        ap.error(f"--intended: {e}")
    except ValueError as e:
        print(f"error: forms: {e}", file=sys.stderr)
        return 1
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
    cells: dict[tuple[str, str, str], dict[str, Any]] = {}
    used, ninputs, nexc, ndiff = set(), 0, 0, 0
    for key in [k for k in a if k in b]:  # in the order the program measured them
        iface, abi, cls, inp = key
        if cls not in CLASSES:
            problems.append(f"{' '.join(key)}: input class '{cls}' is not one of {', '.join(CLASSES)}")
            continue
        try:
            r = intended.form_rule_for(rules, iface, abi, fields(inp))
        except ValueError as e:
            problems.append(str(e))
            r = None
        name = f"{iface} {abi} {cls} {inp}"
        if r is not None:
            used.add(r.where)
            if a[key] == b[key]:
                problems.append(f"{name}: {r.where} says {r.base} -> {r.patched}, "
                                f"both answer {a[key]}")
            elif not (fnmatch.fnmatchcase(a[key], r.base) and fnmatch.fnmatchcase(b[key], r.patched)):
                problems.append(f"{name}: {old} answers {a[key]}, {new} {b[key]}; "
                                f"{r.where} says {r.base} -> {r.patched}")
        elif a[key] != b[key]:
            problems.append(f"{name}: {old} answers {a[key]}, {new} {b[key]} "
                            "(no intended difference covers it)")
        exc = is_exception(inp, a[key])
        c = cells.setdefault((iface, abi, cls), {"inputs": [], "exception": False, "differs": False})
        c["inputs"].append((inp, {"old": a[key], "new": b[key]}))
        c["exception"] |= exc
        c["differs"] |= a[key] != b[key]
        ninputs += 1
        nexc += exc
        ndiff += a[key] != b[key]
    for r in rules:
        if r.where not in used:
            problems.append(f"{r.where}: the form rule covers no input that the kernels ran")
    # Every interface the audit knows is on the map, measured or not.
    if args.ids:
        with open(args.ids) as f:
            table = {line.strip() for line in f if line.strip()}
    else:
        # The interfaces the kernel of this run has (TS_KERNEL).
        table = {e["id"] for e in forms_table.for_kernel(ts_context.version_or_exit()).ENTRIES}
    measured = {k[0] for k in cells}
    for i in sorted(measured - table):
        problems.append(f"{i}: measured, but not an interface of scripts/forms_table.py")
    for i in sorted(table - measured - set(NOT_MEASURED)):
        problems.append(f"{i}: an interface of scripts/forms_table.py that the boot did not "
                        "measure and NOT_MEASURED gives no reason for")
    if not args.ids:
        for i in sorted(set(NOT_MEASURED) - {e["id"] for e in forms_table.ENTRIES}):
            problems.append(f"{i}: in NOT_MEASURED but not an interface of scripts/forms_table.py")
    not_measured = {k: v for k, v in NOT_MEASURED.items() if k in table}
    for i in sorted(set(NOT_MEASURED) & measured):
        problems.append(f"{i}: in NOT_MEASURED but the boot measured it")
    rows = []
    for k in cells:
        if k[:2] not in rows:
            rows.append(k[:2])
    md = [f"# Timeouts outside the contract: {old} / {new}", "",
          "One section per interface and ABI, one row per input class; **bold**: not "
          "what the contract answers for that input; a / b: the kernels differ "
          "(an intended difference).", ""]
    for iface, abi in rows:
        md += [f"## {iface} ({abi})", "", "| class | input: answer |", "|---|---|"]
        for cls in CLASSES:
            cell = cells.get((iface, abi, cls))
            if cell:
                md.append(f"| {cls} | {'<br>'.join(cell_lines(cell))} |"
                          + (" **not the contract's**" if cell["exception"] else ""))
        md.append("")
    md += ["## Not measured", "", "| interface | why |", "|---|---|"]
    md += [f"| {k} | {v} |" for k, v in sorted(not_measured.items())] + [""]
    out = {ext: layout.result_file(results, "forms", old=old, new=new, ext=ext)
           for ext in ("md", "svg", "json")}
    with open(out["md"], "w") as f:
        f.write("\n".join(md))
    with open(out["svg"], "w") as f:
        f.write(svg(rows, cells, old, new, not_measured))
    with open(out["json"], "w") as f:
        json.dump({"old": old, "new": new,
                   "rows": [{"interface": i, "abi": abi,
                             "classes": {cls: cells[(i, abi, cls)]["inputs"]
                                         for cls in CLASSES if (i, abi, cls) in cells}}
                            for i, abi in rows],
                   "not_measured": not_measured}, f, indent=1)
    for p in problems:
        print(f"error: forms: {p}", file=sys.stderr)
    print(f"forms: {len(rows)} interfaces x ABIs, {ninputs} inputs on both kernels, "
          f"{ndiff} answered differently (intended), "
          f"{len(not_measured)} interfaces not measured, {nexc} answers not the contract's, "
          f"{len(problems)} problems")
    print(out["svg"])
    return 1 if problems else 0
