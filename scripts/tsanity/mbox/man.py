"""The man-page mboxes: patches/man-pages/ and patches/liburing/, made
against the pages that Debian's manpages-dev and liburing-dev ship, and
their check (they apply onto those pages and render with no new
warning)."""
import email.utils
import glob
import gzip
import os
import re
import subprocess

from ..config import REPO
from .checks import apply_series
from .cover import fill
from .people import (PROJECT_EMAIL, PROJECT_NAME, add_headers, dedup, maintainers_entry,
                     project_sob)
from .tools import die, log, run

# The Debian packages whose pages the man-page patches are made against, and
# where each page lives in the package and in its project's tree.
MAN_PROJECTS = {
    "man-pages": {"package": "manpages-dev", "entry": "MAN-PAGES", "layout": "man{sec}/{page}"},
    "liburing": {"package": "liburing-dev", "entry": "IO_URING", "layout": "man/{page}"},
}


def write_mbox(src, proj, name, sender, values, api_lists, out):
    """The mbox NAME of the man-page patches of PROJ, to the people of its
    MAINTAINERS entry in SRC, with its cover letter filled in with VALUES:
    (path, PROJ, the pages it changes), its row of the summary, and the
    recipients of each patch, (NAME, patch, To, Cc)."""
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
    subject, body = fill(os.path.join(REPO, "docs", "mbox", f"{proj}.in"), values)
    date = email.utils.formatdate(localtime=False)
    cover = (f"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
             f"From: {sender}\nDate: {date}\n"
             f"Subject: [PATCH 0/{len(pfiles)}] {subject}\n"
             "MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\n"
             "Content-Transfer-Encoding: 8bit\n\n" + body + "\n")
    cover = add_headers(cover, to, cc)
    path = os.path.join(out, f"{name}.mbox")
    with open(path, "w") as fh:
        fh.write(cover + "".join(texts))
    row = (f"| {name}.mbox | {spec['entry']} "
           f"(Debian {spec['package']}) | {len(pfiles)} (PATCH) |")
    return (path, proj, sorted(set(pages))), row, recipients


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
    """The names of the pages a patch changes."""
    return sorted({os.path.basename(m) for m in
                   re.findall(r"^\+\+\+ b/(\S+)$", patch_text, re.M)})


def check_man(path, proj, pages, tmp):
    """The man-page mbox PATH of PROJ applies onto the shipped PAGES, and
    they render with no new warning; dies otherwise."""
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
    """The warnings of man --warnings on the page at PATH, without line
    numbers."""
    env = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="80")
    p = subprocess.run(["man", "--warnings", "-l", path], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        die(f"man --warnings -l {path} exited {p.returncode}: {p.stderr.strip()}")
    # Line numbers move when lines are added: compare the messages only.
    return [re.sub(r":\d+:", ":", l) for l in p.stderr.splitlines() if l.strip()]
