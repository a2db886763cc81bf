"""The fixes part of a kernel's series, fix by fix (the file `fixes` beside
its `series`: patches/fixes): what each fix changes,
whether it adds a refuse path, the bench's entry points whose cost it
changes and the functions whose timeout it checks.  Written once there;
make bench and make audit derive from it."""
import dataclasses
import os
import re

from . import series as series_mod

ROW = re.compile(r"^(?P<patch>\d{4})\s+(?P<refuses>yes|no)\s+(?P<bench>\S+)\s+(?P<audit>\S+)"
                 r"\s+\|\s+(?P<what>\S.*?)\s*$")
FUNCTION = re.compile(r"^[\w./-]+\.c:\w+$")


class FixesError(ValueError):
    pass


@dataclasses.dataclass(frozen=True)
class Fix:
    patch: str          # its number in the series, 0001
    refuses: bool       # adds a refuse path for its bench entries
    bench: tuple        # the bench's entry points, without their ABI
    audit: tuple        # FILE:FUNCTION whose timeout it checks
    what: str           # what it changes


def _list(field):
    return () if field == "-" else tuple(field.split(","))


def parse(path):
    """The rows of PATH, in order; a malformed row, a repeated patch or
    a malformed function is refused, naming PATH and the line."""
    try:
        with open(path) as fh:
            lines = fh.read().split("\n")
    except OSError as e:
        raise FixesError(f"{path}: {e.strerror}") from e
    out = []
    seen: dict[str, int] = {}
    for n, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        m = ROW.match(line)
        if not m:
            raise FixesError(f"{path}:{n}: not PATCH yes|no BENCH AUDIT | WHAT: '{line}'")
        if m["patch"] in seen:
            raise FixesError(f"{path}:{n}: patch {m['patch']} again (line {seen[m['patch']]})")
        seen[m["patch"]] = n
        fix = Fix(m["patch"], m["refuses"] == "yes", _list(m["bench"]), _list(m["audit"]),
                  m["what"])
        bad = [f for f in fix.audit if not FUNCTION.match(f)]
        if bad:
            raise FixesError(f"{path}:{n}: not FILE.c:FUNCTION: {' '.join(bad)}")
        if fix.refuses and not fix.bench:
            raise FixesError(f"{path}:{n}: patch {fix.patch} refuses, but names no bench entry")
        out.append(fix)
    return out


def load(series_dir):
    """The fixes of SERIES_DIR/fixes, which must hold one row for every
    patch of SERIES_DIR/series' fixes part, in its order, and no other."""
    path = os.path.join(series_dir, "fixes")
    fixes = parse(path)
    try:
        want = [p[:4] for p in series_mod.patches(os.path.join(series_dir, "series"), "fixes")]
    except series_mod.SeriesError as e:
        raise FixesError(str(e)) from e
    have = [f.patch for f in fixes]
    if have != want:
        raise FixesError(f"{path}: its patches {' '.join(have) or '(none)'} are not the fixes "
                         f"part of {os.path.join(series_dir, 'series')}: {' '.join(want)}")
    return fixes


def audit_expect(fixes):
    """The functions make audit --base must find inconsistent on the base
    tree, FILE:FUNCTION separated by spaces (TS_AUDIT_BASE_EXPECT)."""
    return " ".join(f for fix in fixes for f in fix.audit)
