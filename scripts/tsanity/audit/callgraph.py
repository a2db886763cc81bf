"""The call graph above the findings (scripts/audit.py, step 2): the
files that name a function or store it in a structure field, parsed by
spatch with CALLGRAPH_COCCI, walked up until syscalls."""
import collections
import os
import re

from .tools import chunks, die, git_grep, log

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
CG_LINE = re.compile(r'^(D\t[^\t]+\t\d+\t\d+\t\w+|[CI]\t[^\t]+\t[^\t]+\t\w+)$')

# A name or field that more files than this mention is not followed: the
# walk would parse half the kernel (->write(), ->ioctl()...).  The row then
# says so.
FANIN_FILES = 40

# How many levels of callers the walk looks up.  The deepest timeout path
# known is 6 (__io_timeout_prep <- io_timeout_prep <-.prep io_init_req <-
# io_submit_sqe <- io_submit_sqes <- io_uring_enter).
DEPTH = 8


class Graph:
    """The call graph of the files parsed so far, grown on demand."""

    def __init__(self, src, spatch, cg_file, dirs, macros):
        self.src, self.spatch, self.cg_file = src, spatch, cg_file
        self.dirs, self.macros = dirs, macros
        self.parsed = set()
        # name -> {file: static}
        self.defs: collections.defaultdict[str, dict[str, bool]] = collections.defaultdict(dict)
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

