# usage: scripts/audit.py [-h] --src DIR --cocci FILE --cocci-origin TEXT
#                         --base-tag TAG --macros FILE --out FILE --dirs DIRS
#                         --graph-dirs DIRS --forms-cocci FILE --forms-table
#                         FILE --forms-json FILE [--jobs N] [--answer FILE]
#                         [--doc FILE] [--strict]
# The analysis half of scripts/audit.sh (which picks the semantic patch and
# builds the macro file; run that, not this).  Python 3 standard library only.
#
#  1. Findings: spatch -D audit with --cocci (scripts/audit.cocci) on the
#     files of $TS_AUDIT_DIRS that git grep finds a timespec token in.  Every
#     message is "file:line:col-col: WARNING|INFO: fn(): kind: detail"; a row
#     of the table is one (file, function) with its kinds.
#  2. Call graph, backwards from the rows: git grep finds the files that name
#     a function (or assign it to a structure field, `.prep = fn`); spatch
#     with CALLGRAPH_COCCI (callgraph.py) lists their definitions, direct
#     calls and calls through a field (`E->fld(...)`), and the walk goes up
#     until it meets syscalls: SYSCALL_DEFINEn(x) is parsed as sys_x and
#     COMPAT_SYSCALL_DEFINEn(x) as compat_sys_x (the macro file).  A static
#     function is only called from its own file.
#  3. The one decision that is not derived: which syscalls take a timeout
#     (TIMEOUT_SYSCALLS, paths.py).  A row is on a timeout path iff a
#     syscall of that list reaches it.
#  4. Other timeout forms (timeval, integer seconds, ms and us, timeout
#     structures of ioctls and socket options): spatch with --forms-cocci
#     (scripts/forms.cocci) on the files git grep selects (FORMS_* of
#     forms.py, drivers/ included only so); each finding, one (file,
#     function), must be an entry of --forms-table (scripts/forms_table.py)
#     by file:function, and every entry must be found.  No call graph: the
#     table gives the entry points.  The interfaces found go to --forms-json.
# It writes the markdown tables to --out and rewrites the sections of --doc
# between the audit markers and between the forms markers.  --answer FILE:
# the rows and forms that audit.sh judges, one fact a line (write_answer()),
# so that audit.sh reads no message meant for people.
# The steps are modules of scripts/tsanity/audit/: paths.py (1 and 3),
# callgraph.py (2), forms.py (4), render.py (what is written) and tools.py
# (spatch, git grep, the messages); this file reads the options, runs them
# in order and gives the exit status.
# Exit status (the same for scripts/audit.sh and scripts/audit.py):
#   0  audited; with --strict, every timeout-path row is consistent with the
#      contract, every other timeout form found is an entry of the forms
#      table and every entry is found (audit.sh --base: the base's audit found
#      every expected path inconsistent, and the forms table holds there too)
#   1  audited, and the answer is no: with --strict, a timeout-path row is
#      not consistent, a form found is not in the forms table ("unlisted
#      timeout form") or an entry is not found ("stale forms_table entry"),
#      named (audit.sh --base: an expected path was not found inconsistent,
#      or the forms table does not hold on the base)
#   2  the audit could not be done, named: bad usage, a missing tree, tool or
#      file, a spatch failure (an exception, a timeout, unparseable output, a
#      helper call it did not see), a forms table that is not valid, or any
#      other error
import argparse
import sys
import tempfile
import time
import traceback

from tsanity.audit.callgraph import call_graph
from tsanity.audit.forms import (forms_find, forms_match, forms_problems,
                                 kernel_version, load_forms_table)
from tsanity.audit.paths import classify, find, group, self_check
from tsanity.audit.render import (DOC_BEGIN, DOC_END, FORMS_BEGIN, FORMS_END,
                                  render, render_forms, rewrite_doc, shown,
                                  write_forms_json, write_out)
from tsanity.audit.tools import Spatch, die, log


def parse_args():
    # argparse's usage names every required option: the header above says
    # the same (scripts/tests/test_audit.sh compares them), and a usage error
    # exits 2, as the exit status wants.
    ap = argparse.ArgumentParser(prog='scripts/audit.py')
    ap.add_argument('--src', required=True, metavar='DIR',
                    help='the kernel tree to audit (git)')
    ap.add_argument('--cocci', required=True, metavar='FILE',
                    help='the semantic patch (scripts/audit.cocci)')
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
    ap.add_argument('--answer', metavar='FILE',
                    help='also write the answer for scripts/audit.sh to FILE, '
                    'one fact a line (write_answer())')
    ap.add_argument('--doc', metavar='FILE',
                    help='also rewrite the table between the audit markers')
    ap.add_argument('--strict', action='store_true',
                    help='exit 1 if a timeout-path row is not consistent')
    return ap.parse_args()


def write_answer(path, bad, unlisted, stale):
    """--answer: what scripts/audit.sh judges, one fact a line, in the
    order found: "inconsistent FILE:FUNCTION" for a timeout-path row not
    consistent with the contract (FILE:FUNCTION as TS_AUDIT_BASE_EXPECT
    names them), "unlisted FILE:FUNCTION" for a timeout form that is not
    in the forms table, "stale ID" for an entry of the table not found.
    Written whatever --strict says; nothing is judged here."""
    facts = (['inconsistent %s:%s' % (r['file'], r['fn']) for r in bad] +
             ['unlisted %s:%s' % (r['file'], r['function']) for r in unlisted] +
             ['stale %s' % e['id'] for e in stale])
    with open(path, 'w') as f:
        f.write(''.join(fact + '\n' for fact in facts))


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

    table = load_forms_table(a.forms_table, kernel_version(a.src))
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
    if a.answer:
        write_answer(a.answer, bad, unlisted, stale)
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


def run():
    """main(), with an uncaught exception answered 2, not 1: Python exits
    1 on one (a failed git, a bug), which the exit status reserves for
    "not consistent"."""
    try:
        return main()
    except Exception:
        traceback.print_exc()
        print('error: audit.py failed (the traceback above)', file=sys.stderr)
        return 2
