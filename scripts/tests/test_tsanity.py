"""Tests of scripts/tsanity: the configuration, the kernel, the layout, the
series file and the command line that lib.sh evaluates, and the shape of
the package and of the scripts.  Each test feeds its own environment; none
reads this machine's TS_* variables."""
import glob
import importlib
import os
import pkgutil
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..")
sys.path.insert(0, SCRIPTS)
import tsanity  # noqa: E402
from tsanity import cli, config, debian, kernel, layout, series  # noqa: E402

TS = os.path.join(SCRIPTS, "ts")


def ctx(**env):
    base = {"HOME": "/home/u"}
    base.update(env)
    return cli.context(base)


class Config(unittest.TestCase):
    def test_defaults(self):
        cfg, k, lay = ctx()
        self.assertEqual(cfg["TS_WORK"], "/home/u/.cache/timespec-sanity")
        self.assertEqual(cfg["TS_KERNEL"], "7.3")
        self.assertEqual(cfg["TS_AUDIT_GRAPH_DIRS"], cfg["TS_AUDIT_DIRS"])
        self.assertEqual(k.tarball, "/usr/src/linux-source-7.3.tar.xz")

    def test_xdg_cache_home_and_overrides(self):
        cfg, _, _ = ctx(XDG_CACHE_HOME="/c", TS_AUDIT_DIRS="fs", TS_SEED="7")
        self.assertEqual(cfg["TS_WORK"], "/c/timespec-sanity")
        self.assertEqual(cfg["TS_AUDIT_GRAPH_DIRS"], "fs")
        self.assertEqual(cfg["TS_SEED"], "7")

    def test_every_variable_has_a_purpose(self):
        for name, _, what in config.USER:
            self.assertTrue(name.startswith("TS_") and what, name)


class Kernel(unittest.TestCase):
    def test_names(self):
        _, k, _ = ctx(TS_KERNEL="7.3")
        self.assertEqual((k.package, k.base_tag, k.dirname),
                         ("linux-source-7.3", "base-7.3", "linux-7.3"))

    def test_bad_version_is_refused_naming_it(self):
        with self.assertRaisesRegex(kernel.KernelError, "TS_KERNEL=7"):
            ctx(TS_KERNEL="7")

    def test_accepts_only_its_series(self):
        _, k, _ = ctx(TS_KERNEL="7.3")
        self.assertTrue(k.accepts("7.3.0-rc7"))
        self.assertTrue(k.accepts("7.3.2"))
        self.assertFalse(k.accepts("7.30.1"))
        self.assertFalse(k.accepts("6.12.118"))

    def test_unknown_kernel_name(self):
        _, _, lay = ctx()
        with self.assertRaisesRegex(kernel.KernelError, "unknown kernel 'baseline'"):
            lay.tree("baseline")


class Layout(unittest.TestCase):
    def test_everything_of_a_kernel_is_under_its_directory(self):
        _, _, lay = ctx(TS_WORK="/w")
        for p in (lay.src, lay.base_src, lay.fixes_src, lay.out, lay.results,
                  lay.guest("patched", "sanitized"), lay.worktree("bisect"),
                  lay.check_state("bisect"), lay.named_results("mbox")):
            self.assertTrue(p.startswith("/w/linux-7.3/"), p)
        self.assertEqual(lay.build_lock, "/w/build.lock")

    def test_two_kernels_share_nothing_but_the_lock_and_the_suites(self):
        _, _, a = ctx(TS_WORK="/w", TS_KERNEL="6.12")
        _, _, b = ctx(TS_WORK="/w", TS_KERNEL="7.3")
        for name, (fn, usage) in layout.PATHS.items():
            if name in layout.RELATIVE:
                continue
            args = {"": [], "KERNEL": ["base"], "KERNEL [sanitized]": ["fixes"],
                    "SUITE": ["tests"], "SUITE [sanitized]": ["tests"], "VARIANT": ["x86_64"],
                    "CHECK": ["bisect"], "JOB": ["audit"],
                    "bisect|warnings|mbox|other": ["mbox"], "liburing|libaio": ["libaio"],
                    "liburing|libaio 64|32": ["liburing", "32"], "man-pages": ["man-pages"]}[usage]
            if name in layout.KERNEL_INDEPENDENT:
                self.assertEqual(fn(a, *args), fn(b, *args), name)
                self.assertTrue(fn(a, *args).startswith(("/w/suites", "/w/man")), name)
            else:
                self.assertNotEqual(fn(a, *args), fn(b, *args), name)
        self.assertEqual(a.build_lock, b.build_lock)

    def test_suite_paths(self):
        _, _, lay = ctx(TS_WORK="/w", TS_KERNEL="7.3")
        self.assertEqual(lay.suite_build("liburing", "32"), "/w/suites/liburing/build-32")
        self.assertEqual(os.path.dirname(lay.suite_record("libaio")),
                         os.path.dirname(lay.suite_source("libaio")))
        self.assertEqual(lay.suites_apt, "/w/suites/apt")
        with self.assertRaisesRegex(ValueError, "unknown suite 'fio'"):
            lay.suite_stage("fio")
        with self.assertRaisesRegex(ValueError, "unknown ABI 'x32'"):
            lay.suite_build("libaio", "x32")

    def test_a_moved_place(self):
        _, _, lay = ctx(TS_WORK="/w", TS_RESULTS="/r")
        self.assertEqual(lay.boot_results("tests", "sanitized"), "/r/tests-sanitized")
        self.assertEqual(lay.src, "/w/linux-7.3/src")

    def test_a_moved_stable_tree(self):
        cfg, kernel, lay = ctx(TS_WORK="/w", TS_STABLE_SRC="/elsewhere")
        self.assertEqual(lay.stable_src, "/elsewhere")
        self.assertIn("TS_STABLE_SRC=/elsewhere\n", cli.shell_env(cfg, kernel, lay))

    def test_unknown_names_fail(self):
        _, _, lay = ctx()
        for fn, arg in ((lay.worktree, "elsewhere"), (lay.named_results, "nowhere")):
            with self.assertRaises(ValueError):
                fn(arg)
        with self.assertRaises(ValueError):
            lay.guest("base", "kasan")


class Series(unittest.TestCase):
    def test_parts_and_comments(self):
        with tempfile.NamedTemporaryFile("w", suffix="series", delete=False) as fh:
            fh.write("# header\n# part:  fixes\na.patch # the fix\n\n"
                     "# part: refactor\nb.patch\nc.patch\t \n# part: \n")
        self.addCleanup(os.unlink, fh.name)
        self.assertEqual(series.patches(fh.name), ["a.patch", "b.patch", "c.patch"])
        self.assertEqual(series.patches(fh.name, "fixes"), ["a.patch"])
        self.assertEqual(series.patches(fh.name, "refactor"), ["b.patch", "c.patch"])
        self.assertEqual(series.patches(fh.name, "stable"), [])

    def test_routes(self):
        path = self.write("# part: fixes\na.patch\n# route: NET [GENERAL]; net-next; "
                          "PATCH net-next; tightens the ABI\nb.patch\n")
        self.assertEqual(series.routes(path),
                         {"b.patch": ("NET [GENERAL]", "net-next", "PATCH net-next",
                                      "tightens the ABI")})
        self.assertEqual(series.patches(path), ["a.patch", "b.patch"])

    def test_bad_routes_are_named(self):
        for text, msg in (("# route: E; t; PATCH\na.patch\n", ":1: a route line needs"),
                          ("a.patch\n# route: E; t; PATCH; why\n", ":2: a route line with no patch"),
                          ("# route: E; t; PATCH; why\n# route: F; u; PATCH; why\na.patch\n",
                           ":1: a route line with no patch")):
            with self.assertRaisesRegex(series.SeriesError, msg, msg=text):
                series.routes(self.write(text))

    def test_upstream(self):
        path = self.write("# part: fixes\na.patch\n# upstream: io_uring/cancel: recognize "
                          "\"no timeout\" on 32-bit; mainline's fix after rc7\nb.patch\nc.patch\n")
        self.assertEqual(series.upstream(path),
                         {"b.patch": ('io_uring/cancel: recognize "no timeout" on 32-bit',
                                      "mainline's fix after rc7")})
        self.assertEqual(series.routes(path), {})
        with self.assertRaisesRegex(series.SeriesError, ":1: an upstream line needs"):
            series.upstream(self.write("# upstream: only a subject\na.patch\n"))

    def write(self, text):
        with tempfile.NamedTemporaryFile("w", suffix="series", delete=False) as fh:
            fh.write(text)
        self.addCleanup(os.unlink, fh.name)
        return fh.name

    def test_missing_file_is_named(self):
        with self.assertRaisesRegex(series.SeriesError, "/nonexistent/series"):
            series.patches("/nonexistent/series")


class Debian(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        self.etc = os.path.join(self.dir, "etc")
        os.makedirs(os.path.join(self.etc, "sources.list.d"))
        self.osr = os.path.join(self.dir, "os-release")
        with open(self.osr, "w") as fh:
            fh.write('NAME="Debian"\nVERSION_CODENAME=bookworm\n')

    def write(self, name, text):
        with open(os.path.join(self.etc, name), "w") as fh:
            fh.write(text)

    def test_mirror_from_deb822_skips_security_and_disabled(self):
        self.write("sources.list.d/a.sources",
                   "Types: deb\nURIs: http://off.example/debian\nSuites: bookworm\n"
                   "Components: main\nEnabled: no\n\n"
                   "Types: deb\nURIs: http://sec.example/debian-security\n"
                   "Suites: bookworm-security\nComponents: main\n\n"
                   "Types: deb\nURIs: http://m.example/debian/\nSuites: bookworm bookworm-updates\n"
                   "Components: main\nSigned-By: /k.gpg\n")
        self.assertEqual(debian.mirror(self.etc, self.osr), ("http://m.example/debian", "/k.gpg"))

    def test_mirror_from_one_line_list(self):
        self.write("sources.list", "# comment\ndeb [arch=amd64 signed-by=/k2.gpg] "
                   "http://l.example/debian bookworm main contrib\n")
        self.assertEqual(debian.mirror(self.etc, self.osr), ("http://l.example/debian", "/k2.gpg"))

    def test_no_mirror_is_named(self):
        self.write("sources.list", "deb http://x.example/debian trixie main\n")
        with self.assertRaisesRegex(debian.DebianError, "names the suite bookworm"):
            debian.mirror(self.etc, self.osr)

    def test_private_apt_writes_only_its_own_list(self):
        self.write("sources.list", "deb http://l.example/debian bookworm main\n")
        apt = debian.PrivateApt(os.path.join(self.dir, "apt"), etc=self.etc, os_release=self.osr)
        opts = " ".join(apt.options())
        self.assertIn(f"Dir::Etc::sourcelist={apt.list}", opts)
        self.assertIn("Dir::Etc::sourceparts=-", opts)
        self.assertTrue(apt.list.startswith(self.dir))

    def test_private_apt_of_sources_only(self):
        self.write("sources.list", "deb [signed-by=/k.gpg] http://l.example/debian bookworm main\n")
        apt = debian.PrivateApt(os.path.join(self.dir, "apt"), suites=("sid", "bookworm"),
                                kinds=("deb-src",), etc=self.etc, os_release=self.osr)
        apt.write_list()
        with open(apt.list) as fh:
            self.assertEqual(fh.read(), "deb-src [signed-by=/k.gpg] http://l.example/debian sid main\n"
                             "deb-src [signed-by=/k.gpg] http://l.example/debian bookworm main\n")
        self.assertTrue(os.path.isdir(os.path.join(apt.root, "lists", "partial")))

    def test_a_deb_given_by_hand(self):
        if shutil.which("dpkg-deb") is None:
            self.fail("dpkg-deb not found: Debian's dpkg is part of every Debian machine")
        pkg = os.path.join(self.dir, "pkg")
        os.makedirs(os.path.join(pkg, "DEBIAN"))
        os.makedirs(os.path.join(pkg, "usr", "src"))
        with open(os.path.join(pkg, "DEBIAN", "control"), "w") as fh:
            fh.write("Package: linux-source-9.9\nVersion: 9.9~rc1-1\nArchitecture: all\n"
                     "Maintainer: t <t@localhost>\nDescription: t\n")
        with open(os.path.join(pkg, "usr", "src", "linux-source-9.9.tar.xz"), "w") as fh:
            fh.write("not really\n")
        deb = os.path.join(self.dir, "linux-source-9.9_9.9~rc1-1_all.deb")
        subprocess.run(["dpkg-deb", "-b", "-Znone", pkg, deb], check=True, capture_output=True)
        _, k, lay = ctx(TS_WORK=os.path.join(self.dir, "w"), TS_KERNEL="9.9")
        r = debian.fetch_kernel_source(k, lay.debian, deb=deb)
        self.assertEqual(r["version"], "9.9~rc1-1")
        self.assertTrue(os.path.exists(r["tarball"]))
        self.assertTrue(r["tarball"].startswith(lay.root))
        _, other, _ = ctx(TS_KERNEL="9.8")
        with self.assertRaisesRegex(debian.DebianError, "is not a linux-source-9.8 package"):
            debian.fetch_kernel_source(other, lay.debian + "2", deb=deb)


class CommandLine(unittest.TestCase):
    def run_ts(self, *args, **env):
        e = {"PATH": os.environ["PATH"], "HOME": "/home/u"}
        e.update(env)
        return subprocess.run([TS, *args], env=e, capture_output=True, text=True)

    def test_env_survives_the_shell(self):
        odd = "a b'c \"d\" $e"
        p = subprocess.run(
            ["bash", "-c", f'eval "$("{TS}" env)" && printf "%s\\n" "$TS_APPEND" "$TS_SRC"'],
            env={"PATH": os.environ["PATH"], "HOME": "/home/u", "TS_APPEND": odd,
                 "TS_WORK": "/w w"}, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.splitlines(), [odd, "/w w/linux-7.3/src"])

    def test_path(self):
        p = self.run_ts("path", "guest", "patched", "sanitized", TS_WORK="/w", TS_KERNEL="7.3")
        self.assertEqual((p.returncode, p.stdout), (0, "/w/linux-7.3/out/guest-patched-sanitized\n"))

    def test_path_errors_are_named(self):
        p = self.run_ts("path", "guest", "nightly")
        self.assertEqual(p.returncode, 1)
        self.assertIn("unknown kernel 'nightly'", p.stderr)
        p = self.run_ts("path", "guest")
        self.assertEqual(p.returncode, 2)
        self.assertIn("usage: scripts/ts path guest KERNEL [sanitized]", p.stderr)
        p = self.run_ts("env", TS_KERNEL="latest")
        self.assertEqual(p.returncode, 1)
        self.assertIn("TS_KERNEL=latest", p.stderr)


class Modules(unittest.TestCase):
    def test_every_module_imports(self):
        # The steps of the audit and of make mbox run only in a real audit
        # or submission: a broken import would show there first.
        names = [m.name for m in pkgutil.walk_packages(tsanity.__path__, "tsanity.")]
        for name in ("tsanity.audit.paths", "tsanity.forms.table", "tsanity.mbox.build"):
            self.assertIn(name, names)
        for name in names:
            with self.subTest(module=name):
                importlib.import_module(name)

    def test_no_file_is_too_long(self):
        # Issue 21: in the tooling (scripts/ at every depth, scripts/ts,
        # the QEMU wrappers of kunit.py, qemu-config's scripts, .ci/run), a
        # Python file of more than 600 lines, or a shell script of more
        # than 300, is split by concern.  A file without a suffix is what
        # its #! line says.
        repo = os.path.dirname(os.path.abspath(SCRIPTS))
        files = glob.glob(os.path.join(SCRIPTS, "**", "*.py"), recursive=True) + \
            glob.glob(os.path.join(SCRIPTS, "**", "*.sh"), recursive=True) + \
            glob.glob(os.path.join(SCRIPTS, "kunit-qemu", "*")) + \
            glob.glob(os.path.join(repo, "qemu-config", "*.sh")) + \
            [TS, os.path.join(repo, ".ci", "run")]
        kinds = {"python": 0, "shell": 0}
        for path in sorted(set(files)):
            with open(path) as f:
                text = f.read()
            first = text.splitlines()[0] if text else ""
            kind = "python" if path.endswith(".py") or "python" in first else "shell"
            if not path.endswith((".py", ".sh")):
                self.assertRegex(first, r"^#!.*(python3|bash|sh)$", path)
            kinds[kind] += 1
            most = 600 if kind == "python" else 300
            with self.subTest(path=os.path.relpath(path, repo)):
                self.assertLessEqual(len(text.splitlines()), most)
        # The walk found the tooling, not an empty directory.
        self.assertGreater(kinds["python"], 40)
        self.assertGreater(kinds["shell"], 20)

if __name__ == "__main__":
    unittest.main()
