"""The timespec findings (scripts/audit.py, steps 1 and 3): the series'
semantic patch on the files with a timespec token, their rows, one per
(file, function), and which rows a timeout-taking syscall reaches."""
import collections
import os
import re
from typing import Any

from .tools import die, git_grep, log

# Syscalls whose timespec (or timeval, or millisecond int) argument is a
# timeout, by the name in SYSCALL_DEFINEn(); compat_ prefixes the
# COMPAT_SYSCALL_DEFINEn() ones.  This list is the only hand-written input of
# the audit: it decides "timeout path" vs "not a timeout path" (clock_settime,
# settimeofday, adjtimex, utimensat, ioctl, write... are not in it).
# io_uring_register is in it for IORING_REGISTER_SYNC_CANCEL, whose
# structure carries a timeout; its other operations take none, and the
# audit only lists functions that touch a timespec.  setitimer takes
# timevals, which the series converts and checks as an itimerspec64.
TIMEOUT_SYSCALLS = frozenset('''
    futex futex_time32 futex_waitv futex_wait
    nanosleep nanosleep_time32 clock_nanosleep clock_nanosleep_time32
    timer_settime timer_settime32 timerfd_settime timerfd_settime32
    select old_select pselect6 pselect6_time32 poll ppoll ppoll_time32
    compat_select compat_old_select compat_pselect6_time32
    compat_pselect6_time64 compat_ppoll_time32 compat_ppoll_time64
    epoll_wait epoll_pwait epoll_pwait2 compat_epoll_pwait
    compat_epoll_pwait2
    recvmmsg recvmmsg_time32 compat_recvmmsg_time32 compat_recvmmsg_time64
    mq_timedsend mq_timedsend_time32 mq_timedreceive mq_timedreceive_time32
    semtimedop semtimedop_time32
    rt_sigtimedwait rt_sigtimedwait_time32 compat_rt_sigtimedwait_time32
    compat_rt_sigtimedwait_time64
    io_getevents io_getevents_time32 io_pgetevents io_pgetevents_time32
    compat_io_pgetevents compat_io_pgetevents_time64
    io_uring_enter io_uring_register
    setitimer compat_setitimer
'''.split())

# Timeout-path rows whose open-coded checks are a rule of their own that
# is ABI: the timeouts Documentation/userspace-api/timeouts.rst lists as
# exceptions to the contract (7.3's series, docs/mainline.md), by (file,
# function), with exactly the open-coded checks that make the rule and
# why it stays.  Such a row is consistent ("ABI: ...") only while its
# open-coded checks are exactly these and nothing unchecked is found in
# it; any other change to the function makes it inconsistent again.
# The exceptions that the timeout family names as modes (io_uring's timeout
# requests, TIMEOUT_MODE_CARRY; IORING_ENTER_EXT_ARG's sum,
# TIMEOUT_MODE_SUM) are checked with the helpers, consistent as such, and
# need no rule here.
ABI_RULES = {
    ('fs/select.c', 'kern_select'): (
        frozenset({'open-coded tv_sec < 0'}),
        "select()'s timeval: a negative part is refused, a tv_usec of a "
        "second or more is folded into the seconds"),
    # The compat twin, since the fix that gave it kern_select()'s check.
    ('fs/select.c', 'do_compat_select'): (
        frozenset({'open-coded tv_sec < 0'}),
        "select()'s compat timeval: as kern_select()'s"),
}

# Timeout-path rows that 7.3's series leaves on timespec64_valid() or
# itimerspec64_valid(), by (file, function), with exactly those checks
# and why (docs/design.md, "Not converted, and why"): they hand a
# timespec64 on rather than copy it with the family's copies or convert
# it, and timespec64_check_timeout() answers as timespec64_valid() does
# (the KUnit suite holds the two equal), so a conversion would swap one
# call for another.  Such a row is consistent ("kept: ...") only while
# its checks are exactly these and nothing unchecked is found in it.
KEPT_VALID = {
    ('fs/select.c', 'poll_select_set_timeout'): (
        frozenset({'timespec64_valid()'}),
        "the poll family's end time, kept as a timespec64"),
    ('fs/timerfd.c', 'do_timerfd_settime'): (
        frozenset({'itimerspec64_valid()'}),
        "a timer setting, handed on as an itimerspec64"),
    ('kernel/time/posix-timers.c', 'do_timer_settime'): (
        frozenset({'timespec64_valid()'}),
        "a timer setting, handed on as an itimerspec64"),
}

# The calls that count as checks (the semantic patch's helper rule): the
# timeout family of 7.3's series (include/linux/time64.h and
# include/linux/timekeeping.h; 6.12's has the first three).
# timespec64_class_to_errno() takes a class, not a timespec, and
# timespec64_sum_to_ktime() converts without a check: neither is one.
HELPERS = ('timespec64_check_timeout', 'itimerspec64_check_timeout',
           'timespec64_classify', 'timespec64_to_timeout',
           'get_timespec64_timeout', 'get_old_timespec32_timeout',
           'get_timespec64_checked', 'get_old_timespec32_checked')


# The tokens a file must contain to be given to spatch (both rule sets):
# get_timespec64 and get_old_timespec32 take in the family's copy-ins.
PREFILTER = (r'tv_sec|tv_nsec|timespec64_valid|itimerspec64_valid|'
             r'get_timespec64|get_old_timespec32|_check_timeout|'
             r'timespec64_classify|timespec64_to_timeout|'
             r'timespec64_sum_to_ktime')
FINDING = re.compile(r'^(?P<file>[^:\s]+):(?P<line>\d+):\d+-\d+: '
                     r'(?P<sev>WARNING|INFO): (?P<fn>[A-Za-z_]\w*)\(\): '
                     r'(?P<kind>open-coded|legacy|unchecked|helper|setter): '
                     r'(?P<detail>.*)$')


def find(sp, src, cocci, dirs):
    """The findings of COCCI (-D audit) on the files of DIRS that name a
    timespec token, one dict per message."""
    files = git_grep(src, ['-l', '-P', PREFILTER], dirs)
    if not files:
        die('git grep found no file with a timespec in %s of %s' %
            (' '.join(dirs), src))
    log('findings: %s on %d files of %s' %
        (os.path.basename(cocci), len(files), ' '.join(dirs)))
    findings = []
    for l in sp.run(cocci, files, ['-D', 'audit'], 'findings'):
        m = FINDING.match(l)
        if not m:
            die('unparseable report line from spatch: %r' % l)
        findings.append(m.groupdict())
    return findings


def self_check(src, dirs, findings):
    """Every call of a legacy or new helper that git grep sees must be a
    finding: otherwise spatch did not parse that function."""
    seen = {(f['file'], int(f['line'])) for f in findings}
    pat = (r'\b(timespec64_valid|itimerspec64_valid|timespec64_valid_strict|'
           r'timespec64_valid_settod|%s)[[:space:]]*\(' % '|'.join(HELPERS))
    missed = []
    for hit in git_grep(src, ['-n', '-P', pat], dirs):
        path, line, text = hit.split(':', 2)
        s = text.strip()
        if path.endswith('_kunit.c') or s.startswith(('*', '/*', '//', '#')) \
                or s.endswith('\\') or path.endswith('.h'):
            continue
        if (path, int(line)) not in seen:
            missed.append('%s:%s: %s' % (path, line, s))
    return missed


def check_text(kind, detail):
    if kind == 'helper' or kind == 'setter':
        return detail
    if kind == 'legacy':
        return detail.split(',')[0]
    if kind == 'open-coded':
        return 'open-coded ' + detail.split(',')[0]
    m = re.match(r'(\w+\(\)) copy (?:reaches (\w+\(\))(?: in (\w+\(\)))?|is (stored))',
                 detail)
    if not m:
        return 'none: ' + detail
    if m.group(4):
        return 'none (%s, stored)' % m.group(1)
    via = ' in %s' % m.group(3) if m.group(3) else ''
    return 'none (%s → %s%s)' % (m.group(1), m.group(2), via)


def group(findings):
    """The rows of the table: one per (file, function), with its kinds and
    checks in the order of their lines."""
    rows: collections.OrderedDict[tuple[str, str], dict[str, Any]] = \
        collections.OrderedDict()
    for f in sorted(findings, key=lambda f: (f['file'], f['fn'],
                                             int(f['line']))):
        r = rows.setdefault((f['file'], f['fn']),
                            {'file': f['file'], 'fn': f['fn'],
                             'kinds': set(), 'checks': []})
        r['kinds'].add(f['kind'])
        c = check_text(f['kind'], f['detail'])
        if c not in r['checks']:
            r['checks'].append(c)
    return rows


def syscall_name(sym):
    if sym.startswith('compat_sys_'):
        return 'compat_' + sym[len('compat_sys_'):]
    if sym.startswith('sys_'):
        return sym[len('sys_'):]
    return sym


def consistency(r):
    """'yes' for a row that checks only with the helpers, 'ABI: why' for a
    row of ABI_RULES whose open-coded checks are exactly the rule's,
    'kept: why' for a row of KEPT_VALID whose only checks are exactly its
    legacy ones, else 'no'."""
    if r['kinds'] <= {'helper'}:
        return 'yes'
    opened = {c for c in r['checks'] if c.startswith('open-coded ')}
    for label, table, kinds, checks in (
            ('ABI: ', ABI_RULES, {'helper', 'open-coded'}, opened),
            ('kept: ', KEPT_VALID, {'legacy'}, set(r['checks']))):
        rule = table.get((r['file'], r['fn']))
        if rule and r['kinds'] <= kinds and checks == rule[0]:
            return label + rule[1]
    return 'no'


def classify(rows, g):
    """Fill in each row's entry points, check and consistency; the rows on
    timeout paths, the others, and the timeout-path rows not consistent."""
    timeout: list[dict[str, Any]] = []
    other: list[dict[str, Any]] = []
    for r in rows.values():
        name = r['fn']
        found, cut = g.entry_points(name, r['file'])
        names = sorted(syscall_name(s) for s in found)
        entries = ', '.join(names) if names else 'none found'
        if cut:
            entries += ' (not followed: callers of %s)' % ', '.join(
                '`%s`' % c for c in sorted(cut))
        r['entries'] = entries
        r['check'] = ', '.join(r['checks'])
        r['consistent'] = consistency(r)
        r['timeout'] = any(n in TIMEOUT_SYSCALLS for n in names)
        (timeout if r['timeout'] else other).append(r)
    bad = [r for r in timeout if r['consistent'] == 'no']
    return timeout, other, bad

