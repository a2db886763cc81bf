"""The submission, step by step: the series rewritten with the author and
cut into groups by destination tree, one mbox per group and per man-page
project, the checks of every mbox, and summary.md."""
import dataclasses
import os
from typing import Any

from .. import series as ts_series
from ..config import REPO
from ..layout import result_file
from . import checks, cover, man
from .figures import load_waivers, waiver_text
from .files import Mbox
from .msgid import message_id, set_ids
from .patches import fold_upstream, format_group, rewrite_series
from .people import (add_headers, body_people, cc_trailers, dedup, fmt_addr,
                     get_maintainer, maintainers_entry, route_tree, slug, tree_of)
from .tools import die, run


@dataclasses.dataclass(frozen=True)
class Submission:
    """What the mboxes are made of, and where they go."""
    who: tuple        # the author, (name, email)
    src: str          # the tree with the series applied
    layout: object    # the run's tsanity.layout.Layout
    base_tag: str     # the tag of the base release in src
    series_dir: str   # the kernel's series (series, checkpatch.waivers)
    version: str      # the kernel's X.Y, for the texts
    fixes: list       # the patches of the fixes part
    patches: list     # every patch of the series, in order
    commits: list     # their commits in src
    base_text: str    # the base, as the cover letters name it
    figs: dict        # the testing figures (figures.figures())
    out: str          # the directory the mboxes and summary.md go to
    tmp: str          # a scratch directory

    @property
    def sender(self):
        return fmt_addr(*self.who)


def build(s):
    """Write the mboxes of submission S, and summary.md, to S.out; each is
    checked, and a failed check dies.  The mboxes, in order
    ([files.Mbox])."""
    base = run(["git", "rev-parse", s.base_tag], cwd=s.src).stdout.strip()
    upstream = ts_series.upstream(os.path.join(s.series_dir, "series"))
    base, commits, names, trees = fold_upstream(s.src, base, s.commits, s.patches, upstream,
                                                s.tmp)
    s = dataclasses.replace(s, commits=commits, patches=names,
                            fixes=[p for p in s.fixes if p not in upstream])
    new = rewrite_series(s.src, base, s.commits, s.who, {}, dict(zip(commits, trees)))
    _, api_lists = maintainers_entry(s.src, "ABI/API")
    groups = tree_groups(s, base, new)
    kernel = [Mbox(s.out, n + 1, f"{g[0]}-{slug(g[1])}") for n, g in enumerate(groups)]
    mans = [Mbox(s.out, len(groups) + n + 1, proj) for n, proj in enumerate(man.MAN_PROJECTS)]
    values = cover.placeholders(s.base_text, s.version, s.figs, [m.file for m in kernel + mans],
                                [subject for subject, _ in upstream.values()])

    rows, recipients, kernel_mboxes, man_mboxes = [], [], [], []
    waivers = load_waivers(s.series_dir)
    for mbox, group in zip(kernel, groups):
        written, row, rcpt = write_kernel_mbox(s, base, new, mbox, group, values, waivers,
                                               api_lists)
        kernel_mboxes.append(written)
        rows.append(row)
        recipients += rcpt
    for mbox, proj in zip(mans, man.MAN_PROJECTS):
        written, row, rcpt = man.write_mbox(s.src, s.layout, proj, mbox, s.sender, values,
                                            api_lists)
        man_mboxes.append(written)
        rows.append(row)
        recipients += rcpt

    below = [os.path.join(s.series_dir, p) for p in upstream]
    mails = check(s, below, kernel_mboxes, man_mboxes, kernel + mans, new[-1])
    write_summary(s, rows, recipients, len(kernel_mboxes), mails)
    return kernel + mans


def tree_groups(s, base, new):
    """The groups of the series, [part, tree, [patch indexes], prefix,
    [people the tree adds to To:]]: each fix goes to the tree its route in
    the series file names (tsanity.series.routes()), else to the tree
    get_maintainer.pl names first for it, consecutive fixes for one tree
    together; the refactor goes whole to the tree of its first patch that
    has one."""
    routes = ts_series.routes(os.path.join(s.series_dir, "series"))
    stray = sorted(set(routes) - set(s.fixes))
    if stray:
        die(f"the series routes {', '.join(stray)}, which is not a fix: only the fixes "
            "go to their own trees")
    probe = format_group(s.src, base, new[-1], "PATCH", s.who, s.tmp)[1:]
    # [part, tree, [index of a patch], subject prefix, [taker]] each
    groups: list[list[Any]] = []
    for i, p in enumerate(s.fixes):
        if p in routes:
            entry, word, prefix, _ = routes[p]
            t, takers = route_tree(s.src, entry, word)
        else:
            t, prefix, takers = tree_of(s.src, probe[i]), "PATCH", []
        if t is None:
            die(f"get_maintainer.pl names no tree for fix {p}")
        if groups and groups[-1][1] == t and groups[-1][3] == prefix:
            groups[-1][2].append(i)
        else:
            groups.append(["fixes", t, [i], prefix, takers])
    rt = next((t for t in (tree_of(s.src, probe[i])
                           for i in range(len(s.fixes), len(s.patches))) if t), None)
    if rt is None:
        die("get_maintainer.pl names no tree for any patch of the refactor")
    groups.append(["refactor", rt, list(range(len(s.fixes), len(s.patches))), "RFC PATCH",
                   []])
    return groups


def write_kernel_mbox(s, base, new, mbox, group, values, waivers, api_lists):
    """The mbox MBOX (files.Mbox) of GROUP (tree_groups()'s), the patches
    IDX of part PART for TREE, with its cover letter (docs/mbox/<X.Y>/)
    filled in: (path, its patches), its row of the summary, and the
    recipients of each patch, (its name, patch, To, Cc)."""
    name = mbox.stem
    part, tree, idx, prefix, takers = group
    first_parent = new[idx[0] - 1] if idx[0] > 0 else base
    files = format_group(s.src, first_parent, new[idx[-1]], prefix, s.who, s.tmp)
    cover_file, patches = files[0], files[1:]
    # Fixed Message-IDs (msgid.py): the mails thread to their cover letter.
    cover_id = message_id(f"cover-{name}", s.version)
    for path, own, parent in [(cover_file, cover_id, None)] + \
            [(pf, message_id(s.patches[i], s.version), cover_id) for i, pf in zip(idx, patches)]:
        with open(path) as fh:
            text = fh.read()
        with open(path, "w") as fh:
            fh.write(set_ids(text, own, parent))
    tmpl = os.path.join(REPO, "docs", "mbox", s.version, f"{part}-{slug(tree)}.in")
    gvalues = dict(values)
    gvalues["@TESTING@"] = values["@TESTING@"] + "\n" + waiver_text(
        [s.patches[i] for i in idx], waivers)
    subject, body = cover.fill(tmpl, gvalues)
    texts, recipients = addressed(s, name, part, [s.patches[i] for i in idx], patches,
                                  api_lists, takers)
    with open(cover_file) as fh:
        ctext = fh.read()
    ctext = ctext.replace("*** SUBJECT HERE ***", subject).replace("*** BLURB HERE ***",
                                                                     body.strip())
    to = dedup([a for r in recipients for a in r[2]], drop=[s.sender])
    ctext = add_headers(ctext, to, dedup([a for r in recipients for a in r[3]],
                                         drop=[s.sender] + to))
    with open(mbox.path, "w") as fh:
        fh.write(ctext + "".join(texts))
    return (mbox.path, [s.patches[i] for i in idx]), \
        f"| {mbox.file} | {tree} | {len(idx)} ({prefix}) |", recipients


def addressed(s, name, part, pnames, patches, api_lists, takers):
    """The PATCHES (format-patch files) of the mbox NAME, whose series
    names are PNAMES, with their To: and Cc:, and their recipients, (NAME,
    patch, To, Cc).  To: the maintainers and reviewers, then TAKERS (the
    maintainers of a routed tree); Cc: the lists, the Cc: trailers, the
    author of a resent patch and its *-by: people, and for the fixes those
    of ABI/API (API_LISTS)."""
    people = {pf: dedup(get_maintainer(s.src, pf, "people"), drop=[s.sender])
              for pf in patches}
    # A patch whose files have no maintainer (time64.h, ipc/, signal)
    # goes to the maintainers of the mbox's tree: those of its first
    # patch that has any.
    fallback: list[str] = next((people[pf] for pf in patches if people[pf]), [])
    texts, recipients = [], []
    for pname, pf in zip(pnames, patches):
        with open(pf) as fh:
            text = fh.read()
        to = dedup((people[pf] or fallback) + takers, drop=[s.sender])
        if not to:
            die(f"get_maintainer.pl names nobody for {pname} nor for its mbox {name}")
        # The author and the *-by: people too, as git send-email adds them.
        cc = get_maintainer(s.src, pf, "lists") + cc_trailers(text) + body_people(text)
        if part == "fixes":
            cc += api_lists
        cc = dedup(cc, drop=[s.sender] + to)
        texts.append(add_headers(text, to, cc))
        recipients.append((name, pname, to, cc))
    return texts, recipients


def check(s, below, kernel_mboxes, man_mboxes, mboxes, last):
    """Every check of the mboxes (tsanity.mbox.checks, and the man pages'),
    in order; BELOW: the series' patches that stand for mainline commits,
    applied before the mboxes; MBOXES: all of them, in order (files.Mbox).
    The number of mails git send-email accepted."""
    checks.check_am(s.src, s.layout, s.base_tag, below, kernel_mboxes, last, s.tmp)
    for path, proj, pages in man_mboxes:
        man.check_man(path, s.layout, proj, pages, s.tmp)
    checks.check_checkpatch(kernel_mboxes, s.series_dir, s.tmp)
    checks.check_no_stand_in([m.path for m in mboxes], s.who[0])
    mails = 0
    for mbox in mboxes:
        mails += checks.check_send_email(mbox, s.sender)
    return mails


def write_summary(s, rows, recipients, n_kernel, mails):
    """summary.md: the mboxes in order (ROWS), the RECIPIENTS of every
    patch, the checks passed and how to send."""
    summary = ["# The submission", "",
               f"Author: {s.sender}. Base: {s.base_text}.", "",
               "| mbox | tree | patches |", "|---|---|---|"] + rows
    summary += ["", "## Recipients per patch", "", "| mbox | patch | To | Cc |", "|---|---|---|---|"]
    for m, p, to, cc in recipients:
        summary.append(f"| {m} | {p} | {len(to)}: {', '.join(to)} | {len(cc)}: {', '.join(cc)} |")
    summary += ["", "## Checks", "",
                f"- git am: the {n_kernel} kernel mboxes in order onto a fresh "
                f"{s.base_tag} end at the tree of the series; the man-page mboxes apply onto "
                "the pages they are made against (man-pages: sid's source package manpages, "
                "man/man2/; liburing: sid's liburing source; libaio: the libaio source that "
                "scripts/suites.sh builds) and render with no new "
                "`man --warnings` warning.",
                "- checkpatch.pl --strict: every kernel patch clean, but for the waivers "
                f"of {os.path.relpath(s.series_dir, REPO)}/checkpatch.waivers.",
                f"- git send-email --dry-run: {mails} mails, each accepted and addressed to "
                "exactly its To: and Cc: (send-email-dry-run.log).", "",
                "## Sending", "",
                "Each mbox is also split into one file per mail in `<mbox>.d/`. Send the "
                "directories, in the order above, each with:", "",
                "    " + " ".join(checks.SEND) + " results/mbox/<mbox>.d", "",
                "git send-email sends a file as one mail, so not the .mbox itself; "
                "`--suppress-cc=bodycc` because the headers already carry every recipient "
                "and the stable noautosel Cc: is a tag, not one. Sending over SMTP with TLS "
                "needs Debian's libio-socket-ssl-perl and libauthen-sasl-perl, which "
                "scripts/deps.sh does not install."]
    with open(result_file(s.out, "mbox-summary"), "w") as fh:
        fh.write("\n".join(summary) + "\n")
