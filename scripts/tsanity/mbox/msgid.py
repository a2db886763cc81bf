"""The Message-IDs of the mails, fixed before anything is sent.

Each id is made from what the repository holds (the patch's file name in
its series, the kernel the series is for, the posting's revision), not
from the time or the commit as git format-patch makes it, so that two
runs of make mbox write the same mails (set_ids threads each to its
cover letter).  Nothing cites these ids: a stable backport names its
mainline patch by subject until the commit exists (tsanity.stable), and
a Link: names only a real posting.

Resending the series (v2) means bumping REVISION: every id changes.
"""
import os
import re

from .people import PROJECT_EMAIL

# The posting: 1 for the first, 2 for a v2, ...
REVISION = 1
# The right-hand side of every id.  Ids only need to be unique; this is the
# project's own domain, not the sender's, so that the ids do not depend on
# who sends them.
DOMAIN = "timespec-sanity." + PROJECT_EMAIL.split("@", 1)[1]


def message_id(patch, kernel, revision=REVISION):
    """<...> of the mail of PATCH (a series file name such as
    0001-io_uring-timeout-....patch, or cover-<mbox name> for a cover
    letter) of the series for Linux KERNEL (X.Y, or X.Y.y for a stable
    backport)."""
    stem = os.path.basename(patch)
    if stem.endswith(".patch"):
        stem = stem[:-len(".patch")]
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.+-]*", stem):
        raise ValueError(f"{patch}: not a patch or cover name a Message-ID can hold")
    if not re.fullmatch(r"\d+\.\d+(\.y)?", kernel):
        raise ValueError(f"{kernel}: not a kernel X.Y or X.Y.y")
    return f"<{stem}.v{revision}.linux-{kernel}@{DOMAIN}>"


def set_ids(text, own, parent=None):
    """TEXT (one git format-patch mail) with its Message-ID replaced by OWN,
    and its In-Reply-To and References by PARENT (the cover letter of a
    --thread=shallow series), or left out without one."""
    head, sep, body = text.partition("\n\n")
    lines = [ln for ln in head.split("\n")
             if not re.match(r"(?i)(message-id|in-reply-to|references):", ln)]
    lines.append(f"Message-ID: {own}")
    if parent:
        lines += [f"In-Reply-To: {parent}", f"References: {parent}"]
    return "\n".join(lines) + sep + body
