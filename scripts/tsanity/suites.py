"""The user-space test suites built from Debian's source packages for the
guest: liburing's test/ programs and libaio's harness/ cases.  Their
sources come through a private apt state (debian.py) from sid, the
machine's own suite being the fallback when the mirror does not serve
sid's files; what was fetched is recorded beside the source
(layout.suite_record).  qemu-config/suites/<name>.tests chooses the
programs: scripts/suites.sh builds and stages them."""
import json
import os
import re

from . import debian
from . import layout as layout_mod

# name -> its Debian source package.
SUITES = {
    "liburing": "liburing",
    "libaio": "libaio",
}
# The suites tried, in order: the newest of sid; then the machine's own
# release (its codename, read from /etc/os-release).
PREFER = ("sid",)


class SuiteError(Exception):
    pass


def list_file(repo, name):
    layout_mod.check_suite(name)
    return os.path.join(repo, "qemu-config", "suites", f"{name}.tests")


def parse_list(path):
    """[(verdict, program, reason)] of a suite's list: one line per test
    program, `run PROGRAM REASON` (chosen), `skip PROGRAM REASON` (left
    out) or `aux PROGRAM REASON` (not a test: a program that a chosen one
    runs, staged beside them); # starts a comment, blank lines are
    skipped."""
    try:
        with open(path) as fh:
            lines = fh.read().splitlines()
    except OSError as e:
        raise SuiteError(f"cannot read the suite list {path}: {e.strerror}")
    out = []
    seen: dict[str, int] = {}
    for n, line in enumerate(lines, 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"(run|skip|aux)\s+([A-Za-z0-9_.+-]+)\s+(\S.*)", line)
        if not m:
            raise SuiteError(f"{path}:{n}: not 'run|skip|aux PROGRAM REASON': {line}")
        if m.group(2) in seen:
            raise SuiteError(f"{path}:{n}: {m.group(2)} is listed already on line {seen[m.group(2)]}")
        seen[m.group(2)] = n
        out.append(m.groups())
    if not any(v == "run" for v, _, _ in out):
        raise SuiteError(f"{path}: no program to run")
    return out


def read_record(layout, name):
    path = layout.suite_record(name)
    try:
        with open(path) as fh:
            return json.load(fh)
    except (OSError, ValueError) as e:
        raise SuiteError(f"{path} is not readable ({e}): run scripts/suites.sh {name}")


def write_manifest(layout, name, stage, programs):
    """STAGE/manifest.json: what a staged suite holds (scripts/suites.sh
    stages it): the package it was built from, the PROGRAMS its list
    chooses, the auxiliary files beside them (in STAGE/64 but not chosen),
    and the size of every file per ABI directory of STAGE."""
    r = read_record(layout, name)
    try:
        aux = sorted(set(os.listdir(os.path.join(stage, "64"))) - set(programs))
        abis = sorted(d for d in os.listdir(stage) if os.path.isdir(os.path.join(stage, d)))
        m = {"suite": name, "package": r["package"], "version": r["version"], "from": r["suite"],
             "programs": list(programs), "aux": aux,
             "bytes": {a: {p: os.path.getsize(os.path.join(stage, a, p)) for p in programs + aux}
                       for a in abis}}
        path = os.path.join(stage, "manifest.json")
        with open(path, "w") as fh:
            json.dump(m, fh, indent=1, sort_keys=True)
            fh.write("\n")
    except OSError as e:
        raise SuiteError(f"{name}: writing the manifest of {stage} failed ({e})")
    return path


def source(layout, name, refresh=False, **apt_kw):
    """The suite's extracted source tree and what it is: the record when it
    is there and its tree too (no network), else fetched and recorded."""
    layout_mod.check_suite(name)
    return recorded_source(SUITES[name], layout.suite_source(name), layout.suite_record(name),
                           layout.suites_apt, refresh=refresh, **apt_kw)


def recorded_source(package, dest, record, apt_root, refresh=False, binaries=(), **apt_kw):
    """The source package PACKAGE, extracted under DEST, and what it is
    (debian.fetch_source): the RECORD when it is there and its tree too
    (no network), else fetched from sid (the machine's own suite as the
    fallback) through the private apt state APT_ROOT, and recorded.
    BINARIES: the binary packages that stand in when the mirror serves
    not the source's files (debian.fetch_binaries)."""
    if not refresh and os.path.exists(record):
        try:
            with open(record) as fh:
                r = json.load(fh)
        except (OSError, ValueError) as e:
            raise SuiteError(f"{record} is not readable ({e})")
        if os.path.isdir(r.get("tree", "")):
            return r
    try:
        apt = debian.PrivateApt(apt_root, suites=PREFER + (
            debian.codename(apt_kw.get("os_release", "/etc/os-release")),),
            kinds=("deb-src",) + (("deb",) if binaries else ()), **apt_kw)
        r = debian.fetch_source(package, dest, apt, prefer=PREFER,
                                fallback=apt.suites[len(PREFER):], binaries=binaries)
    except debian.DebianError as e:
        raise SuiteError(str(e)) from e
    os.makedirs(os.path.dirname(record), exist_ok=True)
    with open(record + ".tmp", "w") as fh:
        json.dump(r, fh, indent=1, sort_keys=True)
        fh.write("\n")
    os.replace(record + ".tmp", record)
    return r
