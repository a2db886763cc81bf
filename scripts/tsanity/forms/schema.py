"""The shape of the forms table (scripts/forms_table.py) and its check.

ENTRIES, a list of dicts, one per interface:

  id           the interface's name in the audit and in the map (the boot's
               "# form <id> ..." lines): select, setitimer, SO_RCVTIMEO, ...
  name         what a reader calls it: "select(2)", "ioctl(PPS_FETCH)"
  entry_points the system calls, ioctl commands or socket options that take
               it, a list of strings
  form         the type of the timeout: "struct timeval", "int milliseconds"
  functions    the kernel functions whose code reads or checks the value, as
               "file:function" (the tree's path); the audit maps each of its
               findings to the entry that lists its function, and fails on
               an entry none of whose functions it finds (a stale table)
  rule         "contract" when the answers are the timespec contract's for
               a relative timeout (Documentation/userspace-api/timeouts.rst), else
               a short name of the interface's own rule
  decision     "kept as ABI" (the rule stays), "converted" (the series moves
               the code onto the contract's helpers, answers unchanged) or
               "fixed" (the rule stays but a bug in it is fixed)
  answers      what 6.12 answers per input class (an entry with "since": what
               that kernel answers), read from its code, a dict
               of short strings keyed by the boot's class names (CLASSES):
               neg (a negative value), zero, tiny (the smallest value above
               zero), huge, subsec (a sub-second field out of range; None
               when the form has none), before_epoch (an absolute timeout
               before 1970; None for a relative form: all but
               NTSYNC_IOC_WAIT's)
  why          why the rule stays, or what changes
  fixed        only for decision "fixed": the answers with the series, for
               the classes the fix changes (a dict keyed like answers); the
               Documentation page shows them in place of 6.12's
  since        optional, in entries and set-asides: the oldest of the kernels
               the project audits (6.12, 7.3) that has the interface, "X.Y";
               the audit and the map of an older kernel leave it out (its
               answers are then that kernel's).  Absent: every one has it

SET_ASIDE, a list of dicts: what the audit's rules find that is not a
"""
import re

CLASSES = ('neg', 'zero', 'tiny', 'huge', 'subsec', 'before_epoch')
DECISIONS = ('kept as ABI', 'converted', 'fixed')
FIELDS = ('id', 'name', 'entry_points', 'form', 'functions', 'rule',
          'decision', 'answers', 'why')
ASIDE_FIELDS = ('id', 'functions', 'what', 'why')

NA_UNSIGNED = 'n/a: unsigned, -1 is the largest value'


def check(entries, set_aside):
    """The problems of ENTRIES and SET_ASIDE as a table, a list of strings
    (empty: valid)."""
    problems = []
    ids = set()
    fns: dict[str, str] = {}
    unsafe = re.compile(r'[*`|]|[A-Za-z0-9]_(?!\w)')
    for kind, items, fields in (('entry', entries, FIELDS),
                                ('set-aside', set_aside, ASIDE_FIELDS)):
        for e in items:
            name = '%s %s' % (kind, e.get('id', '?'))
            got = set(e) - ({'fixed'} if kind == 'entry' else set()) - {'since'}
            if got != set(fields):
                problems.append('%s: fields %s, expected %s' %
                                (name, sorted(e), list(fields)))
                continue
            if 'since' in e and not re.match(r'^\d+\.\d+$', str(e['since'])):
                problems.append('%s: since %r is not a kernel X.Y' % (name, e['since']))
            if e['id'] in ids:
                problems.append('%s: id listed twice' % name)
            ids.add(e['id'])
            if not e['functions']:
                problems.append('%s: no functions' % name)
            for f in e['functions']:
                if not re.match(r'^[\w./-]+\.[ch]:\w+$', f):
                    problems.append('%s: function %r is not file:function' % (name, f))
                elif f in fns:
                    problems.append('%s: %s is also listed by %s' % (name, f, fns[f]))
                fns[f] = e['id']
            if kind == 'set-aside':
                continue
            if e['decision'] not in DECISIONS:
                problems.append('%s: decision %r, not one of %s' %
                                (name, e['decision'], ', '.join(DECISIONS)))
            if (e['decision'] == 'fixed') != ('fixed' in e):
                problems.append('%s: a "fixed" dict goes with decision "fixed", and only '
                                'with it' % name)
            elif 'fixed' in e and (not e['fixed'] or set(e['fixed']) - set(CLASSES)):
                problems.append('%s: fixed answers for %s, expected some of %s' %
                                (name, sorted(e['fixed']), list(CLASSES)))
            if set(e['answers']) != set(CLASSES):
                problems.append('%s: answers for %s, expected %s' %
                                (name, sorted(e['answers']), list(CLASSES)))
            elif not all(e['answers'][c] for c in ('neg', 'zero', 'tiny', 'huge')):
                problems.append('%s: an answer for negative, zero, tiny or huge is empty' % name)
            if not e['entry_points'] or not e['rule'] or not e['why']:
                problems.append('%s: empty entry_points, rule or why' % name)
            texts = [e['name'], e['rule'], e['why']] + \
                [a for a in e['answers'].values() if a] + list(e.get('fixed', {}).values())
            for t in texts:
                if unsafe.search(t):
                    problems.append('%s: %r has a character RST would read as '
                                    'markup (*, `, | or a word ending in _)' % (name, t))
    return problems

