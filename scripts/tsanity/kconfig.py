"""The one kconfig step of every kernel the tooling builds but KUnit's
(kunit.py configures its own), and the check that what the fragments ask
for stuck.

configure(): OUT/.config is BASE (a make target such as tinyconfig) with
every fragment merged in by the tree's merge_config.sh -m (a later
fragment wins), then olddefconfig; then every symbol the fragments ask
for must have its value (check(): the tree's kunit_config module
compares), else it fails naming the symbol.  Redone only when the inputs
changed: the make arguments, the base, the fragments' text and the
tree's Kconfig files (a patch that adds a symbol reconfigures), hashed
into OUT/.ts-kconfig.

`scripts/ts kconfig` runs it for the shell (check-lib.sh);
scripts/kconfig_check.py is check() alone."""
import hashlib
import importlib.util
import os
import re
import subprocess
import sys

from . import build

# The Kconfig files of a tree, in `git ls-tree -r HEAD`'s lines.
KCONFIG_FILE = re.compile(r"\tKconfig|/Kconfig[^/]*$")


class KconfigError(ValueError):
    """What the "error: " line says."""


def check(src: str, config: str, fragments: list[str]) -> list[str]:
    """The symbols the FRAGMENTS ask for that CONFIG does not have as asked
    (a later fragment wins; a symbol asked as n must be n or absent), one
    "CONFIG_X: ..." line each, read and compared by SRC's
    tools/testing/kunit/kunit_config.  Raises ImportError if the tree's
    module cannot be imported."""
    # SRC's own module, loaded by its path: one process may check the
    # kernels of two trees (ts guest base patched).
    path = os.path.join(src, "tools", "testing", "kunit", "kunit_config.py")
    spec = importlib.util.spec_from_file_location(f"kunit_config@{src}", path)
    if spec is None or spec.loader is None or not os.path.isfile(path):
        raise ImportError(f"no {path}")
    kunit_config = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = kunit_config  # its dataclasses look it up there
    spec.loader.exec_module(kunit_config)
    want = kunit_config.Kconfig()
    for frag in fragments:
        want.merge_in_entries(kunit_config.parse_file(frag))
    have = kunit_config.parse_file(config)
    have_by_name = {e.name: e.value for e in have.as_entries()}
    bad = []
    for e in want.as_entries():
        one = kunit_config.Kconfig()
        one.add_entry(e.name, e.value)
        if not one.is_subset_of(have):
            bad.append(f"CONFIG_{e.name}: the fragments ask for {e.value}, "
                       f"{config} has {have_by_name.get(e.name, 'n')}")
    return bad


def key(src: str, base: str, fragments: list[str], make_args: list[str]) -> str:
    """The hash of the inputs of OUT/.config (what lib.sh's kconfig()
    hashed, byte for byte: a tree configured before keeps its key)."""
    h = hashlib.sha256(f"{' '.join(make_args)} {base}\n".encode())
    for frag in fragments:
        with open(frag, "rb") as f:
            h.update(f.read())
    tree = subprocess.run(["git", "-C", src, "ls-tree", "-r", "HEAD"], capture_output=True,
                          text=True)
    if tree.returncode != 0:
        raise KconfigError(f"git ls-tree in {src} failed: {tree.stderr.strip()}")
    h.update("".join(line + "\n" for line in tree.stdout.splitlines()
                     if KCONFIG_FILE.search(line)).encode())
    return h.hexdigest()


def configure(layout, src: str, out: str, base: str, fragments: list[str],
              make_args: tuple[str, ...] = ()) -> None:
    """OUT/.config as the module says; raises KconfigError, named."""
    if not fragments:
        raise KconfigError("kconfig: no fragment")
    os.makedirs(out, exist_ok=True)
    want = key(src, base, fragments, list(make_args))
    stamp = os.path.join(out, ".ts-kconfig")
    have = ""
    if os.path.isfile(stamp):
        with open(stamp) as f:
            have = f.read().strip()
    if not os.path.isfile(os.path.join(out, ".config")) or have != want:
        if os.path.lexists(stamp):
            os.remove(stamp)
        shown = " ".join(os.path.relpath(f, layout.cfg.repo)
                         if f.startswith(layout.cfg.repo + os.sep) else f for f in fragments)
        print(f"==> configuring {out}: {base} + {shown}", file=sys.stderr, flush=True)
        log_path = os.path.join(out, "kconfig.log")
        env = build.ccache_env(layout)
        with open(log_path, "w") as log:
            steps = [build.kmake_argv(layout, src, out, *make_args, "-s", base),
                     ["scripts/kconfig/merge_config.sh", "-m", "-O", out,
                      os.path.join(out, ".config"), *fragments],
                     build.kmake_argv(layout, src, out, *make_args, "-s", "olddefconfig")]
            for argv in steps:
                if subprocess.run(argv, cwd=src, env=env, stdin=subprocess.DEVNULL,
                                  stdout=log, stderr=subprocess.STDOUT).returncode != 0:
                    break
            else:
                argv = []
        if argv:
            with open(log_path, errors="replace") as f:
                sys.stderr.write("".join(line + "\n" for line in f.read().splitlines()[-20:]))
            raise KconfigError(f"configuring {out} failed: see {log_path}")
        with open(stamp, "w") as f:
            f.write(want + "\n")
    try:
        bad = check(src, os.path.join(out, ".config"), fragments)
    except ImportError as e:
        raise KconfigError(f"cannot import kunit_config from {src}: {e}") from None
    for line in bad:
        print(f"error: {line}", file=sys.stderr)
    if bad:
        raise KconfigError(f"{out}/.config lacks what its fragments ask for "
                           "(a dependency is missing?)")
