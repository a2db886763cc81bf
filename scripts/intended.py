"""The intended differences between 6.12 and the patched kernel.

Reads patches/intended-differences (its header documents the format) and
says which integration-boot case a rule covers.  Imported by report.py;
not run on its own.
"""
import fnmatch
import operator
import os
import re

# TS_INTENDED names another list (scripts/fixes.sh: none between the fixes
# and the whole series).
PATH = os.environ.get("TS_INTENDED") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "patches", "intended-differences")
OPS = {"<": operator.lt, "<=": operator.le, "==": operator.eq,
       ">=": operator.ge, ">": operator.gt}
COND = re.compile(r"(?P<field>sec|nsec)(?P<op><=|>=|==|<|>)(?P<n>-?\d+)$")
# A case name: "<abi> <entry> <mode> sec=<name> nsec=<name>".
NAME = re.compile(r"^(?P<abi>\S+) (?P<entry>\S+) (?P<mode>\S+) sec=(?P<sec>\S+) nsec=(?P<nsec>\S+)$")
# timeout_classes' diagnostic line of a case (kernel_* since issue 5).
DIAG = re.compile(r"#\s*(?P<name>\S.*?):"
                  r"(?: kernel_sec=(?P<sec>-?\d+) kernel_nsec=(?P<nsec>-?\d+))?"
                  r" class=(?P<cls>\S+) expected=(?P<exp>\S+) got=(?P<got>\S+)\s*$")


def diag(line):
    """The case of a diagnostic line: dict of name, sec, nsec (int or None),
    cls, exp and got; None if the line is not one."""
    m = DIAG.search(line)
    if not m:
        return None
    d = m.groupdict()
    if d["sec"] is not None:
        d["sec"], d["nsec"] = int(d["sec"]), int(d["nsec"])
    return d


class Rule:
    def __init__(self, where, entry, mode, inputs, base, patched, patch):
        self.where, self.entry, self.mode = where, entry, mode
        self.inputs, self.base, self.patched, self.patch = inputs, base, patched, patch
        self.conds = []
        for c in inputs.split(","):
            if c.startswith("class="):
                classes = set(c[len("class="):].split("|"))
                self.conds.append(lambda case, classes=classes: case["cls"] in classes)
                continue
            m = COND.match(c)
            if not m:
                raise ValueError(f"{where}: cannot read the condition '{c}'")
            op, n, field = OPS[m["op"]], int(m["n"]), m["field"]
            self.conds.append(lambda case, op=op, n=n, field=field: op(case[field], n))

    def covers(self, name, case):
        """True if the case (a dict as diag() returns) is one of ours."""
        m = NAME.match(name)
        if not (m and fnmatch.fnmatchcase(m["entry"], self.entry)
                and fnmatch.fnmatchcase(m["mode"], self.mode)):
            return False
        if case["sec"] is None:
            raise ValueError(f"case '{name}' does not say what the kernel saw (kernel_sec=)")
        return all(c(case) for c in self.conds)

    def __str__(self):
        return f"{self.entry} {self.mode} {self.inputs}: {self.base} -> {self.patched} ({self.patch})"


def load(path=PATH):
    rules = []
    with open(path) as f:
        for no, line in enumerate(f, 1):
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            if len(line) != 6:
                raise ValueError(f"{path}:{no}: {len(line)} fields, expected 6")
            rules.append(Rule(f"{path}:{no}", *line))
    return rules


def rule_for(rules, name, case):
    """The rule that covers the case, or None.

    Raises ValueError if two rules cover it, or a rule's entry point and
    mode match a case that lacks the kernel's values."""
    hits = [r for r in rules if r.covers(name, case)]
    if len(hits) > 1:
        raise ValueError(f"case '{name}' is covered by more than one rule: {hits[0].where}, {hits[1].where}")
    return hits[0] if hits else None


def fails_by_design(rules, case):
    """True if a rule covers the case (a dict as diag() returns) and the
    case answered what the rule says 6.12 answers: on the base kernel, such
    a case fails the contract on purpose."""
    r = rule_for(rules, case["name"], case)
    return r is not None and case["got"] == r.base
