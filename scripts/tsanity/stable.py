"""The stable series: patches/stable/X.Y/, the backports of the mainline
fixes that go to stable (docs/review.md, "Stable decisions").

Each backport cites its mainline patch in a Link: by that patch's fixed
Message-ID (tsanity.mbox.msgid), so which mainline patches a stable
series backports is read from the backports themselves.  make stable
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

from . import series as ts_series
from .config import REPO

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


def backported(version, repo=REPO):
    """{backport: mainline patch name}: the mainline patch of patches/series
    that each backport of VERSION cites in its Link: (a fixed Message-ID,
    <stem>.v<N>.linux-<X.Y>@...).  StableError names a backport that cites
    none, or one that is not in the mainline series' fixes part."""
    fixes = ts_series.patches(os.path.join(repo, MAINLINE_DIR, "series"), "fixes")
    out = {}
    for name in patch_names(version, repo):
        with open(os.path.join(stable_dir(version, repo), name)) as f:
            text = f.read()
        cited = re.findall(r"^Link: https://lore\.kernel\.org/r/([0-9]{4}-[^/\s]+?)\.v\d+\.linux-"
                           r"\d+\.\d+@\S+$", text, re.M)
        hits = [c + ".patch" for c in cited if c + ".patch" in fixes]
        if len(hits) != 1:
            raise StableError(f"patches/stable/{version}/{name}: cites {len(hits)} mainline fixes "
                              f"in its Link: lines, not one ({', '.join(cited) or 'none'})")
        out[name] = hits[0]
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
    differences, predates = [], []
    for r in rules:
        if r.patch not in fixes:
            raise StableError(f"{r.where}: the patch column '{r.patch}' is no fix of "
                              f"{MAINLINE_DIR}/series (its fixes: {', '.join(sorted(fixes))})")
        (predates if r.patch in missing else differences).append(r)
    return differences, predates
