"""usage: scripts/mbox.py [--stable-sendable X.Y]

Write the submission, one mbox per destination tree, under
$TS_RESULTS/mbox, and prove that each one can be sent.  Nothing is sent.
Everything is written to $TS_RESULTS/mbox.new first and renamed to
$TS_RESULTS/mbox only when every check below passed.

The author of every patch and cover letter is TS_AUTHOR="Name <email>", or
else git config user.name and user.email; without one, or with the
project's own identity, it refuses to run.

Kernel mboxes: the series applied in $TS_SRC (scripts/ts tree) is rewritten
with that author (From: and Signed-off-by:) and cut by the parts of
patches/series.  Each patch of the fixes part goes to the tree that
scripts/get_maintainer.pl --scm names first for it; consecutive fixes for
one tree share an mbox.  The refactor part is one mbox, for the tree of its
first patch that has one.  Each patch carries its own To: (get_maintainer's
maintainers and reviewers) and Cc: (its lists, the Cc: trailers of the
patch, and linux-api@ for the fixes, which change what user space sees).

Man-page and test mboxes: patches/man-pages/, patches/liburing/ and
patches/libaio/ (libaio's new harness case, made against the libaio
source that scripts/suites.sh builds, to the AIO entry), made against
sid's source package manpages in upstream's layout (man/man2/; fetched
into $TS_WORK/man through a private apt state) and sid's liburing source
(the one scripts/suites.sh builds; its mbox holds the man-page patch and
the new tests), to the recipients that MAINTAINERS names (MAN-PAGES;
IO_URING, whose tree holds liburing).

Every mbox has its own cover letter (docs/mbox/<X.Y>/<part>-<tree>.in for
the kernel's, docs/mbox/<project>.in for the man pages', with the base, the
dependencies between the mboxes and the testing figures filled in from the
results of make test and make check).  A fix whose tree is not the first
that get_maintainer.pl names has a "# route:" line in the series file
(tsanity.series.routes()): its MAINTAINERS entry, tree and subject
prefix.  Then every mbox is checked:
  - the kernel mboxes, in order, with git am onto a fresh worktree of the
    base (the layout's mbox worktree), which must end at the tree of
    $TS_SRC; the man-page
    mboxes with git am onto those pages, rendered with man --warnings
    before and after (no new warning);
  - checkpatch.pl --strict on every kernel patch, with the waivers of
    patches/checkpatch.waivers;
  - git send-email --dry-run on every mbox.
$TS_RESULTS/mbox/summary.md lists the mboxes in their order, and the
recipients of every patch.

The stable backports (patches/stable/X.Y/) are written beside them as
drafts, stable-X.Y.y.draft.mbox, addressed to nobody: each still says
"[ Upstream commit TBD ]" (tsanity.mbox.stable).  --stable-sendable X.Y
writes stable-X.Y.y.mbox, addressed to stable@vger.kernel.org, into
$TS_RESULTS/mbox-stable instead, and refuses while any TBD is left.

The steps are the modules of scripts/tsanity/mbox/ (build.py runs them in
order); this file checks that the tree holds the series, reads the
figures, and publishes the mboxes once every check passed.
"""
import json
import os
import shutil
import sys
import tempfile

from tsanity import context as ts_context
from tsanity import kernel as ts_kernel
from tsanity.layout import result_file
from tsanity.mbox.build import Submission, build
from tsanity.mbox.figures import figures
from tsanity.mbox.patches import applied_series
from tsanity.mbox.people import author, fmt_addr
from tsanity.mbox import stable
from tsanity.mbox.tools import die, run

BASE_TEXT = ("Debian's linux-source-{version} {pkgver}, that is v{kver} plus Debian's "
             "patches")


def main():
    args = sys.argv[1:]
    if args and args[0] == "--stable-sendable" and len(args) == 2:
        return sendable(args[1])
    if args:
        die(__doc__.strip().splitlines()[0])
    who = author()
    # TS_KERNEL's X.Y; a bad TS_KERNEL ends the script here, named.
    V = ts_context.version_or_exit()
    cfg, kernel, layout = ts_context.context()
    if not kernel.has_series():
        die(f"Linux {kernel.version} has no series in the repository")
    series_dir = kernel.series_dir(cfg.repo)
    src, base_tag = layout.src, kernel.base_tag
    fixes, allp, commits = applied_series(src, base_tag, series_dir)
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
    out = layout.staging("mbox")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    tmp = tempfile.mkdtemp(prefix="ts-mbox.")
    try:
        mboxes = build(Submission(who=who, src=src, layout=layout, base_tag=base_tag,
                                  series_dir=series_dir, version=V, fixes=fixes, patches=allp,
                                  commits=commits, base_text=base_text, figs=figs, out=out,
                                  tmp=tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    drafts = [stable.draft(v, who, out, report=stable_report(v)) for v in stable.versions()]
    with open(result_file(out, "mbox-summary"), "a") as fh:
        fh.write("\n## Stable drafts\n\nNot addressed: each backport waits for its "
                 "mainline commit (`[ Upstream commit TBD ]`); `scripts/mbox.py "
                 "--stable-sendable X.Y` refuses until no TBD is left.\n\n"
                 "| draft | patches | TBD left |\n|---|---|---|\n")
        for path, n, left in drafts:
            fh.write(f"| {os.path.basename(path)} | {n} | {len(left)} |\n")
    shutil.rmtree(final, ignore_errors=True)
    os.rename(out, final)
    print(f"mbox: {len(mboxes)} mboxes by {fmt_addr(*who)}, checked:")
    for path in sorted(m.moved(final).path for m in mboxes):
        print(f"  {path}")
    for v, (_, n, left) in zip(stable.versions(), drafts):
        print(f"  {result_file(final, 'stable-draft', version=v)} (draft: {n} backports, "
              f"{len(left)} TBD left, not addressed)")
    print(result_file(final, "mbox-summary"))
    return 0


def stable_report(version):
    """make stable's report-base-stable.json of the stable kernel VERSION,
    parsed, with "package": the Debian version its trees were extracted
    from; or None where make stable has not run."""
    _, _, lay = ts_context.context(dict(os.environ, TS_KERNEL=version))
    path = result_file(lay.boot_results("mainline"), "report", old="base", new="stable",
                       ext="json")
    try:
        with open(path) as fh:
            report = json.load(fh)
        with open(lay.kernel_record) as fh:
            report["package"] = json.load(fh)["version"]
        return report
    except FileNotFoundError:
        return None


def sendable(version):
    """--stable-sendable X.Y: the stable mbox for stable@, or a refusal
    that names every TBD left."""
    if version not in stable.versions():
        die(f"no stable series patches/stable/{version}/series (have: "
            f"{', '.join(stable.versions())})")
    who = author()
    _, _, layout = ts_context.context()
    out = layout.named_results("mbox-stable")
    os.makedirs(out, exist_ok=True)
    print(stable.sendable(version, who, out, report=stable_report(version)))
    return 0
