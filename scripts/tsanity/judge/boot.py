"""What fails one guest boot (`scripts/ts boot`), each problem named.  Pure:
judge() reads no file and prints nothing; tsanity.judge.boot_run gathers
what it judges (QEMU's exit status, the splat lines splats.detect() found,
a sanitized boot's reports, tsanity.ktap's verdict, the programs the
initramfs lists) and says the verdict.

A boot passes when QEMU exited with /init's verdict (1: no program
failed, 3: some did), /init said so in its closing line after running
every program the initramfs lists, tsanity.ktap read the log, and the kernel
printed no splat (a plain boot) or no report (a sanitized boot, unless
--list-reports makes its reports findings to list).  Whether the results
are right is scripts/report.py's to judge, not this."""
import dataclasses
import enum

from .. import splats


class Kind(enum.Enum):
    """The problems of a boot."""
    TIMEOUT = "timeout"                    # timeout(1) ended QEMU: 124, or 137 after -k
    NO_VERDICT = "no-verdict"              # QEMU exited 0: the guest rebooted or panicked
    QEMU_FAILED = "qemu-failed"            # any other exit but /init's 1 and 3
    SPLAT = "splat"                        # a plain boot's kernel splat
    SPLATS_MISSED = "splats-missed"        # a splat line no sanitized report holds
    REPORTS = "reports"                    # a sanitized boot's kernel reports
    KTAP_FAILED = "ktap-failed"            # tsanity.ktap could not read the log
    INIT_UNFINISHED = "init-unfinished"    # no "# init: K of N programs failed"
    PROGRAM_COUNT = "program-count"        # /init ran another number than listed
    VERDICT_MISMATCH = "verdict-mismatch"  # QEMU's exit and /init's count disagree


@dataclasses.dataclass(frozen=True)
class Problem:
    """One problem: its kind, what the "error: K boot: " line says, and
    the lines shown before the verdict that the text says are above (the
    first splat lines, the reports)."""
    kind: Kind
    text: str
    shown: tuple = ()


@dataclasses.dataclass(frozen=True)
class Boot:
    """What a boot left.  rc is QEMU's exit status under timeout(1), limit
    its time limit (seconds); verdict is tsanity.ktap's verdict.json when it
    read the log (ktap_rc 0), else None; listed is the number of programs
    the initramfs's list (programs) holds; splats the texts of the splat
    lines a plain boot fails on (splats.Found.plain()); scan, on a
    sanitized boot, splats.scan()'s grouping of them into reports, which
    went to splats_json."""
    rc: int
    limit: str
    verdict: dict | None = None
    ktap_rc: int = 0
    listed: int = 0
    programs: str = ""
    sanitized: bool = False
    list_reports: bool = False
    splats: tuple = ()
    scan: dict | None = None
    splats_json: str = ""


# How many splat lines a problem shows.
FIRST = 5


def judge(b):
    """The problems of the boot B, in the order they are told."""
    splat_problems = sanitized_splats(b) if b.sanitized else plain_splats(b)
    return [*qemu(b), *splat_problems, *ktap_and_init(b)]


def qemu(b):
    """QEMU's exit: /init's verdict (checked against verdict.json by
    ktap_and_init()), or what ended the guest instead."""
    if b.rc in (1, 3):
        return []
    if b.rc in (124, 137):
        return [Problem(Kind.TIMEOUT, f"timeout: the guest did not finish within {b.limit} s")]
    if b.rc == 0:
        return [Problem(Kind.NO_VERDICT, "no verdict: the guest rebooted or panicked before "
                        "/init finished (QEMU exit 0)")]
    return [Problem(Kind.QEMU_FAILED, f"QEMU failed (exit {b.rc})")]


def plain_splats(b):
    """A plain boot fails on any splat line."""
    if not b.splats:
        return []
    return [Problem(Kind.SPLAT, "kernel splat in the serial log (the first lines are above)",
                    tuple(b.splats[:FIRST]))]


def sanitized_splats(b):
    """A sanitized boot fails on a splat line no report holds, and on its
    reports unless they are findings to list (--list-reports)."""
    reports = b.scan["reports"]
    # By text: a line a program printed ("    # ... WARNING: ...") is no
    # kernel's, and no report takes it.  "The grep" is splats.PANIC.
    have = {t for r in reports for _, t in r["lines"]}
    missed = [t for t in b.splats if t and t not in have]
    out = []
    if missed:
        out.append(Problem(Kind.SPLATS_MISSED, "scripts/splats.py left out splat lines that "
                           "console-badness.sh or the grep found (the first are above)",
                           tuple(missed[:FIRST])))
    if reports and not b.list_reports:
        out.append(Problem(Kind.REPORTS, f"{len(reports)} kernel report(s) in the serial log "
                           f"(named above; {b.splats_json})", listing(b)))
    return out


def listing(b):
    """A sanitized boot's reports, one indented line each."""
    return tuple("  " + splats.describe(r) for r in b.scan["reports"]) if b.scan else ()


def findings(b):
    """The reports listed as findings, not problems (--list-reports)."""
    return listing(b) if b.sanitized and b.list_reports else ()


def ktap_and_init(b):
    """tsanity.ktap read the log, and /init's closing line agrees with QEMU's
    exit (1 when /init saw no failed program, 3 when it saw some) and with
    the initramfs's list."""
    if b.ktap_rc != 0:
        return [Problem(Kind.KTAP_FAILED,
                        "the KTAP reader (tsanity.ktap) could not read the serial log")]
    if b.rc not in (1, 3):
        return []
    init = b.verdict["init"]
    if init is None:
        return [Problem(Kind.INIT_UNFINISHED, f"QEMU exited {b.rc}, but /init never said how many "
                        "programs failed: it did not finish")]
    failed, ran = init["failed"], init["programs"]
    if ran != b.listed:
        return [Problem(Kind.PROGRAM_COUNT, f"/init ran {ran} programs, the initramfs lists "
                        f"{b.listed} ({b.programs})")]
    if (b.rc == 1 and failed != 0) or (b.rc == 3 and failed == 0):
        return [Problem(Kind.VERDICT_MISMATCH, f"QEMU exited {b.rc}, but /init said {failed} of "
                        f"{ran} programs failed")]
    return []


def summary(kernel, verdict, wall):
    """The line that says a boot passed: what tsanity.ktap read, and how long it
    took (WALL: the host's seconds, as tsanity.boot measured them)."""
    c = verdict["counts"]
    return (f"{kernel} boot: {len(verdict['tests'])} of {verdict['plan']} programs reported; "
            f"{c['passed']} tests passed, {c['failed']} failed, {c['skipped']} skipped; "
            f"boot-to-verdict {verdict['boot_to_verdict_s']} s, wall {wall} s "
            "(judged by report.py)")
