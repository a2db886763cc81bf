#!/usr/bin/env python3
"""usage: scripts/mbox.py

Write the submission, one mbox per destination tree, under
$TS_RESULTS/mbox, and prove that each one can be sent.  Nothing is sent.
Everything is written to $TS_RESULTS/mbox.new first and renamed to
$TS_RESULTS/mbox only when every check below passed.

The author of every patch and cover letter is TS_AUTHOR="Name <email>", or
else git config user.name and user.email; without one, or with the
project's own identity, it refuses to run.

Kernel mboxes: the series applied in $TS_SRC (scripts/tree.sh) is rewritten
with that author (From: and Signed-off-by:) and cut by the parts of
patches/series.  Each patch of the fixes part goes to the tree that
scripts/get_maintainer.pl --scm names first for it; consecutive fixes for
one tree share an mbox.  The refactor part is one mbox, for the tree of its
first patch that has one.  Each patch carries its own To: (get_maintainer's
maintainers and reviewers) and Cc: (its lists, the Cc: trailers of the
patch, and linux-api@ for the fixes, which change what user space sees).

Man-page mboxes: patches/man-pages/ and patches/liburing/, made against the
pages that Debian's manpages-dev and liburing-dev ship, to the recipients
that MAINTAINERS names (MAN-PAGES; IO_URING, whose tree holds liburing).

Every mbox has its own cover letter (docs/mbox/<name>.in, with the base,
the dependencies between the mboxes and the testing figures filled in from
the results of make test and make check).  Then every mbox is checked:
  - the kernel mboxes, in order, with git am onto a fresh 6.12 worktree
    (the layout's mbox worktree), which must end at the tree of $TS_SRC; the man-page
    mboxes with git am onto the Debian pages, rendered with man --warnings
    before and after (no new warning);
  - checkpatch.pl --strict on every kernel patch, with the waivers of
    patches/checkpatch.waivers;
  - git send-email --dry-run on every mbox.
$TS_RESULTS/mbox/summary.md lists the mboxes in their order, and the
recipients of every patch.
"""
import collections
import email.utils
import glob
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap

import kunit_json
from tsanity import cli as ts_cli
from tsanity import kernel as ts_kernel
from tsanity import series as ts_series

V = ts_cli.version_or_exit()
# The kernel's own series (patches/series and its neighbours); main()
# sets it.
SERIES = None

PROJECT_NAME = "Timespec Sanity Project"
PROJECT_EMAIL = "timespec-sanity@example.org"
BASE_TEXT = ("Debian's linux-source-{version} {pkgver}, that is v{kver} plus Debian's "
             "patches")
REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
# The Debian packages whose pages the man-page patches are made against, and
# where each page lives in the package and in its project's tree.
MAN_PROJECTS = {
    "man-pages": {"package": "manpages-dev", "entry": "MAN-PAGES", "layout": "man{sec}/{page}"},
    "liburing": {"package": "liburing-dev", "entry": "IO_URING", "layout": "man/{page}"},
}


def die(msg):
    print(f"error: {msg}", file=sys.stderr, flush=True)
    sys.exit(1)


def log(msg):
    print(f"==> {msg}", file=sys.stderr, flush=True)


def run(cmd, cwd=None, env=None, input=None, check=True):
    p = subprocess.run(cmd, cwd=cwd, env=env, input=input, capture_output=True, text=True)
    if check and p.returncode != 0:
        die(f"{' '.join(cmd)} (in {cwd or os.getcwd()}) exited {p.returncode}:\n"
            f"{p.stderr.strip() or p.stdout.strip()}")
    return p


def series(part=None):
    return ts_series.patches(os.path.join(SERIES, "series"), part)


def author():
    """The sender, as (name, email); dies without one or with the project's."""
    raw = os.environ.get("TS_AUTHOR", "").strip()
    if raw:
        name, addr = email.utils.parseaddr(raw)
        origin = "TS_AUTHOR"
    else:
        name = run(["git", "config", "user.name"], cwd=REPO, check=False).stdout.strip()
        addr = run(["git", "config", "user.email"], cwd=REPO, check=False).stdout.strip()
        origin = "git config user.name/user.email"
    if not name or not addr or "@" not in addr:
        die("no author: set TS_AUTHOR=\"Name <email>\" or git config user.name and user.email "
            f"(got name '{name}', email '{addr}' from {origin})")
    if name == PROJECT_NAME or addr == PROJECT_EMAIL:
        die(f"refusing the project identity '{name} <{addr}>' ({origin}) as the author of "
            "mail meant to be sent: a patch needs a person who can certify it "
            "(Documentation/process/submitting-patches.rst)")
    return name, addr


def fmt_addr(name, addr):
    """Name <addr>, unencoded: for trailers, --from and 8-bit headers."""
    return f"{name} <{addr}>"


def project_sob():
    return f"Signed-off-by: {PROJECT_NAME} <{PROJECT_EMAIL}>"


def maintainers_entry(src, title):
    """The M:/R: people and L: lists of a MAINTAINERS entry, by its title
    (or the part of the title before a colon)."""
    people, lists, cur = [], [], None

    def match(name):
        return name == title or name.startswith(title + ":")

    with open(os.path.join(src, "MAINTAINERS"), errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if cur and match(cur):
                    break
                cur = None
                continue
            if cur is None and not re.match(r"^[A-Z]:\t", line):
                cur = line
                continue
            if match(cur):
                if line.startswith(("M:\t", "R:\t")):
                    people.append(line[3:].strip())
                elif line.startswith("L:\t"):
                    lists.append(line[3:].split()[0])
    if not people and not lists:
        die(f"MAINTAINERS of {src} has no entry '{title}'")
    return people, lists


# get_maintainer.pl lists what it found in the order of Perl's hashes,
# which Perl randomises per run: without a fixed seed the recipients, and
# the first tree named, change from one run to the next.
PERL_ENV = dict(os.environ, PERL_HASH_SEED="0", PERL_PERTURB_KEYS="0")


def get_maintainer(src, patch, what):
    """get_maintainer.pl on a patch file: 'people' (M: and R:), 'lists' or 'scm'."""
    opts = {"people": ["--no-l", "--no-s"], "lists": ["--no-m", "--no-r"],
            "scm": ["--no-email", "--scm"]}[what]
    out = run(["perl", "scripts/get_maintainer.pl", "--no-git", "--no-git-fallback",
               "--no-rolestats"] + opts + [patch], cwd=src, env=PERL_ENV).stdout
    return [l.strip() for l in out.splitlines() if l.strip()]


def tree_of(src, patch):
    """The first tree get_maintainer.pl --scm names that is not mainline's;
    where the MAINTAINERS entries name none (PPS SUPPORT, VM SOCKETS),
    "entry:NAME" of the first entry that names a maintainer of the patch."""
    for l in get_maintainer(src, patch, "scm"):
        if l.startswith("git ") and "torvalds/linux.git" not in l:
            return l[4:].strip()
    out = run(["perl", "scripts/get_maintainer.pl", "--no-git", "--no-git-fallback",
               "--no-l", "--no-s", patch], cwd=src, env=PERL_ENV).stdout
    m = re.search(r"\(maintainer:(.+)\)$", out, re.M)
    return f"entry:{m[1]}" if m else None


def slug(tree):
    if tree.startswith("entry:"):
        return re.sub(r"[^a-z0-9]+", "-", tree[len("entry:"):].lower()).strip("-")
    url, _, branch = tree.partition(" ")
    name = re.sub(r"\.git$", "", url.rstrip("/").rsplit("/", 1)[-1])
    return "-".join([name] + ([re.sub(r"[^A-Za-z0-9]+", "-", branch)] if branch else []))


def fold(header, addrs):
    return f"{header}: " + ",\n    ".join(addrs) + "\n"


def dedup(seq, drop=()):
    out, seen = [], {email.utils.parseaddr(d)[1].lower() for d in drop}
    for a in seq:
        k = email.utils.parseaddr(a)[1].lower() or a.lower()
        if k not in seen:
            seen.add(k)
            out.append(a)
    return out


def cc_trailers(text):
    # stable@ and stable+noautosel@ are tags for the stable team's tools,
    # not recipients.
    return [m.group(1).split("#")[0].strip() for m in re.finditer(r"^Cc: (.+)$", text, re.M)
            if not re.search(r"\bstable(\+\w+)?@", m.group(1))]


def add_headers(text, to, cc):
    """Insert To:/Cc: before the Subject: of a format-patch mail."""
    head, sep, rest = text.partition("\nSubject: ")
    if not sep:
        die("a generated patch has no Subject: header")
    return head + "\n" + (fold("To", to) if to else "") + (fold("Cc", cc) if cc else "") + \
        "Subject: " + rest


def rewrite_series(src, base, commits, who, date_env):
    """The commits again, with the author's From and Signed-off-by."""
    name, addr = who
    env = dict(os.environ, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=addr,
               GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=addr, **date_env)
    parent, out = base, []
    for c in commits:
        msg = run(["git", "log", "-1", "--format=%B", c], cwd=src).stdout.rstrip("\n") + "\n"
        sob = f"Signed-off-by: {fmt_addr(name, addr)}"
        if project_sob() in msg:
            msg = msg.replace(project_sob(), sob)
        elif sob not in msg:
            msg += f"\n{sob}\n"
        adate = run(["git", "log", "-1", "--format=%aD", c], cwd=src).stdout.strip()
        e = dict(env, GIT_AUTHOR_DATE=adate, GIT_COMMITTER_DATE=adate)
        tree = run(["git", "rev-parse", f"{c}^{{tree}}"], cwd=src).stdout.strip()
        parent = run(["git", "commit-tree", tree, "-p", parent, "-F", "-"], cwd=src, env=e,
                     input=msg).stdout.strip()
        out.append(parent)
    return out


def format_group(src, first_parent, last, prefix, who, tmp):
    name, addr = who
    env = dict(os.environ, GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=addr)
    d = tempfile.mkdtemp(dir=tmp)
    run(["git", "format-patch", "-q", "--cover-letter", "--zero-commit", "--no-signature",
         "--thread=shallow", f"--subject-prefix={prefix}", f"--from={fmt_addr(name, addr)}",
         "-o", d, f"{first_parent}..{last}"], cwd=src, env=env)
    return sorted(glob.glob(os.path.join(d, "*.patch")))


def figures(layout, src, head):
    """Testing figures from make test (and make fixes, if it ran on this
    series)."""
    f = {}
    try:
        rows = kunit_json.load(os.path.join(layout.kunit_results("x86_64"), "results.json"))
    except (OSError, ValueError) as e:
        die(f"no KUnit results ({e}): run make test first")
    f["kunit_rows"] = len(rows)
    f["kunit_pass"] = sum(1 for _, s in rows if s == "PASS")
    # The other architectures, where make check ran them.
    f["kunit_arch"] = []
    for arch, variant in (("i386", "i386"), ("arm64 (LLVM=1)", "arm64")):
        path = os.path.join(layout.kunit_results(variant), "results.json")
        try:
            # Only a run on this series: newer than the series applied in the tree.
            if os.path.getmtime(path) < os.path.getmtime(src + ".stamp"):
                continue
            other = kunit_json.load(path)
        except OSError:
            continue
        except ValueError as e:
            die(f"kunit-{variant}/results.json is not readable ({e})")
        f["kunit_arch"].append(
            f"{arch} {sum(1 for _, s in other if s == 'PASS')} of {len(other)}")
    # scripts/report.py's reports, all in $TS_RESULTS/tests: 6.12 against
    # the whole series (make test), against the fixes alone, and the fixes
    # against the whole series (make fixes).
    tests = layout.boot_results("tests")
    try:
        with open(os.path.join(tests, "report-base-patched.json")) as fh:
            f["test"] = json.load(fh)
    except (OSError, ValueError) as e:
        die(f"no integration report ({e}): run make test first")
    if f["test"]["verdict"] != "PASS":
        die("the last make test report is not PASS: the mboxes would quote a failing run")
    f["fixes"] = f["refactor"] = None
    # make fixes ran on this series if the whole series it compared the
    # fixes with was built from the tree's HEAD.
    paths = {"fixes": os.path.join(tests, "report-base-fixes.json"),
             "refactor": os.path.join(tests, "report-fixes-patched.json")}
    try:
        with open(paths["refactor"]) as fh:
            fresh = json.load(fh)["kernels"]["patched"].get("commit") == head
    except OSError:
        fresh = False
    except (ValueError, KeyError) as e:
        die(f"{paths['refactor']} is not readable ({e!r}): run make fixes again")
    if fresh:
        for part, p in paths.items():
            try:
                with open(p) as fh:
                    f[part] = json.load(fh)
            except (OSError, ValueError) as e:
                die(f"make fixes ran on this series but {p} is not readable ({e})")
            if f[part]["verdict"] != "PASS":
                die(f"{p}: the last make fixes did not pass; the mboxes would quote it")
        if f["fixes"]["kernels"]["fixes"].get("commit") != \
                f["refactor"]["kernels"]["fixes"].get("commit"):
            die(f"{paths['fixes']} and {paths['refactor']} are of different fixes kernels: "
                "run make fixes again")
    # make bench's figures, if it ran on this series and passed (a failed
    # run leaves no bench.json).
    f["bench"] = None
    bench = layout.named_results("bench")
    try:
        with open(os.path.join(bench, "patched", "commit")) as fh:
            bench_fresh = fh.read().strip() == head
    except OSError:
        bench_fresh = False
    if bench_fresh and os.path.exists(os.path.join(bench, "bench.json")):
        try:
            with open(os.path.join(bench, "bench.json")) as fh:
                f["bench"] = json.load(fh)
        except ValueError as e:
            die(f"{bench}/bench.json is not readable ({e}): run make bench again")
    return f


def cost_text(rows):
    """The cost line of the testing section, from make bench's rows."""
    if rows is None:
        return (" - Cost: make bench (instructions per call under QEMU -icount) was not "
                "run on this series for this submission.")
    fixes = {}
    for r in rows:
        if r["fix"] and r["path"] == "quick":
            fixes.setdefault(r["fix"], set()).add(r["fixes-base"])
    per_fix = ", ".join(f"{n} {'/'.join(sorted(v))}" for n, v in sorted(fixes.items()))
    same, fewer, more = 0, [], []
    for r in rows:
        d = r["patched-fixes"]
        if d == "0":
            same += 1
        elif d.startswith("-"):
            fewer.append((r["path"], float(d), f"{r['abi']}:{r['entry']} {r['path']} {d}"))
        else:
            more.append(f"{r['abi']}:{r['entry']} {r['path']} {d}")
    abis = sorted({r["abi"] for r in rows})
    text = (f" - Cost, in instructions per call (make bench: QEMU -icount counts the "
            f"guest's instructions, so these are counts, not time), {len(rows)} paths "
            f"({', '.join(abis)}): each fix's check on its valid path, fixes - base: "
            f"{per_fix}. The refactor, patched - fixes: the same on {same} paths")
    refused = [v for path, v, _ in fewer if path == "refuse"]
    if refused:
        text += (f", fewer on {len(refused)} refusal paths ({max(refused):+.0f} to "
                 f"{min(refused):+.0f}: the classifier's first comparison, of tv_nsec, "
                 "refuses)")
    valid = sorted(what for path, _, what in fewer if path != "refuse")
    if valid:
        text += f", fewer on {len(valid)} valid paths ({'; '.join(valid)})"
    if more:
        text += f", more on {len(more)} ({'; '.join(sorted(more))})"
    return text + "."


def testing_text(f):
    t = f["test"]
    b = t["kernels"]["patched"]
    by_abi = ", ".join(f"{abi} {n}" for abi, n in b["contract_cases_by_abi"].items())
    lines = [
        f" - KUnit (kernel/time/tests/timespec64_kunit.c): x86_64 {f['kunit_pass']} of "
        f"{f['kunit_rows']} parameterised rows pass"
        + ("; " + ", ".join(f["kunit_arch"]) if f["kunit_arch"] else "") + ".",
        f" - Integration: selftests/timers/timeout_classes, native and -m32, booted "
        f"under QEMU on {V} and on {V} + the whole series: {b['contract_cases']} "
        f"contract cases per kernel ({by_abi}). {t['differences']} cases differ, "
        f"and all of them are the intended changes of the fixes "
        f"({t['intended']['seen']} of {t['intended']['listed']} listed); "
        f"{t['not_intended']} other.",
    ]
    if f["fixes"] and f["refactor"]:
        lines.append(
            f" - The fixes alone against {V}: {f['fixes']['differences']} differences, "
            f"exactly the listed ones ({f['fixes']['verdict']}). The refactor on top of "
            f"the fixes against the fixes alone: {f['refactor']['differences']} "
            f"differences ({f['refactor']['verdict']}).")
    else:
        lines.append(" - The fixes alone and the refactor on top of them were not booted "
                     "separately for this run (make check does it).")
    lines.append(cost_text(f["bench"]))
    return "\n".join(lines)


def waiver_text(patches, waivers):
    """What checkpatch --strict says of these patches, from the waivers
    that make check keeps exact (an unused waiver fails it)."""
    used = collections.defaultdict(list)
    for n, p in enumerate(patches, 1):
        for t in sorted(waivers.get(p, ())):
            used[t].append(str(n))
    if not used:
        return " - checkpatch.pl --strict: clean."
    return (" - checkpatch.pl --strict: clean but for waived messages, each with its "
            "reason in the project: " +
            "; ".join(f"{t} (patch {', '.join(ns)})" for t, ns in sorted(used.items())) +
            ". UNKNOWN_COMMIT_ID only because this tree has no upstream history.")


def fill(template_path, values):
    try:
        with open(template_path) as fh:
            text = fh.read()
    except OSError as e:
        die(f"cover letter template: {e}")
    subject, body = text.split("\n\n", 1)
    subject = subject.removeprefix("Subject: ").strip()
    for k, v in values.items():
        body = body.replace(k, v)
    left = re.findall(r"@[A-Z_]+@", body)
    if left:
        die(f"{template_path}: unfilled placeholders {', '.join(sorted(set(left)))}")
    return subject, rewrap(body.strip()) + "\n"


ITEM = re.compile(r"^( *(?:-|\d+\.) +)")


def rewrap(text, width=72):
    """Refill the paragraphs (and list items) that have a line longer than
    75 columns, such as those the placeholders filled in."""
    out = []
    for para in text.split("\n\n"):
        lines = para.split("\n")
        if all(len(l) <= 75 for l in lines):
            out.append(para)
            continue
        blocks, cur = [], None
        for l in lines:
            m = ITEM.match(l)
            if m or cur is None or l.startswith("  ") and not cur[0]:
                cur = [m.group(1) if m else "", [l[m.end():] if m else l.strip()]]
                blocks.append(cur)
            else:
                cur[1].append(l.strip())
        text_lines = []
        for lead, words in blocks:
            if not lead and len(words) == 1 and words[0].startswith(" "):
                text_lines.append(words[0])
                continue
            text_lines += textwrap.wrap(" ".join(words), width, initial_indent=lead,
                                        subsequent_indent=" " * len(lead),
                                        break_on_hyphens=False, break_long_words=False)
        out.append("\n".join(text_lines))
    return "\n\n".join(out)


def man_repo(project, pages, tmp):
    """A git repository of the Debian-shipped pages of PROJECT."""
    spec = MAN_PROJECTS[project]
    d = os.path.join(tmp, f"{project}-pages")
    os.makedirs(d)
    for page in pages:
        sec = page.rsplit(".", 1)[1]
        shipped = f"/usr/share/man/man{sec}/{page}.gz"
        if not os.path.exists(shipped):
            die(f"{shipped} not found (Debian package {spec['package']}; scripts/deps.sh)")
        rel = spec["layout"].format(sec=sec, page=page)
        os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
        with gzip.open(shipped, "rt") as i, open(os.path.join(d, rel), "w") as o:
            o.write(i.read())
    run(["git", "init", "-q", "-b", "main"], cwd=d)
    run(["git", "add", "-A"], cwd=d)
    run(["git", "-c", "user.name=Debian", "-c", "user.email=debian@localhost", "commit", "-q",
         "-m", f"pages as {spec['package']} ships them"], cwd=d)
    return d


def man_warnings(path):
    env = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="80")
    p = subprocess.run(["man", "--warnings", "-l", path], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        die(f"man --warnings -l {path} exited {p.returncode}: {p.stderr.strip()}")
    # Line numbers move when lines are added: compare the messages only.
    return [re.sub(r":\d+:", ":", l) for l in p.stderr.splitlines() if l.strip()]


def pages_of(patch_text):
    return sorted({os.path.basename(m) for m in
                   re.findall(r"^\+\+\+ b/(\S+)$", patch_text, re.M)})


def main():
    if len(sys.argv) != 1:
        die(__doc__.strip().splitlines()[0])
    who = author()
    global SERIES
    cfg, kernel, layout = ts_cli.context()
    if not kernel.has_series():
        die(f"Linux {kernel.version} has no series in the repository")
    SERIES = kernel.series_dir(cfg.repo)
    src, base_tag = layout.src, kernel.base_tag
    if not os.path.isdir(os.path.join(src, ".git")):
        die(f"{src} is not a git tree (run make tree)")
    fixes, refactor, allp = series("fixes"), series("refactor"), series()
    if not fixes or not refactor or fixes + refactor != allp:
        die(f"{os.path.relpath(SERIES, REPO)}/series must list the fixes part, then the refactor part")
    commits = run(["git", "rev-list", "--reverse", f"{base_tag}..HEAD"], cwd=src).stdout.split()
    if len(commits) != len(allp):
        die(f"{src} has {len(commits)} patches applied, {os.path.relpath(SERIES, REPO)}/series lists {len(allp)} "
            "(run make tree)")
    for c, p in zip(commits, allp):
        subj = run(["git", "log", "-1", "--format=%s", c], cwd=src).stdout.strip()
        with open(os.path.join(SERIES, p)) as fh:
            if subj.split(":")[0] not in fh.read():
                die(f"{src}: commit {c[:12]} '{subj}' is not {p} (run make tree)")
    try:
        pkgver = kernel.package_version(layout)
    except ts_kernel.KernelError as e:
        die(str(e))
    kver = run(["make", "-s", "kernelversion"], cwd=src).stdout.strip()
    base_text = BASE_TEXT.format(version=kernel.version, pkgver=pkgver, kver=kver)
    head = run(["git", "rev-parse", "HEAD"], cwd=src).stdout.strip()
    figs = figures(layout, src, head)

    # Written to mbox.new and renamed to mbox only once every check passed:
    # results/mbox never holds mboxes that failed a check.
    final = layout.named_results("mbox")
    out = final + ".new"
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    tmp = tempfile.mkdtemp(prefix="ts-mbox.")
    try:
        build(who, src, layout, base_tag, commits, fixes, refactor, allp, base_text, figs, out,
              tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(final, ignore_errors=True)
    os.rename(out, final)
    print(f"mbox: {len(glob.glob(os.path.join(final, '*.mbox')))} mboxes by "
          f"{fmt_addr(*who)}, checked:")
    for path in sorted(glob.glob(os.path.join(final, "*.mbox"))):
        print(f"  {path}")
    print(os.path.join(final, "summary.md"))
    return 0


def build(who, src, layout, base_tag, commits, fixes, refactor, allp, base_text, figs, out, tmp):
    name, addr = who
    sender = fmt_addr(name, addr)
    base = run(["git", "rev-parse", base_tag], cwd=src).stdout.strip()
    new = rewrite_series(src, base, commits, who, {})
    api_people, api_lists = maintainers_entry(src, "ABI/API")
    index = {c: i for i, c in enumerate(new)}

    # Groups: (part, tree, [commit indexes]).
    probe = format_group(src, base, new[-1], "PATCH", who, tmp)[1:]
    trees = [tree_of(src, p) for p in probe]
    groups = []
    for i, p in enumerate(fixes):
        t = trees[i]
        if t is None:
            die(f"get_maintainer.pl names no tree for fix {p}")
        if groups and groups[-1][1] == t:
            groups[-1][2].append(i)
        else:
            groups.append(["fixes", t, [i]])
    rt = next((trees[i] for i in range(len(fixes), len(allp)) if trees[i]), None)
    if rt is None:
        die("get_maintainer.pl names no tree for any patch of the refactor")
    groups.append(["refactor", rt, list(range(len(fixes), len(allp)))])

    names = [f"{n + 1}-{g[0]}-{slug(g[1])}" for n, g in enumerate(groups)]
    man_names = [f"{len(groups) + n + 1}-{proj}" for n, proj in enumerate(MAN_PROJECTS)]
    order = "\n".join(f"  {n}.mbox" for n in names + man_names)
    deps = ("The submission is {n} mboxes, meant to be applied in this order:\n{order}\n\n"
            f"Each fixes mbox applies to {V} on its own and needs nothing from the "
            "others. The refactor applies on top of all the fixes, because it converts "
            "the sites they fix. The man-page patches document the user-visible changes "
            "of the fixes and should wait for them.").format(n=len(names) + len(man_names),
                                                           order=order)
    values = {"@BASE@": base_text, "@DEPS@": deps, "@TESTING@": testing_text(figs),
              "@MBOXES@": order}

    summary = ["# The submission", "",
               f"Author: {sender}. Base: {base_text}.", "",
               "| mbox | tree | patches |", "|---|---|---|"]
    per_patch = []
    waivers = load_waivers()
    kernel_mboxes = []
    for n, (part, tree, idx) in enumerate(groups):
        prefix = "RFC PATCH" if part == "refactor" else "PATCH"
        first_parent = new[idx[0] - 1] if idx[0] > 0 else base
        files = format_group(src, first_parent, new[idx[-1]], prefix, who, tmp)
        cover, patches = files[0], files[1:]
        tmpl = os.path.join(REPO, "docs", "mbox", f"{part}-{slug(tree)}.in")
        gvalues = dict(values)
        gvalues["@TESTING@"] = values["@TESTING@"] + "\n" + waiver_text(
            [allp[i] for i in idx], waivers)
        subject, body = fill(tmpl, gvalues)
        all_to, all_cc, texts = [], [], []
        people = {pf: dedup(get_maintainer(src, pf, "people"), drop=[sender]) for pf in patches}
        # A patch whose files have no maintainer (time64.h, ipc/, signal)
        # goes to the maintainers of the mbox's tree: those of its first
        # patch that has any.
        fallback = next((people[pf] for pf in patches if people[pf]), [])
        for i, pf in zip(idx, patches):
            with open(pf) as fh:
                text = fh.read()
            to = people[pf] or fallback
            if not to:
                die(f"get_maintainer.pl names nobody for {allp[i]} nor for its mbox {names[n]}")
            cc = get_maintainer(src, pf, "lists") + cc_trailers(text)
            if part == "fixes":
                cc += api_lists
            cc = dedup(cc, drop=[sender] + to)
            all_to += to
            all_cc += cc
            texts.append(add_headers(text, to, cc))
            per_patch.append((names[n], allp[i], to, cc))
        with open(cover) as fh:
            ctext = fh.read()
        ctext = ctext.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***",
                                                                         body.strip())
        to = dedup(all_to, drop=[sender])
        ctext = add_headers(ctext, to, dedup(all_cc, drop=[sender] + to))
        path = os.path.join(out, f"{names[n]}.mbox")
        with open(path, "w") as fh:
            fh.write(ctext + "".join(texts))
        kernel_mboxes.append((path, [allp[i] for i in idx]))
        summary.append(f"| {names[n]}.mbox | {tree} | {len(idx)} ({prefix}) |")

    man_mboxes = []
    for n, proj in enumerate(MAN_PROJECTS):
        pfiles = sorted(glob.glob(os.path.join(REPO, "patches", proj, "*.patch")))
        if not pfiles:
            die(f"no man-page patch in patches/{proj}/")
        people, lists = maintainers_entry(src, MAN_PROJECTS[proj]["entry"])
        to = dedup(people, drop=[sender])
        cc = dedup(lists + api_lists, drop=[sender] + to)
        texts, pages = [], []
        for k, pf in enumerate(pfiles, 1):
            with open(pf) as fh:
                text = fh.read()
            if project_sob() not in text:
                die(f"{pf}: no '{project_sob()}' to replace with the author's")
            text = text.replace(f"From: {PROJECT_NAME} <{PROJECT_EMAIL}>", f"From: {sender}")
            text = text.replace(project_sob(), f"Signed-off-by: {sender}")
            text = re.sub(r"^Subject: \[PATCH[^\]]*\]", f"Subject: [PATCH {k}/{len(pfiles)}]",
                          text, count=1, flags=re.M)
            pages += pages_of(text)
            texts.append(add_headers(text, to, cc))
            per_patch.append((man_names[n], f"{proj}/{os.path.basename(pf)}", to, cc))
        subject, body = fill(os.path.join(REPO, "docs", "mbox", f"{proj}.in"), values)
        date = email.utils.formatdate(localtime=False)
        cover = (f"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
                 f"From: {sender}\nDate: {date}\n"
                 f"Subject: [PATCH 0/{len(pfiles)}] {subject}\n"
                 "MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
                 "Content-Transfer-Encoding: 8bit\n\n" + body + "\n")
        cover = add_headers(cover, to, cc)
        path = os.path.join(out, f"{man_names[n]}.mbox")
        with open(path, "w") as fh:
            fh.write(cover + "".join(texts))
        man_mboxes.append((path, proj, sorted(set(pages))))
        summary.append(f"| {man_names[n]}.mbox | {MAN_PROJECTS[proj]['entry']} "
                       f"(Debian {MAN_PROJECTS[proj]['package']}) | {len(pfiles)} (PATCH) |")

    summary += ["", "## Recipients per patch", "", "| mbox | patch | To | Cc |", "|---|---|---|---|"]
    for m, p, to, cc in per_patch:
        summary.append(f"| {m} | {p} | {len(to)}: {', '.join(to)} | {len(cc)}: {', '.join(cc)} |")

    # The checks.
    check_am(src, layout, base_tag, kernel_mboxes, new[-1], tmp)
    for path, proj, pages in man_mboxes:
        check_man(path, proj, pages, tmp)
    check_checkpatch(kernel_mboxes, tmp)
    mails = 0
    for path, _ in kernel_mboxes:
        mails += check_send_email(path, sender, out)
    for path, _, _ in man_mboxes:
        mails += check_send_email(path, sender, out)
    summary += ["", "## Checks", "",
                f"- git am: the {len(kernel_mboxes)} kernel mboxes in order onto a fresh "
                f"{base_tag} end at the tree of the series; the man-page mboxes apply onto "
                "the Debian pages and render with no new `man --warnings` warning.",
                "- checkpatch.pl --strict: every kernel patch clean, but for the waivers "
                f"of {os.path.relpath(SERIES, REPO)}/checkpatch.waivers.",
                f"- git send-email --dry-run: {mails} mails, each accepted and addressed to "
                "exactly its To: and Cc: (send-email-dry-run.log).", "",
                "## Sending", "",
                "Each mbox is also split into one file per mail in `<mbox>.d/`. Send the "
                "directories, in the order above, each with:", "",
                "    " + " ".join(SEND) + " results/mbox/<mbox>.d", "",
                "git send-email sends a file as one mail, so not the .mbox itself; "
                "`--suppress-cc=bodycc` because the headers already carry every recipient "
                "and the stable noautosel Cc: is a tag, not one. Sending over SMTP with TLS "
                "needs Debian's libio-socket-ssl-perl and libauthen-sasl-perl, which "
                "scripts/deps.sh does not install."]
    with open(os.path.join(out, "summary.md"), "w") as fh:
        fh.write("\n".join(summary) + "\n")


def load_waivers():
    w = collections.defaultdict(set)
    with open(os.path.join(SERIES, "checkpatch.waivers")) as fh:
        for line in fh:
            f = line.split("#", 1)[0].split() if not line.startswith("#") else []
            if len(f) >= 3:
                w[f[0]].add(f[1])
    return w


def apply_series(mboxes, tree, base, tmp):
    """Apply the mboxes in order onto BASE in the git tree TREE with
    lib.sh's series_tree, the project's one git am."""
    d = tempfile.mkdtemp(dir=tmp)
    with open(os.path.join(d, "series"), "w") as fh:
        for path in mboxes:
            os.symlink(os.path.abspath(path), os.path.join(d, os.path.basename(path)))
            fh.write(os.path.basename(path) + "\n")
    run(["bash", "-c", '. scripts/lib.sh && series_tree "$1" "$2" "$3"', "apply_series",
         d, tree, base], cwd=REPO)


def check_am(src, layout, base_tag, mboxes, last, tmp):
    wt = layout.worktree("mbox")
    run(["bash", "-c", '. scripts/lib.sh && { [ -e "$1/.git" ] || worktree "$1" "$TS_BASE_TAG"; }',
         "check_am", wt], cwd=REPO)
    apply_series([path for path, _ in mboxes], wt, base_tag, tmp)
    want = run(["git", "rev-parse", f"{last}^{{tree}}"], cwd=src).stdout.strip()
    got = run(["git", "rev-parse", "HEAD^{tree}"], cwd=wt).stdout.strip()
    if want != got:
        die(f"the mboxes applied in order do not give the tree of the series ({got} != {want})")
    log(f"git am: {len(mboxes)} kernel mboxes apply in order onto {base_tag}")


def check_man(path, proj, pages, tmp):
    d = man_repo(proj, pages, tmp)
    spec = MAN_PROJECTS[proj]
    before = {}
    for page in pages:
        rel = spec["layout"].format(sec=page.rsplit(".", 1)[1], page=page)
        before[rel] = man_warnings(os.path.join(d, rel))
    apply_series([path], d, run(["git", "rev-parse", "HEAD"], cwd=d).stdout.strip(), tmp)
    for rel, warns in before.items():
        new = [w for w in man_warnings(os.path.join(d, rel)) if w not in warns]
        if new:
            die(f"{path}: {rel} renders with new man --warnings warnings:\n  " + "\n  ".join(new))
    log(f"man pages: {os.path.basename(path)} applies onto {spec['package']}'s pages, "
        f"{len(pages)} pages render with no new warning")


def check_checkpatch(mboxes, tmp):
    """checkpatch --strict on every kernel patch as the mboxes carry it, by
    scripts/check-patches.sh (with patches/checkpatch.waivers) over a
    series of the split mails."""
    d = tempfile.mkdtemp(dir=tmp)
    split = tempfile.mkdtemp(dir=tmp)
    names_all = []
    for path, names in mboxes:
        sd = tempfile.mkdtemp(dir=split)
        n = int(run(["git", "mailsplit", "-o" + sd, path]).stdout.strip())
        if n != len(names) + 1:
            die(f"{path}: {n} mails, expected a cover letter and {len(names)} patches")
        for k, pname in enumerate(names, 2):
            shutil.copy(os.path.join(sd, "%04d" % k), os.path.join(d, pname))
            names_all.append(pname)
    with open(os.path.join(d, "series"), "w") as fh:
        fh.write("".join(f"{n}\n" for n in names_all))
    shutil.copy(os.path.join(SERIES, "checkpatch.waivers"), d)
    p = run([os.path.join(REPO, "scripts", "check-patches.sh")], cwd=REPO,
            env=dict(os.environ, TS_PATCHES=d), check=False)
    if p.returncode != 0:
        die(f"checkpatch.pl --strict on the mboxes' patches:\n{p.stdout}{p.stderr}")
    log(f"checkpatch --strict: {len(names_all)} kernel patches as mailed clean "
        f"(waivers: {os.path.relpath(SERIES, REPO)}/checkpatch.waivers)")


SEND = ["git", "send-email", "--confirm=never", "--suppress-cc=bodycc", "--suppress-cc=self",
        "--8bit-encoding=UTF-8"]


def check_send_email(path, sender, out):
    """Split the mbox into one file per mail under <mbox>.d/ (git
    send-email sends a file as one mail), dry-run the send, and require
    every mail accepted, to exactly the To: and Cc: its headers name."""
    d = path[:-len(".mbox")] + ".d"
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    n = int(run(["git", "mailsplit", "-o" + d, path]).stdout.strip())
    me = email.utils.parseaddr(sender)[1].lower()
    want = []
    for k in range(1, n + 1):
        f = os.path.join(d, "%04d" % k)
        os.rename(f, f + ".patch")
        with open(f + ".patch") as fh:
            msg = email.message_from_file(fh)
        rcpt = email.utils.getaddresses(msg.get_all("To", []) + msg.get_all("Cc", []))
        want.append({a.lower() for _, a in rcpt if a and a.lower() != me})
    p = run(SEND + ["--dry-run", f"--from={sender}", d], cwd=REPO, check=False)
    with open(os.path.join(out, "send-email-dry-run.log"), "a") as fh:
        fh.write(f"### {os.path.basename(d)}\n{p.stdout}{p.stderr}\n")
    got = []
    for line in p.stdout.splitlines():
        if line.startswith("Dry-OK. Log says:"):
            got.append(set())
        m = re.match(r"^RCPT TO:<(.+)>$", line)
        if m and got:
            got[-1].add(m.group(1).lower())
    if p.returncode != 0 or len(got) != n or p.stdout.count("Result: OK") != n:
        die(f"git send-email --dry-run {d}: exit {p.returncode}, {len(got)} of {n} mails "
            f"accepted:\n{p.stderr}")
    for k in range(n):
        if got[k] != want[k]:
            die(f"git send-email would send mail {k + 1} of {d} to {sorted(got[k])}, "
                f"its headers name {sorted(want[k])}")
    return n


if __name__ == "__main__":
    sys.exit(main())
