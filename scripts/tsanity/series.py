"""The series file (patches/series and the stable series): the patches it
lists in order, and its parts, opened by "# part: NAME" lines."""
import re


class SeriesError(Exception):
    pass


def parse(path):
    """[(part, patch)] in order; part is None before the first part line."""
    try:
        with open(path) as fh:
            lines = fh.read().splitlines()
    except OSError as e:
        raise SeriesError(f"{path}: {e.strerror}") from e
    part, rows = None, []
    for line in lines:
        m = re.match(r"^# part: (\S+)", line)
        if m:
            part = m.group(1)
            continue
        name = line.split("#", 1)[0].strip()
        if name:
            rows.append((part, name))
    return rows


def patches(path, part=None):
    """The patches PATH lists, in order; with PART, only that part's."""
    return [p for q, p in parse(path) if part is None or q == part]
