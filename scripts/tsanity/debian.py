"""Debian's packages beyond the machine's suites, read without changing the
machine: a private apt state (its own sources.list, lists and cache under
$TS_WORK) on the mirror that the machine's own apt sources name, then
apt-get download and dpkg-deb -x (a binary package: the kernel's source),
or apt-get source --download-only and dpkg-source -x (a source package:
the user-space suites, man-pages), with the binary packages built from
a source package standing in for it when the mirror serves not its
files.  Nothing is installed, and the machine's apt configuration is
only read."""
import functools
import glob
import json
import os
import re
import subprocess

# The suites tried, in order, for a package the machine's suites lack.
SUITES = ("sid", "experimental")


class DebianError(Exception):
    pass


def _run(cmd, what):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise DebianError(f"{what}: {' '.join(cmd[:2])} ... exited {p.returncode}: "
                          f"{(p.stderr or p.stdout).strip()[-800:]}")
    return p.stdout


def codename(os_release="/etc/os-release"):
    with open(os_release) as fh:
        m = re.search(r"^VERSION_CODENAME=(\S+)$", fh.read(), re.M)
    if not m:
        raise DebianError(f"{os_release} names no VERSION_CODENAME")
    return m.group(1).strip('"')


def sources(etc="/etc/apt"):
    """[(types, uris, suites, components, signed_by)] of the machine's apt
    sources, deb822 (.sources) and one-line (.list) alike."""
    out = []
    for path in sorted(glob.glob(os.path.join(etc, "sources.list.d", "*.sources"))):
        with open(path) as fh:
            for stanza in re.split(r"\n\s*\n", fh.read()):
                f = {}
                for line in stanza.splitlines():
                    m = re.match(r"^([A-Za-z-]+):\s*(.*)$", line)
                    if m and not line.startswith("#"):
                        f[m.group(1).lower()] = m.group(2).split()
                if f.get("enabled", ["yes"])[0] == "no" or "uris" not in f:
                    continue
                out.append((f.get("types", []), f["uris"], f.get("suites", []),
                            f.get("components", []), (f.get("signed-by") or [""])[0]))
    lists = [os.path.join(etc, "sources.list")] + sorted(
        glob.glob(os.path.join(etc, "sources.list.d", "*.list")))
    for path in lists:
        if not os.path.exists(path):
            continue
        with open(path) as fh:
            for line in fh:
                line = line.split("#", 1)[0].strip()
                m = re.match(r"^(deb|deb-src)\s+(?:\[([^]]*)\]\s+)?(\S+)\s+(\S+)\s*(.*)$", line)
                if m:
                    opts = dict(o.split("=", 1) for o in (m.group(2) or "").split() if "=" in o)
                    out.append(([m.group(1)], [m.group(3)], [m.group(4)], m.group(5).split(),
                                opts.get("signed-by", "")))
    return out


def mirror(etc="/etc/apt", os_release="/etc/os-release"):
    """(uri, signed_by) of the Debian archive that the machine's own
    sources use for its release (not the security archive)."""
    name = codename(os_release)
    for types, uris, suites, comps, signed in sources(etc):
        if "deb" in types and name in suites and "main" in comps:
            return uris[0].rstrip("/"), signed
    raise DebianError(f"no apt source of the machine names the suite {name} with main "
                      f"(read {etc}/sources.list and {etc}/sources.list.d)")


class PrivateApt:
    """An apt state of our own in ROOT, with deb and deb-src lines for SUITES
    on the machine's mirror."""

    def __init__(self, root, suites=SUITES, etc="/etc/apt", os_release="/etc/os-release",
                 kinds=("deb", "deb-src")):
        self.root = root
        self.suites = suites
        self.kinds = kinds
        self.uri, self.signed_by = mirror(etc, os_release)
        self.list = os.path.join(root, "sources.list")

    def options(self):
        return ["-o", f"Dir::Etc::sourcelist={self.list}", "-o", "Dir::Etc::sourceparts=-",
                "-o", f"Dir::State::Lists={self.root}/lists",
                "-o", f"Dir::Cache={self.root}/cache", "-o", "APT::Get::List-Cleanup=0",
                "-o", "APT::Sandbox::User=root"]

    def write_list(self):
        """The state's directories and its sources.list: one line per suite
        and kind (deb, deb-src), main only."""
        for d in ("lists/partial", "cache/archives/partial"):
            os.makedirs(os.path.join(self.root, d), exist_ok=True)
        signed = f" [signed-by={self.signed_by}]" if self.signed_by else ""
        with open(self.list, "w") as fh:
            for s in self.suites:
                for kind in self.kinds:
                    fh.write(f"{kind}{signed} {self.uri} {s} main\n")

    def update(self):
        self.write_list()
        _run(["apt-get", *self.options(), "-q", "update"], f"apt-get update of {', '.join(self.suites)}")

    def candidate(self, package):
        """The version apt would take, or None."""
        out = _run(["apt-cache", *self.options(), "policy", package], f"apt-cache policy {package}")
        m = re.search(r"^\s*Candidate:\s*(\S+)", out, re.M)
        return None if not m or m.group(1) == "(none)" else m.group(1)

    def download(self, package, dest, version=None):
        """apt-get download PACKAGE (=VERSION, else the candidate) into
        DEST; returns the .deb."""
        os.makedirs(dest, exist_ok=True)
        want = f"{package}={version}" if version else package
        p = subprocess.run(["apt-get", *self.options(), "-q", "download", want], cwd=dest,
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise DebianError(f"apt-get download {want} failed: {p.stderr.strip()[-800:]}")
        if version:
            debs = glob.glob(os.path.join(dest, f"{package}_{_no_epoch(version)}_*.deb"))
        else:
            debs = glob.glob(os.path.join(dest, f"{package}_*.deb"))
        debs.sort(key=os.path.getmtime)
        if not debs:
            raise DebianError(f"apt-get download {want} left no .deb in {dest}")
        return debs[-1]


    def source_versions(self, package):
        """[(version, suite)] of the source package PACKAGE in the
        deb-src lists, newest first (a suite may list several versions)."""
        out = _run(["apt-cache", *self.options(), "madison", package],
                   f"apt-cache madison {package}")
        found: set[tuple[str, str]] = set()
        for line in out.splitlines():
            f = [x.strip() for x in line.split("|")]
            if len(f) == 3 and f[0] == package and f[2].endswith(" Sources"):
                found.add((f[1], f[2].split()[-2].split("/")[0]))

        def newest_first(a: tuple[str, str], b: tuple[str, str]) -> int:
            return compare_versions(b[0], a[0]) or (a[1] > b[1]) - (a[1] < b[1])
        return sorted(found, key=functools.cmp_to_key(newest_first))

    def download_source(self, package, version, dest):
        """apt-get source --download-only PACKAGE=VERSION into DEST: the
        .dsc and its files, checked against the signed lists by apt.
        Returns the .dsc."""
        os.makedirs(dest, exist_ok=True)
        p = subprocess.run(["apt-get", *self.options(), "-q", "source", "--download-only",
                            f"{package}={version}"], cwd=dest, capture_output=True, text=True)
        if p.returncode != 0:
            err = [ln for ln in (p.stderr or p.stdout).splitlines() if ln.startswith(("E:", "W:"))]
            raise DebianError(f"apt-get source {package}={version} failed: "
                              + ("; ".join(err) or p.stderr.strip())[-800:])
        dsc = os.path.join(dest, f"{package}_{_no_epoch(version)}.dsc")
        if not os.path.exists(dsc):
            raise DebianError(f"apt-get source {package}={version} left no {dsc}")
        return dsc


def _no_epoch(version):
    return version.split(":", 1)[1] if ":" in version else version


def compare_versions(a, b):
    """-1, 0 or 1 as Debian orders the versions A and B (dpkg)."""
    if a == b:
        return 0
    return -1 if subprocess.run(["dpkg", "--compare-versions", a, "lt", b]).returncode == 0 else 1


def fetch_source(package, dest, apt, prefer=("sid",), fallback=(), binaries=()):
    """The source package PACKAGE, extracted once under DEST by dpkg-source
    -x: the newest version that the suites PREFER list and the mirror
    serves, else the newest of the suites FALLBACK (loudly: the record
    names every version that could not be fetched, and why).  APT is the
    PrivateApt it comes through (its lists are updated first).  Returns
    {package, version, suite, kind: "source", dsc, tree, origin,
    unavailable}; the caller records it (suites.py).  When no version's
    source is served and BINARIES (binary packages built from PACKAGE)
    are given, they stand in: fetch_binaries() of the first version
    tried (kind "binaries"; APT then needs deb lines too)."""
    apt.update()
    versions = apt.source_versions(package)
    order = [v for s in prefer for v in versions if v[1] == s]
    order += [v for s in fallback for v in versions if v[1] == s and v not in order]
    if not order:
        raise DebianError(f"source package {package} is in none of the suites "
                          f"{', '.join(prefer + tuple(fallback))} on {apt.uri}")
    unavailable = []
    for version, suite in order:
        try:
            dsc = apt.download_source(package, version, dest)
        except DebianError as e:
            unavailable.append({"version": version, "suite": suite, "error": str(e)})
            continue
        tree = os.path.join(dest, f"{package}-{_no_epoch(version)}")
        if not os.path.isdir(tree):
            tmp = tree + ".tmp"
            subprocess.run(["rm", "-rf", tmp], check=True)
            _run(["dpkg-source", "-x", dsc, tmp], f"dpkg-source -x {dsc}")
            os.rename(tmp, tree)
        return {"package": package, "version": version, "suite": suite, "kind": "source",
                "dsc": os.path.abspath(dsc), "tree": os.path.abspath(tree),
                "origin": f"{suite} on {apt.uri}", "unavailable": unavailable}
    if binaries:
        version, suite = order[0]
        r = fetch_binaries(package, version, suite, binaries, dest, apt)
        r["unavailable"] = unavailable
        return r
    raise DebianError(f"no version of the source package {package} could be fetched: "
                      + "; ".join(f"{u['version']} ({u['suite']}): {u['error']}"
                                  for u in unavailable))


def fetch_binaries(package, version, suite, binaries, dest, apt):
    """The binary packages BINARIES of the source package PACKAGE at
    VERSION (as SUITE lists it), downloaded through APT into DEST and
    extracted once, together, by dpkg-deb -x into one tree: what stands
    in for a source package whose files the mirror does not serve.  Each
    must be built from PACKAGE at VERSION.  Returns the record of
    fetch_source() with kind "binaries" and debs in place of dsc."""
    tree = os.path.join(dest, f"{package}-{_no_epoch(version)}.binaries")
    debs = []
    for b in binaries:
        deb = apt.download(b, dest, version)
        src = deb_field(deb, "Source") or deb_field(deb, "Package")
        if src.split()[0] != package or deb_field(deb, "Version") != version:
            raise DebianError(f"{deb} is not built from the source package {package} {version}")
        debs.append(os.path.abspath(deb))
    if not os.path.isdir(tree):
        tmp = tree + ".tmp"
        subprocess.run(["rm", "-rf", tmp], check=True)
        for deb in debs:
            _run(["dpkg-deb", "-x", deb, tmp], f"dpkg-deb -x {deb}")
        os.rename(tmp, tree)
    return {"package": package, "version": version, "suite": suite, "kind": "binaries",
            "debs": debs, "tree": os.path.abspath(tree),
            "origin": f"{suite} on {apt.uri} (binary packages {', '.join(binaries)}: "
                      "the mirror serves not the source's files)", "unavailable": []}


def deb_field(deb, field):
    return _run(["dpkg-deb", "-f", deb, field], f"dpkg-deb -f {deb}").strip()


def installed_version(package):
    p = subprocess.run(["dpkg-query", "-W", "-f=${db:Status-Status} ${Version}", package],
                       capture_output=True, text=True)
    st = p.stdout.split()
    return st[1] if p.returncode == 0 and len(st) == 2 and st[0] == "installed" else None


def fetch_kernel_source(kernel, dest, deb=None, apt_root=None, **kw):
    """The tarball and Debian version of KERNEL's linux-source package that
    is not installed: from DEB (a .deb given by hand) or downloaded through
    the private apt state.  Extracted once into DEST; the record
    DEST/<package>.json says what was taken from where."""
    os.makedirs(dest, exist_ok=True)
    record = os.path.join(dest, f"{kernel.package}.json")
    if deb is None and os.path.exists(record):
        with open(record) as fh:
            r = json.load(fh)
        if os.path.exists(r["tarball"]):
            return r
    if deb is None:
        apt = PrivateApt(apt_root or os.path.join(dest, "apt"), **kw)
        apt.update()
        if apt.candidate(kernel.package) is None:
            raise DebianError(
                f"package {kernel.package} is not installed (scripts/deps.sh installs it from "
                "the machine's own suites where they have it) and is in none of the suites "
                f"tried: {', '.join(apt.suites)} on {apt.uri}. Point TS_KERNEL_DEB at a "
                f"{kernel.package}_*.deb, or TS_TARBALL at a linux-{kernel.version} source "
                "tarball, by hand")
        deb = apt.download(kernel.package, dest)
        origin = f"{', '.join(apt.suites)} on {apt.uri}"
    else:
        origin = f"{deb} (TS_KERNEL_DEB)"
    if deb_field(deb, "Package") != kernel.package:
        raise DebianError(f"{deb} is not a {kernel.package} package")
    version = deb_field(deb, "Version")
    tree = os.path.join(dest, f"{kernel.package}_{version}")
    tarball = os.path.join(tree, "usr", "src", f"{kernel.package}.tar.xz")
    if not os.path.exists(tarball):
        _run(["dpkg-deb", "-x", deb, tree], f"dpkg-deb -x {deb}")
    if not os.path.exists(tarball):
        raise DebianError(f"{deb} holds no usr/src/{kernel.package}.tar.xz")
    r = {"package": kernel.package, "version": version, "deb": os.path.abspath(deb),
         "tarball": tarball, "origin": origin}
    with open(record, "w") as fh:
        json.dump(r, fh, indent=1)
    return r
