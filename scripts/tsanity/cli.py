"""The command line of the tooling (scripts/ts): what the Makefile and the
shell scripts ask of the configuration, the kernel and the layout."""
import os
import sys

from . import config as config_mod
from .context import context, series_dir, version_or_exit  # noqa: F401  (ts's callers' names)
from . import kernel as kernel_mod
from . import kernels as kernels_mod
from . import layout as layout_mod
from . import series as series_mod

# A command's modules load for that command only: `ts path`, which the
# shell asks most, imports what the layout needs and no more.


def shell_env(cfg, kernel, layout):
    """Every TS_* variable, as shell assignments (lib.sh evaluates them)."""
    import shlex
    values = cfg.all()
    # TS_TARBALL stays as given (empty: the package's; kernel.source()).
    values["TS_SERIES"] = kernel.series_dir(cfg.repo) if kernel.has_series() else ""
    values["TS_PATCHES"] = shell_patches(cfg, kernel)
    values.update({
        "TS_SRC": layout.src,
        "TS_BASE_SRC": layout.base_src,
        "TS_FIXES_SRC": layout.fixes_src,
        "TS_STABLE_SRC": layout.stable_src,
        "TS_STABLE_SERIES": kernel.stable_dir(cfg.repo),
        "TS_MAINLINE": kernel_mod.MAINLINE,
        "TS_OUT": layout.out,
        "TS_RESULTS": layout.results,
        "TS_BUILD_LOCK": layout.build_lock,
        "TS_CCACHE_DIR": layout.ccache,
        "TS_BASE_TAG": kernel.base_tag,
        "TS_KERNEL_PACKAGE": kernel.package,
        "TS_KERNELS": " ".join(kernel_mod.NAMES),
    })
    return "".join(f"{k}={shlex.quote(v)}\n" for k, v in values.items())


def newapi_tree(arg, environ=None):
    """The tree a `ts newapi` argument names: a directory as it is, a
    kernel X.Y its base tree (what the layout says; a moved TS_BASE_SRC
    is TS_KERNEL's, not another kernel's)."""
    if os.path.isdir(arg) or os.sep in arg:
        return arg
    env = dict(os.environ if environ is None else environ)
    if config_mod.from_environ(env)["TS_KERNEL"] != arg:
        env.pop("TS_BASE_SRC", None)
    env["TS_KERNEL"] = arg
    return context(env)[2].base_src


def newapi(a, kernel):
    """ts newapi: list what NEW adds, check its classification, or put
    the classification's table into a page.  0 done; 1 problems, named.
    Without OLD and NEW: TS_KERNEL's row says them."""
    from . import newapi as newapi_mod
    if a.old is None and a.new is None:
        a.old, a.new = kernels_mod.row(kernel.version).newapi_base, kernel.version
        if not a.old:
            raise newapi_mod.NewApiError(f"Linux {kernel.version} has no newapi_base in its "
                                         "row (tsanity.kernels): name OLD and NEW")
    elif a.new is None:
        raise newapi_mod.NewApiError("name both OLD and NEW, or neither")
    if a.file:
        path = a.file
    elif kernel_mod.SERIES.get(a.new):
        path = os.path.join(config_mod.REPO, kernel_mod.SERIES[a.new], "new-interfaces")
    elif a.doc or a.check_doc or a.check:
        raise newapi_mod.NewApiError(f"no series for {a.new}: name the classification (--file)")
    if a.doc or a.check_doc or a.check:
        series = (os.path.join(config_mod.REPO, kernel_mod.SERIES[a.new])
                  if a.new in kernel_mod.SERIES else os.path.dirname(path))
        compare, entries = newapi_mod.load(path, series)
        trees = [x for x in (a.old, a.new) if os.path.isdir(x) or os.sep in x]
        if compare != (a.old, a.new) and not trees:
            raise newapi_mod.NewApiError(f"{path} compares {' and '.join(compare)}, "
                                         f"not {a.old} and {a.new}")
        section = newapi_mod.render(compare, entries, os.path.relpath(path, config_mod.REPO))
    if a.doc:
        newapi_mod.write_doc(a.doc, section)
        return 0
    if a.check_doc:
        problem = newapi_mod.check_doc(a.check_doc, section)
        if problem:
            print(f"error: {problem}", file=sys.stderr)
        return 1 if problem else 0
    items = newapi_mod.added(newapi_tree(a.old), newapi_tree(a.new))
    if not a.check:
        for (kind, name), where in items.items():
            print(f"{kind}\t{name}\t{where}")
        return 0
    problems = newapi_mod.check(items, entries, path, a.old, a.new)
    for p in problems:
        print(f"error: {p}", file=sys.stderr)
    if not problems:
        print(f"newapi: {len(items)} additions of {a.new} over {a.old}, each classified ({path})")
    return 1 if problems else 0


def trees_command(a, cfg, kernel, layout):
    """The git work lib.sh's functions ask for (tsanity.trees), and the
    kernel's source package (make deps)."""
    from . import tree_stage, trees
    try:
        if a.cmd == "kernel-package":
            tree_stage.kernel_package(cfg, kernel, layout)
        elif a.cmd == "series-tree":
            trees.series_tree(a.patches, a.tree, a.base or kernel.base_tag)
        elif a.cmd == "series-commits":
            # The patched tree holds the kernel's own series; any other,
            # the patch set the checks check (TS_PATCHES).
            patches = (kernel.series_dir(cfg.repo)
                       if os.path.realpath(a.tree) == os.path.realpath(layout.src)
                       else shell_patches(cfg, kernel))
            for c in trees.series_commits(a.tree, patches, kernel.base_tag, a.part):
                print(c)
        elif a.cmd == "series-stamp":
            print(trees.series_stamp(a.dir))
        else:
            trees.worktree(layout.src, a.dir, a.rev)
    except (trees.TreeError, tree_stage.StageError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


def shell_patches(cfg, kernel):
    """TS_PATCHES as `ts env` says it: as set, else the kernel's series."""
    return cfg["TS_PATCHES"] or (os.path.realpath(kernel.series_dir(cfg.repo))
                                 if kernel.has_series() else "")


# The choices the stages' own modules declare (loaded when their parser is
# built: for that command, or for help).
def boot_suites():
    from . import boot
    return boot.SUITES


def initramfs_suites():
    from . import initramfs
    return initramfs.SUITES


def kunit_variants():
    from . import kunit_run
    return kunit_run.VARIANTS


def _commands():
    """Each command's parser, by name: a function that adds it to the
    subparsers SUB (main() builds only the one asked, or all of them for
    help and usage errors: argparse's construction is most of what a
    `ts path` would cost otherwise)."""
    table = {}

    def _cmd_env(sub):
        sub.add_parser("env", help="every TS_* variable as shell assignments")
    table["env"] = _cmd_env

    def _cmd_path(sub):
        p = sub.add_parser("path", help="one path of the layout")
        p.add_argument("name", choices=sorted(layout_mod.PATHS))
        p.add_argument("args", nargs="*")
    table["path"] = _cmd_path

    def _cmd_series(sub):
        p = sub.add_parser("series", help="the patches a series file lists")
        p.add_argument("file")
        p.add_argument("part", nargs="?")
    table["series"] = _cmd_series

    def _cmd_variables(sub):
        sub.add_parser("variables", help="the TS_* variables one can set, with their defaults")
    table["variables"] = _cmd_variables

    def _cmd_stable(sub):
        sub.add_parser("stable", help="the kernels X.Y with a stable series (patches/stable/X.Y/)")
    table["stable"] = _cmd_stable

    def _cmd_row(sub):
        p = sub.add_parser("row", help="a field of TS_KERNEL's row (tsanity.kernels; empty: none)")
        p.add_argument("field", choices=kernels_mod.FIELDS)
    table["row"] = _cmd_row

    def _cmd_kernel(sub):
        p = sub.add_parser("kernel", help="the kernel's source: package, version, tarball")
        p.add_argument("what", choices=["source", "record"],
                       help="source: find (or fetch) it; record: what the trees were extracted from")
        p.add_argument("--write", action="store_true",
                       help="with source: record it as what the trees are extracted from")
    table["kernel"] = _cmd_kernel

    def _cmd_suite(sub):
        p = sub.add_parser("suite", help="a user-space suite (liburing, libaio): source, record, list")
        p.add_argument("what", choices=["source", "record", "list", "manifest"],
                       help="source: fetch (or find) and extract it; record: what was fetched; "
                       "list: the programs its list chooses (qemu-config/suites/NAME.tests); "
                       "manifest: write --stage DIR's manifest.json of PROGRAM...")
        p.add_argument("name", choices=layout_mod.SUITES)
        p.add_argument("programs", nargs="*", metavar="PROGRAM", help="with manifest")
        p.add_argument("--stage", metavar="DIR", help="with manifest: the staged directory")
        p.add_argument("--refresh", action="store_true", help="with source: fetch again")
        p.add_argument("--left-out", action="store_true",
                       help="with list: the programs left out, with their reasons")
        p.add_argument("--aux", action="store_true",
                       help="with list: the programs the chosen ones run (staged, not run)")
    table["suite"] = _cmd_suite

    def _cmd_newapi(sub):
        p = sub.add_parser("newapi", help="what kernel NEW adds over OLD (syscalls, io_uring "
                           "codes and flags) and its classification (patches/new-interfaces)")
        p.add_argument("old", nargs="?", help="a kernel X.Y (its base tree) or a tree "
                       "(default: the newapi_base of TS_KERNEL's row)")
        p.add_argument("new", nargs="?", help="a kernel X.Y (its base tree) or a tree "
                       "(default: TS_KERNEL)")
        p.add_argument("--file", help="the classification (default: NEW's series' new-interfaces)")
        g = p.add_mutually_exclusive_group()
        g.add_argument("--check", action="store_true",
                       help="fail unless the file classifies exactly what NEW adds (reads the trees)")
        g.add_argument("--doc", metavar="PAGE",
                       help="rewrite PAGE's generated table from the file (reads no tree)")
        g.add_argument("--check-doc", metavar="PAGE",
                       help="fail unless PAGE holds the file's table (reads no tree)")
    table["newapi"] = _cmd_newapi

    def _cmd_waivers(sub):
        p = sub.add_parser("waivers", help="the checkpatch waivers of FILE, one a line: "
                           "LINE<tab>PATCH<tab>TYPE (tsanity.waivers; a bad line is named)")
        p.add_argument("file")
        p.add_argument("series", nargs="?", help="the series file whose patches they must be of")
    table["waivers"] = _cmd_waivers

    def _cmd_boot(sub):
        p = sub.add_parser("boot", help="boot a guest kernel under QEMU and judge the boot, in this "
                           "process (tsanity.boot)")
        p.add_argument("--list-reports", action="store_true",
                       help="with sanitized: the kernel's reports are findings to list")
        p.add_argument("--icount", action="store_true",
                       help="the guest counts instructions (-icount; make bench)")
        p.add_argument("--show-command", action="store_true",
                       help="print the QEMU command line and boot nothing")
        p.add_argument("kernel", choices=kernel_mod.NAMES)
        p.add_argument("suite", nargs="?", default="tests",
                       choices=boot_suites())
        p.add_argument("variant", nargs="?", choices=["sanitized"])
    table["boot"] = _cmd_boot

    def _cmd_tree(sub):
        p = sub.add_parser("tree", help="the kernel trees: base, patched and fixes (with base: the "
                           "base tree alone), in this process (tsanity.tree_stage)")
        p.add_argument("base", nargs="?", choices=["base"])
    table["tree"] = _cmd_tree

    def _cmd_kernel_package(sub):
        sub.add_parser("kernel-package", help="install the kernel's source package from the "
                       "machine's suites if it is missing and they have it (root)")
    table["kernel-package"] = _cmd_kernel_package

    def _cmd_series_tree(sub):
        p = sub.add_parser("series-tree", help="TREE holds BASE with PATCHES/series applied by "
                           "git am (tsanity.trees)")
        p.add_argument("patches")
        p.add_argument("tree")
        p.add_argument("base", nargs="?", help="default: the base tag")
    table["series-tree"] = _cmd_series_tree

    def _cmd_series_commits(sub):
        p = sub.add_parser("series-commits", help="the commits of the series in TREE, oldest "
                           "first (tsanity.trees)")
        p.add_argument("tree")
        p.add_argument("part", nargs="?", default="", choices=["", "fixes", "refactor"])
    table["series-commits"] = _cmd_series_commits

    def _cmd_series_stamp(sub):
        p = sub.add_parser("series-stamp", help="the state of DIR/series: every listed patch's "
                           "content (tsanity.trees)")
        p.add_argument("dir")
    table["series-stamp"] = _cmd_series_stamp

    def _cmd_worktree(sub):
        p = sub.add_parser("worktree", help="DIR is a worktree of the patched tree's repository "
                           "at REV (tsanity.trees)")
        p.add_argument("dir")
        p.add_argument("rev")
    table["worktree"] = _cmd_worktree

    def _cmd_guest(sub):
        p = sub.add_parser("guest", help="build the guest kernels named, in this process "
                           "(tsanity.guest): prints each bzImage")
        p.add_argument("--sanitized", action="store_true",
                       help="the sanitized guests (KASAN, UBSAN, lockdep, debugobjects)")
        p.add_argument("kernels", nargs="+", choices=kernel_mod.NAMES, metavar="KERNEL")
    table["guest"] = _cmd_guest

    def _cmd_initramfs(sub):
        p = sub.add_parser("initramfs", help="build a guest initramfs, in this process "
                           "(tsanity.initramfs): prints its path")
        p.add_argument("suite", nargs="?", default="tests",
                       choices=initramfs_suites())
    table["initramfs"] = _cmd_initramfs

    def _cmd_random(sub):
        sub.add_parser("random", help="boot base and patched with a fresh seed's random inputs "
                       "and judge them, in this process (tsanity.random_stage; make random)")
    table["random"] = _cmd_random

    def _cmd_kconfig(sub):
        p = sub.add_parser("kconfig", help="configure OUT from BASE and the fragments (the one "
                           "kconfig step, tsanity.kconfig); fails naming a symbol that did not stick")
        p.add_argument("--make-arg", action="append", default=[], metavar="ARG",
                       help="a make argument of every step (ARCH=x86_64)")
        p.add_argument("src")
        p.add_argument("out")
        p.add_argument("base", help="the make target it starts from (tinyconfig)")
        p.add_argument("fragments", nargs="+", metavar="FRAGMENT")
    table["kconfig"] = _cmd_kconfig

    def _cmd_kunit(sub):
        p = sub.add_parser("kunit", help="run the series' KUnit suite with the tree's kunit.py and "
                           "judge every row, in this process (tsanity.kunit_run)")
        p.add_argument("variant", choices=kunit_variants())
    table["kunit"] = _cmd_kunit

    def _cmd_judge_boot(sub):
        p = sub.add_parser("judge-boot", help="judge one boot's files again (what `ts boot` does "
                           "after QEMU): its problems, named, or its summary (tsanity.judge)")
        p.add_argument("kernel")
        p.add_argument("boot_dir", help="the boot-results directory (ts path boot-results SUITE)")
        p.add_argument("programs", help="the programs the initramfs lists (a file, one a line)")
        p.add_argument("--rc", type=int, required=True, help="QEMU's exit status under timeout(1)")
        p.add_argument("--limit", required=True, help="the boot's time limit, in seconds")
        p.add_argument("--wall", required=True, help="the seconds the boot took, as said")
        p.add_argument("--sanitized", action="store_true", help="a boot of the sanitized guest")
        p.add_argument("--list-reports", action="store_true",
                       help="with --sanitized: the kernel's reports are findings to list")
    table["judge-boot"] = _cmd_judge_boot

    return table


# inspect.CO_VARARGS, without importing inspect.
CO_VARARGS = 0x04


def fast_path(argv):
    """`ts path NAME [ARG...]`, the shell's most frequent question, answered
    without argparse (whose import and construction cost more than the
    answer); None when ARGV is anything else or wrong, for main()'s parser
    to answer or refuse as it does."""
    if len(argv) < 2 or argv[0] != "path" or argv[1] not in layout_mod.PATHS or \
            any(x.startswith("-") for x in argv[1:]):
        return None
    fn = layout_mod.PATHS[argv[1]][0]
    code = fn.__code__
    most = code.co_argcount - 1  # the layout is the first
    if len(argv) - 2 < most - len(fn.__defaults__ or ()) or \
            (len(argv) - 2 > most and not code.co_flags & CO_VARARGS):
        return None
    try:
        print(fn(context()[2], *argv[2:]))
    except Exception as e:  # noqa: BLE001 - the known ones said, the others raised
        if not isinstance(e, known_errors()):
            raise
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


def main(argv=None):
    if argv is None:
        argv = sys.argv[1:]
    fast = fast_path(argv)
    if fast is not None:
        return fast
    import argparse
    ap = argparse.ArgumentParser(prog="scripts/ts", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    commands = _commands()
    for build in ([commands[argv[0]]] if argv and argv[0] in commands else commands.values()):
        build(sub)
    a = ap.parse_args(argv)
    try:
        cfg, kernel, layout = context()
        if a.cmd == "env":
            sys.stdout.write(shell_env(cfg, kernel, layout))
        elif a.cmd == "path":
            fn, usage = layout_mod.PATHS[a.name]
            import inspect
            try:
                inspect.signature(fn).bind(layout, *a.args)
            except TypeError:
                ap.error(f"usage: scripts/ts path {a.name} {usage}")
            print(fn(layout, *a.args))
        elif a.cmd == "stable":
            from . import stable as stable_mod
            for v in stable_mod.versions(cfg.repo):
                print(v)
        elif a.cmd == "row":
            print(getattr(kernels_mod.row(kernel.version), a.field))
        elif a.cmd == "series":
            for name in series_mod.patches(a.file, a.part or None):
                print(name)
        elif a.cmd == "kernel":
            import json
            if a.what == "source":
                r = kernel_mod.source(cfg, kernel, layout)
                if a.write:
                    os.makedirs(layout.root, exist_ok=True)
                    with open(layout.kernel_record, "w") as fh:
                        json.dump(r, fh, indent=1, sort_keys=True)
                        fh.write("\n")
            else:
                with open(layout.kernel_record) as fh:
                    r = json.load(fh)
            print(f"{r['package']}\t{r['version']}\t{r['tarball']}\t{r['origin']}")
        elif a.cmd == "suite":
            from . import suites as suites_mod
            if (a.what == "manifest") != bool(a.stage and a.programs) or \
                    (a.what != "manifest" and (a.stage or a.programs)):
                ap.error("usage: scripts/ts suite manifest --stage DIR NAME PROGRAM...")
            if a.what == "manifest":
                suites_mod.write_manifest(layout, a.name, a.stage, a.programs)
            elif a.what == "list":
                for verdict, prog, reason in suites_mod.parse_list(
                        suites_mod.list_file(cfg.repo, a.name)):
                    if a.left_out and verdict == "skip":
                        print(f"{prog}\t{reason}")
                    elif verdict == ("aux" if a.aux else "run") and not a.left_out:
                        print(prog)
            else:
                r = (suites_mod.source(layout, a.name, refresh=a.refresh) if a.what == "source"
                     else suites_mod.read_record(layout, a.name))
                if r.get("unavailable"):
                    missed = ", ".join(f"{u['version']} ({u['suite']})" for u in r["unavailable"])
                    print(f"warning: {r['package']}: {missed} could not be fetched (why: "
                          f"{layout.suite_record(a.name)}); took {r['version']} from {r['suite']}",
                          file=sys.stderr)
                print(f"{r['package']}\t{r['version']}\t{r['suite']}\t{r['tree']}")
        elif a.cmd == "newapi":
            return newapi(a, kernel)
        elif a.cmd == "waivers":
            from . import waivers as waivers_mod  # its WaiverError is a ValueError
            for w in waivers_mod.load(a.file, a.series):
                print(f"{w.line}\t{w.patch}\t{w.type}")
        elif a.cmd == "boot":
            # The judge, splats.py and the KTAP reader load for boots only.
            from . import boot as boot_mod
            return boot_mod.main(boot_mod.Request(
                kernel=a.kernel, suite=a.suite, sanitized=a.variant == "sanitized",
                list_reports=a.list_reports, icount=a.icount), cfg, layout,
                show_command=a.show_command)
        elif a.cmd == "tree":
            from . import tree_stage
            return tree_stage.main(a.base == "base", cfg, kernel, layout)
        elif a.cmd in ("kernel-package", "series-tree", "series-commits", "series-stamp",
                       "worktree"):
            return trees_command(a, cfg, kernel, layout)
        elif a.cmd == "guest":
            from . import guest as guest_mod
            return guest_mod.main(a.kernels, a.sanitized, layout)
        elif a.cmd == "random":
            from . import random_stage
            return random_stage.main(cfg, layout)
        elif a.cmd == "initramfs":
            from . import initramfs as initramfs_mod
            return initramfs_mod.main(a.suite, layout)
        elif a.cmd == "kconfig":
            from . import kconfig as kconfig_mod
            try:
                kconfig_mod.configure(layout, a.src, a.out, a.base, a.fragments,
                                      tuple(a.make_arg))
            except (kconfig_mod.KconfigError, ValueError, OSError) as e:
                print(f"error: {e}", file=sys.stderr)
                return 1
        elif a.cmd == "kunit":
            from . import kunit_run
            return kunit_run.main(a.variant, cfg, layout)
        elif a.cmd == "judge-boot":
            from .judge import boot_run
            return boot_run.main(boot_run.Judged(
                kernel=a.kernel, boot_dir=a.boot_dir, programs=a.programs, rc=a.rc,
                limit=a.limit, wall=a.wall, sanitized=a.sanitized,
                list_reports=a.list_reports), layout)
        elif a.cmd == "variables":
            for name, default, what in config_mod.USER:
                d = default if isinstance(default, str) else "(derived)"
                print(f"{name}\t{d}\t{what}")
            for name, what in config_mod.MOVABLE:
                print(f"{name}\t(layout)\t{what}")
    except Exception as e:  # noqa: BLE001 - the known ones said, the others raised
        if not isinstance(e, known_errors()):
            raise
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


def known_errors():
    """The errors a command ends with "error: ..." (those of the modules
    loaded so far; a module not loaded raised none)."""
    lazy = (("tsanity.suites", "SuiteError"), ("tsanity.newapi", "NewApiError"))
    return (kernel_mod.KernelError, series_mod.SeriesError, ValueError, OSError,
            *(getattr(sys.modules[m], n) for m, n in lazy if m in sys.modules))
