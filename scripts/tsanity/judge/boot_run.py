"""The judge of one boot, which `scripts/ts boot` (tsanity.boot) runs once,
after QEMU, in its own process (`scripts/ts judge-boot` judges a boot's
files again).  It gathers what tsanity.judge.boot judges: the serial
log's splat lines (splats.detect(): the tree's console-badness.sh, run
once), a sanitized boot's reports (splats.scan() of those lines, written
to splats.json, one line each to splats.txt), the verdict tsanity.ktap
reads in the log (it writes verdict.json), and the number of programs the
initramfs lists.  Then it says the verdict on stderr: the lines the
problems show (the first splat lines, the reports), a sanitized boot's
reports listed as findings (--list-reports), what the KTAP reader said, one "error: KERNEL boot: PROBLEM"
line per problem and "error: KERNEL boot failed: serial log LOG" (exit 1);
or, on stdout, the summary and where the log and verdict are (exit 0).
A serial log QEMU did not write, and a console-badness.sh that is missing
or fails, end it at once (exit 1), named."""
import dataclasses
import json
import os
import sys

from .. import ktap
from .. import splats

from .. import layout as layout_mod
from . import boot as judge_mod

# The tree's list of kernel splats, in the tree (TS_SRC).
BADNESS = ("tools", "testing", "selftests", "rcutorture", "bin", "console-badness.sh")


@dataclasses.dataclass(frozen=True)
class Judged:
    """The boot to judge: the kernel, its boot-results directory, the
    initramfs's list of programs, QEMU's exit status (as timeout(1) says
    it: 124 or 137 at the limit), the limit and the wall time as said
    (seconds), and whether it is a sanitized boot whose reports are
    findings to list."""
    kernel: str
    boot_dir: str
    programs: str
    rc: int
    limit: str
    wall: str
    sanitized: bool = False
    list_reports: bool = False


def result(boot_dir, what, kernel):
    """The file WHAT of KERNEL's boot in BOOT_DIR (layout.RESULT_FILES)."""
    return layout_mod.result_file(boot_dir, what, kernel=kernel)


class Stop(Exception):
    """The boot cannot be judged: what the "error: " line says."""


def main(a: Judged, layout) -> int:
    """Judge the boot A names; 0 if it passed, 1 if not, each problem
    named."""
    log = layout_mod.result_file(a.boot_dir, "serial", kernel=a.kernel)
    verdict_json = layout_mod.result_file(a.boot_dir, "verdict", kernel=a.kernel)
    try:
        b, ktap_said = gather(a, layout, log, verdict_json)
    except Stop as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    problems = judge_mod.judge(b)
    say(a.kernel, b, problems, ktap_said)
    if problems:
        for p in problems:
            print(f"error: {a.kernel} boot: {p.text}", file=sys.stderr)
        print(f"error: {a.kernel} boot failed: serial log {log}", file=sys.stderr)
        return 1
    print(judge_mod.summary(a.kernel, b.verdict, a.wall))
    print(f"{a.kernel} boot: serial log {log}, verdict {verdict_json}")
    return 0


def gather(a, layout, log, verdict_json):
    """What the boot left (judge_mod.Boot), and what the KTAP reader
    (tsanity.ktap, in this process) had to say (told after the splats)."""
    if not os.path.isfile(log):
        raise Stop(f"QEMU (exit {a.rc}) wrote no serial log {log}")
    lines = splats.read_log(log)
    found = find_splats(lines, layout, log)
    scan, splats_json = None, ""
    if a.sanitized:
        splats_json = layout_mod.result_file(a.boot_dir, "splats", kernel=a.kernel)
        scan = splats.scan(lines, found)
        write_reports(a, log, scan, splats_json)
    ktap_rc, ktap_said = ktap.read_log(log, verdict_json, layout.src)
    verdict = None
    if ktap_rc == 0:
        with open(verdict_json) as f:
            verdict = json.load(f)
    b = judge_mod.Boot(rc=a.rc, limit=a.limit, verdict=verdict, ktap_rc=ktap_rc,
                       listed=count_lines(a.programs), programs=a.programs,
                       sanitized=a.sanitized, list_reports=a.list_reports,
                       splats=tuple(found.plain()), scan=scan, splats_json=splats_json)
    return b, ktap_said


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


def say(kernel, b, problems, ktap_said):
    """On stderr, before the problems: the lines they show, the reports
    listed as findings, and what the KTAP reader said."""
    for p in problems:
        for line in p.shown:
            print(line, file=sys.stderr)
    listed = judge_mod.findings(b)
    if listed:
        print(f"==> {kernel}: {len(listed)} kernel report(s), listed as findings in "
              f"{b.splats_json}:", file=sys.stderr)
        for line in listed:
            print(line, file=sys.stderr)
    sys.stderr.write(ktap_said)
    sys.stderr.flush()
