"""The kernel trees' git work, in one place: a series applied by git am
(series_tree(), the one git am of the project), the commits it left
(series_commits()), the worktrees of one repository (worktree()), and the
state of a series directory (series_stamp()).  lib.sh's functions of the
same names call these through `scripts/ts` (series-tree, series-commits,
worktree, series-stamp); `scripts/ts tree` (tsanity.tree_stage) calls them
in its own process."""
import hashlib
import os
import subprocess
import sys

from . import series as series_mod


class TreeError(ValueError):
    """What the "error: " line says."""


def git(tree: str, *args: str, check: bool = True) -> str:
    """git -C TREE ARGS: its stdout (stripped of the last newline); a
    failure raises TreeError with git's own words."""
    p = subprocess.run(["git", "-C", tree, *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise TreeError(f"git {' '.join(args)} in {tree} failed: {p.stderr.strip()}")
    return p.stdout[:-1] if p.stdout.endswith("\n") else p.stdout


def log(text: str) -> None:
    print(f"==> {text}", file=sys.stderr, flush=True)


def series_stamp(patches: str) -> str:
    """The state of PATCHES/series: the content of every patch it lists,
    in order (the hash lib.sh's series_stamp wrote, byte for byte: a tree
    stamped by it stays applied).  Names a listed patch that does not
    exist."""
    series_file = os.path.join(patches, "series")
    if not os.access(series_file, os.R_OK):
        raise TreeError(f"{series_file} not found")
    lines = []
    for p in series_mod.patches(series_file):
        path = os.path.join(patches, p)
        if not os.access(path, os.R_OK):
            raise TreeError(f"patch {p} is listed in {patches}/series but does not exist")
        with open(path, "rb") as f:
            lines.append(f"{hashlib.sha256(f.read()).hexdigest()}  {p}\n")
    return hashlib.sha256("".join(lines).encode()).hexdigest()


def series_tree(patches: str, tree: str, base: str) -> None:
    """TREE holds BASE with PATCHES/series applied by git am, one commit
    per patch (an mbox's empty cover letter is dropped).  Nothing happens
    when TREE already holds exactly that series (its stamp is TREE.stamp,
    whose last word is the commit the series ended at: a tree checked out
    elsewhere since is applied again).  Otherwise the series is applied
    again; files whose content ends up unchanged keep their mtime, so that
    make rebuilds only what the change touched."""
    stamp = f"{series_stamp(patches)} {git(tree, 'rev-parse', base)}"
    stamp_file = tree + ".stamp"
    if os.access(stamp_file, os.R_OK):
        with open(stamp_file) as fh:
            have = fh.read().rstrip("\n")
        if have == f"{stamp} {git(tree, 'rev-parse', 'HEAD')}" and \
                not git(tree, "status", "--porcelain", "--untracked-files=no"):
            return
    if os.path.lexists(stamp_file):
        os.remove(stamp_file)
    saved = []
    for name in git(tree, "diff", "--name-only", base, "HEAD").splitlines():
        path = os.path.join(tree, name)
        if os.path.exists(path):
            saved.append((git(tree, "hash-object", name), os.stat(path).st_mtime_ns, name))
    # An earlier run may have stopped inside git am.
    if os.path.isdir(git(tree, "rev-parse", "--path-format=absolute", "--git-path",
                         "rebase-apply")):
        git(tree, "am", "--abort")
    git(tree, "reset", "-q", "--hard", base)
    git(tree, "clean", "-q", "-fdx", "-e", "/.git")
    listed = series_mod.patches(os.path.join(patches, "series"))
    for n, p in enumerate(listed, 1):
        am = subprocess.run(["git", "-C", tree, "am", "-q", "--whitespace=nowarn", "--empty=drop",
                             os.path.join(patches, p)], capture_output=True, text=True)
        if am.returncode != 0:
            sys.stderr.write(am.stdout + am.stderr)
            git(tree, "am", "--abort", check=False)
            raise TreeError(f"patch {n} ({p}) of {patches}/series does not apply to {base}")
    for blob, mtime_ns, name in saved:
        path = os.path.join(tree, name)
        if os.path.exists(path) and git(tree, "hash-object", name) == blob:
            os.utime(path, ns=(os.stat(path).st_atime_ns, mtime_ns))
    with open(stamp_file, "w") as fh:
        fh.write(f"{stamp} {git(tree, 'rev-parse', 'HEAD')}\n")
    log(f"{len(listed)} patches of {patches}/series applied in {tree} with git am")


def series_commits(tree: str, patches: str, base: str, part: str = "") -> list[str]:
    """The commits of PATCHES/series in TREE, oldest first (PART: only
    those of its part, fixes or refactor).  Fails if TREE does not hold
    its series as series_tree() left it."""
    if not os.access(tree + ".stamp", os.R_OK):
        raise TreeError(f"{tree} holds no series (run make tree)")
    series_file = os.path.join(patches, "series")
    listed = series_mod.patches(series_file)
    commits = git(tree, "rev-list", "--reverse", f"{base}..HEAD").split()
    if len(commits) != len(listed):
        raise TreeError(f"{tree} does not hold the {len(listed)} patches of {patches}/series "
                        "(run make tree)")
    if not part:
        return commits
    if part not in ("fixes", "refactor"):
        raise TreeError(f"series_commits: unknown part '{part}'")
    fixes = series_mod.patches(series_file, "fixes")
    if not fixes:
        raise TreeError(f"{patches}/series has no patch in '# part: fixes'")
    if listed[:len(fixes)] != fixes:
        raise TreeError(f"{patches}/series: the fixes part must come first")
    return commits[:len(fixes)] if part == "fixes" else commits[len(fixes):]


def worktree(repo: str, directory: str, rev: str) -> None:
    """DIRECTORY is a worktree of REPO with REV checked out (detached);
    made if missing, checked out again if elsewhere or changed.  Only the
    files that differ are rewritten, so make stays incremental."""
    p = subprocess.run(["git", "-C", repo, "rev-parse", "--verify", "-q", f"{rev}^{{commit}}"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise TreeError(f"worktree {directory}: no commit {rev} in {repo}")
    commit = p.stdout.strip()
    if not os.path.exists(os.path.join(directory, ".git")):
        log(f"creating the worktree {directory} at {git(repo, 'log', '-1', '--format=%h %s', commit)}")
        if os.path.isdir(directory) and not os.path.islink(directory):
            import shutil
            shutil.rmtree(directory)
        elif os.path.lexists(directory):
            os.remove(directory)
        git(repo, "worktree", "prune")
        git(repo, "worktree", "add", "-q", "--detach", directory, commit)
    elif git(directory, "rev-parse", "HEAD") != commit or \
            git(directory, "status", "--porcelain", "--untracked-files=no"):
        git(directory, "checkout", "-q", "-f", "--detach", commit)
