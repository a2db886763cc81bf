#!/usr/bin/env python3
# usage: scripts/audit.py [-h] --src DIR --cocci FILE --cocci-origin TEXT
#                         --base-tag TAG --macros FILE --out FILE --dirs DIRS
#                         --graph-dirs DIRS [--jobs N] [--doc FILE] [--strict]
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
# It writes the markdown table to --out and rewrites the section of --doc
# between the audit markers.
# Exit status (the same for scripts/audit.sh and scripts/audit.py):
#   0  audited; with --strict, every timeout-path row is consistent with the
#      contract (audit.sh --base: 6.12's audit found every expected path
#      inconsistent)
#   1  audited, and the answer is no: with --strict, a timeout-path row is
#      not consistent, named (audit.sh --base: an expected path was not found
#      inconsistent)
#   2  the audit could not be done, named: bad usage, a missing tree, tool or
#      file, a spatch failure (an exception, a timeout, unparseable output, a
#      helper call it did not see) or any other error
import argparse
import collections
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
# audit only lists functions that touch a timespec.
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
    --untracked finds nothing in trees whose .gitignore ignores all)."""
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
                args = ['-o', '-E', fmt % '|'.join(batch)]
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
                for hit in git_grep(self.src, ['-o', '-E', assign % '|'.join(batch)],
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
    for hit in git_grep(src, ['-n', '-E', pat], dirs):
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
    files = git_grep(src, ['-l', '-E', PREFILTER], dirs)
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


def write_out(out, body):
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, 'w') as f:
        f.write('\n'.join(['# Timeout validation audit', '',
                           'Generated by `scripts/audit.sh`.', ''] + body) +
                '\n')


def rewrite_doc(doc_file, body):
    """Replace what lies between the audit markers of DOC_FILE by BODY."""
    with open(doc_file) as f:
        doc = f.read()
    if doc.count(DOC_BEGIN) != 1 or doc.count(DOC_END) != 1 or \
            doc.index(DOC_BEGIN) > doc.index(DOC_END):
        die('%s: needs exactly one pair of markers\n  %s\n  %s' %
            (doc_file, DOC_BEGIN, DOC_END))
    head, rest = doc.split(DOC_BEGIN)
    _, tail = rest.split(DOC_END)
    with open(doc_file, 'w') as f:
        f.write(head + DOC_BEGIN + '\n\n' + '\n'.join(body) + '\n\n' +
                DOC_END + tail)
    log('rewrote the table in %s' % doc_file)


def verdict(strict, bad, out):
    """Print the path of the table last, and the exit status: 1 with STRICT
    if a timeout-path row is not consistent (named), else 0."""
    if strict and bad:
        for r in bad:
            print('inconsistent: %s %s(): %s' % (r['file'], r['fn'], r['check']),
                  file=sys.stderr)
        print(out)
        print('error: %d timeout-path rows are not consistent with the '
              'contract' % len(bad), file=sys.stderr)
        return 1
    print(out)
    return 0


def main():
    a = parse_args()
    t0 = time.time()
    dirs = a.dirs.split()
    gdirs = a.graph_dirs.split()

    with tempfile.TemporaryDirectory(prefix='ts-audit.') as tmp:
        sp = Spatch(a.src, a.macros, a.jobs, tmp)
        findings = find(sp, a.src, a.cocci, dirs)
        missed = self_check(a.src, dirs, findings)
        if missed:
            die('spatch did not report these calls (a parse failure in the '
                'function?):\n  ' + '\n  '.join(missed))
        rows = group(findings)
        g = call_graph(sp, tmp, rows, a.src, gdirs, a.macros)

    timeout, other, bad = classify(rows, g)
    body = render(a, dirs, gdirs, timeout, other, bad)
    write_out(a.out, body)
    if a.doc:
        rewrite_doc(a.doc, body)
    log('audit: %d rows on timeout paths (%d not consistent), %d elsewhere, '
        '%d spatch runs, %.0f s' % (len(timeout), len(bad), len(other),
                                    sp.runs, time.time() - t0))
    return verdict(a.strict, bad, a.out)


if __name__ == '__main__':
    try:
        sys.exit(main())
    except Exception:
        # Python exits 1 on an uncaught exception (a failed git, a bug),
        # which the exit status reserves for "not consistent": say 2.
        traceback.print_exc()
        print('error: audit.py failed (the traceback above)', file=sys.stderr)
        sys.exit(2)
