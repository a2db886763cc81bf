"""The man-page and test mboxes: patches/man-pages/, patches/liburing/
and patches/libaio/, and their check (they apply onto what they are made
against, and the pages they change render with no new warning).  man-pages' patch is made against sid's source
package manpages, in upstream's layout (man/man2/...), fetched through the
project's private apt state (tsanity.suites, layout.man_source).
patches/liburing/ holds the man-page patch and the new tests of liburing's
test/; they are made against sid's liburing source, the one that
scripts/suites.sh fetches and builds (tsanity.suites.source), and its
mbox holds them all.  patches/libaio/ holds the new harness case, made
against the libaio source that scripts/suites.sh builds."""
import email.utils
import glob
import gzip
import os
import re
import shutil
import subprocess

from ..config import REPO
from .. import suites
from .checks import apply_series
from .cover import fill
from .people import (PROJECT_EMAIL, PROJECT_NAME, add_headers, dedup, maintainers_entry,
                     project_sob)
from .tools import die, log, run

# The Debian packages whose pages the man-page patches are made against, and
# where each page lives in its project's tree.  With "source": the pages are
# those of that source package from sid (its binary package "package"
# standing in when the mirror serves not the source's files).  With
# "suite": the whole source tree of that suite (tsanity.suites.source),
# onto which every patch of the project applies.
MAN_PROJECTS = {
    "man-pages": {"package": "manpages-dev", "source": "manpages", "entry": "MAN-PAGES",
                  "layout": "man/man{sec}/{page}"},
    "liburing": {"package": "liburing-dev", "suite": "liburing", "entry": "IO_URING",
                 "layout": "man/{page}"},
    "libaio": {"package": "libaio-dev", "suite": "libaio", "entry": "AIO",
               "layout": "man/{page}"},
}


def pages_source(layout, proj):
    """The record (tsanity.suites.recorded_source) of the source package
    that PROJ's patches are made against; dies when it cannot be had."""
    spec = MAN_PROJECTS[proj]
    try:
        if "suite" in spec:
            r = suites.source(layout, spec["suite"])
            if r.get("kind", "source") != "source":
                die(f"{proj}: its patches need the source of {r['package']}, "
                    f"not its binaries ({r['origin']})")
            return r
        return suites.recorded_source(spec["source"], layout.man_source(proj),
                                      layout.man_record(proj), layout.man_apt,
                                      binaries=(spec["package"],))
    except suites.SuiteError as e:
        die(f"{proj}: the source package {spec.get('source', spec.get('suite'))} "
            f"from sid: {e}")


def pages_base(layout, proj):
    """What PROJ's patches are made against, for the cover letter: its
    pages, or with a suite, its source."""
    r = pages_source(layout, proj)
    upstream = r["version"].split(":", 1)[-1].rsplit("-", 1)[0]
    what = "the source" if "suite" in MAN_PROJECTS[proj] else "the pages"
    return f"{what} of {proj} {upstream} (Debian {r['suite']}'s {r['package']} {r['version']})"


def write_mbox(src, layout, proj, mbox, sender, values, api_lists):
    """The mbox MBOX (files.Mbox) of the man-page patches of PROJ, to the
    people of its MAINTAINERS entry in SRC, with its cover letter filled in
    with VALUES and @PAGES_BASE@ (pages_base(); LAYOUT: the run's
    tsanity.layout): (path, PROJ, the pages it changes), its row of the
    summary, and the recipients of each patch, (its name, patch, To, Cc)."""
    name = mbox.stem
    pfiles = sorted(glob.glob(os.path.join(REPO, "patches", proj, "*.patch")))
    if not pfiles:
        die(f"no man-page patch in patches/{proj}/")
    spec = MAN_PROJECTS[proj]
    people, lists = maintainers_entry(src, spec["entry"])
    to = dedup(people, drop=[sender])
    cc = dedup(lists + api_lists, drop=[sender] + to)
    texts, pages, recipients = [], [], []
    for k, pf in enumerate(pfiles, 1):
        with open(pf) as fh:
            text = authored(fh.read(), pf, k, len(pfiles), sender)
        pages += pages_of(text)
        texts.append(add_headers(text, to, cc))
        recipients.append((name, f"{proj}/{os.path.basename(pf)}", to, cc))
    values = dict(values)
    values["@PAGES_BASE@"] = pages_base(layout, proj)
    subject, body = fill(os.path.join(REPO, "docs", "mbox", f"{proj}.in"), values)
    date = email.utils.formatdate(localtime=False)
    cover = (f"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
             f"From: {sender}\nDate: {date}\n"
             f"Subject: [PATCH 0/{len(pfiles)}] {subject}\n"
             "MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
             "Content-Transfer-Encoding: 8bit\n\n" + body + "\n")
    cover = add_headers(cover, to, cc)
    with open(mbox.path, "w") as fh:
        fh.write(cover + "".join(texts))
    row = (f"| {mbox.file} | {spec['entry']} "
           f"(Debian {spec.get('source', spec.get('suite'))}) | {len(pfiles)} (PATCH) |")
    return (mbox.path, proj, sorted(set(pages))), row, recipients


def authored(text, path, k, n, sender):
    """The man-page patch TEXT (the file PATH), patch K of N, from SENDER
    and signed off by SENDER in place of the project."""
    if project_sob() not in text:
        die(f"{path}: no '{project_sob()}' to replace with the author's")
    text = text.replace(f"From: {PROJECT_NAME} <{PROJECT_EMAIL}>", f"From: {sender}")
    text = text.replace(project_sob(), f"Signed-off-by: {sender}")
    return re.sub(r"^Subject: \[PATCH[^\]]*\]", f"Subject: [PATCH {k}/{n}]",
                  text, count=1, flags=re.M)


def pages_of(patch_text):
    """The names of the pages (the files under man/) a patch changes."""
    return sorted({os.path.basename(m) for m in
                   re.findall(r"^\+\+\+ b/(man/\S+)$", patch_text, re.M)})


def check_man(path, layout, proj, pages, tmp):
    """The man-page mbox PATH of PROJ applies onto PAGES as they are in what
    the patches are made against (man_repo()), and they render with no new
    warning; dies otherwise."""
    d = man_repo(layout, proj, pages, tmp)
    spec = MAN_PROJECTS[proj]
    before = {}
    for page in pages:
        rel = spec["layout"].format(sec=page.rsplit(".", 1)[1], page=page)
        before[rel] = man_warnings(os.path.join(d, rel))
    base = run(["git", "rev-parse", "HEAD"], cwd=d).stdout.strip()
    apply_series([path], d, base, tmp)
    for rel, warns in before.items():
        new = [w for w in man_warnings(os.path.join(d, rel)) if w not in warns]
        if new:
            die(f"{path}: {rel} renders with new man --warnings warnings:\n  " + "\n  ".join(new))
    log(f"man pages: {os.path.basename(path)} applies onto "
        f"{run(['git', 'log', '-1', '--format=%s', base], cwd=d).stdout.strip()}; "
        f"{len(pages)} pages render with no new warning")


def man_repo(layout, project, pages, tmp):
    """A git repository of PAGES of PROJECT, in its project's layout, from
    sid's source package (pages_source()); with a suite, of the suite's
    whole source tree."""
    spec = MAN_PROJECTS[project]
    d = os.path.join(tmp, f"{project}-pages")
    r = pages_source(layout, project)
    if "suite" in spec:
        shutil.copytree(r["tree"], d, symlinks=True)
        return commit_tree(d, f"{r['package']} {r['version']} (source, {r['origin']})")
    os.makedirs(d)
    for page in pages:
        sec = page.rsplit(".", 1)[1]
        rel = spec["layout"].format(sec=sec, page=page)
        os.makedirs(os.path.dirname(os.path.join(d, rel)), exist_ok=True)
        if r.get("kind", "source") == "source":
            src = os.path.join(r["tree"], rel)
            if not os.path.exists(src):
                die(f"{src} not found: {r['package']} {r['version']} has no {rel}")
            shutil.copyfile(src, os.path.join(d, rel))
            continue
        shipped = os.path.join(r["tree"], "usr", "share", "man", f"man{sec}", f"{page}.gz")
        if not os.path.exists(shipped):
            die(f"{shipped} not found ({spec['package']} {r['version']} ({r['tree']}))")
        with gzip.open(shipped, "rt") as i, open(os.path.join(d, rel), "w") as o:
            o.write(i.read())
    return commit_tree(d, f"{r['package']} {r['version']} ({r.get('kind', 'source')}, "
                          f"{r['origin']})")


def commit_tree(d, what):
    """The directory D made a git repository of one commit, 'pages of WHAT'."""
    run(["git", "init", "-q", "-b", "main"], cwd=d)
    run(["git", "add", "-A", "-f"], cwd=d)
    run(["git", "-c", "user.name=Debian", "-c", "user.email=debian@localhost", "commit", "-q",
         "-m", f"pages of {what}"], cwd=d)
    return d


def man_warnings(path):
    """The warnings of man --warnings on the page at PATH, without line
    numbers."""
    env = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="80")
    p = subprocess.run(["man", "--warnings", "-l", path], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        die(f"man --warnings -l {path} exited {p.returncode}: {p.stderr.strip()}")
    # Line numbers move when lines are added: compare the messages only.
    return [re.sub(r":\d+:", ":", l) for l in p.stderr.splitlines() if l.strip()]
