"""`scripts/ts initramfs`: a guest initramfs, built in this one process.

usage: scripts/ts initramfs [tests|bench|suites|stable]

Builds <out>/initramfs-<suite>/initramfs.cpio: the static /init
(qemu-config/init.c) and the programs listed in qemu-config/<suite>
(default: tests), static: the patched tree's selftests, built by their own
Makefiles against the uapi headers that `make headers` exports into the
patched guest's O= directory, or qemu-config/bench.c; packed by the tree's
usr/gen_init_cpio (compiled into the build directory) from the list
template qemu-config/initramfs.list, with fixed mtimes.  No root needed;
make (qemu-config/initramfs.mk) recompiles only what changed.
The suite "suites" (make subsystem-tests) holds no selftest: the programs
that scripts/suites.sh staged (liburing, libaio; 64-bit and -m32) under
/suites/NAME/ABI/, libaio's testdir/{ro,wo,rw}file beside them, and an
/etc/tests that runs each SUITES_RUNS times (a round of every program,
then the next), in its own directory (writable: the rootfs is a tmpfs;
liburing's timeout runs ./exec-target.t from there), with the suite's skip
status (liburing 77, libaio 3) and the KTAP name NAME/ABI/PROGRAM/RUN.
The suite "stable" (make stable) is the suite "tests" and the programs of
qemu-config/stable after its own, staged as for "suites" and run once,
KTAP name NAME/ABI/PROGRAM: a second archive, appended to the tests' (the
kernel unpacks both, the second's /etc/tests replacing the first's).
Prints the path of the archive on stdout.  Every file it writes keeps its
mtime when its content did not change."""
import hashlib
import os
import re
import shutil
import subprocess
import sys

from . import build

SUITES = ("tests", "bench", "suites", "stable")
SUITES_RUNS = 3
SUITES_TIMEOUT = 120  # seconds, each run of each program
# The user-space suites, in the order they run, and the exit status that
# means "skipped" for each.
SKIP = {"liburing": 77, "libaio": 3}
ABIS = ("64", "32")


class InitramfsError(ValueError):
    """What the "error: " line says."""


def write_if_changed(path: str, text: str) -> None:
    """TEXT to PATH, keeping PATH's mtime if it holds TEXT already."""
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except FileNotFoundError:
        pass
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def program_list(path: str) -> list[str]:
    """The lines of a program list: comments and trailing blanks cut,
    empty lines dropped."""
    with open(path) as f:
        lines = [re.sub(r"\s+$", "", line.split("#", 1)[0]) for line in f.read().splitlines()]
    return [line for line in lines if line]


def list_from_template(template: str, files: str, b: str) -> str:
    """initramfs.list: the template without its comments, @TEST_FILES@
    replaced by FILES and @B@ by B."""
    out = []
    with open(template) as f:
        for line in f.read().splitlines():
            if line.startswith("#"):
                continue
            out.append(files if line == "@TEST_FILES@" else line + "\n")
    return "".join(out).replace("@B@", b)


def uapi_sum(include: str) -> str:
    """The headers' state (uapi.sum), as `find . -name '*.h' | sort | xargs
    sha256sum | sha256sum` wrote it: a sum written by the old tooling
    stays valid."""
    if not os.path.isdir(include):
        raise InitramfsError(f"hashing the uapi headers in {include} failed: no such directory")
    names = []
    for d, _, files in os.walk(include):
        for n in files:
            path = os.path.join(d, n)
            if n.endswith(".h") and os.path.isfile(path) and not os.path.islink(path):
                names.append("./" + os.path.relpath(path, include))
    lines = []
    for n in sorted(names, key=lambda s: s.encode()):
        with open(os.path.join(include, n), "rb") as f:
            lines.append(f"{hashlib.sha256(f.read()).hexdigest()}  {n}\n")
    return hashlib.sha256("".join(lines).encode()).hexdigest() + "  -"


def make(layout, b: str, *args: str) -> None:
    """make -f qemu-config/initramfs.mk in B (its output on stderr)."""
    cfg = layout.cfg
    argv = ["make", "-s", "-f", os.path.join(cfg.repo, "qemu-config", "initramfs.mk"),
            f"-j{cfg['TS_JOBS']}", f"B={b}", f"TREE={layout.src}", *args]
    sys.stdout.flush()
    if subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=sys.stderr).returncode != 0:
        raise InitramfsError(f"building the initramfs in {b} failed")


def programs(layout, suite: str) -> str:
    """The archive of a program list's suite (tests, bench)."""
    cfg_dir = os.path.join(layout.cfg.repo, "qemu-config")
    b = layout.initramfs(suite)
    st = os.path.join(layout.src, "tools", "testing", "selftests")
    if not os.path.isdir(st):
        raise InitramfsError(f"{st} not found (run scripts/ts tree)")
    os.makedirs(b, exist_ok=True)
    if not os.path.isfile(os.path.join(st, "drivers", "pps", "pps_fetch_timeout.c")):
        raise InitramfsError(f"{st}/drivers/pps/pps_fetch_timeout.c not found (is "
                             "patches/series applied?)")
    # The tree's uapi headers, for KHDR_INCLUDES.
    hdr_out = layout.guest("patched")
    sys.stdout.flush()
    if subprocess.run(build.kmake_argv(layout, layout.src, hdr_out, "-s", "headers"),
                      env=build.ccache_env(layout), stdin=subprocess.DEVNULL,
                      stdout=sys.stderr).returncode != 0:
        raise InitramfsError(f"make headers in {hdr_out} failed")
    # The selftests' Makefiles do not track those headers: a change in
    # them rebuilds the selftests.
    new_sum = uapi_sum(os.path.join(hdr_out, "usr", "include"))
    sum_file = os.path.join(b, "uapi.sum")
    old_sum = ""
    if os.path.isfile(sum_file):
        with open(sum_file) as f:
            old_sum = f.read().rstrip("\n")
    if old_sum != new_sum:
        for d in ("st64", "st32"):
            shutil.rmtree(os.path.join(b, d), ignore_errors=True)
        with open(sum_file, "w") as f:
            f.write(new_sum + "\n")
    # The programs to run: /etc/tests without comments; each is /bin/NAME.
    lines = program_list(os.path.join(cfg_dir, suite))
    if not lines:
        raise InitramfsError(f"no test programs listed in {cfg_dir}/{suite}")
    write_if_changed(os.path.join(b, "tests"), "".join(line + "\n" for line in lines))
    names, files = [], ""
    for line in lines:
        path = line.split()[0]
        if not path.startswith("/bin/") or len(path) == len("/bin/"):
            raise InitramfsError(f"{cfg_dir}/{suite}: '{path}' is not /bin/NAME")
        names.append(path[len("/bin/"):])
        files += f"file {path} @B@/{path[len('/bin/'):]} 0755 0 0\n"
    text = list_from_template(os.path.join(cfg_dir, "initramfs.list"), files, b)
    left = [f"{n}:{line}" for n, line in enumerate(text.splitlines(), 1) if "@" in line]
    write_if_changed(os.path.join(b, "initramfs.list"), text)
    if left:
        sys.stderr.write("".join(line + "\n" for line in left))
        raise InitramfsError(f"unreplaced placeholder in {b}/initramfs.list")
    make(layout, b, f"HDR={os.path.join(hdr_out, 'usr', 'include')}",
         f"TESTS={' '.join(names)}")
    return os.path.join(b, "initramfs.cpio")


def suite_programs(layout, name: str) -> list[str]:
    """The programs scripts/suites.sh staged for NAME (its tests file)."""
    tests = os.path.join(layout.suite_stage(name), "tests")
    if not os.path.isfile(tests):
        raise InitramfsError(f"{tests} not found (run make suites)")
    with open(tests) as f:
        return [line.strip() for line in f.read().splitlines() if line.strip()]


def suites(layout) -> str:
    """The archive of the suite "suites" (see the module's docstring)."""
    cfg_dir = os.path.join(layout.cfg.repo, "qemu-config")
    b = layout.initramfs("suites")
    os.makedirs(b, exist_ok=True)
    write_if_changed(os.path.join(b, "testfile"), "test\n")
    files, deps, runs = "dir /suites 0755 0 0\n", [], {}
    for name in SKIP:
        s = layout.suite_stage(name)
        runs[name] = suite_programs(layout, name)
        files += f"dir /suites/{name} 0755 0 0\n"
        for abi in ABIS:
            d = f"/suites/{name}/{abi}"
            files += f"dir {d} 0755 0 0\n"
            for f in sorted(os.listdir(os.path.join(s, abi)), key=lambda n: n.encode()):
                files += f"file {d}/{f} {os.path.join(s, abi, f)} 0755 0 0\n"
                deps.append(os.path.join(s, abi, f))
            if name == "libaio":
                # harness/Makefile's partcheck files, "test\n" each
                files += f"dir {d}/testdir 0755 0 0\n"
                for f, mode in (("rofile", "0400"), ("wofile", "0200"), ("rwfile", "0600")):
                    files += f"file {d}/testdir/{f} {b}/testfile {mode} 0 0\n"
    tests = ""
    for run in range(1, SUITES_RUNS + 1):
        for name, skip in SKIP.items():
            for abi in ABIS:
                d = f"/suites/{name}/{abi}"
                for prog in runs[name]:
                    tests += f"{d}/{prog} {SUITES_TIMEOUT} {skip} {d} {name}/{abi}/{prog}/{run}\n"
    write_if_changed(os.path.join(b, "tests"), tests)
    write_if_changed(os.path.join(b, "initramfs.list"),
                     list_from_template(os.path.join(cfg_dir, "initramfs.list"), files, b))
    make(layout, b, "HDR=/nonexistent", "TESTS=", f"EXTRA={' '.join(deps)}")
    return os.path.join(b, "initramfs.cpio")


def stable(layout) -> str:
    """The archive of the suite "stable" (see the module's docstring)."""
    cfg_dir = os.path.join(layout.cfg.repo, "qemu-config")
    tests_cpio = programs(layout, "tests")
    b = layout.initramfs("stable")
    os.makedirs(b, exist_ok=True)
    with open(os.path.join(os.path.dirname(tests_cpio), "tests")) as fh:
        lines = fh.read().rstrip("\n") + "\n"
    files, deps = ["dir /suites 0755 0 0"], []
    for entry in program_list(os.path.join(cfg_dir, "stable")):
        fields = entry.split()
        if len(fields) != 3 or fields[0] not in SKIP or not re.fullmatch(r"[1-9][0-9]*", fields[2]):
            raise InitramfsError(f"{cfg_dir}/stable: '{entry}': not SUITE PROGRAM SECONDS "
                                 f"(SUITE: {', '.join(SKIP)})")
        name, prog, secs = fields
        s = layout.suite_stage(name)
        for abi in ABIS:
            staged = os.path.join(s, abi, prog)
            if not os.path.isfile(staged):
                raise InitramfsError(f"{cfg_dir}/stable: {staged} not found (run "
                                     f"scripts/suites.sh {name})")
            d = f"/suites/{name}/{abi}"
            files += [f"dir /suites/{name} 0755 0 0", f"dir {d} 0755 0 0",
                      f"file {d}/{prog} {staged} 0755 0 0"]
            lines += f"{d}/{prog} {secs} {SKIP[name]} {d} {name}/{abi}/{prog}\n"
            deps.append(staged)
    if not deps:
        raise InitramfsError(f"no program listed in {cfg_dir}/stable")
    write_if_changed(os.path.join(b, "tests"), lines)
    # Each directory once (the kernel would take it twice; the list is read
    # better without).
    once = list(dict.fromkeys(files))
    overlay_list = os.path.join(b, "overlay.list")
    write_if_changed(overlay_list, "".join(line + "\n" for line in once) +
                     f"file /etc/tests {os.path.join(b, 'tests')} 0644 0 0\n")
    make(layout, b, os.path.join(b, "gen_init_cpio"))
    overlay = os.path.join(b, "overlay.cpio")
    with open(overlay, "wb") as out:
        if subprocess.run([os.path.join(b, "gen_init_cpio"), "-t", "0", overlay_list],
                          stdout=out).returncode != 0:
            raise InitramfsError(f"gen_init_cpio {overlay_list} failed")
    # The overlay must hold every program and the new /etc/tests.
    with open(overlay_list) as fh:
        want = {line.split()[1][1:] for line in fh if line.startswith("file ")}
    with open(overlay, "rb") as raw:
        listed = subprocess.run(["cpio", "-it", "--quiet"], stdin=raw, capture_output=True,
                                text=True)
    if listed.returncode != 0:
        raise InitramfsError(f"cpio cannot list {overlay}")
    lacking = sorted(want - set(listed.stdout.splitlines()))
    if lacking:
        raise InitramfsError(f"{overlay} lacks files of {overlay_list}: {' '.join(lacking)}")
    with open(tests_cpio, "rb") as first, open(overlay, "rb") as second:
        whole = first.read() + second.read()
    cpio = os.path.join(b, "initramfs.cpio")
    try:
        with open(cpio, "rb") as old:
            same = old.read() == whole
    except FileNotFoundError:
        same = False
    if not same:
        with open(cpio + ".tmp", "wb") as new:
            new.write(whole)
        os.replace(cpio + ".tmp", cpio)
    return cpio


def main(suite: str, layout) -> int:
    """Build SUITE's archive and print its path; 0, or 1 (named)."""
    try:
        if suite == "suites":
            path = suites(layout)
        elif suite == "stable":
            path = stable(layout)
        else:
            if not os.path.isfile(os.path.join(layout.cfg.repo, "qemu-config", suite)):
                raise InitramfsError(f"no program list qemu-config/{suite}")
            path = programs(layout, suite)
    except (InitramfsError, build.BuildError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(path)
    return 0
