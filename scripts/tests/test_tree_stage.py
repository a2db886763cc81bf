"""Tests of tsanity.trees (the git work of the trees, which lib.sh's
series_tree, series_commits, series_stamp and worktree call) and of
`scripts/ts tree` (tsanity.tree_stage), on small git repositories and a
small tarball written here: the stamp is lib.sh's, byte for byte (a tree
stamped by the old tooling stays applied); a series applies once, and
again only when it or the tree changed, files it leaves unchanged keeping
their mtime; the parts of a series; a worktree made, then moved; apt's
candidate read whole; and the base tree extracted from a tarball as one
commit, with its worktree and record.  None builds a kernel."""
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
sys.path.insert(0, SCRIPTS)
from tsanity import tree_stage, trees  # noqa: E402

GIT = ["-c", "user.name=t", "-c", "user.email=t@t"]


def git(tree, *args):
    return subprocess.run(["git", "-C", tree, *GIT, *args], check=True, capture_output=True,
                          text=True).stdout.strip()


class Trees(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_tree_stage.")
        self.addCleanup(shutil.rmtree, self.dir)
        self.repo = os.path.join(self.dir, "repo")
        os.makedirs(self.repo)
        git(self.repo, "init", "-q", "-b", "main")
        # git am commits as the repository's own committer, as the base
        # tree's (tree_stage.COMMITTER): no global identity needed.
        git(self.repo, "config", "user.name", "t")
        git(self.repo, "config", "user.email", "t@t")
        for name, text in (("f", "one\n"), ("g", "same\n")):
            with open(os.path.join(self.repo, name), "w") as f:
                f.write(text)
        git(self.repo, "add", "-A")
        git(self.repo, "commit", "-q", "-m", "base")
        git(self.repo, "tag", "base-x")
        self.patches = os.path.join(self.dir, "s")
        self.change("two\n", "a: Change f")
        self.change("three\n", "b: Change f again")
        git(self.repo, "format-patch", "-q", "-o", self.patches, "base-x..HEAD")
        with open(os.path.join(self.patches, "series"), "w") as f:
            f.write("# part: fixes\n0001-a-Change-f.patch\n# part: refactor\n"
                    "0002-b-Change-f-again.patch\n")
        git(self.repo, "reset", "-q", "--hard", "base-x")

    def change(self, text, msg):
        with open(os.path.join(self.repo, "f"), "w") as f:
            f.write(text)
        git(self.repo, "commit", "-q", "-am", msg)

    def test_stamp_is_lib_sh_s(self):
        shell = subprocess.run(["bash", "-c", '''dir=$1
            for p in 0001-a-Change-f.patch 0002-b-Change-f-again.patch; do sha256sum "$dir/$p"
            done | sed "s# $dir/# #" | sha256sum | cut -d' ' -f1''', "-", self.patches],
                               capture_output=True, text=True, check=True).stdout.strip()
        self.assertEqual(trees.series_stamp(self.patches), shell)
        os.remove(os.path.join(self.patches, "0001-a-Change-f.patch"))
        with self.assertRaisesRegex(trees.TreeError, "patch 0001-a-Change-f.patch is listed"):
            trees.series_stamp(self.patches)

    def test_series_applies_once_and_keeps_mtimes(self):
        trees.series_tree(self.patches, self.repo, "base-x")
        self.assertEqual(len(trees.series_commits(self.repo, self.patches, "base-x")), 2)
        with open(os.path.join(self.repo, "f")) as f:
            self.assertEqual(f.read(), "three\n")
        head = git(self.repo, "rev-parse", "HEAD")
        with open(self.repo + ".stamp") as fh:
            stamp = fh.read()
        # Unchanged: nothing happens (the stamp is not even rewritten; git am
        # again would make the same commits in the same second).
        os.utime(self.repo + ".stamp", ns=(1_000_000_000, 1_000_000_000))
        trees.series_tree(self.patches, self.repo, "base-x")
        self.assertEqual(git(self.repo, "rev-parse", "HEAD"), head)
        self.assertEqual(os.stat(self.repo + ".stamp").st_mtime_ns, 1_000_000_000)
        # A patch changed: applied again; f ends up as before and keeps
        # its mtime (make rebuilds nothing for it).
        f = os.path.join(self.repo, "f")
        os.utime(f, ns=(1_000_000_000, 1_000_000_123))
        with open(os.path.join(self.patches, "0002-b-Change-f-again.patch"), "a") as p:
            p.write("\n")
        trees.series_tree(self.patches, self.repo, "base-x")
        with open(self.repo + ".stamp") as fh:
            self.assertNotEqual(fh.read(), stamp)
        self.assertEqual(os.stat(f).st_mtime_ns, 1_000_000_123)
        # Checked out elsewhere: applied again.
        git(self.repo, "checkout", "-q", "base-x")
        trees.series_tree(self.patches, self.repo, "base-x")
        with open(f) as fh:
            self.assertEqual(fh.read(), "three\n")

    def test_a_patch_that_does_not_apply_is_named(self):
        p2 = os.path.join(self.patches, "0002-b-Change-f-again.patch")
        with open(p2) as f:
            text = f.read().replace("+three", "+four").replace("-two", "-zwei")
        with open(p2, "w") as f:
            f.write(text)
        with self.assertRaisesRegex(trees.TreeError, r"patch 2 \(0002-b-Change-f-again.patch\)"):
            trees.series_tree(self.patches, self.repo, "base-x")
        self.assertFalse(os.path.exists(self.repo + ".stamp"))

    def test_parts(self):
        with self.assertRaisesRegex(trees.TreeError, "holds no series"):
            trees.series_commits(self.repo, self.patches, "base-x")
        trees.series_tree(self.patches, self.repo, "base-x")
        every = trees.series_commits(self.repo, self.patches, "base-x")
        self.assertEqual(trees.series_commits(self.repo, self.patches, "base-x", "fixes"),
                         every[:1])
        self.assertEqual(trees.series_commits(self.repo, self.patches, "base-x", "refactor"),
                         every[1:])
        with open(os.path.join(self.patches, "series"), "w") as f:
            f.write("0002-b-Change-f-again.patch\n# part: fixes\n0001-a-Change-f.patch\n")
        with self.assertRaisesRegex(trees.TreeError, "the fixes part must come first"):
            trees.series_commits(self.repo, self.patches, "base-x", "fixes")

    def test_worktree_made_then_moved(self):
        trees.series_tree(self.patches, self.repo, "base-x")
        wt = os.path.join(self.dir, "wt")
        trees.worktree(self.repo, wt, "base-x")
        with open(os.path.join(wt, "f")) as f:
            self.assertEqual(f.read(), "one\n")
        fixes = trees.series_commits(self.repo, self.patches, "base-x", "fixes")[-1]
        trees.worktree(self.repo, wt, fixes)
        with open(os.path.join(wt, "f")) as f:
            self.assertEqual(f.read(), "two\n")
        with self.assertRaisesRegex(trees.TreeError, "no commit nonesuch"):
            trees.worktree(self.repo, wt, "nonesuch")


class AptOffers(unittest.TestCase):
    def test_candidate_read_whole(self):
        d = tempfile.mkdtemp(prefix="test_tree_stage.")
        self.addCleanup(shutil.rmtree, d)
        fake = os.path.join(d, "apt-cache")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\nprintf '%s:\\n  Installed: (none)\\n  Candidate: %s\\n  "
                    "Version table:\\n' \"$2\" \"$FAKE_CANDIDATE\"\nsleep 0.2\ni=0\n"
                    "while [ $i -lt 2000 ]; do echo \"     1.$i 500\"; i=$((i + 1)); done\n")
        os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)
        old = dict(os.environ)
        self.addCleanup(os.environ.update, old)
        os.environ["PATH"] = d + os.pathsep + old["PATH"]
        os.environ["FAKE_CANDIDATE"] = "1.0"
        self.assertTrue(tree_stage.apt_offers("linux-source-x.y"))
        os.environ["FAKE_CANDIDATE"] = "(none)"
        self.assertFalse(tree_stage.apt_offers("linux-source-x.y"))


class BaseTree(unittest.TestCase):
    """`scripts/ts tree base` from a tarball given by hand (TS_TARBALL)."""

    def test_extracted_as_one_commit(self):
        d = tempfile.mkdtemp(prefix="test_tree_stage.")
        self.addCleanup(shutil.rmtree, d)
        top = os.path.join(d, "linux-source-7.3")
        os.makedirs(top)
        with open(os.path.join(top, "Makefile"), "w") as f:
            f.write("kernelversion:\n\t@echo 7.3.0\n")
        with open(os.path.join(top, ".gitignore"), "w") as f:
            f.write("*\n")  # as Debian's: it ignores everything
        tarball = os.path.join(d, "linux-source-7.3.tar.xz")
        subprocess.run(["tar", "-cJf", tarball, "-C", d, "linux-source-7.3"], check=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("TS_")}
        env.update(TS_WORK=os.path.join(d, "work"), TS_KERNEL="7.3", TS_TARBALL=tarball)
        r = subprocess.run([sys.executable, os.path.join(SCRIPTS, "ts"), "tree", "base"],
                           capture_output=True, text=True, env=env)
        self.assertEqual(r.returncode, 0, r.stderr)
        root = os.path.join(d, "work", "linux-7.3")
        self.assertIn(f"tree: linux-source-7.3 (tarball given by hand), Linux 7.3.0, in "
                      f"{root}/src", r.stdout)
        self.assertEqual(git(os.path.join(root, "src"), "ls-files").split(),
                         [".gitignore", "Makefile"])
        self.assertEqual(git(os.path.join(root, "base-src"), "rev-parse", "HEAD"),
                         git(os.path.join(root, "src"), "rev-parse", "base-7.3"))
        with open(os.path.join(root, "kernel.json")) as f:
            self.assertEqual(json.load(f)["origin"], "TS_TARBALL")
        # Again: nothing to do, the same answer.
        again = subprocess.run([sys.executable, os.path.join(SCRIPTS, "ts"), "tree", "base"],
                               capture_output=True, text=True, env=env)
        self.assertEqual((again.returncode, again.stdout), (0, r.stdout))
        # A tarball of another kernel: refused, named.
        with open(os.path.join(top, "Makefile"), "w") as f:
            f.write("kernelversion:\n\t@echo 6.1.0\n")
        subprocess.run(["tar", "-cJf", tarball, "-C", d, "linux-source-7.3"], check=True)
        env["TS_WORK"] = os.path.join(d, "work2")
        bad = subprocess.run([sys.executable, os.path.join(SCRIPTS, "ts"), "tree", "base"],
                             capture_output=True, text=True, env=env)
        self.assertEqual(bad.returncode, 1)
        self.assertIn("is Linux 6.1.0, not 7.3.x: refusing", bad.stderr)


if __name__ == "__main__":
    unittest.main()
