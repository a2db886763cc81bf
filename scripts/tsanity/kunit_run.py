"""`scripts/ts kunit`: the series' KUnit suite, run and judged in this one
process.

usage: scripts/ts kunit {x86_64|i386|arm64|sanitizers}

Runs the series' KUnit suite (7.3: the suite timespec64_timeout of
kernel/time/time_test.c, with kernel/time/.kunitconfig) with the tree's
kunit.py under QEMU, through Debian's ccache and the build lock (one
kernel build at a time), keeps kunit.py's JSON in
<results>/kunit-<variant>/results.json and its output in kunit.log there,
and judges the JSON with tsanity.kunit_rows: every row the suite's source
generates must pass; a failed, crashed, skipped, missing or unknown row
fails the run, named.
  x86_64      the main run
  i386        32-bit x86: long, and so tv_nsec, is 32 bits
  arm64       built with clang and lld (LLVM=1, or LLVM=-19 where the
              tree wants a newer LLVM than Debian's clang: llvm_option()),
              run on qemu-system-aarch64 (TCG: KVM cannot run it here)
  sanitizers  x86_64 with kunit-tests/sanitizers.config (KASAN, UBSAN)
              as a second --kunitconfig
Each variant has its build directory, <out>/kunit-<variant>.  kunit.py's
QEMU goes through scripts/kunit-qemu/, which lets only the accelerator
chosen here (tsanity.qemu.accel(): TS_KVM) run: 7.x's kunit.py asks for
KVM first."""
import os
import re
import shutil
import subprocess
import sys

from . import build
from . import kunit_rows
from . import layout as layout_mod
from . import qemu

VARIANTS = ("x86_64", "i386", "arm64", "sanitizers")
# The series adds its suite to kernel/time/time_test.c, run alone by its
# name.
SUITE = "timespec64_timeout"
# kunit.py's own summary: from its first closing group line, the last 8.
SUMMARY = re.compile(r"=* \[(PASSED|FAILED|CRASHED|SKIPPED)\]")


class KunitError(ValueError):
    """The run cannot start or did not pass: what the "error: " line says."""


def llvm_option(src: str, version: str) -> str:
    """The LLVM= value that builds SRC with clang: 1 for Debian's default
    clang when the tree's scripts/min-tool-version.sh accepts it (6.12:
    13.0.1), else -19 for Debian 12's clang-19 (7.3 wants 17.0.1; make
    deps installs it)."""
    p = subprocess.run(["sh", "scripts/min-tool-version.sh", "llvm"], cwd=src,
                       capture_output=True, text=True)
    if p.returncode != 0 or not p.stdout.strip():
        raise KunitError(f"{src}/scripts/min-tool-version.sh llvm failed")
    want = p.stdout.strip()
    try:
        have = subprocess.run(["clang", "-dumpversion"], capture_output=True,
                              text=True).stdout.strip() or "0"
    except FileNotFoundError:
        have = "0"
    if build.version_key(have) >= build.version_key(want):
        return "1"
    if shutil.which("clang-19") and shutil.which("ld.lld-19"):
        return "-19"
    raise KunitError(f"Linux {version} needs LLVM {want} or newer: clang is {have} and "
                     "clang-19/lld-19 are not installed (make deps)")


def arguments(variant: str, cfg, src: str, version: str) -> tuple[list[str], str]:
    """kunit.py run's arguments for VARIANT (before --build_dir), and the
    accelerator its QEMU may use."""
    suite = os.path.join(src, "kernel", "time")
    args = [f"--kunitconfig={suite}"]
    accel = qemu.accel(cfg["TS_KVM"])
    if variant == "x86_64":
        args.append("--arch=x86_64")
    elif variant == "i386":
        args.append("--arch=i386")
    elif variant == "arm64":
        args += ["--arch=arm64", "--make_options", f"LLVM={llvm_option(src, version)}"]
        accel = "tcg"  # KVM cannot run an arm64 guest here
    elif variant == "sanitizers":
        args += ["--arch=x86_64",
                 f"--kunitconfig={os.path.join(cfg.repo, 'kunit-tests', 'sanitizers.config')}"]
    else:
        raise KunitError(f"unknown variant '{variant}' ({'|'.join(VARIANTS)})")
    return args, accel


def summary(log_text: str) -> str:
    """kunit.py's closing lines: from its first PASSED/FAILED/... group
    line to the end, the last 8 of them."""
    lines = log_text.splitlines()
    for i, line in enumerate(lines):
        if SUMMARY.search(line):
            return "".join(line + "\n" for line in lines[i:][-8:])
    return ""


def main(variant: str, cfg, layout) -> int:
    """Run and judge VARIANT: 0 if every row passed, 1 if not (named)."""
    src = layout.src
    source = os.path.join(src, "kernel", "time", "time_test.c")
    build_dir = layout.kunit_build(variant)
    results = layout.kunit_results(variant)
    json_path = layout_mod.result_file(results, "kunit-json")
    klog = layout_mod.result_file(results, "kunit-log")
    try:
        if not os.path.isfile(os.path.join(src, "kernel", "time", ".kunitconfig")):
            raise KunitError(f"{src}/kernel/time/.kunitconfig not found (run make tree)")
        if not os.path.isfile(source):
            raise KunitError(f"{source} not found (run make tree)")
        with open(source, errors="replace") as f:
            if SUITE not in f.read():
                raise KunitError(f"{source} has no timeout family suite (is patches/series "
                                 "applied? run make tree)")
        args, accel = arguments(variant, cfg, src, layout.kernel.version)
        env = build.ccache_env(layout)
    except (KunitError, qemu.QemuError, build.BuildError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for d in (build_dir, results, os.path.dirname(layout.build_lock)):
        os.makedirs(d, exist_ok=True)
    if os.path.lexists(json_path):
        os.remove(json_path)
    print(f"==> kunit.py run ({variant}) in {build_dir}", file=sys.stderr, flush=True)
    env["PATH"] = os.path.join(cfg.repo, "scripts", "kunit-qemu") + os.pathsep + env["PATH"]
    env["KUNIT_QEMU_ACCEL"] = accel
    argv = ["flock", layout.build_lock, sys.executable, "tools/testing/kunit/kunit.py", "run",
            *args, f"--build_dir={build_dir}", f"--jobs={cfg['TS_JOBS']}", "--timeout=600",
            f"--qemu_args=-accel {accel}", f"--json={json_path}", SUITE]
    with open(klog, "w") as out:
        rc = subprocess.run(argv, cwd=src, env=env, stdin=subprocess.DEVNULL,
                            stdout=out, stderr=subprocess.STDOUT).returncode
    with open(klog, errors="replace") as f:
        said = f.read()
    sys.stdout.write(summary(said))
    sys.stdout.flush()
    if not os.path.isfile(json_path):
        sys.stderr.write("".join(line + "\n" for line in said.splitlines()[-30:]))
        print(f"error: kunit.py run ({variant}) wrote no JSON (exit {rc}): see {klog}",
              file=sys.stderr)
        return 1
    if kunit_rows.check(json_path, source, variant) != 0:
        print(f"error: KUnit ({variant}): the run does not pass every row of the suite: "
              f"see {klog}", file=sys.stderr)
        return 1
    if rc != 0:
        print(f"error: kunit.py run ({variant}) exited {rc}: see {klog}", file=sys.stderr)
        return 1
    print(f"kunit ({variant}): JSON in {json_path}")
    return 0
