"""Tests of the man-page mboxes' pages (scripts/tsanity/mbox/man.py, with
debian.py's binary stand-in and suites.recorded_source): man-pages' patch
is made in upstream's layout (man/man2/) against sid's source package
manpages, which is fetched once and recorded; when the mirror serves not
the source's files, the binary package of the same version stands in;
the check applies the committed patch onto those pages and fails on a
new man --warnings warning.  No test reaches the network: the pages are
built here from the patch's own context, and a fake apt serves a .deb
built here with dpkg-deb -b."""
import contextlib
import glob
import gzip
import io
import json
import os
import re
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
from tsanity.mbox import man  # noqa: E402
from tsanity.mbox.people import project_sob  # noqa: E402

PATCHES = sorted(glob.glob(os.path.join(REPO, "patches", "man-pages", "*.patch")))


def need(tool):
    if shutil.which(tool) is None:
        raise AssertionError(f"{tool} not found: scripts/deps.sh installs it")


def preimage(patch_text):
    """The lines the patch's hunks expect (context and removed), hunk by
    hunk, for the one page it changes."""
    hunks, cur = [], None
    for line in patch_text.split("\n-- \n")[0].splitlines():
        if line.startswith("@@"):
            cur = []
            hunks.append(cur)
        elif cur is not None and line[:1] in (" ", "-") and not line.startswith("---"):
            cur.append(line[1:])
    return hunks


def page_from_patch(patch_text):
    """A page that the patch applies onto: a clean head, then the lines
    its hunks expect."""
    head = [".TH io_getevents 2 2026-04-11 \"Linux man-pages 6.20\"", ".SH NAME",
            "io_getevents \\- read asynchronous I/O events from the completion queue",
            ".SH ERRORS", ".TP", ".B EINVAL", ".I min_nr"]
    tail = [".SH SEE ALSO", ".BR io_setup (2)"]
    return "\n".join(head + [l for h in preimage(patch_text) for l in h] + tail) + "\n"


def make_deb(where, name, version, source, files):
    """A binary package NAME_VERSION_all.deb (dpkg-deb -b) with FILES
    ({path: text}, gzipped when the path ends in .gz)."""
    need("dpkg-deb")
    root = os.path.join(where, f"{name}-root")
    os.makedirs(os.path.join(root, "DEBIAN"))
    with open(os.path.join(root, "DEBIAN", "control"), "w") as fh:
        fh.write(f"Package: {name}\nSource: {source}\nVersion: {version}\nArchitecture: all\n"
                 "Maintainer: t <t@localhost>\nDescription: t\n")
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with (gzip.open(full, "wt") if path.endswith(".gz") else open(full, "w")) as fh:
            fh.write(text)
    deb = os.path.join(where, f"{name}_{version}_all.deb")
    subprocess.run(["dpkg-deb", "-Zgzip", "-b", root, deb], check=True, capture_output=True)
    shutil.rmtree(root)
    return deb


class FakeApt:
    """sid lists manpages 6.20-2, whose source the mirror does not serve;
    its binary packages are in POOL."""
    uri = "http://m.example/debian"
    suites = ("sid", "bookworm")

    def __init__(self, pool):
        self.pool = pool
        self.downloads = []

    def update(self):
        pass

    def source_versions(self, package):
        return [("6.20-2", "sid")]

    def download_source(self, package, version, dest):
        raise debian.DebianError(f"apt-get source {package}={version} failed: E: 404")

    def download(self, package, dest, version=None):
        self.downloads.append((package, version))
        os.makedirs(dest, exist_ok=True)
        deb = os.path.join(self.pool, f"{package}_{version}_all.deb")
        if not os.path.exists(deb):
            raise debian.DebianError(f"apt-get download {package}={version} failed")
        shutil.copy(deb, dest)
        return os.path.join(dest, os.path.basename(deb))


class TheCommittedPatch(unittest.TestCase):
    def test_upstream_layout_and_conventions(self):
        self.assertEqual(len(PATCHES), 1)
        with open(PATCHES[0]) as fh:
            text = fh.read()
        self.assertRegex(text, r"(?m)^Subject: \[PATCH\] man/man2/io_getevents\.2: ERRORS: ")
        self.assertEqual(re.findall(r"(?m)^\+\+\+ b/(\S+)$", text), ["man/man2/io_getevents.2"])
        self.assertEqual(man.pages_of(text), ["io_getevents.2"])
        self.assertIn(project_sob(), text)
        # zhangyi's posting of 2019, to linux-man.
        self.assertIn("Link: <https://lore.kernel.org/linux-man/"
                      "1564542193-89171-1-git-send-email-yi.zhang@huawei.com/>", text)
        # Semantic newlines: no added line of roff holds two sentences.
        for line in re.findall(r"(?m)^\+([^+].*)$", text):
            self.assertNotRegex(line, r"[.;:] +\S", line)
        self.assertNotIn("Linux 7.", text, "the kernel patch is not merged")

    def test_the_projects(self):
        self.assertEqual(man.MAN_PROJECTS["man-pages"]["layout"].format(sec="2", page="x.2"),
                         "man/man2/x.2")
        self.assertEqual(man.MAN_PROJECTS["man-pages"]["source"], "manpages")
        self.assertNotIn("source", man.MAN_PROJECTS["liburing"])
        self.assertEqual(man.MAN_PROJECTS["liburing"]["suite"], "liburing")
        self.assertEqual(man.MAN_PROJECTS["libaio"]["suite"], "libaio")
        self.assertEqual(man.MAN_PROJECTS["libaio"]["entry"], "AIO")
        self.assertEqual(tuple(p for p, s in man.MAN_PROJECTS.items() if "source" in s),
                         layout.MAN_SOURCES)


class BinaryStandIn(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        self.pool = os.path.join(self.dir, "pool")
        os.makedirs(self.pool)

    def test_binaries_stand_in_when_no_source_is_served(self):
        make_deb(self.pool, "manpages-dev", "6.20-2", "manpages",
                 {"usr/share/man/man2/io_getevents.2.gz": ".TH x 2\n"})
        apt = FakeApt(self.pool)
        r = debian.fetch_source("manpages", os.path.join(self.dir, "src"), apt,
                                prefer=("sid",), binaries=("manpages-dev",))
        self.assertEqual((r["kind"], r["version"], r["suite"]), ("binaries", "6.20-2", "sid"))
        self.assertEqual(apt.downloads, [("manpages-dev", "6.20-2")])
        self.assertTrue(os.path.exists(os.path.join(
            r["tree"], "usr", "share", "man", "man2", "io_getevents.2.gz")))
        self.assertIn("404", r["unavailable"][0]["error"])
        self.assertIn("not the source's files", r["origin"])

    def test_without_binaries_it_fails_as_before(self):
        with self.assertRaisesRegex(debian.DebianError, r"no version .* manpages .*6\.20-2"):
            debian.fetch_source("manpages", os.path.join(self.dir, "src"), FakeApt(self.pool),
                                prefer=("sid",))

    def test_a_binary_of_another_source_is_refused(self):
        make_deb(self.pool, "manpages-dev", "6.20-2", "other", {"usr/share/doc/x": "x\n"})
        with self.assertRaisesRegex(debian.DebianError, "not built from the source package"):
            debian.fetch_source("manpages", os.path.join(self.dir, "src"), FakeApt(self.pool),
                                prefer=("sid",), binaries=("manpages-dev",))


class Record(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        _, _, self.lay = cli.context({"HOME": "/home/u", "TS_WORK": self.dir})

    def test_fetched_once_with_deb_lines_then_read_from_the_record(self):
        pool = os.path.join(self.dir, "pool")
        os.makedirs(pool)
        make_deb(pool, "manpages-dev", "6.20-2", "manpages",
                 {"usr/share/man/man2/io_getevents.2.gz": ".TH x 2\n"})
        calls = []

        class Apt(FakeApt):
            def __init__(self, root, suites, kinds, **kw):
                calls.append((root, suites, kinds))
                super().__init__(pool)

        saved = (debian.PrivateApt, debian.codename)
        debian.PrivateApt, debian.codename = Apt, lambda *a: "bookworm"
        self.addCleanup(lambda: (setattr(debian, "PrivateApt", saved[0]),
                                 setattr(debian, "codename", saved[1])))
        r = man.pages_source(self.lay, "man-pages")
        self.assertEqual(calls, [(self.lay.man_apt, ("sid", "bookworm"), ("deb-src", "deb"))])
        with open(self.lay.man_record("man-pages")) as fh:
            self.assertEqual(json.load(fh), r)
        self.assertTrue(r["tree"].startswith(self.lay.man_source("man-pages")))
        self.assertEqual(man.pages_source(self.lay, "man-pages"), r)
        self.assertEqual(len(calls), 1, "the record is reused without apt")
        self.assertEqual(man.pages_base(self.lay, "man-pages"),
                         "the pages of man-pages 6.20 (Debian sid's manpages 6.20-2)")

    def test_paths(self):
        self.assertEqual(self.lay.man_source("man-pages"),
                         os.path.join(self.dir, "man", "man-pages", "source"))
        self.assertEqual(os.path.dirname(self.lay.man_record("man-pages")),
                         os.path.dirname(self.lay.man_source("man-pages")))
        with self.assertRaisesRegex(ValueError, "unknown man-page source 'liburing'"):
            self.lay.man_source("liburing")


class Check(unittest.TestCase):
    """check_man() of the committed patch onto pages of sid's manpages, as
    the source package has them and as its binary package does."""

    def setUp(self):
        need("man")
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        _, _, self.lay = cli.context({"HOME": "/home/u", "TS_WORK": self.dir})
        with open(PATCHES[0]) as fh:
            self.text = fh.read()
        self.page = page_from_patch(self.text)

    def record(self, kind):
        tree = os.path.join(self.lay.man_source("man-pages"), "manpages-6.20-2")
        rel = ("man/man2/io_getevents.2" if kind == "source"
               else "usr/share/man/man2/io_getevents.2.gz")
        os.makedirs(os.path.dirname(os.path.join(tree, rel)))
        with (gzip.open if rel.endswith(".gz") else open)(os.path.join(tree, rel), "wt") as fh:
            fh.write(self.page)
        r = {"package": "manpages", "version": "6.20-2", "suite": "sid", "kind": kind,
             "tree": tree, "origin": "sid on http://m.example/debian", "unavailable": []}
        with open(self.lay.man_record("man-pages"), "w") as fh:
            json.dump(r, fh)

    def check(self, patch):
        tmp = os.path.join(self.dir, "tmp")
        os.makedirs(tmp)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                man.check_man(patch, self.lay, "man-pages", man.pages_of(self.text), tmp)
            except SystemExit as e:
                return e.code, out.getvalue() + err.getvalue()
        return 0, out.getvalue() + err.getvalue()

    def test_the_patch_applies_onto_the_source_and_renders_clean(self):
        self.record("source")
        code, said = self.check(PATCHES[0])
        self.assertEqual(code, 0, said)
        self.assertIn("applies onto pages of manpages 6.20-2 (source,", said)

    def test_the_patch_applies_onto_the_binary_stand_in(self):
        self.record("binaries")
        code, said = self.check(PATCHES[0])
        self.assertEqual(code, 0, said)
        self.assertIn("(binaries,", said)

    def test_a_new_warning_fails(self):
        self.record("source")
        bad = os.path.join(self.dir, "bad.patch")
        with open(bad, "w") as fh:
            fh.write(self.text.replace("+.I tv_sec\n", "+.I tv_sec\n+.BOGUS\n", 1)
                     .replace("@@ -96,6 +96,16 @@", "@@ -96,6 +96,17 @@"))
        code, said = self.check(bad)
        self.assertEqual(code, 1, said)
        self.assertIn("renders with new man --warnings warnings", said)

    def test_the_old_layout_does_not_apply(self):
        self.record("source")
        old = os.path.join(self.dir, "old.patch")
        with open(old, "w") as fh:
            fh.write(self.text.replace("man/man2/io_getevents.2", "man2/io_getevents.2"))
        code, said = self.check(old)
        self.assertEqual(code, 1, said)


if __name__ == "__main__":
    unittest.main()
