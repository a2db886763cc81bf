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
