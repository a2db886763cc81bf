"""The stable series: patches/stable/X.Y/, the backports of the mainline
fixes that go to stable (docs/review.md, "Stable decisions").

Each backport names its mainline patch by its subject in its bracketed
note ("[ Backport to X.Y of the mainline patch "SUBJECT" ...", or "[ Only
the saturation of the mainline patch "SUBJECT" ..."), as stable backports
name what they come from until the "[ Upstream commit TBD ]" line can
give the commit, so which mainline patches a stable series backports is
read from the backports themselves (no Link: to a posting that does not
exist yet).  make stable
derives what each stable kernel must show from that and from the
mainline list of intended differences (patches/intended-differences,
whose last column is the number of the patch that makes the change):
  - a rule of a backported patch is a difference between the stable
    kernel's base and base + backports, as on mainline;
  - a rule of a fix that is not backported (noautosel) is a change the
    stable kernel predates: both kernels keep the old answer there;
  - so is a rule of a fix that is backported only in part, a backport
    whose note says so on a line of its own that starts "[ Only " (the
    sync cancel fix: mainline checks and saturates, stable gets only the
    saturation).
Nothing is typed again per kernel.
"""
import os
import re
from typing import Any

from . import series as ts_series
from .repo import REPO

MAINLINE_DIR = "patches"


class StableError(Exception):
    pass


def stable_dir(version, repo=REPO):
    return os.path.join(repo, "patches", "stable", version)


def versions(repo=REPO):
    """The X.Y of every stable series in the repository, oldest first
    (none in a repository without patches/stable/)."""
    top = os.path.join(repo, "patches", "stable")
    if not os.path.isdir(top):
        return []
    found = [v for v in os.listdir(top) if os.path.isfile(os.path.join(top, v, "series"))]
    return sorted(found, key=lambda v: tuple(int(x) for x in v.split(".")))


def patch_names(version, repo=REPO):
    """The series of patches/stable/VERSION, in order (it may be empty)."""
    return ts_series.patches(os.path.join(stable_dir(version, repo), "series"))


def tbds(version, repo=REPO):
    """[(patch, line number, line)] of every TBD left in the series."""
    left = []
    for name in patch_names(version, repo):
        with open(os.path.join(stable_dir(version, repo), name)) as f:
            for n, line in enumerate(f, 1):
                if re.search(r"\bTBD\b", line):
                    left.append((name, n, line.rstrip("\n")))
    return left


def subject(path):
    """The subject of a format-patch file, its "[PATCH ...]" prefix off and
    its folded lines joined."""
    with open(path) as f:
        head = f.read().split("\n\n", 1)[0]
    m = re.search(r"^Subject: (.*(?:\n[ \t].*)*)", head, re.M)
    if not m:
        raise StableError(f"{path}: no Subject: header")
    return re.sub(r"^\[[^\]]*\] *", "", " ".join(m.group(1).split()))


# The note of a backport that names its mainline patch.
NOTE = re.compile(r"^\[ [^\]]*?\bof the mainline patch \"(?P<subject>[^\"]+)\"", re.M)


def backported(version, repo=REPO):
    """{backport: mainline patch name}: the mainline patch of patches/series
    whose subject each backport of VERSION names in its bracketed note.
    StableError names a backport that names none, or one that is not in
    the mainline series' fixes part."""
    top = os.path.join(repo, MAINLINE_DIR)
    fixes = {" ".join(subject(os.path.join(top, p)).split()): p
             for p in ts_series.patches(os.path.join(top, "series"), "fixes")}
    out = {}
    for name in patch_names(version, repo):
        with open(os.path.join(stable_dir(version, repo), name)) as f:
            text = f.read()
        # The note's lines joined, as the subject is.
        named = [" ".join(m["subject"].split()) for m in NOTE.finditer(text)]
        if len(named) != 1 or named[0] not in fixes:
            raise StableError(f"patches/stable/{version}/{name}: its note must name one fix of "
                              f"{MAINLINE_DIR}/series by its subject, as '[ Backport to "
                              f"{version} of the mainline patch \"SUBJECT\"': it names "
                              + (", ".join(f'"{n}"' for n in named) or "none"))
        out[name] = fixes[named[0]]
    return out


def partial(version, repo=REPO):
    """The backports of VERSION that take only part of their mainline fix:
    a line of the backport starts "[ Only "."""
    out = set()
    for name in patch_names(version, repo):
        with open(os.path.join(stable_dir(version, repo), name)) as f:
            if re.search(r"^\[ Only ", f.read(), re.M):
                out.add(name)
    return out


def number(patch):
    """The number of a series patch name: 0003-... -> 0003."""
    m = re.match(r"(\d{4})-", patch)
    if not m:
        raise StableError(f"{patch}: not a numbered patch")
    return m.group(1)


def mainline_fixes(repo=REPO):
    """The numbers of the fixes of the mainline series."""
    return {number(p) for p in ts_series.patches(os.path.join(repo, MAINLINE_DIR, "series"),
                                                  "fixes")}


def not_backported(version, repo=REPO):
    """The numbers of the mainline fixes that VERSION does not take whole:
    what its kernels may fail (patches/stable/VERSION/expected-failures)."""
    parts = partial(version, repo)
    ported = {number(m) for b, m in backported(version, repo).items() if b not in parts}
    return mainline_fixes(repo) - ported


def split_rules(rules, version, repo=REPO):
    """The mainline RULES (intended.load() of patches/intended-differences)
    for the stable kernel VERSION: (differences, predates), the rules of
    the fixes backported whole and the rules of the others.  StableError names a
    rule whose patch column is no fix of the mainline series."""
    fixes = mainline_fixes(repo)
    missing = not_backported(version, repo)
    differences: list[Any] = []
    predates: list[Any] = []
    for r in rules:
        if r.patch not in fixes:
            raise StableError(f"{r.where}: the patch column '{r.patch}' is no fix of "
                              f"{MAINLINE_DIR}/series (its fixes: {', '.join(sorted(fixes))})")
        (predates if r.patch in missing else differences).append(r)
    return differences, predates
