"""Expected failures: the tests a kernel is known to fail, by name.

The selftests fail on any kernel that answers a timeout otherwise than
the contract; they never look at the kernel's version.  What a kernel is
known to fail is the runner's list instead (as stable CIs keep theirs),
and scripts/report.py applies it to the KTAP tree:

  patches/expected-failures            the base kernel (TS_KERNEL's base),
                                       each test for a fix of the fixes
                                       part; it must fail there and pass
                                       on fixes and patched
  patches/stable/X.Y/expected-failures a stable kernel, each test for a
                                       fix or for a mainline change it
                                       predates; the base fails them all,
                                       base + backports those of the fixes
                                       not backported and of the mainline
                                       changes, and must pass the others

One test a line, "TEST REASON" (blank lines and lines that start with
"#" are ignored):
TEST is the test's path in the KTAP tree as the report names it,
PROGRAM/FIXTURE.VARIANT.TEST (timeout_classes_32/timeout.io_getevents.time32_refused);
REASON is NNNN, the number of the fix in patches/series that the kernel
lacks, or, in a stable kernel's list, the mainline change it predates in
double quotes (the commit's subject where the public record has it, else
what the change does).
"""
import collections
import os
import re

from . import series as ts_series
from . import stable as ts_stable

FILE = "expected-failures"
LINE = re.compile(r'^(?P<test>[^\s/]+/\S+)\s+(?:(?P<patch>\d{4})|"(?P<commit>[^"]+)")\s*$')


class ExpectedError(ValueError):
    pass


class Entry:
    """One expected failure: the test, the fix it waits for (a patch
    number or a mainline commit's subject) and where the list says so."""

    def __init__(self, test: str, patch: str | None, commit: str | None, where: str):
        self.test, self.patch, self.commit, self.where = test, patch, commit, where

    def reason(self) -> str:
        return self.patch if self.patch else f'"{self.commit}"'


def path(directory: str) -> str:
    """The list of the series or stable series in DIRECTORY."""
    return os.path.join(directory, FILE)


def load(file: str, fixes: set[str], commits_allowed: bool,
         required: bool = False) -> dict[str, Entry]:
    """{test: Entry} of FILE (none where it does not exist, unless
    REQUIRED: a file named by hand).  FIXES: the patch numbers a reason
    may name; COMMITS_ALLOWED: whether a quoted mainline change may stand
    for one.  ExpectedError names a line that
    cannot be read, a test listed twice and a reason that is not allowed."""
    if not os.path.exists(file):
        if required:
            raise ExpectedError(f"{file}: no such list of expected failures")
        return {}
    out: dict[str, Entry] = {}
    with open(file) as f:
        for n, raw in enumerate(f, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            where = f"{file}:{n}"
            m = LINE.match(line)
            if not m:
                raise ExpectedError(f"{where}: not 'PROGRAM/FIXTURE.VARIANT.TEST NNNN' or "
                                    f"'... \"mainline change\"': {line}")
            if m["test"] in out:
                raise ExpectedError(f"{where}: {m['test']} is listed twice "
                                    f"(first at {out[m['test']].where})")
            if m["patch"] and m["patch"] not in fixes:
                raise ExpectedError(f"{where}: {m['test']}: {m['patch']} is not a fix this "
                                    f"list may name ({', '.join(sorted(fixes)) or 'none'})")
            if m["commit"] and not commits_allowed:
                raise ExpectedError(f"{where}: {m['test']}: a mainline change is no reason "
                                    "here: the base fails only what a fix of the series "
                                    "changes")
            out[m["test"]] = Entry(m["test"], m["patch"], m["commit"], where)
    return out


def for_base(series_dir: str, file: str | None = None) -> tuple[dict[str, Entry], dict]:
    """The lists of a comparison of the base with fixes or patched: the
    series' list (FILE, default SERIES_DIR/expected-failures) on the base,
    each test for a fix of the series' fixes part; none on the other."""
    fixes = {ts_stable.number(p) for p in ts_series.patches(
        os.path.join(series_dir, "series"), "fixes")}
    return load(file or path(series_dir), fixes, False, file is not None), {}


def for_stable(version: str, repo: str, file: str | None = None) -> tuple[dict, dict]:
    """The lists of make stable's comparison of VERSION's base with base +
    backports (FILE, default patches/stable/VERSION/expected-failures): a
    test fails on each kernel that lacks its fix, so the base gets every
    test listed, base + backports those of the fixes not backported and
    of the mainline changes."""
    listed = load(file or path(ts_stable.stable_dir(version, repo)),
                  ts_stable.mainline_fixes(repo), True, file is not None)
    missing = ts_stable.not_backported(version, repo)
    return listed, {t: e for t, e in listed.items() if e.patch is None or e.patch in missing}


def by_reason(listed: dict[str, Entry], failed) -> collections.Counter:
    """How many of the LISTED tests are among FAILED (the tests that failed
    as listed), by the reason each is listed for."""
    return collections.Counter(e.reason() for name, e in listed.items() if name in failed)
