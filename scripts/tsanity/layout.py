"""Where everything lives: the only module that spells a path of $TS_WORK.
Everything built from one kernel is under $TS_WORK/linux-<X.Y>/; the build
lock is shared by all kernels, so that one kernel build runs at a time.
The user-space test suites (liburing's and libaio's own tests, built from
Debian's source packages) do not depend on the kernel: they live once,
under $TS_WORK/suites/, for every kernel; so do the sources that the
man-page patches are made against, under $TS_WORK/man/."""
import os
import string
from typing import Callable

from . import kernel as kernel_mod

# The user-space suites built from Debian's source packages
# (scripts/suites.sh; qemu-config/suites/<name>.tests chooses their tests).
SUITES = ("liburing", "libaio")
# Their ABIs: 64 (x86_64) and 32 (-m32, i386).
ABIS = ("64", "32")


# The projects whose man-page patches are made against their source
# package from sid, in the project's own layout (tsanity.mbox.man).
MAN_SOURCES = ("man-pages",)


def check_suite(name):
    if name not in SUITES:
        raise ValueError(f"unknown suite '{name}' (known: {' '.join(SUITES)})")
    return name


def check_man_source(name):
    if name not in MAN_SOURCES:
        raise ValueError(f"unknown man-page source '{name}' (known: {' '.join(MAN_SOURCES)})")
    return name


class Layout:
    def __init__(self, cfg, kernel):
        self.cfg = cfg
        self.kernel = kernel
        self.root = os.path.join(cfg.work, kernel.dirname)

    def _moved(self, name, default):
        return self.cfg.moved.get(name) or default

    # The trees.
    @property
    def src(self):
        """patched: the base commit with the series applied (git am)."""
        return self._moved("TS_SRC", os.path.join(self.root, "src"))

    @property
    def base_src(self):
        return self._moved("TS_BASE_SRC", os.path.join(self.root, "base-src"))

    @property
    def fixes_src(self):
        return self._moved("TS_FIXES_SRC", os.path.join(self.root, "fixes-src"))

    @property
    def stable_src(self):
        """stable: a worktree at the base commit with patches/stable/X.Y
        applied (make stable)."""
        return self._moved("TS_STABLE_SRC", os.path.join(self.root, "stable-src"))

    def tree(self, name):
        """The tree of the kernel NAME (base, fixes, patched, stable)."""
        kernel_mod.check_name(name)
        return {"base": self.base_src, "fixes": self.fixes_src, "patched": self.src,
                "stable": self.stable_src}[name]

    def worktree(self, purpose):
        """A worktree of the patched tree's repository for one job:
        bisect, warnings, mbox, other (another patch set)."""
        if purpose not in ("bisect", "warnings", "mbox", "other"):
            raise ValueError(f"no worktree for '{purpose}'")
        return os.path.join(self.root, f"{purpose}-src")

    def check_state(self, check):
        """What a check remembers between runs (check-lib.sh): the
        (configuration, tree) pairs that passed."""
        return os.path.join(self.root, f"check-{check}")

    @property
    def extract_tmp(self):
        """Where the tarball is extracted before it becomes the src tree."""
        return os.path.join(self.root, "src.tmp")

    @property
    def debian(self):
        """The kernel's Debian package when it is not installed: the .deb,
        its extracted files and the private apt state it came through."""
        return os.path.join(self.root, "debian")

    @property
    def kernel_record(self):
        """What the trees were extracted from: package, version, tarball."""
        return os.path.join(self.root, "kernel.json")

    # Build directories.
    @property
    def out(self):
        return self._moved("TS_OUT", os.path.join(self.root, "out"))

    @property
    def build_lock(self):
        return self._moved("TS_BUILD_LOCK", os.path.join(self.cfg.work, "build.lock"))

    @property
    def ccache(self):
        """ccache's directory, shared by every kernel's builds, as the
        build lock is: one cache for all trees (lib.sh, ccache_env)."""
        return self._moved("TS_CCACHE_DIR", os.path.join(self.cfg.work, "ccache"))

    def guest(self, name, variant=""):
        kernel_mod.check_name(name)
        if variant not in ("", "sanitized"):
            raise ValueError(f"unknown guest variant '{variant}'")
        return os.path.join(self.out, f"guest-{name}" + (f"-{variant}" if variant else ""))

    def initramfs(self, suite):
        return os.path.join(self.out, f"initramfs-{suite}")

    def kunit_build(self, variant):
        return os.path.join(self.out, f"kunit-{variant}")

    def check_build(self, variant):
        return os.path.join(self.out, f"check-{variant}")

    def htmldocs_build(self, name):
        kernel_mod.check_name(name)
        return os.path.join(self.out, f"htmldocs-{name}")

    # Results.
    @property
    def results(self):
        return self._moved("TS_RESULTS", os.path.join(self.root, "results"))

    def kunit_results(self, variant):
        return os.path.join(self.results, f"kunit-{variant}")

    def boot_results(self, suite, variant=""):
        """The directory of a suite's boots, one subdirectory per kernel
        (make random: the same under results/random)."""
        return os.path.join(self.results, suite + (f"-{variant}" if variant else ""))

    def named_results(self, job):
        """The results of a job that writes one directory: audit,
        audit-base, bench, htmldocs, mbox, mbox-stable, random, checks."""
        if job not in ("audit", "audit-base", "bench", "htmldocs", "mbox", "mbox-stable",
                       "random", "checks"):
            raise ValueError(f"no results directory for '{job}'")
        return os.path.join(self.results, job)

    def staging(self, job):
        """Where a job writes its results before they become
        named_results(JOB) at once, every check passed (make mbox)."""
        return self.named_results(job) + ".new"

    # The user-space suites: kernel-independent, shared by every kernel.
    @property
    def suites(self):
        """$TS_WORK/suites: everything of the user-space suites."""
        return os.path.join(self.cfg.work, "suites")

    @property
    def suites_apt(self):
        """The private apt state (deb-src lines) the suites' sources come
        through; one for all suites."""
        return os.path.join(self.suites, "apt")

    def suite_source(self, name):
        """The suite's source package: .dsc, tarballs and the tree that
        dpkg-source -x extracted (one per version, <package>-<version>)."""
        return os.path.join(self.suites, check_suite(name), "source")

    def suite_record(self, name):
        """What was fetched: package, version, suite, tree (JSON), beside the
        source."""
        return os.path.join(self.suites, check_suite(name), "source.json")

    def suite_build(self, name, abi):
        """The out-of-tree build of one ABI (64 or 32)."""
        if abi not in ABIS:
            raise ValueError(f"unknown ABI '{abi}' (known: {' '.join(ABIS)})")
        return os.path.join(self.suites, check_suite(name), f"build-{abi}")

    def suite_patched(self, name):
        """Copies of the source with patches/<name>/ applied (git am), one
        per state of the patches."""
        return os.path.join(self.suites, check_suite(name), "patched")

    def suite_stage(self, name):
        """The chosen programs, stripped, ready for an initramfs:
        <abi>/<program>, the list tests and manifest.json."""
        return os.path.join(self.suites, check_suite(name), "stage")

    # The man pages' sources: kernel-independent too.
    @property
    def man(self):
        """$TS_WORK/man: the sources the man-page patches are made against."""
        return os.path.join(self.cfg.work, "man")

    @property
    def man_apt(self):
        """The private apt state (deb-src and deb lines) they come through."""
        return os.path.join(self.man, "apt")

    def man_source(self, name):
        """The project's source package from sid, extracted by dpkg-source
        -x (or its binary packages, when the mirror serves not its
        files): the pages in the project's own layout (man/man2/...)."""
        return os.path.join(self.man, check_man_source(name), "source")

    def man_record(self, name):
        """What was fetched (JSON), beside the source."""
        return os.path.join(self.man, check_man_source(name), "source.json")


# The files of the results directories, by name: the only place that
# spells them.  A boot-results directory (Layout.boot_results(), the
# bench's, make random's) holds one directory per kernel with the files of
# one boot ({kernel}/...), and beside them the comparisons of two kernels.
# Every other results directory (Layout.named_results(), kunit_results())
# holds its job's files.  result_file() fills a name's fields.
RESULT_FILES = {
    # One boot of one kernel (`scripts/ts boot`, tsanity.boot).
    "serial": "{kernel}/serial.log",          # the guest's serial console
    "serial-round": "{kernel}/serial-{round}.log",  # make bench: one per round
    "verdict": "{kernel}/verdict.json",       # what tsanity.ktap read in it
    "commit": "{kernel}/commit",              # the commit the kernel was built from
    "random": "{kernel}/random",              # TS_SEED TS_RANDOM of timeout_classes
    "splats": "{kernel}/splats.json",         # a sanitized boot's kernel reports
    "splats-text": "{kernel}/splats.txt",     # the same, one line each
    # Two boots compared (scripts/report.py, scripts/forms.py).
    "report": "report-{old}-{new}.{ext}",     # md, json
    "forms": "forms-{old}-{new}.{ext}",       # md, json, svg
    # Two sanitized boots' kernel reports compared (scripts/splats.py).
    "sanitizer-reports": "sanitizer-reports-{old}-{new}.md",
    # The subsystems' suites judged (scripts/suites_report.py).
    "suites-report": "report.{ext}",          # md, json
    # make bench (scripts/bench.sh, scripts/bench-report.py).
    "bench": "bench.{ext}",                   # md, json
    "objdiff": "objdiff.md",
    "bloat-o-meter": "bloat-o-meter-{old}-{new}.txt",
    # KUnit (`scripts/ts kunit`, tsanity.kunit_run).
    "kunit-json": "results.json",
    "kunit-log": "kunit.log",
    # The audit (scripts/audit.sh, scripts/audit.py).
    "audit": "audit.md",
    "audit-forms": "forms.json",
    "audit-stdout": "stdout",
    # make htmldocs: a kernel's log and its warnings.
    "htmldocs-log": "{kernel}.log",
    "htmldocs-warnings": "{kernel}.warnings",
    # make mbox (tsanity.mbox).
    "mbox": "{index}-{name}.mbox",            # one destination's series
    "mbox-patches": "{index}-{name}.d",       # the same, a mail a file
    "mbox-patch": "{index}-{name}.d/{number:04d}.patch",
    "mbox-summary": "summary.md",
    "mbox-send-log": "send-email-dry-run.log",
    "stable-draft": "stable-{version}.y.draft.mbox",
    "stable-mbox": "stable-{version}.y.mbox",  # --stable-sendable, in mbox-stable
}

# The values a field may take, where they are few; an extension per file.
_EXTS = {"report": ("md", "json"), "forms": ("md", "json", "svg"),
         "suites-report": ("md", "json"), "bench": ("md", "json")}


def result_file(directory, what, **fields):
    """The file WHAT (RESULT_FILES) of the results DIRECTORY, its fields
    filled: result_file(d, "verdict", kernel="patched").  A missing,
    unknown or malformed field is refused, naming it."""
    try:
        template = RESULT_FILES[what]
    except KeyError:
        raise ValueError(f"no results file '{what}' (known: {' '.join(sorted(RESULT_FILES))})") \
            from None
    need = _fields(template)
    unused = set(fields) - need
    if unused:
        raise ValueError(f"results file '{what}' takes no {' '.join(sorted(unused))}")
    missing = need - set(fields)
    if missing:
        raise ValueError(f"results file '{what}' needs {' '.join(f'{m}=' for m in sorted(missing))}")
    for k, v in fields.items():
        if k == "number":
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ValueError(f"results file '{what}': number={v!r} is not a count")
            continue
        v = str(v)
        allowed = (_EXTS[what] if k == "ext" else
                   kernel_mod.NAMES if k in ("kernel", "old", "new") else None)
        if allowed is not None and v not in allowed:
            raise ValueError(f"results file '{what}': {k}={v} (known: {' '.join(allowed)})")
        if not v or "/" in v or v.startswith("."):
            raise ValueError(f"results file '{what}': {k}='{v}' is not a name")
    return os.path.join(directory, template.format(**fields))


def _fields(template):
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def run_dir(boot_dir, kernel):
    """The directory of one kernel's boot in a boot-results directory."""
    return os.path.dirname(result_file(boot_dir, "verdict", kernel=kernel))


def _result_path(layout, directory, what, *fields):
    """`ts path result DIR WHAT [FIELD=VALUE...]`."""
    kv = {}
    for f in fields:
        k, sep, v = f.partition("=")
        if not sep:
            raise ValueError(f"'{f}': a field is FIELD=VALUE")
        if k == "number":
            if not v.isdigit():
                raise ValueError(f"results file '{what}': number={v} is not a count")
            v = int(v)
        kv[k] = v
    return result_file(directory, what, **kv)


# The paths `ts path NAME [ARG...]` prints: name -> (function of the
# layout and the arguments, usage).
PATHS: dict[str, tuple[Callable[..., str], str]] = {
    "root": (lambda l: l.root, ""),
    "src": (lambda l: l.src, ""),
    "tree": (lambda l, k: l.tree(k), "KERNEL"),
    "worktree": (lambda l, p: l.worktree(p), "bisect|warnings|mbox|other"),
    "check-state": (lambda l, c: l.check_state(c), "CHECK"),
    "extract-tmp": (lambda l: l.extract_tmp, ""),
    "debian": (lambda l: l.debian, ""),
    "kernel-record": (lambda l: l.kernel_record, ""),
    "out": (lambda l: l.out, ""),
    "guest": (lambda l, k, v="": l.guest(k, v), "KERNEL [sanitized]"),
    "initramfs": (lambda l, s: l.initramfs(s), "SUITE"),
    "kunit-build": (lambda l, v: l.kunit_build(v), "VARIANT"),
    "check-build": (lambda l, v: l.check_build(v), "VARIANT"),
    "htmldocs-build": (lambda l, k: l.htmldocs_build(k), "KERNEL"),
    "results": (lambda l: l.results, ""),
    "kunit-results": (lambda l, v: l.kunit_results(v), "VARIANT"),
    "boot-results": (lambda l, s, v="": l.boot_results(s, v), "SUITE [sanitized]"),
    "named-results": (lambda l, j: l.named_results(j), "JOB"),
    "staging": (lambda l, j: l.staging(j), "JOB"),
    "suites": (lambda l: l.suites, ""),
    "suites-apt": (lambda l: l.suites_apt, ""),
    "suite-source": (lambda l, s: l.suite_source(s), "liburing|libaio"),
    "suite-record": (lambda l, s: l.suite_record(s), "liburing|libaio"),
    "suite-build": (lambda l, s, a: l.suite_build(s, a), "liburing|libaio 64|32"),
    "suite-patched": (lambda l, s: l.suite_patched(s), "liburing|libaio"),
    "suite-stage": (lambda l, s: l.suite_stage(s), "liburing|libaio"),
    "man": (lambda l: l.man, ""),
    "man-apt": (lambda l: l.man_apt, ""),
    "man-source": (lambda l, s: l.man_source(s), "man-pages"),
    "man-record": (lambda l, s: l.man_record(s), "man-pages"),
    "result": (_result_path, "DIR WHAT [FIELD=VALUE...] (RESULT_FILES)"),
    "run": (lambda l, d, k: run_dir(d, k), "BOOT_RESULTS_DIR KERNEL"),
}

# The paths inside a directory given (a results directory): the same for
# every kernel.
RELATIVE = ("result", "run")

# The paths that do not depend on the kernel (the user-space suites).
KERNEL_INDEPENDENT = ("suites", "suites-apt", "suite-source", "suite-record", "suite-build",
                      "suite-patched", "suite-stage", "man", "man-apt", "man-source",
                      "man-record")
