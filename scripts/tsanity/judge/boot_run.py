"""`scripts/ts judge-boot`: the judge of one boot, which scripts/boot.sh
runs once, after QEMU.  It gathers what tsanity.judge.boot judges: the
serial log's splat lines (splats.detect(): the tree's console-badness.sh,
run once), a sanitized boot's reports (splats.scan() of those lines,
written to splats.json, one line each to splats.txt), the verdict
scripts/ktap.py reads in the log (it writes verdict.json), and the number
of programs the initramfs lists.  Then it says the verdict as boot.sh
always has, on stderr: the lines the problems show (the first splat
lines, the reports), a sanitized boot's reports listed as findings
(--list-reports), what ktap.py said, one "error: KERNEL boot: PROBLEM"
line per problem and "error: KERNEL boot failed: serial log LOG" (exit 1);
or, on stdout, the summary and where the log and verdict are (exit 0).
A serial log QEMU did not write, and a console-badness.sh that is missing
or fails, end it at once (exit 1), named."""
import json
import os
import subprocess
import sys

from .. import splats

from .. import layout as layout_mod
from . import boot as judge_mod

SCRIPTS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KTAP = os.path.join(SCRIPTS, "ktap.py")
# The tree's list of kernel splats, in the tree (TS_SRC).
BADNESS = ("tools", "testing", "selftests", "rcutorture", "bin", "console-badness.sh")


class Stop(Exception):
    """The boot cannot be judged: what the "error: " line says."""


def main(a, layout):
    """Judge the boot A names (the arguments of `ts judge-boot`); 0 if it
    passed, 1 if not, each problem named."""
    log = layout_mod.result_file(a.boot_dir, "serial", kernel=a.kernel)
    verdict_json = layout_mod.result_file(a.boot_dir, "verdict", kernel=a.kernel)
    try:
        b, ktap_stderr = gather(a, layout, log, verdict_json)
    except Stop as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    problems = judge_mod.judge(b)
    say(a.kernel, b, problems, ktap_stderr)
    if problems:
        for p in problems:
            print(f"error: {a.kernel} boot: {p.text}", file=sys.stderr)
        print(f"error: {a.kernel} boot failed: serial log {log}", file=sys.stderr)
        return 1
    print(judge_mod.summary(a.kernel, b.verdict, a.wall))
    print(f"{a.kernel} boot: serial log {log}, verdict {verdict_json}")
    return 0


def gather(a, layout, log, verdict_json):
    """What the boot left (judge_mod.Boot), and what ktap.py said on
    stderr (bytes, told after the splats as when boot.sh ran it)."""
    if not os.path.isfile(log):
        raise Stop(f"QEMU (exit {a.rc}) wrote no serial log {log}")
    lines = splats.read_log(log)
    found = find_splats(lines, layout, log)
    scan, splats_json = None, ""
    if a.sanitized:
        splats_json = layout_mod.result_file(a.boot_dir, "splats", kernel=a.kernel)
        scan = splats.scan(lines, found)
        write_reports(a, log, scan, splats_json)
    ktap = subprocess.run([sys.executable, KTAP, log, verdict_json], stderr=subprocess.PIPE)
    # Its exit status as a shell says it (128 + N: killed by signal N).
    ktap_rc = ktap.returncode if ktap.returncode >= 0 else 128 - ktap.returncode
    verdict = None
    if ktap_rc == 0:
        with open(verdict_json) as f:
            verdict = json.load(f)
    b = judge_mod.Boot(rc=a.rc, limit=a.limit, verdict=verdict, ktap_rc=ktap_rc,
                       listed=count_lines(a.programs), programs=a.programs,
                       sanitized=a.sanitized, list_reports=a.list_reports,
                       splats=tuple(found.plain()), scan=scan, splats_json=splats_json)
    return b, ktap.stderr


def find_splats(lines, layout, log):
    """The splat lines of the log (splats.Found); what console-badness.sh
    says on stderr is passed on."""
    badness = os.path.join(layout.src, *BADNESS)
    if not os.access(badness, os.X_OK):
        raise Stop(f"{badness} not found")
    try:
        found = splats.detect(lines, badness)
    except splats.BadnessFailed as e:
        sys.stderr.write(e.stderr)
        raise Stop(f"searching {log} for kernel splats failed") from None
    sys.stderr.write(found.stderr)
    return found


def write_reports(a, log, scan, splats_json):
    """A sanitized boot's reports: splats.json, and one line each in
    splats.txt."""
    splats.write_scan(splats_json, log, scan)
    text = layout_mod.result_file(a.boot_dir, "splats-text", kernel=a.kernel)
    with open(text, "w") as f:
        f.write("".join(splats.describe(r) + "\n" for r in scan["reports"]))


def count_lines(path):
    """The lines of PATH, counted as wc -l counts them (newlines)."""
    with open(path, "rb") as f:
        return f.read().count(b"\n")


def say(kernel, b, problems, ktap_stderr):
    """On stderr, before the problems: the lines they show, the reports
    listed as findings, and what ktap.py said."""
    for p in problems:
        for line in p.shown:
            print(line, file=sys.stderr)
    listed = judge_mod.findings(b)
    if listed:
        print(f"==> {kernel}: {len(listed)} kernel report(s), listed as findings in "
              f"{b.splats_json}:", file=sys.stderr)
        for line in listed:
            print(line, file=sys.stderr)
    sys.stderr.flush()
    sys.stderr.buffer.write(ktap_stderr)
    sys.stderr.buffer.flush()
