"""The checkpatch waivers of a series (patches/checkpatch.waivers, a
stable series' own): the one parser of the file, strict.  make
check-patches (scripts/check-patches.sh, through `scripts/ts waivers`)
keeps the waivers exact with it; make mbox's cover letters name the
waived messages from it (tsanity.mbox.figures).

The format: one waiver a line, "<patch file> <MESSAGE_TYPE> <reason...>",
the three fields separated by blanks; from a # to the end of the line is
a comment, and a line blank but for a comment is skipped.  A waiver
covers every message of that type in that patch.  Refused, naming the
file and the line: a line without the three fields, a type that is not
a checkpatch message type (capitals, digits and _), the same patch and
type waived twice, and with the series given, a patch that the series
does not list."""
import collections
import os
import re

from . import series as series_mod

# The file's name in the directory of its series.
FILE = "checkpatch.waivers"

# A checkpatch message type, as --show-types prints it.
TYPE = re.compile(r"[A-Z0-9_]+")

# What the shell's read splits a line on, and what it calls blank.
BLANKS = " \t"
SPACE = " \t\n\v\f\r"


class WaiverError(ValueError):
    pass


Waiver = collections.namedtuple("Waiver", "line patch type reason")


def path(series_dir):
    """The waivers of the series in SERIES_DIR."""
    return os.path.join(series_dir, FILE)


def load(waiver_file, series_file=None):
    """The waivers of WAIVER_FILE, in its order: [Waiver(line, patch, type,
    reason)].  With SERIES_FILE, each must be of a patch that it lists.
    A line the format refuses raises WaiverError naming FILE:LINE."""
    try:
        with open(waiver_file) as fh:
            text = fh.read()
    except OSError as e:
        raise WaiverError(f"{waiver_file}: {e.strerror}") from e
    listed = None
    if series_file is not None:
        try:
            listed = set(series_mod.patches(series_file))
        except series_mod.SeriesError as e:
            raise WaiverError(str(e)) from e
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out = []
    seen: dict[tuple[str, str], int] = {}
    for n, line in enumerate(lines, 1):
        code = line.split("#", 1)[0]
        if not code.strip(SPACE):
            continue
        fields = re.split(f"[{BLANKS}]+", code.strip(BLANKS), maxsplit=2)
        where = f"{waiver_file}:{n}"
        if len(fields) < 3 or not fields[2].strip(BLANKS):
            raise WaiverError(f"{where}: a waiver needs a patch file, a checkpatch type and "
                              "a reason")
        patch, typ, reason = fields[0], fields[1], fields[2].strip(BLANKS)
        if not TYPE.fullmatch(typ):
            raise WaiverError(f"{where}: '{typ}' is not a checkpatch message type")
        if (patch, typ) in seen:
            raise WaiverError(f"{where}: {patch} {typ} is waived already on line "
                              f"{seen[patch, typ]}")
        if listed is not None and patch not in listed:
            raise WaiverError(f"{where}: {patch} is not a patch of {series_file}")
        seen[patch, typ] = n
        out.append(Waiver(n, patch, typ, reason))
    return out


def by_patch(waivers):
    """The types waived per patch: {patch: {type}}."""
    out = collections.defaultdict(set)
    for w in waivers:
        out[w.patch].add(w.type)
    return out
