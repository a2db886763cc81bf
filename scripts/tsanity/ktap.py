"""usage: scripts/ktap.py SERIAL_LOG VERDICT_JSON

The one reader of a guest boot: parses the KTAP of SERIAL_LOG with the
tree's own tools/testing/kunit/kunit_parser.py (from $TS_SRC, used as a
library) and writes VERDICT_JSON:

  {"status": "PASS|FAIL|SKIP|ERROR", "plan": N, "counts": {...},
   "errors": [the parser's complaints], "boot_to_verdict_s": S or null,
   "init": {"failed": K, "programs": N} or null,
   "tests": [{"name", "status", "log": [diagnostic lines], "tests": [...]}]}

"tests" is the KTAP tree: the guest's programs, then what each reported
(for timeout_classes, one kselftest_harness test per entry point, mode and
ABI, its log holding one diagnostic line per input).  boot_to_verdict_s
and init come from /init's closing lines "# boot-to-verdict: S s" and
"# init: K of N programs failed", which follow the KTAP document; this is
the one reader of those lines.  A test's status is PASS, FAIL, SKIP or
ERROR as the parser says, or XFAIL or XPASS where its result line carries
that directive ("ok 3 name # XFAIL reason", kselftest.h's
ksft_test_result_code()), which the tree's kunit_parser reads as a plain
"ok": the directive is kept on the side, as a marker on the test's name
that the parser keeps and tree() takes off.  Judging is scripts/report.py's job; this exits 0 once the
verdict is written, and 1 if the log cannot be read, holds no KTAP, or the
tree's kunit_parser cannot be imported.
"""
import importlib
import inspect
import io
import json
import os
import re
import sys
import traceback

# /init's two closing lines (qemu-config/init.c), after the KTAP document.
BOOT = re.compile(r"^# boot-to-verdict: ([0-9.]+) s$")
INIT = re.compile(r"^# init: (\d+) of (\d+) programs failed$")
# A result line with kselftest's XFAIL or XPASS directive.
DIRECTIVE = re.compile(r"^(?P<head>\s*ok \d+ (?:- )?)(?P<name>[^#]*?)\s*# (?P<d>XFAIL|XPASS)\b")
# Appended to the name of such a test for the parser; no name holds it.
MARK = "\x1f"


def mark_directives(lines):
    """LINES with the name of every XFAIL or XPASS result marked (MARK,
    then the directive)."""
    out = []
    for line in lines:
        m = DIRECTIVE.match(line)
        out.append(f"{m['head']}{m['name']}{MARK}{m['d']}" if m else line)
    return out


def kunit_modules(src):
    """The tree's kunit_parser and kunit_printer (SRC's
    tools/testing/kunit): the reader of KTAP is the kernel's own.  Raises
    KtapError if they cannot be imported."""
    kunit_dir = os.path.join(src, "tools", "testing", "kunit")
    if kunit_dir not in sys.path:
        sys.path.insert(0, kunit_dir)
    try:
        # By name: they are the tree's, found on sys.path at run time.
        kunit_parser = importlib.import_module("kunit_parser")
        kunit_printer = importlib.import_module("kunit_printer")
    except ImportError as e:
        raise KtapError(f"cannot import the tree's kunit_parser from {kunit_dir} ({e}): "
                        "is TS_SRC the patched tree?") from None
    return kunit_parser, kunit_printer


def status_name(status, parser):
    return {parser.TestStatus.SUCCESS: "PASS", parser.TestStatus.SKIPPED: "SKIP",
            parser.TestStatus.FAILURE: "FAIL"}.get(status, "ERROR")


def tree(test, parser):
    name, _, directive = test.name.partition(MARK)
    status = status_name(test.status, parser)
    if directive and status == "PASS":
        status = directive
    return {"name": name, "status": status,
            "log": [l.strip() for l in test.log if l.strip()],
            "tests": [tree(t, parser) for t in test.subtests]}


def read(lines, parser, printer):
    """The verdict of a serial log's LINES (without line ends), read by
    the tree's kunit_parser (PARSER, PRINTER: kunit_modules())."""
    lines = mark_directives(lines)
    # The parser reports what it finds wrong on its printer: keep that.
    # 7.x's parse_run_tests() takes the printer; 6.x's uses the module's.
    said = io.StringIO()
    printer.stdout._output = said
    printer.stdout._use_color = False
    if "printer" in inspect.signature(parser.parse_run_tests).parameters:
        top = parser.parse_run_tests(lines, printer.stdout)
    else:
        top = parser.parse_run_tests(lines)
    errors = [re.sub(r"^\[[0-9:]+\] ", "", l) for l in said.getvalue().splitlines()
              if "[ERROR]" in l]
    boot = [float(m[1]) for m in map(BOOT.match, lines) if m]
    init = [(int(m[1]), int(m[2])) for m in map(INIT.match, lines) if m]
    c = top.counts
    return {
        "status": status_name(top.status, parser),
        "plan": top.expected_count,
        "counts": {"passed": c.passed, "failed": c.failed, "crashed": c.crashed,
                   "skipped": c.skipped, "errors": c.errors},
        "errors": errors,
        "boot_to_verdict_s": boot[-1] if boot else None,
        "init": {"failed": init[-1][0], "programs": init[-1][1]} if init else None,
        "tests": [tree(t, parser) for t in top.subtests],
    }


def write(verdict, path):
    """Write VERDICT to PATH whole (through PATH.tmp): a reader never
    sees half of it."""
    with open(path + ".tmp", "w") as f:
        json.dump(verdict, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)


class KtapError(Exception):
    """The log cannot be read: what the "error: " line says."""


def read_log(log_path, out_path, src):
    """Read the serial log LOG_PATH with SRC's kunit_parser and write its
    verdict to OUT_PATH.  Returns (status, said): 0 once the verdict is
    written and holds a test, else 1; SAID is what the reader has to say
    on stderr (an "error: " line, or the parser's traceback)."""
    try:
        parser, printer = kunit_modules(src)
        try:
            with open(log_path, errors="replace") as f:
                lines = f.read().splitlines()
        except OSError as e:
            raise KtapError(str(e)) from None
    except KtapError as e:
        return 1, f"error: {e}\n"
    try:
        verdict = read(lines, parser, printer)
    except Exception:  # the tree's parser gave up (6.x: a program cut short)
        return 1, traceback.format_exc()
    write(verdict, out_path)
    if not verdict["tests"]:
        return 1, f"error: no KTAP test in {log_path}: " + "; ".join(verdict["errors"]) + "\n"
    return 0, ""


def main(src, argv=None):
    """scripts/ktap.py: read one log with SRC's parser, as read_log()
    says; 0 or 1."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        sys.exit(__doc__.strip().splitlines()[0])
    status, said = read_log(args[0], args[1], src)
    sys.stderr.write(said)
    return status
