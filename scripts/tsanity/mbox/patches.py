"""The kernel patches as mails: the series applied in the tree, checked
against the series file, rewritten with the author, and formatted by
git format-patch."""
import glob
import os
import tempfile

from .. import series as ts_series
from ..config import REPO
from .people import PROJECT_EMAIL, PROJECT_NAME, fmt_addr, project_sob
from .tools import die, run


def applied_series(src, base_tag, series_dir):
    """The patches of the series file in SERIES_DIR, its fixes part first
    then all, and the commits of SRC since BASE_TAG, one per patch; dies
    unless SRC is a git tree with the series applied as the file lists it
    (make tree)."""
    if not os.path.isdir(os.path.join(src, ".git")):
        die(f"{src} is not a git tree (run make tree)")
    path = os.path.join(series_dir, "series")
    fixes, refactor, allp = (ts_series.patches(path, "fixes"),
                             ts_series.patches(path, "refactor"), ts_series.patches(path))
    if not fixes or not refactor or fixes + refactor != allp:
        die(f"{os.path.relpath(series_dir, REPO)}/series must list the fixes part, then the refactor part")
    commits = run(["git", "rev-list", "--reverse", f"{base_tag}..HEAD"], cwd=src).stdout.split()
    if len(commits) != len(allp):
        die(f"{src} has {len(commits)} patches applied, {os.path.relpath(series_dir, REPO)}/series lists {len(allp)} "
            "(run make tree)")
    for c, p in zip(commits, allp):
        subj = run(["git", "log", "-1", "--format=%s", c], cwd=src).stdout.strip()
        with open(os.path.join(series_dir, p)) as fh:
            if subj.split(":")[0] not in fh.read():
                die(f"{src}: commit {c[:12]} '{subj}' is not {p} (run make tree)")
    return fixes, allp, commits


def _tree_with(src, tree, diffs, tmp):
    """TREE with the DIFFS (git diff-tree -p output) applied in order, by
    git apply --cached on a scratch index; dies naming the diff that does
    not apply."""
    fd, index = tempfile.mkstemp(dir=tmp, prefix="index.")
    os.close(fd)
    os.unlink(index)
    env = dict(os.environ, GIT_INDEX_FILE=index)
    run(["git", "read-tree", tree], cwd=src, env=env)
    for name, diff in diffs:
        p = run(["git", "apply", "--cached"], cwd=src, env=env, input=diff, check=False)
        if p.returncode != 0:
            die(f"{name} does not apply where the mails need it: {p.stderr.strip()}")
    out = run(["git", "write-tree"], cwd=src, env=env).stdout.strip()
    os.unlink(index)
    return out


def fold_upstream(src, base, commits, names, upstream, tmp):
    """The series as the mails carry it, without the patches that stand for
    a mainline commit (UPSTREAM, tsanity.series.upstream()): (the mails'
    base, a commit of BASE with those patches applied; the commits kept;
    their names; the tree of each kept commit with those patches).  A kept
    commit before such a patch gets its diff applied on top, so that every
    mail applies onto the mails' base."""
    fold = [i for i, n in enumerate(names) if n in upstream]
    if not fold:
        return base, commits, names, [None] * len(commits)
    diffs = [(names[i], run(["git", "diff-tree", "-p", "--binary", f"{commits[i]}^", commits[i]],
                            cwd=src).stdout) for i in fold]
    btree = _tree_with(src, run(["git", "rev-parse", f"{base}^{{tree}}"], cwd=src).stdout.strip(),
                       diffs, tmp)
    msg = "The mainline commits the series needs below it:\n\n" + "".join(
        f"  {upstream[names[i]][0]}\n" for i in fold)
    mbase = run(["git", "commit-tree", btree, "-p", base, "-F", "-"], cwd=src,
                input=msg).stdout.strip()
    kept, knames, trees = [], [], []
    for i, (c, n) in enumerate(zip(commits, names)):
        if i in fold:
            continue
        later = [d for j, d in zip(fold, diffs) if j > i]
        tree = run(["git", "rev-parse", f"{c}^{{tree}}"], cwd=src).stdout.strip()
        kept.append(c)
        knames.append(n)
        trees.append(_tree_with(src, tree, later, tmp) if later else None)
    return mbase, kept, knames, trees


def rewrite_series(src, base, commits, who, date_env, trees=None):
    """The commits again, with the sender's Signed-off-by, and the sender
    as the author of the project's own commits.  A commit by someone else
    (a resent patch: 7.3's aio fix is zhangyi's) keeps its author, so that
    git format-patch writes the in-body From: that keeps the authorship
    (submitting-patches.rst).  TREES, {commit: tree}, gives a commit
    another tree (fold_upstream())."""
    name, addr = who
    env = dict(os.environ, GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=addr, **date_env)
    parent, out = base, []
    for c in commits:
        aname, aaddr = run(["git", "log", "-1", "--format=%an%n%ae", c],
                           cwd=src).stdout.rstrip("\n").split("\n")
        if (aname, aaddr) == (PROJECT_NAME, PROJECT_EMAIL):
            aname, aaddr = name, addr
        msg = run(["git", "log", "-1", "--format=%B", c], cwd=src).stdout.rstrip("\n") + "\n"
        sob = f"Signed-off-by: {fmt_addr(name, addr)}"
        if project_sob() in msg:
            msg = msg.replace(project_sob(), sob)
        elif sob not in msg:
            msg += f"\n{sob}\n"
        adate = run(["git", "log", "-1", "--format=%aD", c], cwd=src).stdout.strip()
        e = dict(env, GIT_AUTHOR_NAME=aname, GIT_AUTHOR_EMAIL=aaddr, GIT_AUTHOR_DATE=adate,
                 GIT_COMMITTER_DATE=adate)
        tree = (trees or {}).get(c) or \
            run(["git", "rev-parse", f"{c}^{{tree}}"], cwd=src).stdout.strip()
        parent = run(["git", "commit-tree", tree, "-p", parent, "-F", "-"], cwd=src, env=e,
                     input=msg).stdout.strip()
        out.append(parent)
    return out


def format_group(src, first_parent, last, prefix, who, tmp):
    """git format-patch of FIRST_PARENT..LAST, with a cover letter, into a
    directory of TMP: the files, the cover letter first."""
    name, addr = who
    env = dict(os.environ, GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=addr)
    d = tempfile.mkdtemp(dir=tmp)
    run(["git", "format-patch", "-q", "--cover-letter", "--zero-commit", "--no-signature",
         "--thread=shallow", f"--subject-prefix={prefix}", f"--from={fmt_addr(name, addr)}",
         "-o", d, f"{first_parent}..{last}"], cwd=src, env=env)
    return sorted(glob.glob(os.path.join(d, "*.patch")))
