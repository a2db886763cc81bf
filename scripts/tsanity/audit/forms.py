"""The other timeout forms (scripts/audit.py, step 4): the files git grep
selects, scripts/forms.cocci's findings on them, and their match to the
forms table (scripts/forms_table.py) by file:function."""
import collections
import importlib.util
import os
import re
from typing import Any

from .tools import die, git_grep, log

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


def kernel_version(src):
    """The X.Y of the kernel tree SRC, from its top Makefile; None for a
    tree without one (the tests' fixture trees)."""
    path = os.path.join(src, 'Makefile')
    if not os.path.isfile(path):
        return None
    with open(path) as fh:
        head = fh.read(4096)
    v = re.search(r'^VERSION = (\d+)$', head, re.M)
    p = re.search(r'^PATCHLEVEL = (\d+)$', head, re.M)
    if not v or not p:
        die('%s names no VERSION and PATCHLEVEL' % path)
    return '%s.%s' % (v.group(1), p.group(1))


def load_forms_table(path, version=None):
    """The forms table module at PATH (scripts/forms_table.py), validated;
    with VERSION, as it holds for that kernel (its for_kernel())."""
    spec = importlib.util.spec_from_file_location('forms_table', path)
    if spec is None or not os.path.isfile(path):
        die('forms table %s not found' % path)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None  # a .py file's spec has its source loader
    spec.loader.exec_module(mod)
    problems = mod.validate()
    if problems:
        die('forms table %s is not valid:\n  %s' % (path, '\n  '.join(problems)))
    if version is None:
        return mod
    if not hasattr(mod, 'for_kernel'):
        die('forms table %s has no for_kernel(), which a kernel tree (%s) needs' %
            (path, version))
    return mod.for_kernel(version)


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
            var = re.match(r'\w+', text)
            assert var is not None  # FORMS_READ_RE starts with \b\w+
            read[path].add(var.group(0))
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
    hits = []
    # (file, function, variable) of a copy-in, and (file, its variable's type)
    copies: set[tuple[str, ...]] = set()
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
    rows: dict[tuple[str, str], dict[str, Any]] = {}
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

