"""Tests of the user-space suites (scripts/tsanity/suites.py, debian.py's
source packages, scripts/suites.sh's arguments): their lists, the
fetch of a source package with its fallback, and the record.  No test
reaches the network: a fake apt serves a source package built here with
dpkg-source -b."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "..")
REPO = os.path.dirname(os.path.abspath(SCRIPTS))
sys.path.insert(0, SCRIPTS)
from tsanity import cli, debian, layout, suites  # noqa: E402

TS = os.path.join(SCRIPTS, "ts")


def need(tool):
    if shutil.which(tool) is None:
        raise AssertionError(f"{tool} not found: scripts/deps.sh installs it (dpkg-dev)")


class Lists(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)

    def parse(self, text):
        path = os.path.join(self.dir, "x.tests")
        with open(path, "w") as fh:
            fh.write(text)
        return suites.parse_list(path)

    def test_run_and_skip_with_reasons(self):
        self.assertEqual(self.parse("# head\nrun  timeout   a reason # note\n\n"
                                    "skip poll-link\tneeds IPv4\n"),
                         [("run", "timeout", "a reason"), ("skip", "poll-link", "needs IPv4")])
        self.assertEqual(self.parse("run timeout why\naux exec-target run by timeout\n")[1],
                         ("aux", "exec-target", "run by timeout"))

    def test_bad_lines_are_named(self):
        for text, msg in (("run timeout\n", r"x.tests:1: not 'run\|skip\|aux PROGRAM REASON'"),
                          ("maybe timeout why\n", "x.tests:1:"),
                          ("run a why\nskip a why not\n", "a is listed already on line 1"),
                          ("skip a why\n", "no program to run")):
            with self.assertRaisesRegex(suites.SuiteError, msg):
                self.parse(text)

    def test_missing_list_is_named(self):
        with self.assertRaisesRegex(suites.SuiteError, "/nonexistent.tests"):
            suites.parse_list("/nonexistent.tests")

    def test_the_committed_lists(self):
        for name, must in (("liburing", {"timeout", "link-timeout", "reg-wait", "sync-cancel",
                                         "wait-timeout", "min-timeout"}),
                           ("libaio", {"13", "22"})):
            entries = suites.parse_list(suites.list_file(REPO, name))
            run = {p for v, p, _ in entries if v == "run"}
            self.assertLessEqual(must, run, name)
            self.assertTrue(any(v == "skip" for v, _, _ in entries), f"{name}: nothing left out")
            for _, prog, reason in entries:
                self.assertGreater(len(reason.split()), 2, f"{name}: {prog}: a reason is needed")

    def test_unknown_suite(self):
        with self.assertRaisesRegex(ValueError, "unknown suite 'fio'"):
            suites.list_file(REPO, "fio")


def make_source_package(where, name, version):
    """A native source package NAME_VERSION.dsc (dpkg-source -b) in WHERE."""
    need("dpkg-source")
    tree = os.path.join(where, f"{name}-{version}")
    os.makedirs(os.path.join(tree, "debian", "source"))
    files = {
        "debian/source/format": "3.0 (native)\n",
        "debian/control": f"Source: {name}\nMaintainer: t <t@localhost>\n\n"
                          f"Package: {name}\nArchitecture: all\nDescription: t\n",
        "debian/changelog": f"{name} ({version}) unstable; urgency=low\n\n  * t\n\n"
                            " -- t <t@localhost>  Thu, 01 Jan 2026 00:00:00 +0000\n",
        "test/timeout.c": "int main(void) { return 0; }\n",
    }
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(tree, path)), exist_ok=True)
        with open(os.path.join(tree, path), "w") as fh:
            fh.write(text)
    subprocess.run(["dpkg-source", "-b", os.path.basename(tree)], cwd=where, check=True,
                   capture_output=True)
    shutil.rmtree(tree)
    return os.path.join(where, f"{name}_{version}.dsc")


class FakeApt:
    """What fetch_source asks of a PrivateApt: sid lists 2.0, which the
    mirror does not serve; bookworm lists 1.0, which it does."""
    uri = "http://m.example/debian"
    suites = ("sid", "bookworm")

    def __init__(self, pool):
        self.pool = pool
        self.updated = False

    def update(self):
        self.updated = True

    def source_versions(self, package):
        return [("2.0", "sid"), ("1.0", "bookworm")]

    def download_source(self, package, version, dest):
        if version != "1.0":
            raise debian.DebianError(f"apt-get source {package}={version} failed: E: 404")
        os.makedirs(dest, exist_ok=True)
        for f in os.listdir(self.pool):
            shutil.copy(os.path.join(self.pool, f), dest)
        return os.path.join(dest, f"{package}_{version}.dsc")


class SourcePackages(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        self.pool = os.path.join(self.dir, "pool")
        os.makedirs(self.pool)

    def test_fallback_is_recorded(self):
        make_source_package(self.pool, "liburing", "1.0")
        apt = FakeApt(self.pool)
        r = debian.fetch_source("liburing", os.path.join(self.dir, "src"), apt,
                                prefer=("sid",), fallback=("bookworm",))
        self.assertTrue(apt.updated)
        self.assertEqual((r["version"], r["suite"]), ("1.0", "bookworm"))
        self.assertTrue(os.path.exists(os.path.join(r["tree"], "test", "timeout.c")))
        self.assertEqual([(u["version"], u["suite"]) for u in r["unavailable"]], [("2.0", "sid")])
        self.assertIn("404", r["unavailable"][0]["error"])

    def test_nothing_fetchable_is_named(self):
        apt = FakeApt(self.pool)
        with self.assertRaisesRegex(debian.DebianError, r"no version .* libaio .*2\.0 \(sid\)"):
            debian.fetch_source("libaio", os.path.join(self.dir, "src"), apt, prefer=("sid",))
        with self.assertRaisesRegex(debian.DebianError, "in none of the suites trixie"):
            debian.fetch_source("libaio", os.path.join(self.dir, "src"), apt, prefer=("trixie",))

    def test_source_versions_newest_first(self):
        need("dpkg")
        madison = ("    libaio |  0.3.113-8 | http://m.example/debian sid/main Sources\n"
                   "    libaio | 0.3.113-10 | http://m.example/debian sid/main Sources\n"
                   "    libaio |  0.3.113-4 | http://m.example/debian bookworm/main Sources\n"
                   "libaio1t64 | 0.3.113-10 | http://m.example/debian sid/main amd64 Packages\n")
        apt = debian.PrivateApt.__new__(debian.PrivateApt)
        apt.root, apt.list = self.dir, os.path.join(self.dir, "sources.list")
        saved = debian._run
        debian._run = lambda cmd, what: madison
        self.addCleanup(setattr, debian, "_run", saved)
        self.assertEqual(apt.source_versions("libaio"),
                         [("0.3.113-10", "sid"), ("0.3.113-8", "sid"), ("0.3.113-4", "bookworm")])

    def test_compare_versions(self):
        need("dpkg")
        self.assertEqual(debian.compare_versions("0.3.113-10", "0.3.113-9"), 1)
        self.assertEqual(debian.compare_versions("2.15-1", "2.15-1"), 0)
        self.assertEqual(debian.compare_versions("1:1.0-1", "2.0-1"), 1)


class Record(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        _, _, self.lay = cli.context({"HOME": "/home/u", "TS_WORK": self.dir})

    def test_fetched_once_then_read_from_the_record(self):
        pool = os.path.join(self.dir, "pool")
        os.makedirs(pool)
        make_source_package(pool, "libaio", "1.0")
        calls = []

        class Apt(FakeApt):
            def __init__(self, root, suites, kinds, **kw):
                calls.append((root, suites, kinds))
                super().__init__(pool)
                self.suites = suites

        saved = (debian.PrivateApt, debian.codename)
        debian.PrivateApt, debian.codename = Apt, lambda *a: "bookworm"
        self.addCleanup(lambda: (setattr(debian, "PrivateApt", saved[0]),
                                 setattr(debian, "codename", saved[1])))
        r = suites.source(self.lay, "libaio")
        self.assertEqual(calls, [(self.lay.suites_apt, ("sid", "bookworm"), ("deb-src",))])
        with open(self.lay.suite_record("libaio")) as fh:
            self.assertEqual(json.load(fh), r)
        self.assertTrue(r["tree"].startswith(self.lay.suite_source("libaio")))
        self.assertEqual(suites.source(self.lay, "libaio"), r)
        self.assertEqual(len(calls), 1, "the record is reused without apt")
        suites.source(self.lay, "libaio", refresh=True)
        self.assertEqual(len(calls), 2)

    def test_missing_record_is_named(self):
        with self.assertRaisesRegex(suites.SuiteError, "run scripts/suites.sh liburing"):
            suites.read_record(self.lay, "liburing")


class CommandLine(unittest.TestCase):
    def run_cmd(self, *cmd, **env):
        e = {"PATH": os.environ["PATH"], "HOME": "/home/u", "TS_WORK": "/nonexistent/w"}
        e.update(env)
        return subprocess.run(list(cmd), env=e, capture_output=True, text=True)

    def test_suite_list(self):
        p = self.run_cmd(TS, "suite", "list", "libaio")
        self.assertEqual((p.returncode, p.stdout.split()), (0, ["13", "16", "22", "23", "24"]), p.stderr)
        p = self.run_cmd(TS, "suite", "list", "--left-out", "liburing")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("poll-link\t", p.stdout)
        p = self.run_cmd(TS, "suite", "list", "--aux", "liburing")
        self.assertEqual((p.returncode, p.stdout), (0, "exec-target\n"), p.stderr)
        p = self.run_cmd(TS, "suite", "list", "liburing")
        self.assertNotIn("exec-target", p.stdout.split())

    def test_suite_paths_and_errors(self):
        p = self.run_cmd(TS, "path", "suite-build", "liburing", "32", TS_KERNEL="7.3")
        self.assertEqual((p.returncode, p.stdout), (0, "/nonexistent/w/suites/liburing/build-32\n"))
        p = self.run_cmd(TS, "suite", "record", "liburing")
        self.assertEqual(p.returncode, 1)
        self.assertIn("run scripts/suites.sh liburing", p.stderr)
        p = self.run_cmd(TS, "suite", "list", "fio")
        self.assertEqual(p.returncode, 2)

    def test_suites_sh_refuses_an_unknown_suite(self):
        p = self.run_cmd(os.path.join(SCRIPTS, "suites.sh"), "fio")
        self.assertEqual(p.returncode, 1)
        self.assertIn("unknown: 'fio'", p.stderr)


class LayoutOfSuites(unittest.TestCase):
    def test_the_suites_are_those_of_the_layout(self):
        self.assertEqual(tuple(suites.SUITES), layout.SUITES)


if __name__ == "__main__":
    unittest.main()
