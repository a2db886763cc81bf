"""The stable backports (patches/stable/X.Y/) as mboxes.

make mbox writes each stable series as a draft, stable-X.Y.y.draft.mbox:
its patches in series order, with the author's From: and Signed-off-by:
in place of the project's, fixed Message-IDs (msgid.message_id(<patch>,
"X.Y.y")) threaded to the first patch, and addressed to nobody.  A
backport cannot go to stable@ before its mainline patch is a commit: the
"[ Upstream commit TBD ]" line (stable-kernel-rules.rst, option 3) is
where that sha1 goes.

sendable() makes the mail for stable@vger.kernel.org, and refuses while
any patch of the series still holds a TBD, naming each (patch, line).
"""
import os

from .. import stable as ts_stable
from ..config import REPO
from ..layout import result_file
from .msgid import message_id, set_ids
from .people import PROJECT_EMAIL, PROJECT_NAME, add_headers, body_people, cc_trailers, \
    dedup, fmt_addr, project_sob
from .tools import die

STABLE_LIST = "stable@vger.kernel.org"
PROJECT_FROM = f"From: {PROJECT_NAME} <{PROJECT_EMAIL}>"
versions, patch_names, stable_dir, tbds = (ts_stable.versions, ts_stable.patch_names,
                                           ts_stable.stable_dir, ts_stable.tbds)


def with_author(text, who, where):
    """TEXT (one format-patch mail) with WHO, (name, email), as its From:
    and its last Signed-off-by: in place of the project's identity; dies,
    naming WHERE, if the mail does not carry that identity."""
    head, sep, body = text.partition("\n\n")
    if PROJECT_FROM not in head.split("\n"):
        die(f"{where}: no '{PROJECT_FROM}' header to replace with the author")
    if project_sob() not in body.split("\n"):
        die(f"{where}: no '{project_sob()}' to replace with the author's")
    head = head.replace(PROJECT_FROM, "From: " + fmt_addr(*who))
    body = body.replace(project_sob(), "Signed-off-by: " + fmt_addr(*who))
    return head + sep + body


def mails(version, who, repo=REPO):
    """The mails of the stable series for VERSION by WHO, threaded to the
    first: [(patch name, text)]."""
    names = patch_names(version, repo)
    stable = f"{version}.y"
    out, first = [], None
    for name in names:
        path = os.path.join(stable_dir(version, repo), name)
        with open(path) as f:
            text = with_author(f.read(), who, path)
        own = message_id(name, stable)
        out.append((name, set_ids(text, own, first)))
        first = first or own
    return out


def draft(version, who, out_dir, repo=REPO):
    """Write stable-VERSION.y.draft.mbox, addressed to nobody, to OUT_DIR:
    (path, the number of patches, the TBDs left)."""
    path = result_file(out_dir, "stable-draft", version=version)
    with open(path, "w") as f:
        f.write("".join(text for _, text in mails(version, who, repo)))
    return path, len(patch_names(version, repo)), tbds(version, repo)


def sendable(version, who, out_dir, repo=REPO):
    """Write stable-VERSION.y.mbox, each mail to stable@ and Cc: its Cc:
    trailers and *-by: people, to OUT_DIR and return its path; dies while
    a TBD is left, or if the series is empty."""
    left = tbds(version, repo)
    if left:
        die(f"patches/stable/{version}: {len(left)} TBD left, no sendable stable mbox "
            "until each upstream commit exists (stable-kernel-rules.rst): " +
            "; ".join(f"{p}:{n}: {line.strip()}" for p, n, line in left))
    ms = mails(version, who, repo)
    if not ms:
        die(f"patches/stable/{version}/series is empty: nothing to send")
    sender = fmt_addr(*who)
    texts = []
    for _, text in ms:
        cc = dedup(cc_trailers(text) + body_people(text), drop=[sender, STABLE_LIST])
        texts.append(add_headers(text, [STABLE_LIST], cc))
    path = result_file(out_dir, "stable-mbox", version=version)
    with open(path, "w") as f:
        f.write("".join(texts))
    return path
