"""The series file (patches/series and the stable series): the patches it
lists in order, and its parts, opened by "# part: NAME" lines."""


class SeriesError(Exception):
    pass


def parse(path):
    """[(part, patch)] in order; part is None before the first part line."""
    try:
        with open(path) as fh:
            lines = fh.read().split("\n")
    except OSError as e:
        raise SeriesError(f"{path}: {e.strerror}") from e
    part, rows = None, []
    for line in lines:
        if line.startswith("# part: "):
            fields = line.split()
            part = fields[2] if len(fields) > 2 else ""
            continue
        name = line.split("#", 1)[0].rstrip(" \t")
        if name.split():
            rows.append((part, name))
    return rows


def patches(path, part=None):
    """The patches PATH lists, in order; with PART, only that part's."""
    return [p for q, p in parse(path) if part is None or q == part]


def subject_prefix(path, default="PATCH"):
    """The subject prefix of the mails of PATH's patches, from its
    "# subject-prefix: PREFIX" line (a stable series: "PATCH 6.12.y"),
    else DEFAULT."""
    try:
        with open(path) as fh:
            lines = fh.read().split("\n")
    except OSError as e:
        raise SeriesError(f"{path}: {e.strerror}") from e
    found = [ln[len("# subject-prefix: "):].strip() for ln in lines
             if ln.startswith("# subject-prefix: ")]
    if len(found) > 1:
        raise SeriesError(f"{path}: more than one subject-prefix line")
    return found[0] if found and found[0] else default


ROUTE = "# route: "
UPSTREAM = "# upstream: "


def _tagged(path, tag, noun, nfields, what):
    """{patch: fields} of PATH's TAG lines, each naming the patch listed
    next: NFIELDS non-empty fields separated by ";" (the last takes the
    rest of the line)."""
    try:
        with open(path) as fh:
            lines = fh.read().split("\n")
    except OSError as e:
        raise SeriesError(f"{path}: {e.strerror}") from e
    out, pending = {}, None
    for n, line in enumerate(lines, 1):
        if line.startswith(tag):
            if pending:
                raise SeriesError(f"{path}:{pending[0]}: {noun} line with no patch after it")
            fields = [f.strip() for f in line[len(tag):].split(";", nfields - 1)]
            if len(fields) != nfields or not all(fields):
                raise SeriesError(f"{path}:{n}: {noun} line needs {what}, got '{line}'")
            pending = (n, tuple(fields))
            continue
        name = line.split("#", 1)[0].strip()
        if name and pending:
            out[name] = pending[1]
            pending = None
    if pending:
        raise SeriesError(f"{path}:{pending[0]}: {noun} line with no patch after it")
    return out


def routes(path):
    """The routes of PATH's patches, {patch: (entry, tree, prefix, reason)}:
    a "# route: ENTRY; TREE; PREFIX; REASON" line sends the patch listed
    next to the tree of the MAINTAINERS entry ENTRY whose T: line holds the
    word TREE, with the subject prefix PREFIX, where the first tree that
    get_maintainer.pl names is not the patch's (a fix that must wait for
    net-next, a driver whose entry names no tree).  REASON is why, and
    must be given."""
    return _tagged(path, ROUTE, "a route", 4, "ENTRY; TREE; PREFIX; REASON")


def upstream(path):
    """The patches of PATH that stand for a commit already in mainline,
    {patch: (subject, reason)}: an "# upstream: SUBJECT; REASON" line
    before the patch.  The tooling applies such a patch where the series
    lists it, so that the rest applies to the base release; make mbox
    never mails it, and the mails apply onto the base with it."""
    return _tagged(path, UPSTREAM, "an upstream", 2, "SUBJECT; REASON")
