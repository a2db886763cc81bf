"""Tests of the audit's judgement of a row (scripts/tsanity/audit/paths.py):
a row is consistent with the contract when it checks only with the
helpers (7.3's timeout family, the ABI exceptions as its named modes), or
when it is one of the ABI rules with exactly that rule's open-coded
checks; anything else is inconsistent.  Rules: the project's semantic
patch (scripts/audit.cocci, -D audit) with the real spatch on a small
tree written here, from its messages to the rows' consistency.

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

from tsanity.audit import paths  # noqa: E402
from tsanity.audit.tools import Spatch  # noqa: E402


def row(file, fn, kinds, checks):
    return {'file': file, 'fn': fn, 'kinds': set(kinds), 'checks': list(checks)}


# A copy kept unchecked, as check_text() names it.
STORED = 'none (get_timespec64() copy, stored)'

class Consistency(unittest.TestCase):
    def test_helpers_only(self):
        self.assertEqual(paths.consistency(
            row('kernel/futex/syscalls.c', 'futex_init_timeout', ['helper'],
                ['timespec64_check_timeout()'])), 'yes')
        self.assertEqual(paths.consistency(
            row('kernel/futex/syscalls.c', 'sys_futex', ['helper'],
                ['get_timespec64_timeout()'])), 'yes')

    def test_the_abi_modes_of_the_family_are_helpers(self):
        # io_uring's timeout requests and IORING_ENTER_EXT_ARG's sum: the
        # family's named modes, consistent as helper calls.
        self.assertEqual(paths.consistency(
            row('io_uring/timeout.c', 'io_parse_user_time', ['helper'],
                ['get_timespec64_timeout(..., TIMEOUT_MODE_CARRY)'])), 'yes')
        self.assertEqual(paths.consistency(
            row('io_uring/io_uring.c', 'io_get_ext_arg', ['helper'],
                ['timespec64_to_timeout()',
                 'get_timespec64_timeout(..., TIMEOUT_MODE_SUM)'])), 'yes')

    def test_an_abi_rule_with_exactly_its_checks(self):
        got = paths.consistency(row('fs/select.c', 'kern_select', ['open-coded', 'helper'],
                                    ['open-coded tv_sec < 0', 'poll_select_set_timeout()']))
        self.assertTrue(got.startswith('ABI: '), got)
        self.assertIn('folded', got)
        # The compat twin follows the same rule.
        got = paths.consistency(row('fs/select.c', 'do_compat_select',
                                    ['open-coded', 'helper'],
                                    ['open-coded tv_sec < 0', 'poll_select_set_timeout()']))
        self.assertTrue(got.startswith('ABI: '), got)

    def test_an_abi_rule_that_changed_is_inconsistent(self):
        self.all_inconsistent('fs/select.c', 'kern_select', (
            (['open-coded'], ['open-coded tv_sec < 0', 'open-coded tv_nsec < 0'],
             'a check added'),
            (['open-coded', 'unchecked'], ['open-coded tv_sec < 0', STORED],
             'an unchecked copy beside it'),
            (['open-coded', 'legacy'], ['open-coded tv_sec < 0', 'timespec64_valid()'],
             'timespec64_valid() beside it')))

    def all_inconsistent(self, file, fn, cases):
        for kinds, checks, what in cases:
            self.assertEqual(paths.consistency(row(file, fn, kinds, checks)), 'no', what)

    def test_io_parse_user_time_open_coded_again_is_inconsistent(self):
        # Its ABI rule went when the series gave it TIMEOUT_MODE_CARRY:
        # the open-coded sign checks of before are no rule any more.
        self.assertNotIn(('io_uring/timeout.c', 'io_parse_user_time'), paths.ABI_RULES)
        self.assertEqual(paths.consistency(
            row('io_uring/timeout.c', 'io_parse_user_time', ['open-coded'],
                ['open-coded tv_sec < 0', 'open-coded tv_nsec < 0'])), 'no')

    def test_timespec64_valid_on_a_timeout_path_is_inconsistent(self):
        self.assertEqual(paths.consistency(
            row('ipc/mqueue.c', 'sys_mq_timedsend', ['legacy', 'helper'],
                ['get_timespec64_checked()', 'timespec64_valid()'])), 'no')

    def test_a_kept_timespec64_valid_row_with_exactly_its_check(self):
        # The paths 7.3's series leaves on timespec64_valid() (KEPT_VALID):
        # consistent with exactly their check, and not otherwise.
        got = paths.consistency(row('kernel/time/posix-timers.c', 'do_timer_settime',
                                    ['legacy'], ['timespec64_valid()']))
        self.assertTrue(got.startswith('kept: '), got)
        got = paths.consistency(row('fs/timerfd.c', 'do_timerfd_settime',
                                    ['legacy'], ['itimerspec64_valid()']))
        self.assertTrue(got.startswith('kept: '), got)
        self.all_inconsistent('fs/select.c', 'poll_select_set_timeout', (
            (['legacy'], ['timespec64_valid_strict()'], 'another legacy check'),
            (['legacy', 'unchecked'], ['timespec64_valid()', STORED],
             'an unchecked copy beside it'),
            (['legacy', 'open-coded'], ['timespec64_valid()', 'open-coded tv_sec < 0'],
             'an open-coded check beside it')))

    def test_the_same_checks_elsewhere_are_inconsistent(self):
        self.assertEqual(paths.consistency(
            row('io_uring/cancel.c', 'io_sync_cancel', ['open-coded'],
                ['open-coded tv_sec < 0', 'open-coded tv_nsec < 0'])), 'no')
        self.assertEqual(paths.consistency(
            row('fs/aio.c', 'do_io_getevents', ['unchecked'],
                ['none (get_timespec64() copy, stored)'])), 'no')



# A tree for the semantic patch: each function one row, its name saying
# what the audit must make of it.
RULES_TREE = {
    'io_uring/timeout.c': r'''
static int io_parse_user_time(ktime_t *time, u64 arg, unsigned flags)
{
	int ret;

	ret = get_timespec64_timeout(time, u64_to_user_ptr(arg),
				     TIMEOUT_MODE_CARRY);
	if (ret)
		return ret;
	return 0;
}

static int io_parse_user_time_open_coded(ktime_t *time, u64 arg)
{
	struct timespec64 ts;

	if (get_timespec64(&ts, u64_to_user_ptr(arg)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0)
		return -EINVAL;
	*time = timespec64_to_ktime(ts);
	return 0;
}
''',
    'kernel/family.c': r'''
static int sum_mode(ktime_t *kt, struct __kernel_timespec __user *uts)
{
	struct timespec64 ts;

	if (get_timespec64(&ts, uts))
		return -EFAULT;
	return timespec64_to_timeout(kt, &ts, TIMEOUT_MODE_SUM);
}

static int rel_or_abs(ktime_t *kt, struct __kernel_timespec __user *uts, int flags)
{
	return get_timespec64_timeout(kt, uts, flags & TIMER_ABSTIME ?
				      TIMEOUT_MODE_KTIME : TIMEOUT_MODE_DEADLINE);
}

static int old32(ktime_t *kt, struct timespec64 *ts,
		 struct old_timespec32 __user *uts)
{
	int ret = get_old_timespec32_checked(ts, uts);

	return ret ?: get_old_timespec32_timeout(kt, uts, TIMEOUT_MODE_KTIME);
}

static int checked(struct timespec64 *ts, struct __kernel_timespec __user *uts,
		   struct itimerspec64 *its)
{
	return get_timespec64_checked(ts, uts) ?: itimerspec64_check_timeout(its) ?:
	       timespec64_check_timeout(ts) ?:
	       timespec64_class_to_errno(timespec64_classify(ts, TIMEOUT_ABSOLUTE));
}

static int valid_beside_a_helper(struct timespec64 *ts,
				 struct __kernel_timespec __user *uts)
{
	if (get_timespec64_checked(ts, uts))
		return -EINVAL;
	if (!timespec64_valid(ts))
		return -EINVAL;
	return 0;
}

static int sum_unchecked(ktime_t *kt, struct __kernel_timespec __user *uts)
{
	struct timespec64 ts;

	if (get_timespec64(&ts, uts))
		return -EFAULT;
	*kt = timespec64_sum_to_ktime(&ts);
	return 0;
}
''',
}


class Rules(unittest.TestCase):
    """scripts/audit.cocci -D audit with the real spatch, read as audit.py
    reads it (paths.find, self_check, group, consistency)."""

    @classmethod
    def setUpClass(cls):
        if not shutil.which('spatch'):
            raise AssertionError('spatch not found (Debian package coccinelle): '
                                 "the audit's rules are tested with it")
        cls.dir = tempfile.mkdtemp(prefix='test_audit_rules.')
        src = os.path.join(cls.dir, 'src')
        for path, text in RULES_TREE.items():
            os.makedirs(os.path.dirname(os.path.join(src, path)), exist_ok=True)
            with open(os.path.join(src, path), 'w') as f:
                f.write(text)
        subprocess.run(['git', 'init', '-q', src], check=True)
        subprocess.run(['git', '-C', src, 'add', '.'], check=True)
        macros = os.path.join(cls.dir, 'macros.h')
        open(macros, 'w').close()
        dirs = ['io_uring', 'kernel']
        sp = Spatch(src, macros, 1, cls.dir)
        err = io.StringIO()     # its progress line, or why it died
        try:
            with contextlib.redirect_stderr(err):
                cls.findings = paths.find(
                    sp, src, os.path.join(os.path.dirname(HERE), 'audit.cocci'), dirs)
        except SystemExit:
            shutil.rmtree(cls.dir)
            raise AssertionError('the audit of the test tree died: ' + err.getvalue())
        cls.missed = paths.self_check(src, dirs, cls.findings)
        cls.rows = {fn: r for (_, fn), r in paths.group(cls.findings).items()}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def check(self, fn, consistent, checks):
        r = self.rows.get(fn)
        self.assertIsNotNone(r, '%s: no row; rows: %s' % (fn, sorted(self.rows)))
        self.assertEqual(sorted(r['checks']), sorted(checks), fn)
        self.assertEqual(paths.consistency(r), consistent, fn)

    def test_every_helper_call_is_a_finding(self):
        # self_check's names are paths.HELPERS: the tree calls each.
        text = ''.join(RULES_TREE.values())
        for name in paths.HELPERS:
            self.assertIn(name + '(', text)
        self.assertEqual(self.missed, [])
        helpers = {f['detail'].split('(')[0] for f in self.findings if f['kind'] == 'helper'}
        self.assertEqual(helpers, set(paths.HELPERS))

    def test_the_family_alone_is_consistent(self):
        self.check('rel_or_abs', 'yes', ['get_timespec64_timeout()'])
        self.check('old32', 'yes', ['get_old_timespec32_checked()',
                                    'get_old_timespec32_timeout()'])
        self.check('checked', 'yes', ['get_timespec64_checked()',
                                      'itimerspec64_check_timeout()',
                                      'timespec64_check_timeout()',
                                      'timespec64_classify()'])

    def test_an_abi_mode_is_a_helper_named_with_its_mode(self):
        self.check('io_parse_user_time', 'yes',
                   ['get_timespec64_timeout(..., TIMEOUT_MODE_CARRY)'])
        self.check('sum_mode', 'yes', ['timespec64_to_timeout(..., TIMEOUT_MODE_SUM)'])

    def test_timespec64_valid_beside_a_helper_is_inconsistent(self):
        self.check('valid_beside_a_helper', 'no',
                   ['get_timespec64_checked()', 'timespec64_valid()'])

    def test_open_coded_checks_are_inconsistent(self):
        self.check('io_parse_user_time_open_coded', 'no',
                   ['open-coded tv_sec < 0', 'open-coded tv_nsec < 0'])

    def test_the_sum_conversion_alone_is_unchecked(self):
        self.check('sum_unchecked', 'no',
                   ['none (get_timespec64() → timespec64_sum_to_ktime())'])


class Answer(unittest.TestCase):
    """audit.py --answer writes what audit.sh reads: "KIND WHAT" a line,
    KIND one of the three audit.sh knows, WHAT one word, FILE:FUNCTION as
    TS_AUDIT_BASE_EXPECT names a path."""

    def test_the_facts_audit_sh_reads(self):
        from tsanity.audit import main as audit
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
