"""Tests of the fixed Message-IDs (scripts/tsanity/mbox/msgid.py) and of
the stable backports (patches/stable/X.Y/): each backport starts with
"[ Upstream commit TBD ]", names a mainline patch of patches/series by its
subject, in its own subject and in its note, cites no posting that does
not exist (no Link: to a fixed Message-ID), and its series file has a
subject prefix for its stable tree.

Run from the repository's root:
  python3 -m unittest discover -s scripts/tests -p 'test_*.py'
"""
import glob
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
REPO = os.path.dirname(os.path.dirname(HERE))

from tsanity import series as ts_series  # noqa: E402
from tsanity import stable as ts_stable  # noqa: E402
from tsanity.mbox import msgid  # noqa: E402


def subject(text):
    m = re.search(r"^Subject: (?:\[[^]]*\] )?(.*(?:\n .*)*)", text, re.M)
    return m.group(1).replace("\n ", " ")


class MessageIds(unittest.TestCase):
    def test_fixed_and_distinct(self):
        a = msgid.message_id("0001-io_uring-timeout-Saturate-a-timeout-whose-carried-tv.patch", "7.3")
        self.assertEqual(a, msgid.message_id("0001-io_uring-timeout-Saturate-a-timeout-whose-carried-tv", "7.3"))
        self.assertRegex(a, r"^<[^<>@\s]+@[^<>@\s]+>$")
        self.assertNotEqual(a, msgid.message_id("0001-io_uring-timeout-Saturate-a-timeout-whose-carried-tv.patch", "6.12.y"))
        self.assertNotEqual(a, msgid.message_id("0001-io_uring-timeout-Saturate-a-timeout-whose-carried-tv.patch", "7.3", 2))
        for bad in ("a b.patch", "x@y.patch"):
            with self.assertRaises(ValueError):
                msgid.message_id(bad, "7.3")
        with self.assertRaises(ValueError):
            msgid.message_id("0001-x.patch", "seven")

    def test_set_ids(self):
        text = ("From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
                "From: A <a@example.org>\nDate: x\nSubject: [PATCH 1/2] a: b\n c\n"
                "Message-ID: <old@host>\nIn-Reply-To: <c@host>\nReferences: <c@host>\n\n"
                "Body\nMessage-ID: <in-body@host>\n")
        out = msgid.set_ids(text, "<new@d>", "<cover@d>")
        head, body = out.split("\n\n", 1)
        self.assertEqual(re.findall(r"(?im)^(message-id|in-reply-to|references): (.*)$", head),
                         [("Message-ID", "<new@d>"), ("In-Reply-To", "<cover@d>"),
                          ("References", "<cover@d>")])
        self.assertIn("Subject: [PATCH 1/2] a: b\n c\n", head + "\n")
        self.assertEqual(body, "Body\nMessage-ID: <in-body@host>\n")
        cover = msgid.set_ids(text, "<cover@d>")
        self.assertNotIn("In-Reply-To", cover.split("\n\n", 1)[0])


class StableBackports(unittest.TestCase):
    def test_backports_cite_their_mainline_patch(self):
        mainline = ts_series.patches(os.path.join(REPO, "patches", "series"))
        by_subject = {}
        for name in mainline:
            with open(os.path.join(REPO, "patches", name)) as fh:
                by_subject[subject(fh.read())] = name
        dirs = sorted(glob.glob(os.path.join(REPO, "patches", "stable", "*", "series")))
        self.assertTrue(dirs, "no patches/stable/X.Y/series")
        for path in dirs:
            d = os.path.dirname(path)
            v = os.path.basename(d)
            self.assertEqual(ts_series.subject_prefix(path), f"PATCH {v}.y", path)
            for part, name in ts_series.parse(path):
                self.assertEqual(part, "fixes", f"{path}: {name}")
                with open(os.path.join(d, name)) as fh:
                    text = fh.read()
                # The mainline patch: the one with the backport's subject
                # (a backport is numbered in its own series).
                main_name = by_subject.get(subject(text))
                self.assertIsNotNone(main_name, f"{path}: {name} backports no mainline patch")
                with open(os.path.join(REPO, "patches", main_name)) as fh:
                    main = fh.read()
                self.assertRegex(text, rf"(?m)^Subject: \[PATCH {re.escape(v)}\.y[ \]]", name)
                body = text.split("\n\n", 1)[1]
                self.assertTrue(body.startswith("[ Upstream commit TBD ]\n"), f"{v}/{name}")
                for link in re.findall(r"(?m)^Link: (.*)$", text):
                    self.assertNotIn(msgid.DOMAIN, link, f"{v}/{name}: a Link: to no posting")
                self.assertEqual(ts_stable.backported(v)[name], main_name, f"{v}/{name}")
                self.assertIn(f'mainline patch "{subject(main)}"',
                              re.sub(r"\n\s+", " ", text), f"{v}/{name}: the note names it")


if __name__ == "__main__":
    unittest.main()
