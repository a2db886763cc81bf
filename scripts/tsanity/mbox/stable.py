"""The stable backports (patches/stable/X.Y/) as mboxes.

make mbox writes each stable series as a draft, stable-X.Y.y.draft.mbox:
a cover letter (docs/mbox/stable.in: the backports, what make stable
showed of them, and 6.6.y, which is affected and not tested here), then
its patches in series order, with the author's From: and Signed-off-by:
in place of the project's, fixed Message-IDs (msgid.message_id(<patch>,
"X.Y.y")) threaded to the cover letter, and addressed to nobody.  A
backport cannot go to stable@ before its mainline patch is a commit: the
"[ Upstream commit TBD ]" line (stable-kernel-rules.rst, option 3) is
where that sha1 goes.

sendable() makes the mail for stable@vger.kernel.org, and refuses while
any patch of the series still holds a TBD, naming each (patch, line).
"""
import os
import re

from .. import expected
from .. import stable as ts_stable
from ..config import REPO
from ..layout import result_file
from .cover import fill
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


COVER = os.path.join(REPO, "docs", "mbox", "stable.in")
# The tests of make stable that prove the backports (qemu-config/stable).
PROOF = re.compile(r"^liburing/")


def tested(version, report, repo=REPO):
    """The cover letter's paragraph on what make stable showed: REPORT is
    its report-base-stable.json for VERSION (None: not run here).  The
    backports that no test tells from the base are named."""
    if not report:
        return ("Not tested here yet: make stable boots Debian's linux-source-"
                f"{version} with and without these backports under QEMU and requires "
                "liburing's tests of the fixes to fail on the base and pass with them.")
    base, new = report["kernels"]["base"], report["kernels"]["stable"]
    listed = expected.for_stable(version, repo)[0]
    # The tests that fail on the base alone: those of the backported fixes.
    proof = sorted(set(t for t in base.get("expected_failures", []) if PROOF.match(t))
                   - set(new.get("expected_failures", [])))
    if report["verdict"] != "PASS":
        return (f"Not tested here: the last make stable on {version} did not pass "
                f"({len(report['problems'])} problems).")
    if not proof:
        return (f"Not shown here: make stable on {version} passed, but no test of the "
                "fixes failed on its base and passed with these backports.")
    shown = {listed[t].patch for t in proof if t in listed}
    names = patch_names(version, repo)
    ported = ts_stable.backported(version, repo)
    unshown = [str(i) for i, n in enumerate(names, 1) if ts_stable.number(ported[n]) not in shown]
    package = f" {report['package']}" if report.get("package") else ""
    return (f"Tested under QEMU (x86_64, 64-bit and -m32 user space) on Debian's "
            f"linux-source-{version}{package}: liburing's tests of the fixes "
            f"({', '.join(t.split('/', 1)[1] for t in proof)}) fail on the base and pass "
            f"with these backports, and the {new['contract_cases']:,} timeout inputs of "
            "the mainline selftests (built with the mainline uapi headers) are answered "
            "as on the base."
            + (f" No test here tells patch{'es' if len(unshown) > 1 else ''} "
               f"{' and '.join(unshown)} from the base." if unshown else ""))


def cover(version, who, names, report, repo=REPO):
    """The cover letter of the stable series for VERSION: a format-patch
    mail with the subject and body of docs/mbox/stable.in."""
    items = []
    for name in names:
        path = os.path.join(stable_dir(version, repo), name)
        only = name in ts_stable.partial(version, repo)
        items.append(f"- {ts_stable.subject(path)}" + (" (only its saturation)" if only
                                                        else ""))
    subject, body = fill(COVER, {"@VERSION@": version, "@BACKPORTS@": "\n".join(items),
                                 "@TESTED@": tested(version, report, repo)})
    return (f"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
            f"From: {fmt_addr(*who)}\n"
            f"Subject: [PATCH {version}.y 0/{len(names)}] {subject}\n\n{body}\n-- \n")


def mails(version, who, repo=REPO, report=None):
    """The mails of the stable series for VERSION by WHO, the cover letter
    first and every patch threaded to it: [(name, text)]."""
    names = patch_names(version, repo)
    stable = f"{version}.y"
    first = message_id("cover-stable", stable)
    out = [("cover", set_ids(cover(version, who, names, report, repo), first))]
    for name in names:
        path = os.path.join(stable_dir(version, repo), name)
        with open(path) as f:
            text = with_author(f.read(), who, path)
        out.append((name, set_ids(text, message_id(name, stable), first)))
    return out


def draft(version, who, out_dir, repo=REPO, report=None):
    """Write stable-VERSION.y.draft.mbox, addressed to nobody, to OUT_DIR:
    (path, the number of patches, the TBDs left).  REPORT: make stable's
    report-base-stable.json for VERSION, or None."""
    path = result_file(out_dir, "stable-draft", version=version)
    with open(path, "w") as f:
        f.write("".join(text for _, text in mails(version, who, repo, report)))
    return path, len(patch_names(version, repo)), tbds(version, repo)


def sendable(version, who, out_dir, repo=REPO, report=None):
    """Write stable-VERSION.y.mbox, each mail to stable@ and Cc: its Cc:
    trailers and *-by: people, to OUT_DIR and return its path; dies while
    a TBD is left, or if the series is empty."""
    left = tbds(version, repo)
    if left:
        die(f"patches/stable/{version}: {len(left)} TBD left, no sendable stable mbox "
            "until each upstream commit exists (stable-kernel-rules.rst): " +
            "; ".join(f"{p}:{n}: {line.strip()}" for p, n, line in left))
    if not patch_names(version, repo):
        die(f"patches/stable/{version}/series is empty: nothing to send")
    ms = mails(version, who, repo, report)
    sender = fmt_addr(*who)
    texts = []
    for _, text in ms:
        cc = dedup(cc_trailers(text) + body_people(text), drop=[sender, STABLE_LIST])
        texts.append(add_headers(text, [STABLE_LIST], cc))
    path = result_file(out_dir, "stable-mbox", version=version)
    with open(path, "w") as f:
        f.write("".join(texts))
    return path
