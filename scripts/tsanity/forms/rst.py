"""The forms table for the Documentation page: the exceptions as an RST
list-table, and the check that a page holds it."""
import textwrap

from .table import exceptions


def answers_text(e, series=False):
    """The answers of e per class; series=True: with the series' fixes."""
    labels = (('neg', 'negative'), ('zero', 'zero'), ('tiny', 'tiny'),
              ('huge', 'huge'), ('subsec', 'sub-second field out of range'),
              ('before_epoch', 'before the epoch'))
    answers = dict(e['answers'], **(e.get('fixed', {}) if series else {}))
    return '; '.join('%s: %s' % (label, answers[k])
                     for k, label in labels if answers[k])


def rst(entries=None):
    """An RST list-table of the exceptions as the series leaves them (for
    the Documentation page): interface, rule, answers, why."""
    out = ['.. list-table::', '   :header-rows: 1', '   :widths: 20 15 40 25', '',
           '   * - interface', '     - rule', '     - answers', '     - why it stays']
    for e in exceptions(entries):
        for i, cell in enumerate((e['name'], e['rule'], answers_text(e, series=True),
                                  e['why'])):
            # Wrapped at 76 columns, continued under the cell's first word.
            out += textwrap.wrap(cell, 76, initial_indent='   * - ' if i == 0 else '     - ',
                                 subsequent_indent='       ', break_long_words=False,
                                 break_on_hyphens=False)
    return '\n'.join(out) + '\n'


def check_doc(path, entries=None):
    """The problem with the page at path, or None if it holds rst(entries)."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        return 'cannot read the page: %s' % e
    table = rst(entries)
    if table in text:
        return None
    want = table.splitlines()
    got = text.splitlines()
    start = next((i for i, l in enumerate(got) if l == want[0]), None)
    if start is None:
        return '%s: no "%s" (the exceptions table is missing)' % (path, want[0])
    for n, w in enumerate(want):
        g = got[start + n] if start + n < len(got) else '<end of file>'
        if g != w:
            return ('%s:%d: the exceptions table differs from scripts/forms_table.py --rst: '
                    'has %r, the table gives %r' % (path, start + n + 1, g, w))
    return '%s: the exceptions table differs from scripts/forms_table.py --rst' % path
