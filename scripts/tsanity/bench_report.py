"""usage: scripts/bench-report.py BENCH_DIR

Turn one `make bench` run into a table, BENCH_DIR/bench.md (and, when
the run passes, BENCH_DIR/bench.json, the same figures, which make mbox
quotes), and print it.

Reads every round's serial log, BENCH_DIR/<kernel>/serial-<round>.log for
kernel in base, fixes, patched, as qemu-config/bench.c (native, x86_64)
and bench_32 (its -m32 build, i386: the time64 and the time32 syscalls)
print them in a guest that QEMU runs with -icount shift=0,sleep=off,
whose clock counts instructions:

  # bench <abi>:<entry> <path> insn/call: r1 r2 ...
  # bench <abi>:<entry> refuse not refused: <answer>
  # bench <abi>:<entry> <path> wrong answer: ...

then the bloat-o-meter outputs and BENCH_DIR/objdiff.md
(scripts/objdiff.py).  The repeats of all rounds are pooled.

For each entry point, ABI and path: the median instructions per call of
each kernel, the spread of each (max - min of its repeats), and the
differences fixes - base (what the fixes' checks cost) and patched -
fixes (what the refactor costs).  A difference is "0" when it is within
the larger spread of the two kernels.  These are instruction counts, not
time.  The entries of the fixes part that refuse (the kernel's fixes file,
patches/fixes) are the ones the base kernel does not refuse: on base their refuse path answers something else, shown as
"not refused (ANSWER)", with fixes - base n/a; fixes and patched must
refuse them.  A section states, per fix, what its check costs on the
quick path (fixes - base).

Exit 1 if a line is missing, unreadable or says a wrong answer, a guest
test failed, a kernel has fewer than 2 repeats of a path, a spread
exceeds 0.5 % on a path that does not sleep (the quick paths of
nanosleep and clock_nanosleep-rel, in every ABI, sleep for their timer
slack, which -icount counts as virtual time, and are shown but not
judged), an entry that is not one of the fixes' is not refused, fixes or
patched does not refuse a fixes' entry, or base refuses one (then the
bench does not try what the fix refuses).  A refactor cost that is not 0
is listed with the functions whose object code differs, for the reader
to explain; it does not fail the run.
"""
import glob
import json
import os
import re
import statistics
import sys

from tsanity import context as ts_context
from tsanity import fixes as ts_fixes
from tsanity import kernel as ts_kernel
from tsanity import layout

KERNELS = ("base", "fixes", "patched")
ENTRY = r"(?P<abi>[a-z0-9_]+):(?P<entry>\S+) (?P<path>\S+)"
LINE = re.compile(r"#\s*bench " + ENTRY + r" insn/call:(?P<vals>(?: \d+\.\d+)+)\s*$")
NOT_REFUSED = re.compile(r"#\s*bench " + ENTRY + r" not refused: (?P<answer>\S.*?)\s*$")
WRONG = re.compile(r"#\s*bench (?P<what>\S+ \S+ wrong answer: .*?)\s*$")
ANY = re.compile(r"#\s*bench (?P<rest>[^:\s].*?)\s*$")  # "# bench: 1.2 s" is /init's
NOT_OK = re.compile(r"^\s*not ok \d+ (?P<name>.*?)\s*$")
MAX_SPREAD = 0.5  # percent
# The quick paths that sleep: names without their ABI and _time32/_time64.
SLEEPS = {("nanosleep", "quick"), ("clock_nanosleep-rel", "quick")}
# The fixes part, fix by fix (the kernel's fixes file, tsanity.fixes): what
# each changes, the entry points (without their ABI) whose cost it changes,
# and whether it adds a refuse path.  A refusing fix's entries are the ones
# the base kernel does not refuse (their refuse path is "not refused" on
# base only); a fix that only saturates changes no answer of the bench and
# is tabled for its cost on the quick path; a fix with no entry is not in
# the bench.  7.3's series keeps io_uring's carry and the wait's signed sum
# (docs/mainline.md, decisions 1 and 2).
def load_fixes(version):
    """The fixes part of Linux VERSION's series (tsanity.fixes); exits
    naming the error."""
    try:
        return ts_fixes.load(ts_context.series_dir())
    except (ts_kernel.KernelError, ts_fixes.FixesError) as e:
        sys.exit(f"error: bench-report.py knows no fixes part of Linux {version}: {e}")


def fix_of(all_fixes, key):
    """The fix an entry's path belongs to: on the refuse path the fix that
    adds the refusal, on the quick path the first fix that changes it."""
    return next((f.patch for f in all_fixes
                 if key[1] in f.bench and (f.refuses or key[2] == "quick")), None)


def sleeps(key):
    entry = re.sub(r"_time(32|64)(?=-|$)", "", key[1])
    return (entry, key[2]) in SLEEPS


def load(bench_dir, kernel, errors, order):
    """{(abi, entry, path): [repeats]}, {(abi, entry, path): {answers}} of
    a kernel's rounds; every key, in the order of the logs, appended to
    order"""
    runs: dict[tuple[str, str, str], list[float]] = {}
    refused_not: dict[tuple[str, str, str], set[str]] = {}
    # Every round's serial log: the round a glob.
    logs = sorted(glob.glob(layout.result_file(bench_dir, "serial-round", kernel=kernel,
                                               round="*")))
    if not logs:
        any_round = layout.result_file(bench_dir, "serial-round", kernel=kernel, round="<round>")
        sys.exit(f"error: no {os.path.basename(any_round)} in {layout.run_dir(bench_dir, kernel)}")
    for path in logs:
        with open(path, errors="replace") as f:
            for line in f:
                m = LINE.search(line) or NOT_REFUSED.search(line)
                if m and (m["abi"], m["entry"], m["path"]) not in order:
                    order.append((m["abi"], m["entry"], m["path"]))
                m = LINE.search(line)
                if m:
                    runs.setdefault((m["abi"], m["entry"], m["path"]), []).extend(
                        float(v) for v in m["vals"].split())
                    continue
                m = NOT_REFUSED.search(line)
                if m:
                    refused_not.setdefault((m["abi"], m["entry"], m["path"]), set()).add(
                        m["answer"])
                    continue
                m = WRONG.search(line)
                if m:
                    errors.append(f"{kernel}: bench {m['what']} ({path})")
                    continue
                m = NOT_OK.search(line)
                if m:
                    errors.append(f"{kernel}: guest test failed: {m['name']} ({path})")
                    continue
                m = ANY.search(line)
                if m:
                    errors.append(f"{kernel}: unreadable bench line: {m['rest']} ({path})")
    return runs, refused_not


def name(key):
    return f"{key[0]}:{key[1]} {key[2]}"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[0])
    d = sys.argv[1]
    V = ts_context.version_or_exit()
    all_fixes = load_fixes(V)
    fixes = tuple((f.patch, f.what, f.bench) for f in all_fixes if f.bench)
    fixed_entries = {e for f in all_fixes if f.refuses for e in f.bench}
    out_md = layout.result_file(d, "bench", ext="md")
    out_json = layout.result_file(d, "bench", ext="json")
    # A failed run leaves no figures for others to quote.
    if os.path.exists(out_json):
        os.remove(out_json)
    errors: list[str] = []
    nonzero = []
    data, notref = {}, {}
    keys: list[tuple[str, str, str]] = []
    for k in KERNELS:
        data[k], notref[k] = load(d, k, errors, keys)
    out = ["# Cost of the series, in instructions per call", "",
           "QEMU -icount shift=0,sleep=off: the guest clock advances one ns per instruction, "
           "so these are instruction counts (the loop's own included, the same on every "
           "kernel), not time. ABI: x86_64 is the native build of qemu-config/bench.c, i386 "
           "its -m32 build (time64 and time32 syscalls through the compat entry). Spread: "
           "max - min of the repeats. A difference within the larger spread of its two "
           f"kernels is shown as 0. \"not refused\": {V} takes the input the fix refuses, "
           "so base has no refusal to count.", "",
           "| entry point | ABI | path | base | fixes | patched | spread b / f / p "
           "| fixes - base | patched - fixes |", "|---|---|---|---|---|---|---|---|---|"]
    if not keys:
        errors.append("no bench lines in any serial log")
    rows = {}
    for key in keys:
        fixed = key[1] in fixed_entries
        vals = {k: data[k].get(key) for k in KERNELS}
        ans = {k: notref[k].get(key) for k in KERNELS}
        bad = False
        for k in KERNELS:
            if ans[k] and vals[k]:
                errors.append(f"bench {name(key)}: refused in one round and not in another "
                              f"on {k} ({', '.join(sorted(ans[k]))})")
                bad = True
            elif ans[k] and (k != "base" or not fixed or key[2] != "refuse"):
                why = ("fixes and patched must refuse it" if fixed and key[2] == "refuse"
                       else "only the fixes' entries may be not refused, on base")
                errors.append(f"bench {name(key)}: not refused on {k} "
                              f"({', '.join(sorted(ans[k]))}): {why}")
                bad = True
        if fixed and key[2] == "refuse" and vals["base"]:
            errors.append(f"bench {name(key)}: refused on base, so it does not try what the "
                          "fix refuses")
            bad = True
        missing = [k for k in KERNELS if not vals[k] and not ans[k]]
        if missing:
            errors.append(f"bench {name(key)}: missing on {', '.join(missing)}")
            continue
        if bad:
            continue
        measured = [k for k in KERNELS if vals[k]]
        med = {k: statistics.median(vals[k]) for k in measured}
        spr = {k: max(vals[k]) - min(vals[k]) for k in measured}
        for k in measured:
            if len(vals[k]) < 2:
                errors.append(f"bench {name(key)}: fewer than 2 repeats on {k}")
            pct = 100 * spr[k] / med[k] if med[k] else 0
            if not sleeps(key) and pct > MAX_SPREAD:
                errors.append(f"bench {name(key)}: spread {pct:.2f} % on {k} "
                              f"(over {MAX_SPREAD} %: {vals[k]})")

        def diff(a, b):
            if a not in med or b not in med:
                return "n/a"
            v = med[b] - med[a]
            return "0" if abs(v) <= max(spr[a], spr[b]) else f"{v:+.2f}"
        fb, pf = diff("base", "fixes"), diff("fixes", "patched")
        if pf != "0":
            nonzero.append((key, pf))
        rows[key] = {"median": med, "spread": spr, "fixes-base": fb, "patched-fixes": pf,
                     "not refused": {k: sorted(ans[k]) for k in KERNELS if ans[k]},
                     "fix": fix_of(all_fixes, key)}
        cell = {k: f"{med[k]:.2f}" if k in med else f"not refused ({', '.join(sorted(ans[k]))})"
                for k in KERNELS}
        sp = " / ".join(f"{spr[k]:.2f}" if k in spr else "-" for k in KERNELS)
        note = " (sleeps: virtual time)" if sleeps(key) else ""
        out.append(f"| {key[1]}{note} | {key[0]} | {key[2]} | {cell['base']} | "
                   f"{cell['fixes']} | {cell['patched']} | {sp} | {fb} | {pf} |")

    out += ["", "## What each fix's check costs (fixes - base, quick path)", "",
            "Instructions per call on the quick valid path, which runs the new check and "
            "passes it; \"0\" is within the spread.", ""]
    for num, what, entries in fixes:
        cells = []
        for key in keys:
            if key[1] in entries and key[2] == "quick" and key in rows:
                med, spr = rows[key]["median"], rows[key]["spread"]
                if "base" in med and "fixes" in med:
                    v = med["fixes"] - med["base"]
                    cells.append(f"{key[0]}:{key[1]} {v:+.2f} ({rows[key]['fixes-base']})")
        if not cells:
            errors.append(f"fix {num}: no quick path of {', '.join(entries)} measured")
            cells = ["not measured"]
        out.append(f"- {num} {what}: " + "; ".join(cells))

    out += ["", "## The refactor (patched - fixes) where it is not 0", ""]
    if nonzero:
        out += [f"- {k[0]}:{k[1]} {k[2]}: {v} instructions per call" for k, v in nonzero]
        out += ["", "The object code that differs (scripts/objdiff.py, fixes -> patched) "
                "explains these; see below."]
    else:
        out.append("None: 0 within the spread on every path.")
    # objdiff.md is markdown; bloat-o-meter's text is shown as it is.
    for path, verbatim in ((layout.result_file(d, "objdiff"), False),
                           (layout.result_file(d, "bloat-o-meter", old="base", new="fixes"), True),
                           (layout.result_file(d, "bloat-o-meter", old="fixes", new="patched"),
                            True)):
        if not os.path.exists(path):
            errors.append(f"{path} missing")
            continue
        with open(path) as f:
            body = f.read().rstrip("\n")
        out += ["", f"## {os.path.basename(path)}", ""] + (["```", body, "```"] if verbatim
                                                          else [body])
    out.append("")
    text = "\n".join(out)
    with open(out_md, "w") as f:
        f.write(text)
    if not errors:
        with open(out_json, "w") as f:
            json.dump([{"abi": k[0], "entry": k[1], "path": k[2], **v} for k, v in rows.items()],
                      f, indent=1)
    print(text)
    for e in errors:
        print(f"error: {e}", file=sys.stderr)
    print(out_md)
    return 1 if errors else 0
