"""Every kernel the project knows, one row each.

This table is the one place in the tooling's code that spells a kernel's
version: the Makefile and the scripts ask it (`scripts/ts row FIELD`, or
this module), so that a new target kernel is a new row
(scripts/tests/test_kernels.py adds a fake one and shows that nothing
else needs to change).  The stable kernels are not rows: a directory
patches/stable/X.Y/ makes one (tsanity.stable.versions()).
"""
import collections

# A kernel X.Y (Debian's linux-source-X.Y) and what the repository holds
# for it; "" where it holds nothing: its own series (a directory with a
# series file), make subsystem-tests' expectations (suites_report.py), the
# kernel its new-interfaces file compares it with.  A named tuple, not a
# dataclass: dataclasses imports inspect, and every `scripts/ts` reads
# this table (`ts path` is the shell's most frequent question).
Row = collections.namedtuple("Row", ("version", "series", "suites", "newapi_base"),
                             defaults=("", "", ""))


ROWS: tuple[Row, ...] = (
    Row("7.3", series="patches", suites="qemu-config/suites/intended", newapi_base="6.12"),
)
FIELDS: tuple[str, ...] = Row._fields


def row(version: str, rows: tuple[Row, ...] | None = None) -> Row:
    """The row of VERSION, or an empty one (a kernel the project has no
    series for: a stable kernel, or any other)."""
    return next((r for r in rows or ROWS if r.version == version), Row(version))


def mainline(rows: tuple[Row, ...] | None = None) -> str:
    """The kernel of the mainline series (patches/): the default
    TS_KERNEL, and the one whose selftests make stable boots."""
    found = [r.version for r in rows or ROWS if r.series == "patches"]
    if len(found) != 1:
        raise ValueError(f"{len(found)} rows have the series patches/, not one: "
                         + ", ".join(found))
    return found[0]


def series(rows: tuple[Row, ...] | None = None) -> dict[str, str]:
    """{version: series directory} of every kernel with a series."""
    return {r.version: r.series for r in rows or ROWS if r.series}
