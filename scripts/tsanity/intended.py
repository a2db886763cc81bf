"""The intended differences between the base kernel and the patched one.

Reads a list of them, patches/intended-differences (its header documents
the format), and says which integration-boot case a rule covers.  The
cases are those of timeout_classes, read with scripts/tsanity/timeout_classes.py
(report.py), and, for the rules whose entry is form:<interface>, the
inputs of timeout_forms (forms.py).  Imported by both; not run on its
own.
"""
import fnmatch
import operator
import os
import re
from typing import Callable

from tsanity import timeout_classes
from tsanity import context as ts_context
from tsanity import kernel as ts_kernel_mod

# The list of the series; report.py --intended names another (none at all
# between the fixes and the whole series).
def default(required=True):
    """The series' list: intended-differences beside the kernel's series
    (None, or an exit naming the problem if REQUIRED, where the kernel has
    no series)."""
    try:
        return os.path.join(ts_context.series_dir(), "intended-differences")
    except ts_kernel_mod.KernelError as e:
        if required:
            raise SystemExit(f"error: {e} (name a list with --intended)")
        return None
OPS = {"<": operator.lt, "<=": operator.le, "==": operator.eq,
       ">=": operator.ge, ">": operator.gt}
COND = re.compile(r"(?P<field>sec|nsec|ns|usec|us|ms)(?P<op><=|>=|==|<|>)(?P<n>-?\d+)$")
NSEC_PER_SEC = 10**9


def field_value(case, field):
    """A field of the case; ns is the exact sum sec * NSEC_PER_SEC + nsec,
    which no kernel type need hold (KeyError if the case lacks one)."""
    if field == "ns":
        return case["sec"] * NSEC_PER_SEC + case["nsec"]
    return case[field]
# An entry "form:<interface>" is a rule for timeout_forms' inputs.
FORM = "form:"


class Rule:
    def __init__(self, where, entry, mode, inputs, base, patched, patch):
        self.where, self.entry, self.mode = where, entry, mode
        self.inputs, self.base, self.patched, self.patch = inputs, base, patched, patch
        self.conds: list[Callable[..., bool]] = []
        for c in inputs.split(","):
            if c.startswith("class="):
                classes = set(c[len("class="):].split("|"))
                self.conds.append(lambda case, classes=classes: case["cls"] in classes)
                continue
            m = COND.match(c)
            if not m:
                raise ValueError(f"{where}: cannot read the condition '{c}'")
            op, n, field = OPS[m["op"]], int(m["n"]), m["field"]
            self.conds.append(lambda case, op=op, n=n, field=field:
                              op(field_value(case, field), n))

    def covers(self, name, case):
        """True if the case (a dict as timeout_classes.diag() returns) is
        one of ours."""
        m = timeout_classes.case_name(name)
        if not (m and fnmatch.fnmatchcase(m["entry"], self.entry)
                and fnmatch.fnmatchcase(m["mode"], self.mode)):
            return False
        if case["sec"] is None:
            raise ValueError(f"case '{name}' does not say what the kernel saw "
                             "(a timeout_classes before issue 5)")
        return all(c(case) for c in self.conds)

    def __str__(self):
        return f"{self.entry} {self.mode} {self.inputs}: {self.base} -> {self.patched} ({self.patch})"


def load(path, forms=False):
    """The rules of the list at path for timeout_classes' cases, or with
    forms=True for timeout_forms' inputs (OSError if it cannot be read,
    ValueError if a line is not a rule); an empty list allows no
    difference."""
    rules = []
    with open(path) as f:
        for no, line in enumerate(f, 1):
            fields = line.split("#", 1)[0].split()
            if not fields:
                continue
            if len(fields) != 6:
                raise ValueError(f"{path}:{no}: {len(fields)} fields, expected 6")
            if fields[0].startswith(FORM) == forms:
                rules.append(Rule(f"{path}:{no}", *fields))
    return rules


def form_rule_for(rules, iface, abi, fields):
    """The form rule that covers timeout_forms' input (fields: {name:
    value}) of iface in abi, or None; ValueError if two do, or a rule
    names a field the input lacks."""
    hits = []
    for r in rules:
        if not (fnmatch.fnmatchcase(FORM + iface, r.entry) and fnmatch.fnmatchcase(abi, r.mode)):
            continue
        try:
            if all(c(fields) for c in r.conds):
                hits.append(r)
        except KeyError as e:
            raise ValueError(f"{r.where}: {iface} inputs have no field {e}") from None
    if len(hits) > 1:
        raise ValueError(f"{iface} {abi} {fields} is covered by more than one rule: "
                         f"{hits[0].where}, {hits[1].where}")
    return hits[0] if hits else None


def rule_for(rules, name, case):
    """The rule that covers the case, or None.

    Raises ValueError if two rules cover it, or a rule's entry point and
    mode match a case that lacks the kernel's values."""
    hits = [r for r in rules if r.covers(name, case)]
    if len(hits) > 1:
        raise ValueError(f"case '{name}' is covered by more than one rule: {hits[0].where}, {hits[1].where}")
    return hits[0] if hits else None


def fails_by_design(rules, case):
    """True if a rule covers the case (a dict as timeout_classes.diag()
    returns) and the case answered what the rule says the base answers: on the
    base kernel, such a case fails the contract on purpose."""
    r = rule_for(rules, case["name"], case)
    return r is not None and case["got"] == r.base
