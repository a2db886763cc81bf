"""Tests of the stable mboxes (scripts/tsanity/mbox/stable.py): make mbox
writes each patches/stable/X.Y/ series as a draft addressed to nobody,
and the sendable mbox for stable@ is refused while a TBD is left.

Run from the repository's root:
  python3 -m unittest discover -s scripts/tests -p 'test_*.py'
"""
import io
import contextlib
import os
import re
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
REPO = os.path.dirname(os.path.dirname(HERE))

from tsanity import intended  # noqa: E402
from tsanity import stable as ts_stable  # noqa: E402
from tsanity.layout import result_file  # noqa: E402
from tsanity.mbox import msgid, stable  # noqa: E402

WHO = ("Ada Tester", "ada@example.net")


def heads(mbox):
    """The header block of each mail of MBOX's text."""
    mails = re.split(r"^From 0{40} ", mbox, flags=re.M)[1:]
    return [m.partition("\n\n")[0] for m in mails]


class StableMboxes(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="ts-test-stable.")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_versions(self):
        self.assertEqual(stable.versions(), ["6.1", "6.12"])

    def test_draft_is_addressed_to_nobody_and_carries_the_author(self):
        for v in stable.versions():
            path, n, left = stable.draft(v, WHO, self.tmp)
            self.assertEqual(path, result_file(self.tmp, "stable-draft", version=v))
            with open(path) as f:
                text = f.read()
            names = stable.patch_names(v)
            self.assertEqual(n, len(names))
            hs = heads(text)
            self.assertEqual(len(hs), n + 1, path)
            # The cover letter first: the backports, and 6.6.y.
            self.assertIn(f"Subject: [PATCH {v}.y 0/{n}] ", hs[0])
            cover_text = text.split("\nFrom 0000000000000000000000000000000000000000 ")[0]
            for name in names:
                self.assertIn(ts_stable.subject(os.path.join(stable.stable_dir(v), name)),
                              " ".join(cover_text.split()))
            self.assertIn("(only its saturation)", " ".join(cover_text.split()))
            self.assertIn("6.6.y has the same code", cover_text)
            self.assertIn("Not tested here yet", cover_text)
            self.assertNotRegex(cover_text, r"@[A-Z_]+@")
            hs = hs[1:]
            self.assertNotIn("timespec-sanity@example.org>\n", text.replace(
                msgid.DOMAIN, "domain"), "the project's identity is left in " + path)
            self.assertEqual(text.count("Signed-off-by: Ada Tester <ada@example.net>"), n)
            for h, name in zip(hs, names):
                self.assertNotRegex(h, r"(?m)^(To|Cc):", f"{v} {name} is addressed")
                self.assertIn("From: Ada Tester <ada@example.net>", h)
                self.assertIn(f"Message-ID: {msgid.message_id(name, v + '.y')}", h)
            # Threaded to the cover letter.
            for h in hs:
                self.assertIn(f"In-Reply-To: {msgid.message_id('cover-stable', v + '.y')}", h)
            # Today every backport waits for its upstream commit.
            self.assertEqual(len(left), n, left)
            self.assertTrue(all("[ Upstream commit TBD ]" == line for _, _, line in left))

    def test_cover_says_what_make_stable_showed(self):
        report = {"verdict": "PASS", "problems": [], "kernels": {
            "base": {"expected_failures": ["liburing/64/wait-timeout-huge",
                                           "timeout_classes/timeout.io_getevents.time64"]},
            "stable": {"contract_cases": 29036}}}
        text = stable.tested("6.12", report)
        self.assertIn("liburing's tests of the fixes (64/wait-timeout-huge) fail on the base "
                      "and pass with these backports", text)
        self.assertIn("29,036 timeout inputs", text)
        # 0002's test: patches 1 (0001) and 3 (0005's saturation) unshown.
        self.assertIn("No test here tells patches 1 and 3 from the base.", text)
        report["kernels"]["base"]["expected_failures"].append(
            "liburing/64/timeout-carry-overflow")
        self.assertIn("No test here tells patch 3 from the base.",
                      stable.tested("6.12", report))
        report["verdict"] = "FAIL"
        self.assertIn("did not pass", stable.tested("6.1", report))
        self.assertIn("Not tested here yet", stable.tested("6.1", None))

    def test_sendable_refused_while_tbd_left(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
            stable.sendable("6.12", WHO, self.tmp)
        self.assertIn("TBD left", err.getvalue())
        first = stable.patch_names("6.12")[0]
        self.assertIn(f"{first}:", err.getvalue())
        self.assertEqual(os.listdir(self.tmp), [])

    def copy_repo(self, version, sha):
        """A repository holding only patches/stable/VERSION, with every TBD
        replaced by SHA."""
        repo = os.path.join(self.tmp, "repo")
        src, dst = stable.stable_dir(version), stable.stable_dir(version, repo)
        shutil.copytree(src, dst)
        for name in stable.patch_names(version, repo):
            p = os.path.join(dst, name)
            with open(p) as f:
                text = f.read()
            with open(p, "w") as f:
                f.write(text.replace("TBD", sha))
        return repo

    def test_sendable_once_every_commit_is_known(self):
        repo = self.copy_repo("6.12", "0123456789abcdef0123456789abcdef01234567")
        out = os.path.join(self.tmp, "out")
        os.makedirs(out)
        path = stable.sendable("6.12", WHO, out, repo)
        self.assertEqual(path, result_file(out, "stable-mbox", version="6.12"))
        with open(path) as f:
            hs = heads(f.read())
        self.assertEqual(len(hs), len(stable.patch_names("6.12", repo)) + 1)
        for h in hs:
            self.assertRegex(h, r"(?m)^To: stable@vger\.kernel\.org$")
            self.assertNotIn("ada@example.net,", h.split("\nSubject:")[0].split("Cc:")[-1])

    def test_a_patch_without_the_project_identity_is_named(self):
        repo = self.copy_repo("6.1", "0123456789abcdef0123456789abcdef01234567")
        name = stable.patch_names("6.1", repo)[1]
        p = os.path.join(stable.stable_dir("6.1", repo), name)
        with open(p) as f:
            text = f.read()
        with open(p, "w") as f:
            f.write(text.replace("From: Timespec Sanity Project", "From: Someone Else"))
        err = io.StringIO()
        with contextlib.redirect_stderr(err), self.assertRaises(SystemExit):
            stable.mails("6.1", WHO, repo)
        self.assertIn(name, err.getvalue())


class StableSeries(unittest.TestCase):
    """tsanity.stable: which mainline fix each backport is, read from its
    note, and mainline's rules split by it."""

    def test_backported(self):
        for v in ts_stable.versions():
            got = {b: m[:4] for b, m in ts_stable.backported(v).items()}
            self.assertEqual(sorted(got.values()), ["0001", "0002", "0005"], v)

    def rules(self):
        path = os.path.join(REPO, "patches", "intended-differences")
        return intended.load(path) + intended.load(path, forms=True)

    def test_every_mainline_rule_splits(self):
        for v in ts_stable.versions():
            differences, predates = ts_stable.split_rules(self.rules(), v)
            # The backported fixes (0001, 0002, and 0005's saturation
            # alone) change no answer a boot shows reliably: every rule is
            # of a fix, or of a part of one, that stable does not get.
            self.assertEqual(differences, [])
            self.assertEqual(sorted({r.patch for r in predates}),
                             ["0003", "0005", "0006", "0007", "0008", "0009"])

    def test_a_partial_backport_keeps_its_rules_out(self):
        for v in ts_stable.versions():
            self.assertEqual([ts_stable.number(ts_stable.backported(v)[b])
                              for b in sorted(ts_stable.partial(v))], ["0005"], v)

    def test_a_rule_of_no_fix_is_named(self):
        rules = self.rules()
        rules[0].patch = "io_uring"
        with self.assertRaises(ts_stable.StableError) as e:
            ts_stable.split_rules(rules, "6.12")
        self.assertIn("'io_uring' is no fix", str(e.exception))

    def test_a_backport_citing_no_fix_is_named(self):
        repo = tempfile.mkdtemp(prefix="ts-test-stable.")
        self.addCleanup(shutil.rmtree, repo)
        shutil.copytree(os.path.join(REPO, "patches"), os.path.join(repo, "patches"))
        name = ts_stable.patch_names("6.1", repo)[0]
        p = os.path.join(ts_stable.stable_dir("6.1", repo), name)
        with open(p) as f:
            text = f.read()
        with open(p, "w") as f:
            f.write(text.replace("of the mainline patch \"io_uring/timeout:",
                                 "of the mainline patch \"io_uring/timer:"))
        with self.assertRaises(ts_stable.StableError) as e:
            ts_stable.backported("6.1", repo)
        self.assertIn(name, str(e.exception))
        self.assertIn('names "io_uring/timer: saturate a timeout', str(e.exception))


if __name__ == "__main__":
    unittest.main()
