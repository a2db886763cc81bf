"""The configuration, the kernel and the layout of one run, read from
the environment once: what the command line (tsanity.cli) and the judges
ask for.  It imports no command, so that a command may use it."""
import sys

from . import config as config_mod
from . import kernel as kernel_mod
from . import layout as layout_mod


def context(environ=None):
    cfg = config_mod.from_environ(environ)
    kernel = kernel_mod.from_config(cfg)
    return cfg, kernel, layout_mod.Layout(cfg, kernel)


def series_dir(environ=None):
    """The directory of the kernel's own series (patches/series, ...)."""
    cfg, kernel, _ = context(environ)
    return kernel.series_dir(cfg.repo)


def version_or_exit(environ=None):
    """TS_KERNEL's X.Y, for a script's texts; a bad TS_KERNEL ends the
    script with a named error, not a traceback."""
    try:
        return context(environ)[1].version
    except (kernel_mod.KernelError, ValueError) as e:  # FixesError is a ValueError
        print(f"error: {e}", file=sys.stderr)
        sys.exit(2)
