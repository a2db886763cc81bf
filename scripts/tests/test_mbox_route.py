"""Tests of where make mbox sends a patch and whose name it carries
(scripts/tsanity/mbox/people.py and patches.py): a MAINTAINERS entry's
fields, a route's tree picked from its entry's T: lines, and the series
rewritten with the sender, keeping a resent patch's own author.  Each test
makes its own MAINTAINERS file or git repository in a temporary directory.

Run from the repository's root:
  python3 -m unittest discover -s scripts/tests -p 'test_*.py'
"""
import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tsanity.mbox import patches, people  # noqa: E402

MAINTAINERS = """\
List of maintainers
-------------------

CHAR and MISC DRIVERS
M:\tArnd Bergmann <arnd@example.org>
M:\tGreg Kroah-Hartman <greg@example.org>
S:\tSupported
T:\tgit git://git.example.org/pub/scm/linux/kernel/git/gregkh/char-misc.git
F:\tdrivers/char/

NETWORKING [GENERAL]
M:\tA Netdev <a@example.org>
R:\tA Reviewer <r@example.org>
M:\tB Netdev <b@example.org>
L:\tnetdev@example.org
T:\tgit git://git.example.org/pub/scm/linux/kernel/git/netdev/net.git
T:\tgit git://git.example.org/pub/scm/linux/kernel/git/netdev/net-next.git
F:\tnet/

PPS SUPPORT
M:\tA Pps <pps@example.org>
L:\tlinuxpps@example.org (subscribers-only)
F:\tdrivers/pps/
"""


class Entries(unittest.TestCase):
    def setUp(self):
        self.src = tempfile.mkdtemp(prefix="test_mbox_route.")
        self.addCleanup(shutil.rmtree, self.src)
        with open(os.path.join(self.src, "MAINTAINERS"), "w") as fh:
            fh.write(MAINTAINERS)

    def dies(self, fn, *args):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
            fn(*args)
        return err.getvalue()

    def test_people_in_the_entry_order_and_lists_without_remarks(self):
        ppl, lists = people.maintainers_entry(self.src, "NETWORKING [GENERAL]")
        self.assertEqual(ppl, ["A Netdev <a@example.org>", "A Reviewer <r@example.org>",
                               "B Netdev <b@example.org>"])
        self.assertEqual(lists, ["netdev@example.org"])
        self.assertEqual(people.maintainers_entry(self.src, "PPS SUPPORT")[1],
                         ["linuxpps@example.org"])

    def test_route_picks_the_named_tree_and_its_maintainers(self):
        tree, takers = people.route_tree(self.src, "NETWORKING [GENERAL]", "net-next")
        self.assertEqual(tree, "git://git.example.org/pub/scm/linux/kernel/git/netdev/"
                               "net-next.git")
        self.assertEqual(takers, ["A Netdev <a@example.org>", "B Netdev <b@example.org>"])
        self.assertEqual(people.slug(tree), "net-next")
        tree, takers = people.route_tree(self.src, "CHAR and MISC DRIVERS", "char-misc")
        self.assertEqual(people.slug(tree), "char-misc")
        self.assertEqual(len(takers), 2)

    def test_slugs(self):
        for tree, want in (("git://git.kernel.dk/linux-block", "linux-block"),
                           ("git://git.example.org/pub/scm/linux/kernel/git/axboe/linux.git",
                            "axboe-linux"),
                           ("git://git.example.org/tip/tip.git timers/core", "tip-timers-core"),
                           ("entry:PPS SUPPORT", "pps-support")):
            self.assertEqual(people.slug(tree), want, tree)

    def test_a_route_to_no_tree_is_named(self):
        # "net" is a word of net-next's URL, but not its name.
        self.assertIn("has 0 git trees named 'vfs'",
                      self.dies(people.route_tree, self.src, "NETWORKING [GENERAL]", "vfs"))
        self.assertIn("'PPS SUPPORT' has 0 git trees",
                      self.dies(people.route_tree, self.src, "PPS SUPPORT", "pps"))
        self.assertIn("has no entry 'NO SUCH'",
                      self.dies(people.entry_fields, self.src, "NO SUCH"))


class BodyPeople(unittest.TestCase):
    def test_the_author_and_the_by_trailers(self):
        mail = ("From 0 Mon Sep 17 00:00:00 2001\nFrom: A Sender <s@example.org>\n"
                "Subject: [PATCH 1/1] x\n\nFrom: Earlier Author <e@example.org>\n\n"
                "Text that says Reviewed-by: nobody.\n\n"
                "Signed-off-by: Earlier Author <e@example.org>\n"
                "Reviewed-by: A Reviewer <r@example.org>\nCc: A Cc <c@example.org>\n"
                "Signed-off-by: A Sender <s@example.org>\n---\n")
        self.assertEqual(people.body_people(mail),
                         ["Earlier Author <e@example.org>", "Earlier Author <e@example.org>",
                          "A Reviewer <r@example.org>", "A Sender <s@example.org>"])

    def test_a_patch_by_the_sender_has_no_in_body_from(self):
        mail = ("From: A Sender <s@example.org>\nSubject: x\n\nText.\n\n"
                "Signed-off-by: A Sender <s@example.org>\n")
        self.assertEqual(people.body_people(mail), ["A Sender <s@example.org>"])


class Rewrite(unittest.TestCase):
    SENDER = ("A Sender", "sender@example.org")

    def git(self, *args, env=None):
        return subprocess.run(["git", "-C", self.dir] + list(args), check=True, text=True,
                              capture_output=True, env=env).stdout.strip()

    def commit(self, name, addr, msg):
        env = dict(os.environ, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=addr,
                   GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=addr)
        with open(os.path.join(self.dir, "f"), "a") as fh:
            fh.write(msg)
        self.git("add", "f")
        self.git("commit", "-q", "-m", msg, env=env)
        return self.git("rev-parse", "HEAD")

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_mbox_route.")
        self.addCleanup(shutil.rmtree, self.dir)
        self.git("init", "-q")
        base = self.commit("Base", "base@example.org", "base")
        sob = people.project_sob()
        own = self.commit(people.PROJECT_NAME, people.PROJECT_EMAIL, f"ours\n\n{sob}\n")
        resent = self.commit("Earlier Author", "earlier@example.org",
                             "theirs\n\nSigned-off-by: Earlier Author <earlier@example.org>\n"
                             f"Reviewed-by: A Reviewer <r@example.org>\n{sob}\n")
        self.new = patches.rewrite_series(self.dir, base, [own, resent], self.SENDER, {})

    def field(self, commit, fmt):
        return self.git("log", "-1", f"--format={fmt}", commit)

    def test_the_project_commit_is_the_senders(self):
        self.assertEqual(self.field(self.new[0], "%an <%ae>"), "A Sender <sender@example.org>")
        self.assertIn("Signed-off-by: A Sender <sender@example.org>",
                      self.field(self.new[0], "%B"))

    def test_a_resent_patch_keeps_its_author_and_gains_the_senders_sign_off(self):
        self.assertEqual(self.field(self.new[1], "%an <%ae>"),
                         "Earlier Author <earlier@example.org>")
        self.assertEqual(self.field(self.new[1], "%cn <%ce>"), "A Sender <sender@example.org>")
        body = self.field(self.new[1], "%B")
        self.assertTrue(body.endswith("Reviewed-by: A Reviewer <r@example.org>\n"
                                      "Signed-off-by: A Sender <sender@example.org>"), body)
        self.assertNotIn(people.PROJECT_EMAIL, body)


class FoldUpstream(unittest.TestCase):
    """patches.fold_upstream(): a patch that stands for a mainline commit
    leaves the mails, and goes below them."""

    def git(self, *args, env=None):
        return subprocess.run(["git", "-C", self.dir] + list(args), check=True, text=True,
                              capture_output=True, env=env).stdout.strip()

    def commit(self, path, text, msg):
        with open(os.path.join(self.dir, path), "w") as fh:
            fh.write(text)
        self.git("add", path)
        self.git("-c", "user.name=T", "-c", "user.email=t@example.org", "commit", "-q", "-m", msg)
        return self.git("rev-parse", "HEAD")

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_mbox_fold.")
        self.addCleanup(shutil.rmtree, self.dir)
        self.git("init", "-q")
        self.base = self.commit("a", "a0\n", "base")
        self.c = [self.commit("a", "a1\n", "one"), self.commit("b", "b1\n", "stand-in"),
                  self.commit("c", "c1\n", "three")]
        self.names = ["0001-one.patch", "0002-stand-in.patch", "0003-three.patch"]
        self.tmp = tempfile.mkdtemp(prefix="test_mbox_fold_tmp.")
        self.addCleanup(shutil.rmtree, self.tmp)

    def show(self, tree, path):
        return self.git("show", f"{tree}:{path}")

    def test_the_stand_in_goes_below_every_mail(self):
        up = {"0002-stand-in.patch": ("mainline: the fix", "why")}
        base, kept, names, trees = patches.fold_upstream(self.dir, self.base, self.c, self.names,
                                                          up, self.tmp)
        self.assertEqual(names, ["0001-one.patch", "0003-three.patch"])
        self.assertEqual(kept, [self.c[0], self.c[2]])
        self.assertEqual(self.show(base, "b"), "b1")
        self.assertEqual(self.show(base, "a"), "a0")
        self.assertEqual(self.git("rev-parse", f"{base}^"), self.base)
        self.assertEqual(self.show(trees[0], "b"), "b1")
        self.assertEqual(self.show(trees[0], "a"), "a1")
        self.assertIsNone(trees[1])
        new = patches.rewrite_series(self.dir, base, kept, ("S", "s@example.org"), {},
                                     dict(zip(kept, trees)))
        self.assertEqual(self.git("rev-parse", f"{new[-1]}^{{tree}}"),
                         self.git("rev-parse", f"{self.c[-1]}^{{tree}}"))
        self.assertEqual(self.git("diff", "--name-only", f"{new[0]}^", new[0]), "a")

    def test_no_stand_in_changes_nothing(self):
        self.assertEqual(patches.fold_upstream(self.dir, self.base, self.c, self.names, {},
                                               self.tmp),
                         (self.base, self.c, self.names, [None] * 3))


class NoStandIn(unittest.TestCase):
    def mbox(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".mbox", delete=False) as fh:
            fh.write(text)
        self.addCleanup(os.unlink, fh.name)
        return fh.name

    def test_a_stand_in_is_named(self):
        from tsanity.mbox import checks
        ok = self.mbox("From: CI Stand-in <ci-stand-in@example.com>\nSubject: x\n\nA fix.\n\n"
                       "CI Stand-in (4):\n  io_uring: saturate the wait timeout\n")
        checks.check_no_stand_in([ok], "CI Stand-in")
        for text in ("Not for merging: mainline fixed it.\n",
                     "This patch stands in for it.\n", "a stand-in, so that\n"):
            bad = self.mbox("Subject: x\n\n" + text)
            with self.assertRaises(SystemExit, msg=text):
                with contextlib.redirect_stderr(io.StringIO()):
                    checks.check_no_stand_in([ok, bad], "CI Stand-in")


if __name__ == "__main__":
    unittest.main()
