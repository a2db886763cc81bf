"""`scripts/ts guest`: the guest kernels of the integration boot, built in
this one process.

usage: scripts/ts guest [--sanitized] {base|fixes|patched|stable}...

Builds the bzImage of each kernel named, from its tree, in
<out>/guest-<kernel>: tinyconfig plus qemu-config/guest.config
(tsanity.kconfig), then make bzImage through ccache and the build lock,
which rebuilds only what changed.  Records the commit built in
<out>/guest-<kernel>/ts-commit, and prints each bzImage's path.  With
--sanitized, qemu-config/sanitized.config (KASAN, UBSAN, lockdep,
debugobjects) is merged last and the build goes to
<out>/guest-<kernel>-sanitized instead (make check-sanitized).  The
kernels are built in the order named; the first that fails ends it."""
import os
import subprocess
import sys
import time

from . import build
from . import kconfig


class GuestError(ValueError):
    """What the "error: " line says."""


def fragments(repo: str, sanitized: bool) -> list[str]:
    """The configuration fragments of a guest, merged in this order."""
    qc = os.path.join(repo, "qemu-config")
    return [os.path.join(qc, "guest.config")] + \
        ([os.path.join(qc, "sanitized.config")] if sanitized else [])


def build_one(layout, kernel: str, sanitized: bool) -> str:
    """Build KERNEL's guest; its bzImage's path.  Raises GuestError or
    kconfig.KconfigError, named."""
    src = layout.tree(kernel)
    out = layout.guest(kernel, "sanitized" if sanitized else "")
    if not os.path.isfile(os.path.join(src, "Makefile")):
        raise GuestError(f"kernel tree {src} not found (run make tree)")
    what = kernel + (" (sanitized)" if sanitized else "")
    kconfig.configure(layout, src, out, "tinyconfig", fragments(layout.cfg.repo, sanitized))
    print(f"==> building the {what} guest bzImage in {out}", file=sys.stderr, flush=True)
    start = time.monotonic()
    # make's output goes to stderr: stdout is the images' paths.
    if subprocess.run(build.kmake_argv(layout, src, out, "-s", "bzImage"), env=build.ccache_env(layout),
                      stdin=subprocess.DEVNULL, stdout=sys.stderr).returncode != 0:
        raise GuestError(f"make bzImage failed for the {what} guest kernel in {out}")
    print(f"==> {what} guest kernel built in {int(time.monotonic() - start)} s", file=sys.stderr,
          flush=True)
    image = os.path.join(out, "arch", "x86", "boot", "bzImage")
    if not os.path.isfile(image):
        raise GuestError(f"{image} missing after the build")
    head = subprocess.run(["git", "-C", src, "rev-parse", "HEAD"], capture_output=True, text=True)
    if head.returncode != 0:
        raise GuestError(f"git rev-parse HEAD failed in {src}: {head.stderr.strip()}")
    with open(os.path.join(out, "ts-commit"), "w") as f:
        f.write(head.stdout)
    return image


def main(kernels: list[str], sanitized: bool, layout) -> int:
    """Build KERNELS in order; 0, or 1 at the first that fails (named)."""
    for k in kernels:
        try:
            print(build_one(layout, k, sanitized), flush=True)
        except (GuestError, kconfig.KconfigError, build.BuildError, OSError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
    return 0
