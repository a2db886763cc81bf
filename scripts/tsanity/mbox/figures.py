"""The testing figures that the cover letters quote: read from the
results of make test, make fixes and make bench, and the lines of the
testing section made of them and of the checkpatch waivers."""
import collections
import json
import os
from typing import Any

from .. import kunit_rows

from .. import waivers as ts_waivers
from ..layout import result_file
from .tools import die


def figures(layout, src, head):
    """Testing figures from make test (and make fixes, if it ran on this
    series)."""
    f: dict[str, Any] = {}
    try:
        rows = kunit_rows.load(result_file(layout.kunit_results("x86_64"), "kunit-json"))
    except (OSError, ValueError) as e:
        die(f"no KUnit results ({e}): run make test first")
    f["kunit_rows"] = len(rows)
    # The suite as the series has it (the one `scripts/ts kunit` runs).
    f["kunit_suite"] = "kernel/time/time_test.c, suite timespec64_timeout"
    f["kunit_pass"] = sum(1 for _, s in rows if s == "PASS")
    # The other architectures, where make check ran them.
    f["kunit_arch"] = []
    for arch, variant in (("i386", "i386"), ("arm64 (LLVM=1)", "arm64")):
        path = result_file(layout.kunit_results(variant), "kunit-json")
        try:
            # Only a run on this series: newer than the series applied in the tree.
            if os.path.getmtime(path) < os.path.getmtime(src + ".stamp"):
                continue
            other = kunit_rows.load(path)
        except OSError:
            continue
        except ValueError as e:
            die(f"{os.path.relpath(path, layout.results)} is not readable ({e})")
        f["kunit_arch"].append(
            f"{arch} {sum(1 for _, s in other if s == 'PASS')} of {len(other)}")
    # scripts/report.py's reports, all in $TS_RESULTS/tests: the base against
    # the whole series (make test), against the fixes alone, and the fixes
    # against the whole series (make fixes).
    tests = layout.boot_results("tests")
    try:
        with open(result_file(tests, "report", old="base", new="patched", ext="json")) as fh:
            f["test"] = json.load(fh)
    except (OSError, ValueError) as e:
        die(f"no integration report ({e}): run make test first")
    if f["test"]["verdict"] != "PASS":
        die("the last make test report is not PASS: the mboxes would quote a failing run")
    f["fixes"] = f["refactor"] = None
    # make fixes ran on this series if the whole series it compared the
    # fixes with was built from the tree's HEAD.
    paths = {"fixes": result_file(tests, "report", old="base", new="fixes", ext="json"),
             "refactor": result_file(tests, "report", old="fixes", new="patched", ext="json")}
    try:
        with open(paths["refactor"]) as fh:
            fresh = json.load(fh)["kernels"]["patched"].get("commit") == head
    except OSError:
        fresh = False
    except (ValueError, KeyError) as e:
        die(f"{paths['refactor']} is not readable ({e!r}): run make fixes again")
    if fresh:
        for part, p in paths.items():
            try:
                with open(p) as fh:
                    f[part] = json.load(fh)
            except (OSError, ValueError) as e:
                die(f"make fixes ran on this series but {p} is not readable ({e})")
            if f[part]["verdict"] != "PASS":
                die(f"{p}: the last make fixes did not pass; the mboxes would quote it")
        if f["fixes"]["kernels"]["fixes"].get("commit") != \
                f["refactor"]["kernels"]["fixes"].get("commit"):
            die(f"{paths['fixes']} and {paths['refactor']} are of different fixes kernels: "
                "run make fixes again")
    # make bench's figures, if it ran on this series and passed (a failed
    # run leaves no bench.json).
    f["bench"] = None
    bench = layout.named_results("bench")
    bench_json = result_file(bench, "bench", ext="json")
    try:
        with open(result_file(bench, "commit", kernel="patched")) as fh:
            bench_fresh = fh.read().strip() == head
    except OSError:
        bench_fresh = False
    if bench_fresh and os.path.exists(bench_json):
        try:
            with open(bench_json) as fh:
                f["bench"] = json.load(fh)
        except ValueError as e:
            die(f"{bench_json} is not readable ({e}): run make bench again")
    return f


def cost_text(rows):
    """The cost line of the testing section, from make bench's rows."""
    if rows is None:
        return (" - Cost: make bench (instructions per call under QEMU -icount) was not "
                "run on this series for this submission.")
    fixes: dict[str, set[str]] = {}
    for r in rows:
        if r["fix"] and r["path"] == "quick":
            fixes.setdefault(r["fix"], set()).add(r["fixes-base"])
    per_fix = ", ".join(f"{n} {'/'.join(sorted(v))}" for n, v in sorted(fixes.items()))
    same, fewer, more = 0, [], []
    for r in rows:
        d = r["patched-fixes"]
        if d == "0":
            same += 1
        elif d.startswith("-"):
            fewer.append((r["path"], float(d), f"{r['abi']}:{r['entry']} {r['path']} {d}"))
        else:
            more.append(f"{r['abi']}:{r['entry']} {r['path']} {d}")
    abis = sorted({r["abi"] for r in rows})
    text = (f" - Cost, in instructions per call (make bench: QEMU -icount counts the "
            f"guest's instructions, so these are counts, not time), {len(rows)} paths "
            f"({', '.join(abis)}): each fix's check on its valid path, fixes - base: "
            f"{per_fix}. The refactor, patched - fixes: the same on {same} paths")
    refused = [v for path, v, _ in fewer if path == "refuse"]
    if refused:
        text += (f", fewer on {len(refused)} refusal paths ({max(refused):+.0f} to "
                 f"{min(refused):+.0f}: the classifier's first comparison, of tv_nsec, "
                 "refuses)")
    valid = sorted(what for path, _, what in fewer if path != "refuse")
    if valid:
        text += f", fewer on {len(valid)} valid paths ({'; '.join(valid)})"
    if more:
        text += f", more on {len(more)} ({'; '.join(sorted(more))})"
    return text + "."


def testing_text(f, version):
    """The testing section of the cover letters, from figures() F; VERSION:
    the kernel's X.Y."""
    t = f["test"]
    b = t["kernels"]["patched"]
    by_abi = ", ".join(f"{abi} {n}" for abi, n in b["contract_cases_by_abi"].items())
    lines = [
        f" - KUnit ({f['kunit_suite']}): x86_64 {f['kunit_pass']} of "
        f"{f['kunit_rows']} rows pass"
        + ("; " + ", ".join(f["kunit_arch"]) if f["kunit_arch"] else "") + ".",
        f" - Integration: the series' selftests and our own check of every entry point "
        f"against the contract (timeout_classes, a kselftest_harness program not sent), "
        f"native and -m32, booted "
        f"under QEMU on {version} and on {version} + the whole series: {b['contract_cases']} "
        f"contract cases per kernel ({by_abi}). {t['differences']} cases differ, "
        f"and all of them are the intended changes of the fixes "
        f"({t['intended']['seen']} of {t['intended']['listed']} listed); "
        f"{t['not_intended']} other.",
    ]
    if f["fixes"] and f["refactor"]:
        lines.append(
            f" - The fixes alone against {version}: {f['fixes']['differences']} differences, "
            f"exactly the listed ones ({f['fixes']['verdict']}). The refactor on top of "
            f"the fixes against the fixes alone: {f['refactor']['differences']} "
            f"differences ({f['refactor']['verdict']}).")
    else:
        lines.append(" - The fixes alone and the refactor on top of them were not booted "
                     "separately for this run (make check does it).")
    lines.append(cost_text(f["bench"]))
    return "\n".join(lines)


def load_waivers(series_dir):
    """The checkpatch messages waived per patch, from SERIES_DIR's
    checkpatch.waivers (tsanity.waivers, the one parser: each of a patch
    of SERIES_DIR's series): {patch: {message type}}; dies naming a line
    it refuses."""
    try:
        return ts_waivers.by_patch(ts_waivers.load(ts_waivers.path(series_dir),
                                                   os.path.join(series_dir, "series")))
    except ts_waivers.WaiverError as e:
        die(str(e))


def waiver_text(patches, waivers):
    """What checkpatch --strict says of these patches, from the waivers
    that make check keeps exact (an unused waiver fails it)."""
    used = collections.defaultdict(list)
    for n, p in enumerate(patches, 1):
        for t in sorted(waivers.get(p, ())):
            used[t].append(str(n))
    if not used:
        return " - checkpatch.pl --strict: clean."
    return (" - checkpatch.pl --strict: clean but for waived messages, each with its "
            "reason in the project: " +
            "; ".join(f"{t} (patch {', '.join(ns)})" for t, ns in sorted(used.items())) +
            ". UNKNOWN_COMMIT_ID only because this tree has no upstream history.")
