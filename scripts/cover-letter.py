#!/usr/bin/env python3
"""usage: scripts/cover-letter.py

Write patches/0000-cover-letter.patch: `git format-patch --cover-letter` of
the applied series, with the subject and text of docs/cover-letter.in, the
recipients from scripts/get_maintainer.pl, and the figures of the last runs
filled in: @KUNIT@ (results/kunit-plain/results.json), @CASES@ and @DIFFS@
(results/tests/report.md), @BLOAT@ and @RATIOS@ (results/bench/bench.md, as
`make bench` printed it). Fails if any of them is missing.
"""
import os
import re
import subprocess
import sys

import kunit_json


def env():
    out = subprocess.run(["bash", "-c", ". scripts/lib.sh && echo \"$TS_SRC\" && "
                          "echo \"$TS_RESULTS\" && echo \"$TS_BASE_TAG\""],
                         check=True, capture_output=True, text=True).stdout.split("\n")
    return out[0], out[1], out[2]


def main():
    if len(sys.argv) != 1:
        sys.exit(__doc__.strip().splitlines()[0])
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    src, results, base = env()
    with open("docs/cover-letter.in") as f:
        subject, body = f.read().split("\n\n", 1)
    subject = subject.removeprefix("Subject: ").strip()

    report = open(os.path.join(results, "tests", "report.md")).read()
    m = re.search(r"^\| patched \| \d+ \| \d+ \| \d+ \| \d+ \| (\d+) \|", report, re.M)
    d = re.search(r"^Differences between the kernels: (\d+), of them intended: \1 of the \1 "
                  r"cases that patches/intended-differences lists; not intended: 0$", report, re.M)
    bench = open(os.path.join(results, "bench", "bench.md")).read()
    bloat = re.search(r"```\n(.*?)```", bench, re.S)
    if not (m and d and bloat):
        sys.exit("error: figures missing in results/tests/report.md or results/bench/bench.md "
                 "(or the report's differences are not exactly the intended ones)")
    bloat_lines = [ln for ln in bloat.group(1).splitlines() if ln.strip()]
    ratios = []
    for ln in bench.splitlines():
        cells = [c.strip() for c in ln.strip("|").split("|")]
        if len(cells) == 6 and cells[0] not in ("entry point", "---"):
            ratios.append(f"{cells[0]:<22} {cells[1]:<7} {cells[4]:<16} (base spread {cells[5]})")
    if not ratios:
        sys.exit("error: no cost rows in results/bench/bench.md")
    fill = {
        "@KUNIT@": str(len(kunit_json.load(os.path.join(results, "kunit-plain", "results.json")))),
        "@CASES@": m.group(1),
        "@DIFFS@": d.group(1),
        "@BLOAT@": "\n".join("     " + ln for ln in bloat_lines),
        "@RATIOS@": "\n".join("     " + ln for ln in ratios),
    }
    for k, v in fill.items():
        body = body.replace(k, v)
    if "@" in re.sub(r"<[^>]*>", "", body):
        sys.exit("error: unfilled placeholder in docs/cover-letter.in")

    with open("patches/series") as f:
        patches = [ln.split("#")[0].strip() for ln in f if ln.split("#")[0].strip()]
    who = subprocess.run(["perl", "scripts/get_maintainer.pl", "--no-rolestats", "--no-git",
                          "--no-git-fallback", "--no-tree"] +
                         [os.path.abspath(os.path.join("patches", p)) for p in patches],
                         cwd=src, check=True, capture_output=True, text=True).stdout.split("\n")
    who = [w for w in who if w.strip()]
    lists = [w for w in who if "<" not in w]
    people = [w for w in who if "<" in w]
    cover = subprocess.run(["git", "format-patch", "--cover-letter", "--zero-commit", "--stdout",
                            f"{base}..HEAD"], cwd=src, check=True, capture_output=True,
                           text=True).stdout
    cover = cover.split("\nFrom 0000000000000000000000000000000000000000", 1)[0] + "\n"
    cover = cover.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***", body.strip())
    headers = "To: " + ",\n    ".join(people) + "\nCc: " + ",\n    ".join(lists) + "\n"
    cover = cover.replace("\nSubject: ", "\n" + headers + "Subject: ", 1)
    with open("patches/0000-cover-letter.patch", "w") as f:
        f.write(cover)
    print("patches/0000-cover-letter.patch")


if __name__ == "__main__":
    sys.exit(main())
