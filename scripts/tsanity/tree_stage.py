"""`scripts/ts tree`: the three kernel trees, made in this one process.

usage: scripts/ts tree [base]

The trees live outside the repository (tsanity.layout):
  src        patched: linux-source-X.Y as a git base commit (tag
             base-X.Y) with the kernel's series applied by git am;
  base-src   base: a worktree of the same repository at the base commit;
  fixes-src  fixes: a worktree at the last commit of the fixes part.
Re-runs are incremental: nothing happens if the series did not change, and
when it did, files whose content ends up unchanged keep their mtime, so
that make rebuilds only what the change touched (tsanity.trees).  With
"base", only the extraction and base-src (make base): what make
check-patches needs, whether the series applies or not.

The kernel's source package is installed first from the machine's own
suites where they have it and it is missing (as root; kernel_package()),
or taken from a newer suite without installing it (tsanity.kernel:
source()); what the trees were extracted from is recorded
(<root>/kernel.json) for the results and the mbox."""
import json
import os
import shutil
import subprocess
import sys

from . import debian
from . import kernel as kernel_mod
from . import series as series_mod
from . import trees

# Who commits the base tree.
COMMITTER = ("Timespec Sanity Project", "timespec-sanity@example.org")


class StageError(ValueError):
    """What the "error: " line says."""


def apt_offers(package: str) -> bool:
    """The machine's apt lists offer PACKAGE (a candidate version)."""
    try:
        p = subprocess.run(["apt-cache", "policy", package], capture_output=True, text=True)
    except OSError:  # no apt-cache: nothing offered
        return False
    return any(line.strip().startswith("Candidate: ") and
               not line.strip()[len("Candidate: "):].startswith("(")
               for line in p.stdout.splitlines())


def kernel_package(cfg, kernel, layout) -> None:
    """The kernel's source package, installed from the machine's own
    suites where they have it (6.12 and 6.1 on Debian 12) and it is
    missing; otherwise source() fetches it from a newer suite without
    installing it.  TS_TARBALL or TS_KERNEL_DEB given by hand, or a package
    fetched already, need nothing.  Not root: names what to install."""
    if cfg["TS_TARBALL"] or cfg["TS_KERNEL_DEB"] or debian.installed_version(kernel.package) or \
            os.path.exists(os.path.join(layout.debian, f"{kernel.package}.json")):
        return
    if os.getuid() != 0:
        if apt_offers(kernel.package):
            raise StageError(f"missing Debian packages: {kernel.package}; run as root (or: "
                             f"apt-get install {kernel.package})")
        return  # fetched by source()
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    if subprocess.run(["apt-get", "update", "-q"], env=env).returncode != 0:
        raise StageError("apt-get update failed")
    if not apt_offers(kernel.package):
        print(f"==> {kernel.package} is not in the machine's own suites: fetched instead",
              file=sys.stderr)
        return
    print(f"==> installing: {kernel.package}", file=sys.stderr)
    if subprocess.run(["apt-get", "install", "-y", "-q", "--no-install-recommends",
                       kernel.package], env=env).returncode != 0:
        raise StageError(f"apt-get install {kernel.package} failed")


def write_record(layout, record: dict) -> None:
    os.makedirs(layout.root, exist_ok=True)
    with open(layout.kernel_record, "w") as fh:
        json.dump(record, fh, indent=1, sort_keys=True)
        fh.write("\n")


def subject(kernel, version: str) -> str:
    """The base commit's subject."""
    return f"{kernel.package} {version} (Debian), unmodified"


def extract(layout, kernel, record: dict) -> None:
    """The patched tree's repository: the tarball as one commit, tagged."""
    tmp = layout.extract_tmp
    src = layout.src
    trees.log(f"extracting {record['tarball']} ({kernel.package} {record['version']}, "
              f"{record['origin']}) into {src}")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    if subprocess.run(["tar", "-xJf", record["tarball"], "-C", tmp,
                       "--strip-components=1"]).returncode != 0:
        raise StageError(f"extracting {record['tarball']} failed")
    trees.git(tmp, "init", "-q", "-b", "main")
    for k, v in (("user.name", COMMITTER[0]), ("user.email", COMMITTER[1]),
                 ("core.autocrlf", "false"), ("gc.auto", "0")):
        trees.git(tmp, "config", k, v)
    # Debian's tarball ignores everything at the top level: add by force.
    trees.git(tmp, "add", "-f", "-A")
    if not trees.git(tmp, "diff", "--cached", "--name-only"):
        raise StageError(f"nothing staged from {record['tarball']}: the base commit would be empty")
    trees.git(tmp, "commit", "-q", "-m", subject(kernel, record["version"]))
    trees.git(tmp, "tag", kernel.base_tag)
    if os.path.lexists(src + ".stamp"):
        os.remove(src + ".stamp")
    os.rename(tmp, src)
    write_record(layout, record)


def main(base_only: bool, cfg, kernel, layout) -> int:
    try:
        return run(base_only, cfg, kernel, layout)
    except (StageError, trees.TreeError, kernel_mod.KernelError, series_mod.SeriesError,
            OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


def run(base_only: bool, cfg, kernel, layout) -> int:
    kernel_package(cfg, kernel, layout)
    record = kernel_mod.source(cfg, kernel, layout)
    if not os.access(record["tarball"], os.R_OK):
        raise StageError(f"kernel tarball {record['tarball']} not found (package "
                         f"{kernel.package}; run make deps as root)")
    src, base_src = layout.src, layout.base_src
    os.makedirs(os.path.dirname(src), exist_ok=True)
    if not os.path.isdir(os.path.join(src, ".git")):
        extract(layout, kernel, record)
    trees.worktree(src, base_src, kernel.base_tag)
    kv = subprocess.run(["make", "-s", "-C", base_src, "kernelversion"], capture_output=True,
                        text=True)
    if kv.returncode != 0:
        sys.stderr.write(kv.stderr)
        raise StageError(f"make kernelversion failed in {base_src}")
    kver = kv.stdout.strip()
    if not kver.startswith(kernel.version + "."):
        raise StageError(f"the tree in {src} is Linux {kver}, not {kernel.version}.x: refusing "
                         f"(remove {layout.root} to start over)")
    # The trees stay what they were extracted from: a newer package is
    # named, not taken (remove the root to take it).
    extracted = trees.git(src, "log", "-1", "--format=%s", kernel.base_tag)
    if extracted != subject(kernel, record["version"]):
        print(f"warning: the tree in {src} is '{extracted}'; the source is now "
              f"{kernel.package} {record['version']} (remove {layout.root} to take it)",
              file=sys.stderr)
    elif not os.path.lexists(layout.kernel_record):
        write_record(layout, record)
    print(f"tree: {extracted.removesuffix(' (Debian), unmodified')}, Linux {kver}, in {src}")
    if base_only:
        print(f"base: {base_src} at {kernel.base_tag}")
        return 0
    if not kernel.has_series():
        raise StageError(f"Linux {kernel.version} has no series in the repository "
                         "(tsanity.kernel: SERIES); make base works without one")
    series = kernel.series_dir(cfg.repo)
    trees.series_tree(series, src, kernel.base_tag)
    commits = trees.series_commits(src, series, kernel.base_tag)
    print(f"patched: {src}, {len(commits)} patches of {os.path.relpath(series, cfg.repo)}/series")
    print(f"base: {base_src} at {kernel.base_tag}")
    fixes = trees.series_commits(src, series, kernel.base_tag, "fixes")[-1]
    trees.worktree(src, layout.fixes_src, fixes)
    print(f"fixes: {layout.fixes_src} at {trees.git(src, 'log', '-1', '--format=%h %s', fixes)}")
    return 0
