"""The checks of the mboxes, each fatal: the kernel mboxes apply in
order onto a fresh worktree and give the series' tree, every kernel patch
as mailed passes checkpatch --strict, and git send-email --dry-run
accepts every mail, to exactly its recipients."""
import email.utils
import os
import re
import shutil
import tempfile
from typing import cast

from .. import waivers as ts_waivers
from ..config import REPO
from ..layout import result_file
from .tools import die, log, run


# The two jobs below are lib.sh's functions, run through bash: series_tree
# (the project's one git am) and worktree.  No script runs either alone
# (scripts/ts tree does the whole make tree), so they are sourced; every
# path they are given comes from the layout, none is asked of the shell.


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


def check_am(src, layout, base_tag, below, mboxes, last, tmp):
    """git am of the patches BELOW (those that stand for mainline commits,
    never mailed), then of the kernel MBOXES in order, onto BASE_TAG in
    the layout's mbox worktree: dies unless it ends at the tree of LAST in
    SRC."""
    wt = layout.worktree("mbox")
    run(["bash", "-c", '. scripts/lib.sh && { [ -e "$1/.git" ] || worktree "$1" "$TS_BASE_TAG"; }',
         "check_am", wt], cwd=REPO)
    apply_series(list(below) + [path for path, _ in mboxes], wt, base_tag, tmp)
    want = run(["git", "rev-parse", f"{last}^{{tree}}"], cwd=src).stdout.strip()
    got = run(["git", "rev-parse", "HEAD^{tree}"], cwd=wt).stdout.strip()
    if want != got:
        die(f"the mboxes applied in order do not give the tree of the series ({got} != {want})")
    log(f"git am: {len(mboxes)} kernel mboxes apply in order onto {base_tag}"
        + (f" with {', '.join(os.path.basename(b) for b in below)} below them" if below else ""))


def check_checkpatch(mboxes, series_dir, tmp):
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
    shutil.copy(ts_waivers.path(series_dir), ts_waivers.path(d))
    p = run([os.path.join(REPO, "scripts", "check-patches.sh"), d], cwd=REPO, check=False)
    if p.returncode != 0:
        die(f"checkpatch.pl --strict on the mboxes' patches:\n{p.stdout}{p.stderr}")
    log(f"checkpatch --strict: {len(names_all)} kernel patches as mailed clean "
        f"(waivers: {os.path.relpath(series_dir, REPO)}/checkpatch.waivers)")


# What a mail of the submission must never say: a patch that only stands
# for a mainline commit is applied below the mails, never sent in them.
STAND_IN = re.compile(r"not for merging|\bstand(?:s|ing)?[- ]in\b", re.I)


def check_no_stand_in(mboxes, sender_name=""):
    """Dies naming the mbox and line of a mail that says it is not for
    merging or a stand-in (addresses and the sender's name aside: CI's
    author is "CI Stand-in", which the shortlogs name too)."""
    for path in mboxes:
        with open(path) as fh:
            for n, line in enumerate(fh, 1):
                text = line.replace(sender_name, "") if sender_name else line
                if "@" not in text and STAND_IN.search(text):
                    die(f"{path}:{n}: a mail says it is a stand-in or not for merging: "
                        f"{line.strip()}")
    log(f"no stand-in: {len(mboxes)} mboxes carry no patch that is not for merging")


# git send-email as the checks run it and as the summary says to send.
SEND = ["git", "send-email", "--confirm=never", "--suppress-cc=bodycc", "--suppress-cc=self",
        "--8bit-encoding=UTF-8"]


def check_send_email(mbox, sender):
    """Split the mbox MBOX (files.Mbox) into one file per mail under
    <mbox>.d/ (git send-email sends a file as one mail), dry-run the send,
    and require every mail accepted, to exactly the To: and Cc: its headers
    name."""
    path, d = mbox.path, mbox.mails
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    n = int(run(["git", "mailsplit", "-o" + d, path]).stdout.strip())
    me = email.utils.parseaddr(sender)[1].lower()
    want = []
    for k in range(1, n + 1):
        # git mailsplit names the mails 0001, 0002, ...: each becomes the
        # layout's file.
        os.rename(os.path.join(d, "%04d" % k), mbox.mail(k))
        with open(mbox.mail(k)) as fh:
            msg = email.message_from_file(fh)
        heads = cast(list[str], msg.get_all("To", []) + msg.get_all("Cc", []))
        rcpt = email.utils.getaddresses(heads)
        want.append({a.lower() for _, a in rcpt if a and a.lower() != me})
    p = run(SEND + ["--dry-run", f"--from={sender}", d], cwd=REPO, check=False)
    with open(result_file(mbox.out, "mbox-send-log"), "a") as fh:
        fh.write(f"### {os.path.basename(d)}\n{p.stdout}{p.stderr}\n")
    got: list[set[str]] = []
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
