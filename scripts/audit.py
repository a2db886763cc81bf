#!/usr/bin/env python3
# usage: scripts/audit.py [-h] --src DIR --cocci FILE --cocci-origin TEXT
#                         --base-tag TAG --macros FILE --out FILE --dirs DIRS
#                         --graph-dirs DIRS --forms-cocci FILE --forms-table
#                         FILE --forms-json FILE [--jobs N] [--doc FILE]
#                         [--strict]
# The analysis half of scripts/audit.sh (which picks the semantic patch and
# builds the macro file; run that, not this).  Python 3 standard library only.
#
#  1. Findings: spatch -D audit with the series' timespec64_timeout.cocci on the
#     files of $TS_AUDIT_DIRS that git grep finds a timespec token in.  Every
#     message is "file:line:col-col: WARNING|INFO: fn(): kind: detail"; a row
#     of the table is one (file, function) with its kinds.
#  2. Call graph, backwards from the rows: git grep finds the files that name
#     a function (or assign it to a structure field, `.prep = fn`); spatch
#     with CALLGRAPH_COCCI below lists their definitions, direct calls and
#     calls through a field (`E->fld(...)`), and the walk goes up until it
#     meets syscalls: SYSCALL_DEFINEn(x) is parsed as sys_x and
#     COMPAT_SYSCALL_DEFINEn(x) as compat_sys_x (the macro file).  A static
#     function is only called from its own file.
#  3. The one decision that is not derived: which syscalls take a timeout
#     (TIMEOUT_SYSCALLS).  A row is on a timeout path iff a syscall of that
#     list reaches it.
#  4. Other timeout forms (timeval, integer seconds, ms and us, timeout
#     structures of ioctls and socket options): spatch with --forms-cocci
#     (scripts/forms.cocci) on the files git grep selects (FORMS_* below,
#     drivers/ included only so); each finding, one (file, function), must
#     be an entry of --forms-table (scripts/forms_table.py) by file:function,
#     and every entry must be found.  No call graph: the table gives the
#     entry points.  The interfaces found go to --forms-json.
# It writes the markdown tables to --out and rewrites the sections of --doc
# between the audit markers and between the forms markers.
# Exit status (the same for scripts/audit.sh and scripts/audit.py):
#   0  audited; with --strict, every timeout-path row is consistent with the
#      contract, every other timeout form found is an entry of the forms
#      table and every entry is found (audit.sh --base: 6.12's audit found
#      every expected path inconsistent, and the forms table holds there too)
#   1  audited, and the answer is no: with --strict, a timeout-path row is
#      not consistent, a form found is not in the forms table ("unlisted
#      timeout form") or an entry is not found ("stale forms_table entry"),
#      named (audit.sh --base: an expected path was not found inconsistent,
#      or the forms table does not hold on 6.12)
#   2  the audit could not be done, named: bad usage, a missing tree, tool or
#      file, a spatch failure (an exception, a timeout, unparseable output, a
#      helper call it did not see), a forms table that is not valid, or any
#      other error
import argparse
import collections
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import traceback

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

# The tokens a file must contain to be given to spatch (both rule sets).
PREFILTER = (r'tv_sec|tv_nsec|timespec64_valid|itimerspec64_valid|'
             r'get_timespec64|get_old_timespec32|_check_timeout|'
             r'timespec64_classify')

# Calls, calls through a structure field, and definitions.  Each script
# rule follows its own match rule: spatch is 20x slower otherwise.
CALLGRAPH_COCCI = r'''
@def@
identifier f;
position p;
@@
f@p(...) { ... }

@script:python@
p << def.p;
f << def.f;
@@
print("D\t%s\t%s\t%s\t%s" % (p[0].file, p[0].line, p[0].column, f))

@call@
identifier g;
position p;
@@
g@p(...)

@script:python@
p << call.p;
g << call.g;
@@
print("C\t%s\t%s\t%s" % (p[0].file, p[0].current_element, g))

@icall@
expression E;
identifier fld;
position p;
@@
\(E->fld@p(...)\|E.fld@p(...)\)

@script:python@
p << icall.p;
fld << icall.fld;
@@
print("I\t%s\t%s\t%s" % (p[0].file, p[0].current_element, fld))
'''

FINDING = re.compile(r'^(?P<file>[^:\s]+):(?P<line>\d+):\d+-\d+: '
                     r'(?P<sev>WARNING|INFO): (?P<fn>[A-Za-z_]\w*)\(\): '
                     r'(?P<kind>open-coded|legacy|unchecked|helper|setter): '
                     r'(?P<detail>.*)$')
CG_LINE = re.compile(r'^(D\t[^\t]+\t\d+\t\d+\t\w+|[CI]\t[^\t]+\t[^\t]+\t\w+)$')

# A name or field that more files than this mention is not followed: the
# walk would parse half the kernel (->write(), ->ioctl()...).  The row then
# says so.
FANIN_FILES = 40

# How many levels of callers the walk looks up.  The deepest timeout path
# known is 6 (__io_timeout_prep <- io_timeout_prep <-.prep io_init_req <-
# io_submit_sqe <- io_submit_sqes <- io_uring_enter).
DEPTH = 8

DOC_BEGIN = '<!-- audit:begin (generated by scripts/audit.sh --doc; do not edit) -->'
DOC_END = '<!-- audit:end -->'
FORMS_BEGIN = ('<!-- audit-forms:begin (generated by scripts/audit.sh --doc; '
               'do not edit) -->')
FORMS_END = '<!-- audit-forms:end -->'

# The forms phase's file selection (docs/audit.md): spatch only sees the
# files of --dirs that git grep selects by one of these, drivers/ included.
#  copy+read   a variable V copied in by one of FORMS_COPY (into &V,
#              (cast)&V or V) and a timeout field of a V read (V.F, V->F,
#              V.G.F, V->G.F; F as FORMS_FIELD), in the same file
#  tv_usec     a copy-in and the word tv_usec (a timeval, or one passed as
#              two integers)
#  get_user    get_user(..., &...F) on one line
#  syscall     SYSCALL_DEFINE and an integer parameter named like a
#              timeout ("int, timeout_msecs")
# The rules of scripts/forms.cocci use the same names; a "use" finding
# counts only if its variable is copied in by its function, or a variable
# of its type is, in its file (forms_find()).
FORMS_COPY = ('copy_from_user', 'copy_from_sockptr', 'copy_safe_from_sockptr',
              'sock_copy_user_timeval', 'memcpy_from_msg',
              'copy_struct_from_user')
FORMS_FIELD = (r'(?:tv_usec|sec|nsec|usec|msec|secs|nsecs|usecs|msecs|'
               r'\w*_(?:sec|secs|nsec|nsecs|usec|usecs|msec|msecs|ms|us|ns)|'
               r'\w*(?:timeo|linger)\w*)')
# git grep -P (PCRE): glibc's regex, -E, takes minutes on these over drivers/
FORMS_COPY_RE = (r'\b(?:%s)\s*\(\s*(?:\([^()]*\)\s*)?&?\s*\w+' %
                 '|'.join(FORMS_COPY))
FORMS_READ_RE = r'\b\w+\s*(?:\.|->)\s*(?:\w+\s*(?:\.|->)\s*)?' + FORMS_FIELD + r'\b'
FORMS_GET_USER_RE = r'get_user\s*\(.*&[^;]*(?:\.|->)\s*' + FORMS_FIELD + r'\b'
FORMS_SYSCALL_RE = r'\w+\s*,\s*\w*(?:timeout|msec|usec|seconds|secs)\w*\s*[,)]'
FORM_LINE = re.compile(r'^FORM\t(?P<kind>use|getuser|copy|scalar|syscall)\t'
                       r'(?P<file>[^\t]+)\t(?P<line>\d+)\t(?P<fn>\w+)\t'
                       r'(?P<var>[^\t]+)\t(?P<type>[^\t]*)\t(?P<detail>[^\t]*)$')


T0 = time.time()


def log(msg):
    print('==> [%3.0f s] %s' % (time.time() - T0, msg), file=sys.stderr,
          flush=True)


def die(msg):
    print('error: ' + msg, file=sys.stderr, flush=True)
    sys.exit(2)


class Spatch:
    def __init__(self, src, macros, jobs, tmp):
        self.src, self.macros, self.jobs, self.tmp = src, macros, jobs, tmp
        self.runs = 0

    def run(self, sp_file, files, extra, what):
        """spatch on FILES (each its own group); stdout lines.  Dies on any
        failure, naming it."""
        if not files:
            return []
        self.runs += 1
        groups = os.path.join(self.tmp, 'groups%d' % self.runs)
        with open(groups, 'w') as f:
            f.write(''.join('%s\n\n' % x for x in sorted(files)))
        cmd = ['spatch', '--very-quiet', '--no-includes', '--include-headers',
               '--macro-file-builtins', self.macros, '-j', str(self.jobs),
               '--timeout', '120', '--sp-file', sp_file,
               '--file-groups', groups] + extra
        p = subprocess.run(cmd, cwd=self.src, capture_output=True, text=True)
        # warnings about the semantic patch itself are harmless; anything
        # else (an exception, a stack overflow, a timeout) lost results.
        bad = [l for l in p.stderr.splitlines()
               if l.strip() and not l.startswith('warning: ')]
        if p.returncode != 0 or bad:
            die('spatch failed (%s, exit %d, %d files): %s\n  command: %s' %
                (what, p.returncode, len(files),
                 '\n  '.join(bad[-15:]) or '(no message)', ' '.join(cmd)))
        return p.stdout.splitlines()


def git_grep(src, args, dirs):
    """git grep in the work tree (the current content of tracked files;
    --untracked finds nothing in trees whose .gitignore ignores all).
    Patterns are PCRE (-P): glibc's regex (-E) is 5 to 100 times slower on
    these, a minute of make audit."""
    cmd = ['git', '-C', src, 'grep', '-I'] + args + ['--'] + \
        ['%s/*.c' % d for d in dirs] + ['%s/*.h' % d for d in dirs]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (0, 1):  # 1: nothing found
        die('git grep failed (exit %d): %s' % (p.returncode, p.stderr.strip()))
    return p.stdout.splitlines()


def chunks(seq, n):
    seq = list(seq)
    for i in range(0, len(seq), n):
        yield seq[i:i + n]


class Graph:
    """The call graph of the files parsed so far, grown on demand."""

    def __init__(self, src, spatch, cg_file, dirs, macros):
        self.src, self.spatch, self.cg_file = src, spatch, cg_file
        self.dirs, self.macros = dirs, macros
        self.parsed = set()
        self.defs = collections.defaultdict(dict)   # name -> {file: static}
        self.syscalls = set()                        # sys_x, compat_sys_x
        self.callers = collections.defaultdict(set)  # callee -> {(caller, file)}
        self.icallers = collections.defaultdict(set)  # field -> {(caller, file)}
        self.fields = collections.defaultdict(set)   # fn -> {(field, file)}
        self.looked_up = set()
        self.too_wide = set()                        # names/fields not followed
        self.looked_up_fields = set()
        self.depth_cut = set()
        self.lines = {}

    def _line(self, path, n):
        if path not in self.lines:
            with open(os.path.join(self.src, path), errors='replace') as f:
                self.lines[path] = f.read().splitlines()
        text = self.lines[path]
        return text[n - 1] if 0 < n <= len(text) else ''

    def _is_static(self, path, line, col):
        prefix = self._line(path, line)[:col]
        if re.search(r'\bstatic\b', prefix):
            return True
        return not prefix.strip() and \
            re.search(r'\bstatic\b', self._line(path, line - 1)) is not None

    def parse(self, files):
        new = sorted(set(files) - self.parsed)
        if not new:
            return
        self.parsed.update(new)
        for l in self.spatch.run(self.cg_file, new, [], 'call graph'):
            if not CG_LINE.match(l):
                die('unparseable call-graph line from spatch: %r' % l)
            f = l.split('\t')
            if f[0] == 'D':
                path, line, col, name = f[1], int(f[2]), int(f[3]), f[4]
                if os.path.abspath(os.path.join(self.src, path)) == \
                        os.path.abspath(self.macros):
                    self.syscalls.add(name)
                else:
                    self.defs[name][path] = self._is_static(path, line, col)
            elif f[0] == 'C':
                self.callers[f[3]].add((f[2], f[1]))
            else:
                self.icallers[f[3]].add((f[2], f[1]))

    def _grep_words(self, words, fmt):
        """{word: files} for the words git grep finds, in one pass per 200:
        FMT is '%s' for a plain word, or a regex around the word group."""
        found = collections.defaultdict(set)
        for batch in chunks(sorted(words), 200):
            if fmt == '%s':
                args = ['-o', '-w', '-F']
                for w in batch:
                    args += ['-e', w]
            else:
                args = ['-o', '-P', fmt % '|'.join(batch)]
            for hit in git_grep(self.src, args, self.dirs):
                path, text = hit.split(':', 1)
                for w in re.findall(r'\w+', text):
                    if w in batch:
                        found[w].add(path)
        return found

    def grow(self, names, depth):
        """Parse the files that call NAMES, directly or through a structure
        field they are stored in (.fld = fn, x->fld = fn), then the files
        that call those callers, DEPTH levels up or until syscalls.  A name
        or field more than FANIN_FILES files mention is not followed."""
        frontier = set(names)
        for level in range(depth):
            todo = frontier - self.looked_up - self.syscalls
            if not todo:
                break
            self.looked_up |= todo
            files = set()
            for n, fs in self._grep_words(todo, '%s').items():
                if len(fs) > FANIN_FILES:
                    self.too_wide.add(n)
                else:
                    files |= fs
            assign = (r'[.>][[:space:]]*[A-Za-z_][A-Za-z0-9_]*[[:space:]]*='
                      r'[[:space:]]*&?[[:space:]]*(%s)[[:space:]]*([,;}]|$)')
            new_fields = set()
            for batch in chunks(sorted(todo), 100):
                for hit in git_grep(self.src, ['-o', '-P', assign % '|'.join(batch)],
                                    self.dirs):
                    path, text = hit.split(':', 1)
                    m = re.match(r'[.>]\s*(\w+)\s*=\s*&?\s*(\w+)', text)
                    if not m or m.group(2) not in todo:
                        continue
                    self.fields[m.group(2)].add((m.group(1), path))
                    files.add(path)
                    if m.group(1) not in self.looked_up_fields:
                        new_fields.add(m.group(1))
            self.looked_up_fields |= new_fields
            icall = r'(->|\.)[[:space:]]*(%s)[[:space:]]*\('
            for fld, fs in self._grep_words(new_fields, icall).items():
                if len(fs) > FANIN_FILES:
                    self.too_wide.add('->' + fld)
                else:
                    files |= fs
            self.parse(files)
            frontier = set()
            for n in todo:
                for caller, _ in self.callers.get(n, ()):
                    frontier.add(caller)
                for fld, _ in self.fields.get(n, ()):
                    if '->' + fld not in self.too_wide:
                        for caller, _ in self.icallers.get(fld, ()):
                            frontier.add(caller)
            log('call graph: level %d: %d functions, %d files parsed' %
                (level + 1, len(todo), len(self.parsed)))
        # callers found at the last level, whose own callers were not looked
        # up: a walk that ends there says so
        self.depth_cut = frontier - self.looked_up - self.syscalls

    def static_in(self, name, path):
        return self.defs.get(name, {}).get(path, False)

    def node(self, name, path):
        return (name, path if self.static_in(name, path) else None)

    def up(self, node):
        """Callers of NODE (name, file if static)."""
        name, spath = node
        out = set()
        for caller, cf in self.callers.get(name, ()):
            if spath is not None and cf != spath:
                continue
            if spath is None and self.static_in(name, cf):
                continue  # a static namesake in the caller's file
            out.add(self.node(caller, cf))
        for fld, af in self.fields.get(name, ()):
            if spath is not None and af != spath:
                continue
            if '->' + fld in self.too_wide:
                continue
            for caller, cf in self.icallers.get(fld, ()):
                out.add(self.node(caller, cf))
        return out

    def entry_points(self, name, path):
        """Syscalls that reach NAME defined in PATH, and the names and fields
        whose callers were not followed."""
        start = self.node(name, path)
        seen, stack, found, cut = {start}, [start], set(), set()
        while stack:
            n = stack.pop()
            if n[0] in self.syscalls:
                found.add(n[0])
                continue
            if n[0] in self.too_wide or n[0] in self.depth_cut:
                cut.add(n[0])
            for fld, _ in self.fields.get(n[0], ()):
                if '->' + fld in self.too_wide:
                    cut.add('->' + fld)
            for m in self.up(n):
                if m not in seen:
                    seen.add(m)
                    stack.append(m)
        return found, cut


def shown(path):
    """PATH as the table shows it: relative to the repository, or ~/..."""
    path = os.path.abspath(path)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    home = os.path.expanduser('~')
    if path.startswith(repo + os.sep):
        return os.path.relpath(path, repo)
    if home != '/' and path.startswith(home + os.sep):
        return '~' + path[len(home):]
    return path


def syscall_name(sym):
    if sym.startswith('compat_sys_'):
        return 'compat_' + sym[len('compat_sys_'):]
    if sym.startswith('sys_'):
        return sym[len('sys_'):]
    return sym


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


def self_check(src, dirs, findings):
    """Every call of a legacy or new helper that git grep sees must be a
    finding: otherwise spatch did not parse that function."""
    seen = {(f['file'], int(f['line'])) for f in findings}
    pat = (r'\b(timespec64_valid|itimerspec64_valid|timespec64_valid_strict|'
           r'timespec64_valid_settod|timespec64_check_timeout|'
           r'itimerspec64_check_timeout|timespec64_classify)[[:space:]]*\(')
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


def table(rows, consistent_col):
    out = ['| file | function | entry points served | check used | '
           'consistent with the contract |', '|---|---|---|---|---|']
    for r in rows:
        out.append('| `%s` | `%s()` | %s | %s | %s |' % (
            r['file'], r['fn'], r['entries'], r['check'],
            r['consistent'] if consistent_col else 'n/a'))
    return out


def parse_args():
    # argparse's usage names every required option: the header above says
    # the same (scripts/tests/test_audit.sh compares them), and a usage error
    # exits 2, as the exit status wants.
    ap = argparse.ArgumentParser(prog='scripts/audit.py')
    ap.add_argument('--src', required=True, metavar='DIR',
                    help='the kernel tree to audit (git)')
    ap.add_argument('--cocci', required=True, metavar='FILE',
                    help='the semantic patch (timespec64_timeout.cocci)')
    ap.add_argument('--cocci-origin', required=True, metavar='TEXT',
                    help='where the semantic patch comes from, for the table')
    ap.add_argument('--base-tag', required=True, metavar='TAG',
                    help='the tag of the base release in --src')
    ap.add_argument('--macros', required=True, metavar='FILE',
                    help="spatch's macro file, syscalls renamed")
    ap.add_argument('--out', required=True, metavar='FILE',
                    help='where to write the table')
    ap.add_argument('--dirs', required=True, metavar='DIRS',
                    help='directories of --src to audit, space-separated')
    ap.add_argument('--graph-dirs', required=True, metavar='DIRS',
                    help='directories to search for callers, space-separated')
    ap.add_argument('--forms-cocci', required=True, metavar='FILE',
                    help='the semantic patch of the other timeout forms '
                    '(scripts/forms.cocci)')
    ap.add_argument('--forms-table', required=True, metavar='FILE',
                    help='their table (scripts/forms_table.py)')
    ap.add_argument('--forms-json', required=True, metavar='FILE',
                    help='where to write the interfaces found, as JSON')
    ap.add_argument('--jobs', type=int, default=2, metavar='N',
                    help='spatch -j (default 2)')
    ap.add_argument('--doc', metavar='FILE',
                    help='also rewrite the table between the audit markers')
    ap.add_argument('--strict', action='store_true',
                    help='exit 1 if a timeout-path row is not consistent')
    return ap.parse_args()


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


def group(findings):
    """The rows of the table: one per (file, function), with its kinds and
    checks in the order of their lines."""
    rows = collections.OrderedDict()
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


def call_graph(sp, tmp, rows, src, gdirs, macros):
    """The call graph above ROWS, DEPTH levels up, from the files of GDIRS."""
    cg_file = os.path.join(tmp, 'callgraph.cocci')
    with open(cg_file, 'w') as f:
        f.write(CALLGRAPH_COCCI)
    g = Graph(src, sp, cg_file, gdirs, macros)
    log('call graph: walking up from %d functions' % len(rows))
    g.parse({r['file'] for r in rows.values()})
    g.grow({r['fn'] for r in rows.values()}, DEPTH)
    log('call graph: %d files parsed' % len(g.parsed))
    return g


def classify(rows, g):
    """Fill in each row's entry points, check and consistency; the rows on
    timeout paths, the others, and the timeout-path rows not consistent."""
    timeout, other = [], []
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
        r['consistent'] = 'yes' if r['kinds'] <= {'helper'} else 'no'
        r['timeout'] = any(n in TIMEOUT_SYSCALLS for n in names)
        (timeout if r['timeout'] else other).append(r)
    bad = [r for r in timeout if r['consistent'] == 'no']
    return timeout, other, bad


def load_forms_table(path):
    """The forms table module at PATH (scripts/forms_table.py), validated."""
    spec = importlib.util.spec_from_file_location('forms_table', path)
    if spec is None or not os.path.isfile(path):
        die('forms table %s not found' % path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    problems = mod.validate()
    if problems:
        die('forms table %s is not valid:\n  %s' % (path, '\n  '.join(problems)))
    return mod


def forms_files(src, dirs):
    """{criterion: files} of DIRS that git grep selects for the forms phase
    (FORMS_* above)."""
    copied = collections.defaultdict(set)
    for hit in git_grep(src, ['-o', '-P', FORMS_COPY_RE], dirs):
        path, text = hit.split(':', 1)
        copied[path].add(re.findall(r'\w+', text)[-1])
    read = collections.defaultdict(set)
    for hit in git_grep(src, ['-o', '-P', FORMS_READ_RE], dirs):
        path, text = hit.split(':', 1)
        # tv_sec and tv_nsec are timespecs, the other semantic patch's
        if re.findall(r'\w+', text)[-1] not in ('tv_sec', 'tv_nsec'):
            read[path].add(re.match(r'\w+', text).group(0))
    return {
        'a variable copied in and a timeout field of it read':
            {f for f in copied if copied[f] & read.get(f, set())},
        'a copy-in and tv_usec':
            set(git_grep(src, ['-l', '-w', 'tv_usec'], dirs)) & set(copied),
        'get_user() of a timeout field':
            set(git_grep(src, ['-l', '-P', FORMS_GET_USER_RE], dirs)),
        'a syscall with a parameter named like a timeout':
            set(git_grep(src, ['-l', '-P', '--all-match', '-e', 'SYSCALL_DEFINE',
                               '-e', FORMS_SYSCALL_RE], dirs)),
    }


def bare_type(t):
    """A C type without qualifiers, pointers or array sizes."""
    t = re.sub(r'\b(const|volatile|__user)\b|\*|\[[^]]*\]', ' ', t)
    return ' '.join(t.split())


def forms_find(sp, src, cocci, dirs):
    """The findings of the forms semantic patch on the files git grep
    selects: {(file, function): row}, and the selection."""
    sel = forms_files(src, dirs)
    files = sorted(set().union(*sel.values()))
    if not files:
        die('git grep selected no file for the forms phase in %s of %s' %
            (' '.join(dirs), src))
    log('forms: %s on %d files (%d in drivers/)' % (
        os.path.basename(cocci), len(files),
        sum(f.startswith('drivers/') for f in files)))
    hits, copies = [], set()
    for l in sp.run(cocci, files, [], 'forms'):
        m = FORM_LINE.match(l)
        if not m:
            die('unparseable forms line from spatch: %r' % l)
        f = m.groupdict()
        f['type'] = bare_type(f['type'])
        if f['kind'] == 'copy':
            copies.add((f['file'], f['fn'], f['var']))
            copies.add((f['file'], f['type']))
        else:
            hits.append(f)
    rows = {}
    for f in sorted(hits, key=lambda f: (f['file'], f['fn'], int(f['line']))):
        # a read counts if its variable is copied in by its function, or
        # a variable of its structure type is, in its file
        if f['kind'] == 'use' and (f['file'], f['fn'], f['var']) not in copies \
                and (f['file'], f['type']) not in copies:
            continue
        read = {'use': '%(var)s.%(detail)s',
                'getuser': 'get_user() of %(var)s.%(detail)s',
                'scalar': 'parameter %(type)s %(var)s',
                'syscall': 'parameter %(type)s %(var)s'}[f['kind']] % f
        r = rows.setdefault((f['file'], f['fn']), {
            'file': f['file'], 'function': f['fn'], 'line': int(f['line']),
            'reads': []})
        if read not in r['reads']:
            r['reads'].append(read)
    return rows, sel


def forms_match(rows, table):
    """Each row to the entry or set-aside that lists its file:function:
    {id: [rows]}, the rows no entry lists, the entries none of whose
    functions is found, and the listed functions not found."""
    owner = {}
    for e in table.ENTRIES + table.SET_ASIDE:
        for fn in e['functions']:
            owner[fn] = e['id']
    found = collections.defaultdict(list)
    unlisted = []
    for key in sorted(rows):
        o = owner.get('%s:%s' % key)
        if o is None:
            unlisted.append(rows[key])
        else:
            found[o].append(rows[key])
    stale = [e for e in table.ENTRIES + table.SET_ASIDE if e['id'] not in found]
    seen = {'%s:%s' % k for k in rows}
    missing = sorted(fn for e in table.ENTRIES + table.SET_ASIDE
                     if e['id'] in found for fn in e['functions'] if fn not in seen)
    return dict(found), unlisted, stale, missing


def forms_problems(unlisted, stale):
    """The lines that name what is wrong, as --strict reports them."""
    return ['unlisted timeout form: %s %s(): %s' %
            (r['file'], r['function'], ', '.join(r['reads'])) for r in unlisted] + \
        ['stale forms_table entry: %s: none of %s found' %
         (e['id'], ', '.join(e['functions'])) for e in stale]


def md(text):
    """TEXT for a markdown table: identifiers with an underscore (and their
    "()") in code spans, so that __kernel_old_timeval is not bold."""
    return re.sub(r'(?<![`\w])([A-Za-z_]\w*_\w*(?:\(\))?)', r'`\1`', text)


def where(rows):
    return ', '.join('`%s:%d` `%s()`' % (r['file'], r['line'], r['function'])
                     for r in rows)


def render_forms(a, sel, table, found, unlisted, stale, missing):
    """The body of the forms section (what --out and --doc share)."""
    files = set().union(*sel.values())
    out = [
        'Semantic patch: `%s`; table: `%s` (%d entries, %d set aside).' % (
            shown(a.forms_cocci), shown(a.forms_table), len(table.ENTRIES),
            len(table.SET_ASIDE)),
        'Files: %d selected by git grep (%d in `drivers/`): %s.' % (
            len(files), sum(f.startswith('drivers/') for f in files),
            ', '.join('%s %d' % (k, len(v)) for k, v in sel.items())),
        '',
        '### Other timeout forms',
        '',
        '%d of %d interfaces found; %d findings not in the table (unlisted), '
        '%d entries not found (stale). Function found: the first line that '
        'reads the value.' % (
            sum(e['id'] in found for e in table.ENTRIES), len(table.ENTRIES),
            len(unlisted), len(stale)),
        '',
        '| interface | entry points | form | function(s) found (file:line) | '
        'rule | decision |',
        '|---|---|---|---|---|---|',
    ]
    for e in table.ENTRIES:
        out.append('| %s (`%s`) | %s | %s | %s | %s | %s |' % (
            md(e['name']), e['id'], md(', '.join(e['entry_points'])),
            md(e['form']),
            where(found[e['id']]) if e['id'] in found else '**not found**',
            md(e['rule']), e['decision']))
    out += ['', '### Found and set aside', '',
            'What the rules find that is no timeout of a system call '
            'interface (`SET_ASIDE` of the table).', '',
            '| function(s) found (file:line) | value | why |', '|---|---|---|']
    for e in table.SET_ASIDE:
        out.append('| %s | %s | %s |' % (
            where(found[e['id']]) if e['id'] in found else '**not found**',
            md(e['what']), md(e['why'])))
    if unlisted:
        out += ['', '### Unlisted', '', '| file:line | function | reads |',
                '|---|---|---|']
        out += ['| `%s:%d` | `%s()` | %s |' % (r['file'], r['line'], r['function'],
                                              ', '.join('`%s`' % x for x in r['reads']))
                for r in unlisted]
    if missing:
        out += ['', 'Listed but not found (their entries are found by other '
                'functions): %s.' % ', '.join('`%s`' % m for m in missing)]
    return out


def write_forms_json(path, a, sel, table, found, unlisted, stale):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    data = {
        'tree': shown(a.src),
        'head': tree_head(a.src, a.base_tag),
        'semantic_patch': shown(a.forms_cocci),
        'table': shown(a.forms_table),
        'files': {k: sorted(v) for k, v in sel.items()},
        'interfaces': [dict(e, found=found[e['id']]) for e in table.ENTRIES
                       if e['id'] in found],
        'set_aside': [dict(e, found=found[e['id']]) for e in table.SET_ASIDE
                      if e['id'] in found],
        'unlisted': unlisted,
        'stale': [e['id'] for e in stale],
    }
    with open(path, 'w') as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write('\n')


def tree_head(src, base_tag):
    """SRC's HEAD named by its content, not by a hash that every `git am`
    changes."""
    n_patches = subprocess.run(['git', '-C', src, 'rev-list', '--count',
                                base_tag + '..HEAD'], capture_output=True,
                               text=True, check=True).stdout.strip()
    last = subprocess.run(['git', '-C', src, 'log', '-1', '--format=%s'],
                          capture_output=True, text=True,
                          check=True).stdout.strip()
    return '%s + %s patches, the last: %s' % (base_tag, n_patches, last)


def render(a, dirs, gdirs, timeout, other, bad):
    """The body of the table (what --out and --doc share), as lines."""
    src_head = tree_head(a.src, a.base_tag)
    dirty = subprocess.run(['git', '-C', a.src, 'status', '--porcelain',
                            '--untracked-files=no'], capture_output=True,
                           text=True).stdout.splitlines()
    return [
        'Tree: `%s` at `%s`%s.' % (shown(a.src), src_head,
                                   ', with %d modified files' % len(dirty)
                                   if dirty else ''),
        'Semantic patch: `%s` (%s).' % (shown(a.cocci), a.cocci_origin),
        'Scope: %s; callers searched in %s.' % (
            ', '.join('`%s/`' % d for d in dirs),
            ', '.join('`%s/`' % d for d in gdirs)),
        '',
        '### Timeout paths',
        '',
        'Reached from a timeout-taking syscall. Consistent = checked only '
        'with `timespec64_check_timeout()`, `itimerspec64_check_timeout()` or '
        '`timespec64_classify()`. %d of %d rows are not consistent.' %
        (len(bad), len(timeout)),
        '',
    ] + table(timeout, True) + [
        '',
        '### Not a timeout path',
        '',
        'No timeout-taking syscall reaches these functions in the call graph '
        '(clock setters, file timestamps, drivers, ...); the contract does '
        'not apply. "none found": no syscall at all was reached (a kernel '
        'thread, a callback the graph cannot see).',
        '',
    ] + table(other, False)


def write_out(out, body, forms_body):
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, 'w') as f:
        f.write('\n'.join(['# Timeout validation audit', '',
                           'Generated by `scripts/audit.sh`.', ''] + body +
                          ['', '## The other timeout forms', ''] + forms_body) +
                '\n')


def rewrite_doc(doc_file, sections):
    """Replace what lies between each pair of markers of DOC_FILE by its
    body: SECTIONS is [(begin, end, body)].  Nothing is written unless
    every pair is there, once, in order."""
    with open(doc_file) as f:
        doc = f.read()
    for begin, end, _ in sections:
        if doc.count(begin) != 1 or doc.count(end) != 1 or \
                doc.index(begin) > doc.index(end):
            die('%s: needs exactly one pair of markers\n  %s\n  %s' %
                (doc_file, begin, end))
    for begin, end, body in sections:
        head, rest = doc.split(begin)
        _, tail = rest.split(end)
        doc = head + begin + '\n\n' + '\n'.join(body) + '\n\n' + end + tail
    with open(doc_file, 'w') as f:
        f.write(doc)
    log('rewrote the tables in %s' % doc_file)


def verdict(strict, bad, problems, table, out):
    """Print the path of the table last, and the exit status: 1 with STRICT
    if a timeout-path row is not consistent or the forms table does not
    hold (PROBLEMS, named either way), else 0."""
    for p in problems:
        print(p, file=sys.stderr)
    if strict and (bad or problems):
        for r in bad:
            print('inconsistent: %s %s(): %s' % (r['file'], r['fn'], r['check']),
                  file=sys.stderr)
        print(out)
        if bad:
            print('error: %d timeout-path rows are not consistent with the '
                  'contract' % len(bad), file=sys.stderr)
        if problems:
            print('error: %d other timeout forms are not as %s says' %
                  (len(problems), table), file=sys.stderr)
        return 1
    print(out)
    return 0


def main():
    a = parse_args()
    t0 = time.time()
    dirs = a.dirs.split()
    gdirs = a.graph_dirs.split()

    table = load_forms_table(a.forms_table)
    with tempfile.TemporaryDirectory(prefix='ts-audit.') as tmp:
        sp = Spatch(a.src, a.macros, a.jobs, tmp)
        findings = find(sp, a.src, a.cocci, dirs)
        missed = self_check(a.src, dirs, findings)
        if missed:
            die('spatch did not report these calls (a parse failure in the '
                'function?):\n  ' + '\n  '.join(missed))
        rows = group(findings)
        t_forms = time.time()
        form_rows, sel = forms_find(sp, a.src, a.forms_cocci, dirs)
        t_forms = time.time() - t_forms
        g = call_graph(sp, tmp, rows, a.src, gdirs, a.macros)

    timeout, other, bad = classify(rows, g)
    body = render(a, dirs, gdirs, timeout, other, bad)
    found, unlisted, stale, missing = forms_match(form_rows, table)
    forms_body = render_forms(a, sel, table, found, unlisted, stale, missing)
    write_out(a.out, body, forms_body)
    write_forms_json(a.forms_json, a, sel, table, found, unlisted, stale)
    if a.doc:
        rewrite_doc(a.doc, [(DOC_BEGIN, DOC_END, body),
                            (FORMS_BEGIN, FORMS_END, forms_body)])
    log('audit: %d rows on timeout paths (%d not consistent), %d elsewhere, '
        '%d spatch runs, %.0f s' % (len(timeout), len(bad), len(other),
                                    sp.runs, time.time() - t0))
    log('forms: %d of %d interfaces found, %d findings set aside, %d unlisted, '
        '%d stale, in %.0f s; %s' % (
            sum(e['id'] in found for e in table.ENTRIES), len(table.ENTRIES),
            sum(len(found[e['id']]) for e in table.SET_ASIDE if e['id'] in found),
            len(unlisted), len(stale), t_forms, a.forms_json))
    return verdict(a.strict, bad, forms_problems(unlisted, stale),
                   shown(a.forms_table), a.out)


if __name__ == '__main__':
    try:
        sys.exit(main())
    except Exception:
        # Python exits 1 on an uncaught exception (a failed git, a bug),
        # which the exit status reserves for "not consistent": say 2.
        traceback.print_exc()
        print('error: audit.py failed (the traceback above)', file=sys.stderr)
        sys.exit(2)
