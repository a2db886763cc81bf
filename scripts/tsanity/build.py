"""What every kernel build the Python stages run shares: Debian's ccache in
front of the compilers (ccache_env(), the twin of lib.sh's ccache_env for
the shell's builds; scripts/tests/test_lib.sh holds them equal), and
version comparison for the tool versions a tree asks for."""
import os
import re

# Debian's ccache: /usr/lib/ccache holds gcc, cc, clang and clang-19 as
# ccache.
CCACHE_BIN = "/usr/lib/ccache"


class BuildError(ValueError):
    """A build cannot start: what the "error: " line says."""


def ccache_env(layout, environ=None) -> dict[str, str]:
    """ENVIRON (default: this process's) with ccache in front of the
    compilers, its cache in the layout's ccache directory: a kernel
    rebuilt after a change, each prefix of check-bisect, and a KUnit or
    guest build of the same sources compile only what changed.  The base
    directory makes absolute paths under TS_WORK relative, and the cwd is
    not hashed, so that compile commands equal but for the tree's place
    can hit too."""
    if not os.access(os.path.join(CCACHE_BIN, "gcc"), os.X_OK):
        raise BuildError(f"{CCACHE_BIN}/gcc not found: install Debian's ccache (make deps)")
    os.makedirs(layout.ccache, exist_ok=True)
    env = dict(os.environ if environ is None else environ)
    env.update({"PATH": CCACHE_BIN + os.pathsep + env.get("PATH", ""),
                "CCACHE_DIR": layout.ccache, "CCACHE_BASEDIR": layout.cfg.work,
                "CCACHE_NOHASHDIR": "1"})
    return env


def version_key(version: str) -> tuple[int, ...]:
    """VERSION (17.0.1, 14) as numbers, for comparison as sort -V does on
    such versions; what is not a number ends it."""
    out = []
    for part in version.strip().split("."):
        m = re.match(r"\d+", part)
        if not m:
            break
        out.append(int(m.group()))
    return tuple(out)


def kmake_argv(layout, src: str, out: str, *args: str) -> list[str]:
    """make in SRC with O=OUT and the configured jobs, serialised by the
    build lock (one kernel build at a time): lib.sh's kmake, run with
    ccache_env()'s environment.  Makes OUT and the lock's directory."""
    os.makedirs(out, exist_ok=True)
    os.makedirs(os.path.dirname(layout.build_lock), exist_ok=True)
    return ["flock", layout.build_lock, "make", "-C", src, f"O={out}",
            f"-j{layout.cfg['TS_JOBS']}", *args]
