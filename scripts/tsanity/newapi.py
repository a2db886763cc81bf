"""What a kernel adds to the user-space interface over an older one, and
the classification of each addition (issue 22: every syscall, io_uring
opcode and registration code added since 6.12 is fixed by the series,
takes no timeout, or is a named ABI exception).

Read from a tree: the syscalls of the generic table (scripts/syscall.tbl,
or include/uapi/asm-generic/unistd.h in a tree without it) and of x86's
syscall_64.tbl and syscall_32.tbl; from include/uapi/linux/io_uring.h the
opcodes (enum io_uring_op), the registration codes (enum
io_uring_register_op, IORING_UNREGISTER_* too), the io_uring_enter()
flags, the timeout flags (sqe->timeout_flags), the flags of a registered
wait (IORING_REG_WAIT_*) and the setup and feature flags.  Setup and
feature flags are all listed, not only those about waiting: whether a
flag concerns a wait is what reading its code decides, so a filter here
would be an unchecked judgement; the classification says it per flag.

The classification, one line per new item (KINDS below):
    <kind> <name> <class> <patch or -> <reason>
class: fixed (the series fixes its timeout: patch names it), no-timeout
(it takes no time, read in the code), abi-exception (it takes a time by a
rule of its own, kept), contract (it takes a time and already follows the
contract).  A line `compare OLD NEW` says which kernels it is about.
check() fails, naming it, on an item not classified and on a line that
names no item NEW adds."""
import glob
import os
import re

# kind -> what it is (in the order of the page).
KINDS = {
    "syscall": "system call (generic table, x86_64, i386)",
    "uring-op": "io_uring opcode (`enum io_uring_op`)",
    "uring-register": "io_uring_register() code (`enum io_uring_register_op`)",
    "uring-enter": "io_uring_enter() flag (`IORING_ENTER_*`)",
    "uring-timeout": "timeout request flag (`sqe->timeout_flags`)",
    "uring-reg-wait": "registered wait flag (`struct io_uring_reg_wait`)",
    "uring-setup": "io_uring_setup() flag (`IORING_SETUP_*`)",
    "uring-feature": "io_uring feature flag (`IORING_FEAT_*`)",
}
CLASSES = ("fixed", "no-timeout", "abi-exception", "contract")

SYSCALL_TABLES = (("generic", "scripts/syscall.tbl"),
                  ("x86_64", "arch/x86/entry/syscalls/syscall_64.tbl"),
                  ("i386", "arch/x86/entry/syscalls/syscall_32.tbl"))
GENERIC_UNISTD = "include/uapi/asm-generic/unistd.h"
IO_URING_H = "include/uapi/linux/io_uring.h"

# The io_uring kinds: (kind, the enum whose enumerators they are or None
# for any #define or enumerator, the name's pattern).  A name ending in
# _MASK combines other flags and _LAST ends an enum: neither is an
# interface of its own.
URING_KINDS = (
    ("uring-op", "io_uring_op", r"IORING_OP_\w+"),
    ("uring-register", "io_uring_register_op", r"IORING_(?:UN)?REGISTER_\w+"),
    ("uring-enter", None, r"IORING_ENTER_\w+"),
    ("uring-timeout", None, r"IORING_(?:LINK_)?TIMEOUT_\w+"),
    ("uring-reg-wait", None, r"IORING_REG_WAIT_\w+"),
    ("uring-setup", None, r"IORING_SETUP_\w+"),
    ("uring-feature", None, r"IORING_FEAT_\w+"),
)
NOT_AN_INTERFACE = re.compile(r"\w+_(MASK|LAST)")


class NewApiError(Exception):
    pass


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError as e:
        raise NewApiError(f"cannot read {path}: {e.strerror}") from e


# --- syscalls -------------------------------------------------------------

def table_names(text):
    """The syscall names of a syscall.tbl (<number> <abi> <name> ...)."""
    names = set()
    for line in text.splitlines():
        f = line.split("#", 1)[0].split()
        if len(f) >= 3 and f[0].isdigit():
            names.add(f[2])
    return names


def unistd_names(text):
    """The syscall names of asm-generic/unistd.h: __NR_x and __NR3264_x,
    without the markers (__NR_syscalls, __NR_arch_specific_syscall)."""
    text = strip_comments(text)
    names = set(re.findall(r"^\s*#\s*define\s+__NR(?:3264)?_(\w+)\s+\d+", text, re.M))
    return names - {"syscalls", "arch_specific_syscall"}


def syscalls(tree):
    """{table: set of names} of a tree."""
    out = {}
    for table, rel in SYSCALL_TABLES:
        path = os.path.join(tree, rel)
        if os.path.exists(path):
            out[table] = table_names(_read(path))
        elif table == "generic":
            out[table] = unistd_names(_read(os.path.join(tree, GENERIC_UNISTD)))
        else:
            raise NewApiError(f"{path}: no such file (is {tree} a kernel tree?)")
    return out


# --- io_uring.h -----------------------------------------------------------

def strip_comments(text):
    """C text without its comments (a comment becomes one space, its
    newlines kept so that #define lines stay lines)."""
    def blank(m):
        return " " + "\n" * m.group(0).count("\n")
    return re.sub(r"/\*.*?\*/|//[^\n]*", blank, text, flags=re.S)


def enums(text):
    """[(tag or None, [enumerator, ...])] of comment-free C text; an
    enumerator's value (`= (1U << 0)`, `= 31`) is dropped."""
    out = []
    for m in re.finditer(r"\benum\s*(\w+)?\s*\{(.*?)\}", text, re.S):
        names = []
        for item in m.group(2).split(","):
            n = re.match(r"\s*([A-Za-z_]\w*)", item)
            if n:
                names.append(n.group(1))
        out.append((m.group(1), names))
    return out


def defines(text):
    """The names #defined in comment-free C text."""
    return re.findall(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", text, re.M)


def uring_names(text):
    """{kind: set of names} of an io_uring.h."""
    text = strip_comments(text)
    all_enums = enums(text)
    anywhere = set(defines(text)) | {n for _, names in all_enums for n in names}
    out = {}
    for kind, tag, pattern in URING_KINDS:
        if tag:
            found = [names for t, names in all_enums if t == tag]
            if not found:
                raise NewApiError(f"{IO_URING_H}: no enum {tag}")
            pool = set(found[0])
        else:
            pool = anywhere
        out[kind] = {n for n in pool if re.fullmatch(pattern, n)
                     and not NOT_AN_INTERFACE.fullmatch(n)}
    return out


# --- the difference -------------------------------------------------------

def interfaces(tree):
    """{(kind, name): where} of a tree; where: the syscall tables that
    have the name, or the header."""
    if not os.path.isdir(tree):
        raise NewApiError(f"{tree}: no such tree")
    out: dict[tuple[str, str], list[str]] = {}
    for table, names in syscalls(tree).items():
        for n in names:
            out.setdefault(("syscall", n), []).append(table)
    for kind, names in uring_names(_read(os.path.join(tree, IO_URING_H))).items():
        for n in names:
            out[(kind, n)] = ["io_uring.h"]
    return {k: ", ".join(v) for k, v in out.items()}


def added(old_tree, new_tree):
    """{(kind, name): where} of what new_tree has and old_tree has not, in
    the page's order (kind, then name)."""
    old, new = interfaces(old_tree), interfaces(new_tree)
    order = list(KINDS)
    return {k: new[k] for k in sorted(set(new) - set(old),
                                      key=lambda k: (order.index(k[0]), k[1]))}


# --- the classification ---------------------------------------------------

def load(path, series_dir=None):
    """(compare, [entry]) of a classification file; compare is (OLD,
    NEW), an entry a dict kind, name, cls, patch, reason, line.  A line
    that does not parse, a class or kind not known, a fixed item with no
    patch, a no-timeout item with one, a patch not in series_dir (when
    given) or a second line for one item raises NewApiError naming it."""
    compare, entries, errors = None, [], []
    seen: dict[tuple[str, str], int] = {}
    for no, line in enumerate(_read(path).splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"{path}:{no}"
        f = line.split(None, 4)
        if f[0] == "compare":
            if len(f) != 3 or compare:
                errors.append(f"{where}: want one line `compare OLD NEW`")
            compare = tuple(f[1:3])
            continue
        if len(f) < 5:
            errors.append(f"{where}: want <kind> <name> <class> <patch or -> <reason>")
            continue
        kind, name, cls, patch, reason = f
        if kind not in KINDS:
            errors.append(f"{where}: unknown kind '{kind}' (known: {' '.join(KINDS)})")
        if cls not in CLASSES:
            errors.append(f"{where}: unknown class '{cls}' (known: {' '.join(CLASSES)})")
        if cls == "fixed" and patch == "-":
            errors.append(f"{where}: {name} is fixed: name the patch")
        if cls == "no-timeout" and patch != "-":
            errors.append(f"{where}: {name} takes no timeout, yet names patch {patch}")
        if patch != "-" and not re.fullmatch(r"\d{4}", patch):
            errors.append(f"{where}: patch '{patch}': a patch number (0003) or -")
        elif patch != "-" and series_dir and not glob.glob(os.path.join(series_dir,
                                                                      patch + "-*.patch")):
            errors.append(f"{where}: no patch {patch}-*.patch in {series_dir}")
        if (kind, name) in seen:
            errors.append(f"{where}: {kind} {name} again (first at line {seen[(kind, name)]})")
        seen[(kind, name)] = no
        entries.append({"kind": kind, "name": name, "cls": cls, "patch": patch,
                        "reason": reason.strip(), "line": no})
    if not compare:
        errors.append(f"{path}: no line `compare OLD NEW`")
    if errors:
        raise NewApiError("\n".join(errors))
    return compare, entries


def check(new_items, entries, path, old="OLD", new="NEW"):
    """The problems of a classification against what NEW adds: each item
    not classified, each entry that names an item NEW does not add."""
    have = {(e["kind"], e["name"]): e for e in entries}
    problems = [f"unclassified: {k} {n} (new in {new}: {where}; add a line to {path})"
                for (k, n), where in new_items.items() if (k, n) not in have]
    problems += [f"{path}:{e['line']}: not new: {e['kind']} {e['name']} "
                 f"({new} adds no such {e['kind']} over {old})"
                 for key, e in have.items() if key not in new_items]
    return problems


# --- the page -------------------------------------------------------------

BEGIN = "<!-- newapi:begin (generated by scripts/ts newapi --doc; do not edit) -->"
END = "<!-- newapi:end -->"


def _cell(text):
    return text.replace("|", "\\|")


def render(compare, entries, source="patches/new-interfaces"):
    """The page's section, from the markers to the end marker included."""
    old, new = compare
    order = list(KINDS)
    entries = sorted(entries, key=lambda e: (order.index(e["kind"]), e["name"]))
    per_kind = [f"{sum(e['kind'] == k for e in entries)} {k}" for k in KINDS
                if any(e["kind"] == k for e in entries)]
    per_cls = [f"{sum(e['cls'] == c for e in entries)} {c}" for c in CLASSES]
    out = [BEGIN, "",
           f"Everything {new} adds over {old}, one row each ({len(entries)}: "
           f"{', '.join(per_kind)}), from `{source}`; "
           f"`scripts/ts newapi {old} {new} --check` holds that file against the two trees. "
           f"Classes: {', '.join(per_cls)}.", "",
           "| kind | name | class | patch | why |", "|---|---|---|---|---|"]
    for e in entries:
        out.append(f"| {e['kind']} | `{e['name']}` | {e['cls']} | {e['patch']} | "
                   f"{_cell(e['reason'])} |")
    return "\n".join(out + ["", END]) + "\n"


def _span(text, path):
    b, e = text.find(BEGIN), text.find(END)
    if b < 0 or e < b:
        raise NewApiError(f"{path}: no '{BEGIN}' ... '{END}' section")
    return b, e + len(END) + 1


def write_doc(page, section):
    text = _read(page)
    b, e = _span(text, page)
    with open(page, "w") as f:
        f.write(text[:b] + section + text[e:])


def check_doc(page, section):
    """The problem with the page, or None if it holds section."""
    text = _read(page)
    try:
        b, _ = _span(text, page)
    except NewApiError as e:
        return str(e)
    if section in text:
        return None
    first = text[:b].count("\n") + 1
    got = text[b:].splitlines()
    for n, want in enumerate(section.splitlines()):
        g = got[n] if n < len(got) else "<end of file>"
        if g != want:
            return (f"{page}:{first + n}: the new interfaces' table differs from "
                    f"scripts/ts newapi --doc: has {g!r}, the file gives {want!r}")
    return f"{page}: the new interfaces' table differs from scripts/ts newapi --doc"
