#!/usr/bin/env python3
"""usage: scripts/splats.py scan --badness SCRIPT SERIAL_LOG SPLATS_JSON
       scripts/splats.py report RESULTS_DIR OLD NEW

The reader of the kernel reports of a sanitized boot (make check-sanitized:
KASAN, UBSAN, lockdep, DEBUG_ATOMIC_SLEEP, debugobjects), and their judge.

The one detector of kernel splats in a serial log is detect(): it runs
the tree's console-badness.sh (SCRIPT, tools/testing/selftests/rcutorture/
bin/) once and takes the lines it prints, each line with "Kernel panic",
"UBSAN:" or "KASAN:" (the panic path's, which the tree's list leaves out:
with console-badness.sh's, what fails a plain boot, tsanity.judge.boot),
and each line with "ODEBUG:" (debugobjects; console-badness.sh drops
those).  scan groups every such line of SERIAL_LOG into reports, one per
headline (`scripts/ts judge-boot` does the same for a sanitized boot of
`scripts/ts boot`, from the one detection):

  BUG: KASAN: ..., UBSAN: ..., ODEBUG: ..., BUG: ..., WARNING: ...
  (lockdep's and RCU's reports, a WARN's "WARNING: CPU: N PID: N at"),
  Oops: ..., general protection fault..., Kernel panic ...

A "WARNING: CPU:", "Oops:" or "Kernel panic" line that follows a headline
before any program printed a line belongs to that headline's report (an
ODEBUG report ends in its WARN, a bad access in an Oops); any other splat
line belongs to the report open before it (a report without a headline yet
takes the next one: KASAN's and lockdep's open with a line of "="), or
starts one of its own if none is: no splat line is left out of a report.

Each report is placed in the guest's output (qemu-config/init.c): the
program whose part of the log holds it (init's "ok N NAME" line closes the
part), and the input that caused it: a program prints one line per input
after the call returned (timeout_classes' "# <abi> <entry> <mode> sec=..
nsec=..: ... got=..." lines, read by tsanity/timeout_classes.py;
timeout_forms' "# form ..." lines, tsanity/timeout_forms.py), so a report
was caused by the first input line that follows it within the same program
or by a later one: programs write through a pipe that /init copies to the
console while the kernel prints at once, so lines of earlier inputs may
still be in the pipe (the negative experiment of make check-sanitized saw
0 to 5 lines of lag; none across a call that sleeps, which lets /init run).
The report therefore also gives the syscall its call trace names.  Lines
that say a checker stopped ("Disabling lock debugging due to kernel taint":
lockdep is off after a KASAN report) are kept as notes.  Writes SPLATS_JSON:

  {"log": SERIAL_LOG, "splat_lines": N, "notes": [[L, text], ..],
   "reports": [{"line": L, "kind",
   "title", "headlines": [..], "lines": [[L, text], ..], "program",
   "input": [L, text] or null, "next": [L, text] or null, "syscall"}]}

and prints one line per report.  Exit 0 once written (reports or not), 1
if the log cannot be read or SCRIPT fails, 2 on a usage error.

report reads RESULTS_DIR/OLD/splats.json and RESULTS_DIR/NEW/splats.json
and writes RESULTS_DIR/sanitizer-reports-OLD-NEW.md: every report of each
kernel with its program and input.  OLD's reports are findings, listed;
NEW must have none.  Exit 1 if NEW has a report (each named on stderr) or
a splats.json is missing or unreadable, 2 on a usage error, 0 otherwise.
"""
import dataclasses
import json
import os
import re
import subprocess
import sys

from . import layout, timeout_forms
from . import timeout_classes as tc

# What fails a plain boot besides console-badness.sh's lines: the panic
# path, and the sanitizers' headlines the tree's list leaves out.
PANIC = re.compile(r"Kernel panic|UBSAN:|KASAN:")
# debugobjects' reports (console-badness.sh drops "ODEBUG: " lines).
ODEBUG = re.compile(r"ODEBUG:")
# The first line of a report.
HEADLINE = re.compile(r"^(BUG: |WARNING: |UBSAN: |ODEBUG: |Oops: |general protection fault|"
                      r"Kernel panic)")
# Headlines that continue the report open before them.
CONTINUATION = re.compile(r"^(WARNING: CPU: \d+ PID: \d+ at |Oops: |Kernel panic)")
# A line a program printed (indented by /init), and /init's own lines.
PROGRAM_LINE = re.compile(r"^(    )+(#|ok |not ok |TAP version |KTAP version |\d+\.\.\d+$)")
INIT_LINE = re.compile(r"^((not )?ok \d+ |# \S+: [\d.]+ s$|KTAP version |1\.\.\d+$|"
                       r"# boot-to-verdict: |# init: )")
# init's line that closes a program's part of the log.
PROGRAM_DONE = re.compile(r"^(?:not )?ok (\d+) (\S+)")
# A checker stopped checking.
NOTE = re.compile(r"Disabling lock debugging due to kernel taint|turning off the locking correctness "
                  r"validator|ODEBUG: Out of memory|lockdep is turned off")
# The syscall in a call trace (x86_64 and ia32/compat entry points).
SYSCALL = re.compile(r"\b(?:__x64_sys|__ia32_sys|__ia32_compat_sys|__x64_compat_sys|__do_sys|"
                     r"__se_sys|__do_compat_sys|__se_compat_sys)_(\w+)")


def kind(title):
    """What reported: the checker a headline comes from."""
    if title.startswith("BUG: KASAN:"):
        return "KASAN"
    if title.startswith("UBSAN:"):
        return "UBSAN"
    if title.startswith("ODEBUG:"):
        return "debugobjects"
    if title.startswith("BUG: sleeping function called from invalid context"):
        return "might_sleep"
    if re.match(r"WARNING: CPU: \d+ PID: \d+ at ", title):
        return "WARN"
    if title.startswith("WARNING: "):
        return "lockdep"
    if title.startswith("BUG: "):
        return "BUG"
    if HEADLINE.match(title):
        return "oops"
    return "other"


def is_input(line):
    """A program's line for one input: timeout_classes' or timeout_forms'."""
    s = line.strip()
    return bool(tc.diag(s) or timeout_forms.FORM.match(s))


class BadnessFailed(RuntimeError):
    """console-badness.sh failed; stderr is what it said."""

    def __init__(self, badness, returncode, stderr):
        super().__init__(f"{badness} failed (exit {returncode}): {stderr.strip()}")
        self.stderr = stderr


@dataclasses.dataclass(frozen=True)
class Found:
    """The splat lines of a serial log, by what found them: (number
    (1-based), text) each, in the log's order.  stderr is what
    console-badness.sh said beside its lines (6.1's warns that egrep is
    obsolescent)."""
    badness: tuple = ()
    panic: tuple = ()
    odebug: tuple = ()
    stderr: str = ""

    def plain(self):
        """The texts of the lines that fail a plain boot, as they have
        always been listed: console-badness.sh's, then the panic path's (a
        line both find is there twice)."""
        return [t for _, t in self.badness + self.panic]

    def numbers(self):
        """The numbers of every splat line, once each, in order: what a
        sanitized boot's reports are made of."""
        return sorted({n for n, _ in self.badness + self.panic + self.odebug})


def read_log(path):
    """The lines of the serial log PATH, without line ends (the log has
    CRLF; bytes that are not UTF-8 replaced)."""
    with open(path, errors="replace") as f:
        return [line.rstrip("\r\n").rstrip("\r") for line in f]


def detect(lines, badness):
    """The splat lines of LINES (Found): console-badness.sh (BADNESS) run
    once on them, and the lines PANIC and ODEBUG match.  Raises
    BadnessFailed if the script fails."""
    text = "".join(line + "\n" for line in lines)
    r = subprocess.run([badness], input=text, capture_output=True, text=True)
    if r.returncode not in (0, 1):  # grep: 1 means nothing found
        raise BadnessFailed(badness, r.returncode, r.stderr)
    flagged = set(r.stdout.splitlines())

    def where(match):
        return tuple((n, line) for n, line in enumerate(lines, 1) if match(line))
    return Found(badness=where(lambda line: line in flagged), panic=where(PANIC.search),
                 odebug=where(ODEBUG.search), stderr=r.stderr)


def scan(lines, found):
    """The reports of a serial log's lines (without line ends), from its
    splat lines (detect())."""
    splats = set(found.numbers())
    reports, cur = [], None
    # The program of each line: the name its closing line gives, by part.
    part_of, names, part = [], {}, 0
    for line in lines:
        part_of.append(part)
        m = PROGRAM_DONE.match(line)
        if m:
            names[part] = m.group(2)
            part += 1
    first_program = next((i for i, line in enumerate(lines) if line.startswith("1..")), None)
    for n, line in enumerate(lines, 1):
        if PROGRAM_LINE.match(line) or INIT_LINE.match(line):
            cur = None  # a program or /init spoke: the report is over
            continue
        if n not in splats:
            continue
        head = bool(HEADLINE.match(line))
        if cur is None or (head and cur["headlines"] and not CONTINUATION.match(line)):
            cur = {"line": n, "title": line, "headlines": [], "lines": []}
            reports.append(cur)
        if head:
            cur["headlines"].append(line)
        cur["lines"].append([n, line])
    for r in reports:
        i = r["line"] - 1
        p = part_of[i]
        if first_program is None or i < first_program:
            r["program"] = "(boot, before the first program)"
        else:
            r["program"] = names.get(p, f"program {p + 1} (its part of the log did not end)")
        r["title"] = (r["headlines"] or [r["title"]])[0]
        r["kind"] = kind(r["title"])
        r["input"] = r["next"] = r["syscall"] = None
        for j in range(i + 1, len(lines)):
            if part_of[j] != p or PROGRAM_DONE.match(lines[j]):
                break
            if r["next"] is None and PROGRAM_LINE.match(lines[j]):
                r["next"] = [j + 1, lines[j].strip()]
            if is_input(lines[j]):
                r["input"] = [j + 1, lines[j].strip()]
                break
        # The call trace: the report's lines up to the next program line.
        for j in range(i, len(lines)):
            if j > i and (PROGRAM_LINE.match(lines[j]) or INIT_LINE.match(lines[j])):
                break
            m = SYSCALL.search(lines[j])
            if m:
                r["syscall"] = m.group(1)
                break
    notes = [[n, line] for n, line in enumerate(lines, 1) if NOTE.search(line)]
    return {"splat_lines": len(splats), "notes": notes, "reports": reports}


def describe(r):
    where = r["program"]
    inp = (f"input: this or a later one: {r['input'][1]} (line {r['input'][0]})" if r["input"]
           else "no input line follows")
    sc = f"; syscall {r['syscall']}" if r["syscall"] else ""
    return f"line {r['line']}: {r['kind']}: {r['title']} [{where}; {inp}{sc}]"


def write_scan(path, log, result):
    """Write a scan's RESULT of the serial log LOG to PATH (SPLATS_JSON)."""
    with open(path, "w") as f:
        json.dump({"log": log, **result}, f, indent=1)


def cmd_scan(argv):
    if len(argv) != 4 or argv[0] != "--badness":
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    badness, log, out = argv[1], argv[2], argv[3]
    try:
        lines = read_log(log)
        result = scan(lines, detect(lines, badness))
    except (OSError, RuntimeError) as e:
        print(f"error: splats.py: {e}", file=sys.stderr)
        return 1
    write_scan(out, log, result)
    for r in result["reports"]:
        print(describe(r))
    return 0


def md_escape(s):
    return s.replace("|", "\\|").replace("`", "'")


def cmd_report(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[1].strip(), file=sys.stderr)
        return 2
    results, old, new = argv
    data, problems = {}, []
    for k in (old, new):
        path = layout.result_file(results, "splats", kernel=k)
        try:
            with open(path) as f:
                data[k] = json.load(f)
        except (OSError, ValueError) as e:
            problems.append(f"{k}: no reports read from {path} ({e}): the sanitized boot did not run")
    out = [f"# Sanitizer reports: {old} and {new}", "",
           "The integration suite booted on the sanitized guests (qemu-config/sanitized.config: "
           "KASAN, UBSAN, lockdep, DEBUG_ATOMIC_SLEEP, debugobjects for timers; kasan_multi_shot). "
           f"Reports on {old} are findings, listed; {new} must have none. A report was caused by the "
           "first input line its program printed after it (programs print a line once the call "
           "returned) or by a later one of the same program: they print through /init's pipe, the "
           "kernel at once, so earlier lines may lag (none across a call that sleeps). The syscall "
           "is the one its call trace names.", ""]
    for k in (old, new):
        if k not in data:
            continue
        reps = data[k]["reports"]
        out.append(f"## {k}: {len(reps)} report{'' if len(reps) == 1 else 's'}")
        out.append("")
        if not reps:
            out += [f"{k} gave no report: no splat line in {data[k]['log']}.", ""]
            continue
        for n, t in data[k].get("notes", []):
            out.append(f"Note, log line {n}: `{md_escape(t)}`")
        if data[k].get("notes"):
            out.append("")
        out += ["| # | kind | report | program | input (this or a later one) | syscall | log line |",
                "|---|---|---|---|---|---|---|"]
        for i, r in enumerate(reps, 1):
            inp = (f"`{md_escape(r['input'][1])}`" if r["input"]
                   else "none follows" + (f" (next line: `{md_escape(r['next'][1])}`)"
                                          if r["next"] else ""))
            out.append(f"| {i} | {r['kind']} | `{md_escape(' / '.join(r['headlines']) or r['title'])}` "
                       f"| {md_escape(r['program'])} | {inp} | {r['syscall'] or '-'} | {r['line']} |")
        out.append("")
        out.append(f"The lines of each report ({data[k]['log']}):")
        out.append("")
        for i, r in enumerate(reps, 1):
            out.append(f"{i}. " + "; ".join(f"{n}: `{md_escape(t)}`" for n, t in r["lines"][:8])
                       + (f"; ... ({len(r['lines'])} splat lines)" if len(r["lines"]) > 8 else ""))
        out.append("")
    if new in data:
        for r in data[new]["reports"]:
            problems.append(f"{new}: report at {describe(r)}")
    md = layout.result_file(results, "sanitizer-reports", old=old, new=new)
    with open(md, "w") as f:
        f.write("\n".join(out))
    for p in problems:
        print(f"error: {p}", file=sys.stderr)
    n_old = len(data[old]["reports"]) if old in data else "?"
    n_new = len(data[new]["reports"]) if new in data else "?"
    print(f"sanitizer reports: {old} {n_old} (listed), {new} {n_new}; {md}")
    return 1 if problems else 0


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in ("scan", "report"):
        print(__doc__.strip().split("\n\n")[0], file=sys.stderr)
        return 2
    return (cmd_scan if sys.argv[1] == "scan" else cmd_report)(sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
