"""usage: scripts/forms_table.py --rst | --json | --check | --check-doc FILE

The table of the timeouts Linux takes in another form than a timespec
(issue 13): one entry per interface, each with the kernel functions whose
code takes or checks it, the rule it follows and what 6.12 answers.  The
audit (scripts/audit.py, forms phase) matches what scripts/forms.cocci
finds to these entries by file:function; the map (scripts/forms.py) shows
them.  Python 3 standard library only; importable.

The table lives in scripts/tsanity/forms/: ENTRIES, one dict per
interface, and SET_ASIDE, what the audit's rules find that is no timeout
of a system call interface, described field by field in
tsanity/forms/schema.py.  This module gives them, validate(),
exceptions() and rst() to the audit, the map and the tests.

  --rst    an RST list-table of the exceptions (rule not "contract") that
           TS_KERNEL's kernel has: interface, rule, answers, why it stays;
           for a Documentation page
  --json   every entry and every set-aside, as JSON
  --check  validate the table (also done by --rst, --json and the audit)
  --check-doc FILE
           exit 1 unless FILE (a Documentation page) holds the --rst
           table exactly, as a block of lines
Exit 0, or 1 naming what is wrong with the table, or 2 on a usage error.
"""
import json
import sys

from tsanity import context as ts_context
from tsanity.forms.rst import check_doc, rst
from tsanity.forms.table import ENTRIES, SET_ASIDE, exceptions, for_kernel, validate  # noqa: F401


def main(argv):
    if not (len(argv) == 1 and argv[0] in ('--rst', '--json', '--check')
            or len(argv) == 2 and argv[0] == '--check-doc'):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    problems = validate()
    if problems:
        for p in problems:
            print('error: forms_table: ' + p, file=sys.stderr)
        return 1
    # The page of the series of TS_KERNEL holds that kernel's table.
    entries = for_kernel(ts_context.version_or_exit()).ENTRIES
    if argv[0] == '--check-doc':
        problem = check_doc(argv[1], entries)
        if problem:
            print('error: forms_table: ' + problem, file=sys.stderr)
            return 1
        print('forms_table: %s holds the exceptions table (%d rows)' %
              (argv[1], len(exceptions(entries))))
    elif argv[0] == '--rst':
        sys.stdout.write(rst(entries))
    elif argv[0] == '--json':
        json.dump({'entries': ENTRIES, 'set_aside': SET_ASIDE}, sys.stdout, indent=1)
        print()
    else:
        print('forms_table: %d entries (%d exceptions), %d set aside' %
              (len(ENTRIES), len(exceptions()), len(SET_ASIDE)))
    return 0
