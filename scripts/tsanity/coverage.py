"""usage: scripts/coverage.py BEFORE_REPORT_JSON AFTER_REPORT_JSON

The coverage of two integration boots, from the report-base-patched.json
that scripts/report.py writes (or the report.json of its older versions,
such as docs/coverage-before.json): one row per (ABI, entry point, mode,
input class) cell, with the number of inputs each boot ran in it on the
patched kernel, as a markdown table on stdout.  Cells that only one boot
has, and cells with fewer inputs after, are listed first, so that no loss
goes unseen.
"""
import json
import sys


def cells(path):
    with open(path) as f:
        return json.load(f)["kernels"]["patched"]["cells"]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[0])
    before, after = cells(sys.argv[1]), cells(sys.argv[2])
    lost = sorted(set(before) - set(after))
    new = sorted(set(after) - set(before))
    shrunk = sorted(c for c in set(before) & set(after) if after[c] < before[c])
    out = [f"Cells: {len(before)} before, {len(after)} after; lost {len(lost)}, "
           f"new {len(new)}, with fewer inputs {len(shrunk)}.", ""]
    for title, names in (("Lost", lost), ("New", new), ("With fewer inputs", shrunk)):
        if names:
            out += [f"{title}:", ""] + [f"- `{c}`" for c in names] + [""]
    out += ["| ABI | entry point | mode | class | inputs before | inputs after |",
            "|---|---|---|---|---|---|"]
    for c in sorted(set(before) | set(after)):
        out.append("| " + " | ".join(c.split(" ")) +
                   f" | {before.get(c, '-')} | {after.get(c, '-')} |")
    print("\n".join(out))
    return 0
