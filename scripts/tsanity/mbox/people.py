"""Who the mails are from and to: the author, the recipients that
MAINTAINERS and scripts/get_maintainer.pl name, the tree a patch goes
to, and the To: and Cc: headers that carry them."""
import email.utils
import os
import re

from ..config import REPO
from .tools import die, run

PROJECT_NAME = "Timespec Sanity Project"
PROJECT_EMAIL = "timespec-sanity@example.org"


def author():
    """The sender, as (name, email); dies without one or with the project's."""
    raw = os.environ.get("TS_AUTHOR", "").strip()
    if raw:
        name, addr = email.utils.parseaddr(raw)
        origin = "TS_AUTHOR"
    else:
        name = run(["git", "config", "user.name"], cwd=REPO, check=False).stdout.strip()
        addr = run(["git", "config", "user.email"], cwd=REPO, check=False).stdout.strip()
        origin = "git config user.name/user.email"
    if not name or not addr or "@" not in addr:
        die("no author: set TS_AUTHOR=\"Name <email>\" or git config user.name and user.email "
            f"(got name '{name}', email '{addr}' from {origin})")
    if name == PROJECT_NAME or addr == PROJECT_EMAIL:
        die(f"refusing the project identity '{name} <{addr}>' ({origin}) as the author of "
            "mail meant to be sent: a patch needs a person who can certify it "
            "(Documentation/process/submitting-patches.rst)")
    return name, addr


def fmt_addr(name, addr):
    """Name <addr>, unencoded: for trailers, --from and 8-bit headers."""
    return f"{name} <{addr}>"


def project_sob():
    """The project's Signed-off-by: of the committed patches, which the
    author's replaces."""
    return f"Signed-off-by: {PROJECT_NAME} <{PROJECT_EMAIL}>"


def entry_fields(src, title):
    """The fields of a MAINTAINERS entry, by its title (or the part of the
    title before a colon): {"M": [...], "R": [...], "L": [...], "T": [...],
    "people": the M: and R: people in the entry's order}, the values as
    written (a list's, a tree's, whole); dies if the entry names no
    person, list or tree."""
    fields: dict[str, list[str]] = {"M": [], "R": [], "L": [], "T": [], "people": []}
    cur = None

    def match(name):
        return name == title or name.startswith(title + ":")

    with open(os.path.join(src, "MAINTAINERS"), errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                if cur and match(cur):
                    break
                cur = None
                continue
            if cur is None and not re.match(r"^[A-Z]:\t", line):
                cur = line
                continue
            if match(cur) and line[:1] in "MRLT" and line[1:3] == ":\t":
                fields[line[0]].append(line[3:].strip())
                if line[0] in "MR":
                    fields["people"].append(line[3:].strip())
    if not any(fields.values()):
        die(f"MAINTAINERS of {src} has no entry '{title}'")
    return fields


def maintainers_entry(src, title):
    """The M:/R: people and L: lists of a MAINTAINERS entry, by its title
    (or the part of the title before a colon)."""
    fields = entry_fields(src, title)
    people, lists = fields["people"], [l.split()[0] for l in fields["L"]]
    if not people and not lists:
        die(f"MAINTAINERS of {src} has no entry '{title}'")
    return people, lists


def route_tree(src, entry, word):
    """The tree of a route (tsanity.series.routes()): the one T: line of
    the MAINTAINERS entry ENTRY whose repository's name is WORD, as
    tree_of() spells a tree; and the entry's M: people, who take it."""
    fields = entry_fields(src, entry)
    trees = [t[4:].strip() for t in fields["T"] if t.startswith("git ") and
             re.sub(r"\.git$", "", t[4:].split()[0].rstrip("/").rsplit("/", 1)[-1]) == word]
    if len(trees) != 1:
        die(f"MAINTAINERS entry '{entry}' has {len(trees)} git trees named '{word}' "
            f"(its T: lines: {'; '.join(fields['T']) or 'none'})")
    return trees[0], fields["M"]


# get_maintainer.pl lists what it found in the order of Perl's hashes,
# which Perl randomises per run: without a fixed seed the recipients, and
# the first tree named, change from one run to the next.
def perl_env():
    """The environment of get_maintainer.pl: Perl's hash order fixed, so
    that its answers come in one order."""
    return dict(os.environ, PERL_HASH_SEED="0", PERL_PERTURB_KEYS="0")


def get_maintainer(src, patch, what):
    """get_maintainer.pl on a patch file: 'people' (M: and R:), 'lists' or 'scm'."""
    opts = {"people": ["--no-l", "--no-s"], "lists": ["--no-m", "--no-r"],
            "scm": ["--no-email", "--scm"]}[what]
    out = run(["perl", "scripts/get_maintainer.pl", "--no-git", "--no-git-fallback",
               "--no-rolestats"] + opts + [patch], cwd=src, env=perl_env()).stdout
    return [l.strip() for l in out.splitlines() if l.strip()]


def tree_of(src, patch):
    """The first tree get_maintainer.pl --scm names that is not mainline's;
    where the MAINTAINERS entries name none (PPS SUPPORT, VM SOCKETS),
    "entry:NAME" of the first entry that names a maintainer of the patch."""
    for l in get_maintainer(src, patch, "scm"):
        if l.startswith("git ") and "torvalds/linux.git" not in l:
            return l[4:].strip()
    out = run(["perl", "scripts/get_maintainer.pl", "--no-git", "--no-git-fallback",
               "--no-l", "--no-s", patch], cwd=src, env=perl_env()).stdout
    m = re.search(r"\(maintainer:(.+)\)$", out, re.M)
    return f"entry:{m[1]}" if m else None


def slug(tree):
    """TREE (tree_of()'s) as a word of an mbox's name."""
    if tree.startswith("entry:"):
        return re.sub(r"[^a-z0-9]+", "-", tree[len("entry:"):].lower()).strip("-")
    url, _, branch = tree.partition(" ")
    parts = url.rstrip("/").rsplit("/", 2)
    name = re.sub(r"\.git$", "", parts[-1])
    if name == "linux" and len(parts) == 3:
        # A maintainer's own linux.git (7.3's IO_URING: axboe/linux.git).
        name = f"{parts[-2]}-{name}"
    return "-".join([name] + ([re.sub(r"[^A-Za-z0-9]+", "-", branch)] if branch else []))


def dedup(seq, drop=()):
    """SEQ's addresses once each, in order, without those of DROP."""
    out, seen = [], {email.utils.parseaddr(d)[1].lower() for d in drop}
    for a in seq:
        k = email.utils.parseaddr(a)[1].lower() or a.lower()
        if k not in seen:
            seen.add(k)
            out.append(a)
    return out


def cc_trailers(text):
    """The Cc: trailers of a patch's TEXT."""
    # stable@ and stable+noautosel@ are tags for the stable team's tools,
    # not recipients.
    return [m.group(1).split("#")[0].strip() for m in re.finditer(r"^Cc: (.+)$", text, re.M)
            if not re.search(r"\bstable(\+\w+)?@", m.group(1))]


def body_people(text):
    """The people git send-email adds from a format-patch mail's TEXT
    unless told not to: the in-body From: of a patch by someone else (its
    author) and every *-by: trailer (Signed-off-by:, Reviewed-by:, ...)."""
    head, _, body = text.partition("\n\n")
    people = []
    first = body.split("\n", 1)[0]
    if first.startswith("From: "):
        people.append(first[len("From: "):].strip())
    people += [m.group(1).strip() for m in re.finditer(r"^[A-Z][A-Za-z-]*-by: (.+)$", body, re.M)]
    return people


def fold(header, addrs):
    """A HEADER: of ADDRS, one a line."""
    return f"{header}: " + ",\n    ".join(addrs) + "\n"


def add_headers(text, to, cc):
    """Insert To:/Cc: before the Subject: of a format-patch mail."""
    head, sep, rest = text.partition("\nSubject: ")
    if not sep:
        die("a generated patch has no Subject: header")
    return head + "\n" + (fold("To", to) if to else "") + (fold("Cc", cc) if cc else "") + \
        "Subject: " + rest
