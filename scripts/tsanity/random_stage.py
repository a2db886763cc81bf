"""`scripts/ts random`: the integration boot with a fresh seed (make
random), in this one process.

usage: scripts/ts random

Base and patched are booted with timeout_classes' random inputs,
TS_RANDOM per test from one seed, then judged by the report's judge
against patches/intended-differences as make test's boot is.  The seed is
TS_SEED when the user set it, else a fresh one from os.urandom(); it is
printed first, and a difference names it with its input
(rand=<seed>/<i>), so that `TS_SEED=<seed> make random` replays the run.
make test boots with TS_SEED's fixed default.  The verdicts do not depend
on timing, so a difference a fresh seed finds is a bug: add its input to
the boundary table of timeout_classes.  The guests and the tests
initramfs must be built (make random does both).  Results in the named
results directory "random" (scripts/ts path named-results random)."""
import os
import sys

from . import boot as boot_mod
from . import config as config_mod
from . import layout as layout_mod


class RandomError(ValueError):
    """What the "error: " line says."""


def seed_of(cfg) -> tuple[str, str]:
    """The seed and how it was chosen: the user's TS_SEED, else fresh."""
    if "TS_SEED" in cfg.given:
        seed = cfg["TS_SEED"]
        if not seed.isdigit():
            raise RandomError(f"TS_SEED={seed}: not a number")
        return seed, "from TS_SEED"
    return str(int.from_bytes(os.urandom(4), "little")), "fresh"


def main(cfg, layout) -> int:
    try:
        seed, how = seed_of(cfg)
    except RandomError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    n = cfg["TS_RANDOM"]
    replay = f"replay: TS_SEED={seed} TS_RANDOM={n} make random"
    print(f"random inputs: seed {seed} ({how}), {n} per test; {replay}", flush=True)
    run_cfg = config_mod.replaced(cfg, {"TS_SEED": seed},
                                  {"TS_RESULTS": layout.named_results("random")})
    run = layout_mod.Layout(run_cfg, layout.kernel)
    failed = [k for k in ("base", "patched")
              if boot_mod.main(boot_mod.Request(kernel=k), run_cfg, run) != 0]
    if failed:
        print(f"error: a boot with seed {seed} failed (see above): {' and '.join(failed)}",
              file=sys.stderr)
        return 1
    from . import report as report_mod
    tests = run.boot_results("tests")
    report = layout_mod.result_file(tests, "report", old="base", new="patched", ext="md")
    if report_mod.main([tests, "base", "patched"]) != 0:
        print(f"error: seed {seed}: base and patched differ other than intended, or a case "
              f"failed: {report} ({replay})", file=sys.stderr)
        return 1
    print(f"random inputs: seed {seed}, {n} per test: base and patched differ exactly as "
          "intended")
    return 0
