"""Tests of the audit's judgement of a row (scripts/tsanity/audit/paths.py):
a row is consistent with the contract when it checks only with the
helpers, or when it is one of the ABI rules with exactly that rule's
open-coded checks; anything else is inconsistent.

Run from the repository's root:
  python3 -m unittest discover -s scripts/tests -p 'test_*.py'
"""
import importlib.util
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tsanity.audit import paths  # noqa: E402


def row(file, fn, kinds, checks):
    return {'file': file, 'fn': fn, 'kinds': set(kinds), 'checks': list(checks)}


class Consistency(unittest.TestCase):
    def test_helpers_only(self):
        self.assertEqual(paths.consistency(
            row('kernel/futex/syscalls.c', 'futex_init_timeout', ['helper'],
                ['timespec64_check_timeout()'])), 'yes')

    def test_an_abi_rule_with_exactly_its_checks(self):
        got = paths.consistency(row('io_uring/timeout.c', 'io_parse_user_time', ['open-coded'],
                                    ['open-coded tv_sec < 0', 'open-coded tv_nsec < 0']))
        self.assertTrue(got.startswith('ABI: '), got)
        self.assertIn('carried', got)
        got = paths.consistency(row('fs/select.c', 'kern_select', ['open-coded', 'helper'],
                                    ['open-coded tv_sec < 0', 'poll_select_set_timeout()']))
        self.assertTrue(got.startswith('ABI: '), got)

    def test_an_abi_rule_that_changed_is_inconsistent(self):
        for kinds, checks, what in (
                (['open-coded'], ['open-coded tv_sec < 0'], 'a check dropped'),
                (['open-coded'], ['open-coded tv_sec < 0', 'open-coded tv_nsec < 0',
                                  'open-coded tv_nsec >= NSEC_PER_SEC'], 'a check added'),
                (['open-coded', 'unchecked'], ['open-coded tv_sec < 0', 'open-coded tv_nsec < 0',
                                               'none (get_timespec64() copy, stored)'],
                 'an unchecked copy beside it')):
            self.assertEqual(paths.consistency(row('io_uring/timeout.c', 'io_parse_user_time',
                                                   kinds, checks)), 'no', what)

    def test_the_same_checks_elsewhere_are_inconsistent(self):
        self.assertEqual(paths.consistency(
            row('io_uring/cancel.c', 'io_sync_cancel', ['open-coded'],
                ['open-coded tv_sec < 0', 'open-coded tv_nsec < 0'])), 'no')
        self.assertEqual(paths.consistency(
            row('fs/aio.c', 'do_io_getevents', ['unchecked'],
                ['none (get_timespec64() copy, stored)'])), 'no')



class Answer(unittest.TestCase):
    """audit.py --answer writes what audit.sh reads: "KIND WHAT" a line,
    KIND one of the three audit.sh knows, WHAT one word, FILE:FUNCTION as
    TS_AUDIT_BASE_EXPECT names a path."""

    def test_the_facts_audit_sh_reads(self):
        spec = importlib.util.spec_from_file_location(
            "audit_main", os.path.join(os.path.dirname(HERE), "audit.py"))
        audit = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(audit)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "answer")
            audit.write_answer(path, [{"file": "fs/aio.c", "fn": "sys_io_getevents",
                                       "check": "none"}],
                               [{"file": "drivers/x.c", "function": "x_ioctl"}],
                               [{"id": "gone"}])
            with open(path) as f:
                lines = f.read().splitlines()
            self.assertEqual(lines, ["inconsistent fs/aio.c:sys_io_getevents",
                                     "unlisted drivers/x.c:x_ioctl", "stale gone"])
            for line in lines:
                kind, what = line.split(" ")
                self.assertIn(kind, ("inconsistent", "unlisted", "stale"))
            audit.write_answer(path, [], [], [])
            with open(path) as f:
                self.assertEqual(f.read(), "")


if __name__ == '__main__':
    unittest.main()
