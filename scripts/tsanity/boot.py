"""`scripts/ts boot`: one guest boot, built, run and judged in this one
process.

usage: scripts/ts boot [--list-reports] [--icount] [--show-command]
                       {base|fixes|patched|stable} [tests|bench|suites|mainline] [sanitized]

Boots a guest kernel (scripts/ts guest) with the initramfs of a
suite (scripts/ts initramfs; default tests) under QEMU, whose argument
list tsanity.qemu builds, bounded by TS_BOOT_TIMEOUT seconds (enforced
here: SIGTERM at the limit, SIGKILL 5 s later, as timeout -k 5 did).  The
tests suite gets TS_SEED and TS_RANDOM on the kernel command line, which
the kernel hands to /init's environment as TIMEOUT_CLASSES_SEED and
TIMEOUT_CLASSES_RANDOM (timeout_classes' random inputs), and they are
recorded in the boot's random file.  Keeps the serial console in
<results>/<suite>/<kernel>/serial.log, with verdict.json beside it (the
KTAP read in this process by tsanity.ktap) and commit (what the kernel
was built from).  The suite "mainline" is the tests initramfs of the
mainline series' kernel, copied there by make stable (scripts/stable.sh)
to boot on a stable kernel.  The boot is then judged (tsanity.judge): it
fails on a timeout, a kernel splat (the tree's rcutorture
console-badness.sh, panics, UBSAN, KASAN), a log the KTAP reader cannot
read, an /init that did not finish, ran another number of programs than
the initramfs lists, or whose count of failed programs disagrees with
QEMU's exit.  What the results mean is scripts/report.py's to judge (the
suite "suites", liburing's and libaio's own tests: scripts/suites_report.py's,
bounded by TS_SUITES_BOOT_TIMEOUT).

With the variant "sanitized" it boots the sanitized guest (KASAN, UBSAN,
lockdep, debugobjects), with kasan_multi_shot added to the kernel
parameters, counting instructions (-icount), bounded by TS_SANITIZED_SCALE
times TS_BOOT_TIMEOUT, and keeps everything in <results>/<suite>-sanitized;
the judge lists the kernel's reports (tsanity.splats), each with its
program and input, in splats.json there.  A report fails the boot, named,
unless --list-reports (sanitized only) makes the reports findings to list
(make check-sanitized, on base); every other check stays.

--icount counts instructions on a plain boot too (make bench; TS_ICOUNT=1
asks it of every boot).  --show-command prints the QEMU command the boot
would run, as one shell line, and boots nothing."""
import dataclasses
import os
import shutil
import signal
import subprocess
import sys
import time

from . import qemu
from .judge import boot_run

SUITES = ("tests", "bench", "suites", "mainline")
# The suites whose /init runs timeout_classes (its random inputs).
RANDOM_SUITES = ("tests", "mainline")
# timeout -k 5: SIGKILL this many seconds after SIGTERM; and the exit
# statuses timeout(1) gives (the judge reads them).
KILL_AFTER = 5
TIMED_OUT, KILLED = 124, 137


class BootError(ValueError):
    """The boot cannot start: what the "error: " line says."""


@dataclasses.dataclass(frozen=True)
class Request:
    """What `scripts/ts boot` was asked."""
    kernel: str
    suite: str = "tests"
    sanitized: bool = False
    list_reports: bool = False
    icount: bool = False


@dataclasses.dataclass(frozen=True)
class Plan:
    """One boot, decided: the guest QEMU boots, its limit (seconds), the
    boot-results directory, the initramfs's list of programs, the guest
    build's commit file, and the random inputs to record ("SEED RANDOM",
    or "" for a suite without timeout_classes)."""
    request: Request
    guest: qemu.Guest
    limit: int
    boot_dir: str
    programs: str
    commit_from: str
    random: str = ""


def _whole(name: str, value: str) -> int:
    if not value.isdigit() or int(value) == 0:
        raise BootError(f"{name}={value}: a whole number of seconds")
    return int(value)


def plan(cfg, layout, req: Request) -> Plan:
    """The boot REQ asks, from the configuration CFG and the layout."""
    layout.tree(req.kernel)  # a known kernel, named otherwise
    if req.suite not in SUITES:
        raise BootError(f"unknown suite '{req.suite}' ({' '.join(SUITES)})")
    if req.list_reports and not req.sanitized:
        raise BootError("--list-reports is for the sanitized variant only")
    variant = "sanitized" if req.sanitized else ""
    limit = _whole("TS_BOOT_TIMEOUT", cfg["TS_BOOT_TIMEOUT"])
    append: tuple[str, ...] = (cfg["TS_APPEND"],) if cfg["TS_APPEND"] else ()
    if cfg["TS_ICOUNT"] not in ("0", "1"):
        raise BootError(f"TS_ICOUNT={cfg['TS_ICOUNT']}: 0, or 1 to count instructions")
    icount = req.icount or cfg["TS_ICOUNT"] == "1"
    if req.sanitized:
        scale = cfg["TS_SANITIZED_SCALE"]
        if not (scale.isdigit() and 1 <= int(scale) <= 99 and scale[0] != "0"):
            raise BootError(f"TS_SANITIZED_SCALE={scale}: a whole factor from 1 to 99")
        limit *= int(scale)
        # The guest's clock counts instructions: the checkers slow the
        # emulation, not the guest time a program's work takes, so a
        # selftest's timeout (futex_requeue waits 30 ms) and /init's
        # watchdog mean what they mean on the plain guest, whatever the
        # host's load.
        icount = True
        # Every bad access reported, not the first only.
        append = ("kasan_multi_shot", *append)
    elif req.suite == "suites":
        limit = _whole("TS_SUITES_BOOT_TIMEOUT", cfg["TS_SUITES_BOOT_TIMEOUT"])
    random = ""
    if req.suite in RANDOM_SUITES:
        # The kernel hands unknown parameters NAME=VALUE to /init as its
        # environment.
        for name in ("TS_SEED", "TS_RANDOM"):
            if not cfg[name].isdigit():
                raise BootError(f"{name}={cfg[name]}: not a number")
        random = f"{cfg['TS_SEED']} {cfg['TS_RANDOM']}"
        append = (*append, f"TIMEOUT_CLASSES_SEED={cfg['TS_SEED']}",
                  f"TIMEOUT_CLASSES_RANDOM={cfg['TS_RANDOM']}")
    guest_dir = layout.guest(req.kernel, variant)
    initramfs = layout.initramfs(req.suite)
    boot_dir = layout.boot_results(req.suite, variant)
    try:
        accel = qemu.accel(cfg["TS_KVM"])
    except qemu.QemuError as e:
        raise BootError(str(e)) from None
    guest = qemu.Guest(image=os.path.join(guest_dir, "arch", "x86", "boot", "bzImage"),
                       initramfs=os.path.join(initramfs, "initramfs.cpio"),
                       serial_log=boot_run.result(boot_dir, "serial", req.kernel),
                       accel=accel, icount=icount, append=append)
    return Plan(request=req, guest=guest, limit=limit, boot_dir=boot_dir,
                programs=os.path.join(initramfs, "tests"),
                commit_from=os.path.join(guest_dir, "ts-commit"), random=random)


def check_inputs(p: Plan) -> None:
    """The kernel and the initramfs are built, named otherwise."""
    req = p.request
    if not os.path.isfile(p.guest.image):
        raise BootError(f"{p.guest.image} not found (run scripts/ts guest "
                        + ("--sanitized " if req.sanitized else "") + f"{req.kernel})")
    if not (os.path.isfile(p.guest.initramfs) and os.path.isfile(p.programs)):
        raise BootError(f"{p.guest.initramfs} not found (run scripts/ts initramfs {req.suite})")


def prepare(p: Plan) -> None:
    """The boot's directory, without what an earlier boot left (splats
    files are rewritten by a sanitized one); its commit and random files."""
    k = p.request.kernel
    os.makedirs(os.path.dirname(p.guest.serial_log), exist_ok=True)
    for what in ("serial", "verdict", "commit", "random", "splats"):
        path = boot_run.result(p.boot_dir, what, k)
        if os.path.lexists(path):
            os.remove(path)
    shutil.copyfile(p.commit_from, boot_run.result(p.boot_dir, "commit", k))
    if p.random:
        with open(boot_run.result(p.boot_dir, "random", k), "w") as f:
            f.write(p.random + "\n")


class Stopped(Exception):
    """This process was asked to stop (SIGTERM, SIGHUP) during a boot."""


def _stop(signum, _frame):
    raise Stopped(signal.Signals(signum).name)


def run_qemu(argv: list[str], limit: int) -> int:
    """Run ARGV for at most LIMIT seconds: its exit status, or, as
    timeout -k 5 says it, 124 when SIGTERM ended it at the limit and 137
    when SIGKILL had to, 5 s later.  QEMU never outlives this process: a
    SIGINT, SIGTERM or SIGHUP sent to it kills QEMU first."""
    old = {s: signal.signal(s, _stop) for s in (signal.SIGTERM, signal.SIGHUP)}
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL)
    try:
        try:
            rc = proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=KILL_AFTER)
                return TIMED_OUT
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
                return KILLED
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for s, handler in old.items():
            signal.signal(s, handler)
    # A signal's death as a shell says it (128 + N).
    return rc if rc >= 0 else 128 - rc


def main(req: Request, cfg, layout, show_command: bool = False) -> int:
    """Boot and judge REQ: 0 if the boot passed, 1 if not (each problem
    named, as the judge says it)."""
    try:
        p = plan(cfg, layout, req)
        argv = qemu.command(p.guest)
        if show_command:
            print(qemu.show(argv))
            return 0
        check_inputs(p)
        prepare(p)
    except (BootError, qemu.QemuError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    what = req.kernel + (" sanitized" if req.sanitized else "")
    print(f"==> booting the {what} guest kernel (limit {p.limit} s; serial console in "
          f"{p.guest.serial_log})", file=sys.stderr, flush=True)
    start = time.monotonic_ns()
    try:
        rc = run_qemu(argv, p.limit)
    except Stopped as e:
        print(f"error: {req.kernel} boot: stopped by {e} (QEMU killed)", file=sys.stderr)
        return 1
    ms = (time.monotonic_ns() - start) // 1_000_000
    sys.stdout.flush()
    return boot_run.main(boot_run.Judged(
        kernel=req.kernel, boot_dir=p.boot_dir, programs=p.programs, rc=rc,
        limit=str(p.limit), wall=f"{ms // 1000}.{ms % 1000:03d}",
        sanitized=req.sanitized, list_reports=req.list_reports), layout)
