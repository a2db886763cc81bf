"""The kernel a run works on: a Debian linux-source-X.Y package, its
version, its tarball, and the three kernels built from it (base, fixes,
patched).  One Kernel is made from the configuration and passed around."""
import collections
import os
import re

from . import kernels

# The series of each kernel (tsanity.kernels' rows), a directory of the
# repository with a series file (its order and parts), the patches,
# intended-differences, checkpatch.waivers and new-interfaces.  Any other
# kernel has no series of its own: the stable kernels get backports of
# the fixes instead (patches/stable/).
SERIES = kernels.series()

# The kernels of a tree: base (Debian's source), fixes (base + the fixes
# part of the series), patched (base + the whole series), and on a stable
# kernel, stable (base + its backports, patches/stable/X.Y/: make stable).
NAMES = ("base", "fixes", "patched", "stable")
# The kernel of the mainline series (patches/), whose selftests make stable
# boots on the stable kernels.
MAINLINE = kernels.mainline()


class KernelError(Exception):
    pass


class Kernel(collections.namedtuple("Kernel", ("version", "tarball"))):
    """Debian's linux-source-<version>: version is "6.12", the X.Y of
    linux-source-X.Y; tarball the source tarball the trees are extracted
    from.  (A named tuple: every `scripts/ts` makes one, and dataclasses
    would import inspect.)"""
    __slots__ = ()

    @property
    def package(self):
        return f"linux-source-{self.version}"

    @property
    def base_tag(self):
        """The tag of the base commit in the patched tree's repository."""
        return f"base-{self.version}"

    @property
    def dirname(self):
        """The name of the directory of $TS_WORK that holds everything
        built from this kernel: two kernels never share a stamp or an
        object."""
        return f"linux-{self.version}"

    def has_series(self):
        return self.version in SERIES

    def stable_dir(self, repo):
        """patches/stable/X.Y of this kernel, or "" where it has none."""
        from . import stable
        return (stable.stable_dir(self.version, repo)
                if self.version in stable.versions(repo) else "")

    def series_dir(self, repo):
        """The directory of this kernel's own series in the repository."""
        if self.version not in SERIES:
            raise KernelError(f"no series for Linux {self.version} in the repository "
                              f"(series exist for {', '.join(sorted(SERIES))})")
        return os.path.join(repo, SERIES[self.version])

    def accepts(self, kernelversion):
        """True if `make kernelversion` of a tree is this kernel's X.Y."""
        return re.fullmatch(re.escape(self.version) + r"\.\d+(-rc\d+)?", kernelversion) is not None

    def package_version(self, layout):
        """The Debian version of the package the trees were extracted from,
        e.g. 6.12.118-1~deb12u1 (scripts/ts tree records it)."""
        import json
        try:
            with open(layout.kernel_record) as fh:
                return json.load(fh)["version"]
        except (OSError, ValueError, KeyError) as e:
            raise KernelError(f"{layout.kernel_record} is not readable ({e}): run make tree")


def check_name(name):
    if name not in NAMES:
        raise KernelError(f"unknown kernel '{name}' (known: {' '.join(NAMES)})")
    return name


def from_config(cfg):
    version = cfg["TS_KERNEL"]
    if not re.fullmatch(r"\d+\.\d+", version):
        raise KernelError(f"TS_KERNEL={version}: not a kernel series X.Y (e.g. 6.12)")
    tarball = cfg["TS_TARBALL"] or f"/usr/src/linux-source-{version}.tar.xz"
    return Kernel(version, tarball)


def source(cfg, kernel, layout):
    """{package, version, tarball, origin}: where this kernel's source comes
    from.  A tarball given by hand (TS_TARBALL) is taken as it is; else the
    installed package (the machine's own suites: scripts/deps.sh installs
    it where they have it); else the package downloaded from a newer suite
    without touching the machine (debian.py), or the .deb TS_KERNEL_DEB."""
    from . import debian
    installed = debian.installed_version(kernel.package)
    if cfg["TS_TARBALL"]:
        # The package's own tarball, named by hand, is still the package.
        own = installed and os.path.realpath(cfg["TS_TARBALL"]) == os.path.realpath(kernel.tarball)
        return {"package": kernel.package,
                "version": installed if own else "(tarball given by hand)",
                "tarball": cfg["TS_TARBALL"], "origin": "installed" if own else "TS_TARBALL"}
    if installed and not cfg["TS_KERNEL_DEB"]:
        return {"package": kernel.package, "version": installed, "tarball": kernel.tarball,
                "origin": "installed"}
    try:
        return debian.fetch_kernel_source(kernel, layout.debian, deb=cfg["TS_KERNEL_DEB"] or None)
    except debian.DebianError as e:
        raise KernelError(str(e)) from e
