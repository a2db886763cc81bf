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


def routes(path):
    """The routes of PATH's patches, {patch: (entry, tree, prefix, reason)}:
    a "# route: ENTRY; TREE; PREFIX; REASON" line sends the patch listed
    next to the tree of the MAINTAINERS entry ENTRY whose T: line holds the
    word TREE, with the subject prefix PREFIX, where the first tree that
    get_maintainer.pl names is not the patch's (a fix that must wait for
    net-next, a driver whose entry names no tree).  REASON is why, and
    must be given."""
    try:
        with open(path) as fh:
            lines = fh.read().split("\n")
    except OSError as e:
        raise SeriesError(f"{path}: {e.strerror}") from e
    out, pending = {}, None
    for n, line in enumerate(lines, 1):
        if line.startswith(ROUTE):
            if pending:
                raise SeriesError(f"{path}:{pending[0]}: a route line with no patch after it")
            fields = [f.strip() for f in line[len(ROUTE):].split(";", 3)]
            if len(fields) != 4 or not all(fields):
                raise SeriesError(f"{path}:{n}: a route line needs ENTRY; TREE; PREFIX; "
                                  f"REASON, got '{line}'")
            pending = (n, tuple(fields))
            continue
        name = line.split("#", 1)[0].strip()
        if name and pending:
            out[name] = pending[1]
            pending = None
    if pending:
        raise SeriesError(f"{path}:{pending[0]}: a route line with no patch after it")
    return out
