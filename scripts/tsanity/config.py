"""The one configuration of the tooling: every TS_* variable, its default
and what it is for.  A variable set in the environment overrides its
default; nothing else reads the environment for a TS_* name."""
import os

from . import kernels
from .repo import REPO


def _nproc(env):
    """What nproc(1) says, without starting it: OMP_NUM_THREADS (its first
    number) when set, capped by OMP_THREAD_LIMIT, else the processors this
    process may run on."""
    def count(name):
        first = env.get(name, "").split(",")[0].strip()
        return int(first) if first.isdigit() and int(first) > 0 else 0
    n = count("OMP_NUM_THREADS") or len(os.sched_getaffinity(0)) or os.cpu_count() or 1
    limit = count("OMP_THREAD_LIMIT")
    return str(min(n, limit) if limit else n)


def _cache_home(env):
    home = env.get("HOME") or os.path.expanduser("~")
    return env.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")


def _audit_base_expect(v, e):
    """The functions whose timeout the fixes part checks, as
    file:function: audit.sh --base must find each inconsistent on the base
    tree.  The kernel's fixes file says them (tsanity.fixes); a kernel
    without a series of its own expects none."""
    from . import fixes, kernel
    if v["TS_KERNEL"] not in kernel.SERIES:
        return ""
    return fixes.audit_expect(fixes.load(os.path.join(v["TS_REPO"],
                                                      kernel.SERIES[v["TS_KERNEL"]])))


# (name, default, what it is for).  A default is a string, or a function
# of the values before it (name -> value) and of the environment.
USER = [
    ("TS_REPO", lambda v, e: REPO, "this repository"),
    ("TS_WORK", lambda v, e: os.path.join(_cache_home(e), "timespec-sanity"), "every build product"),
    ("TS_KERNEL", lambda v, e: kernels.mainline(),
     "the kernel: Debian's linux-source-<TS_KERNEL> (default: the mainline series')"),
    ("TS_TARBALL", "", "the kernel's source tarball, given by hand (default: the Debian package's)"),
    ("TS_KERNEL_DEB", "", "the kernel's linux-source .deb, given by hand (default: apt's)"),
    ("TS_JOBS", lambda v, e: _nproc(e), "make -j of every kernel build"),
    ("TS_KVM", "0", "1: QEMU with KVM, not TCG (opt-in)"),
    ("TS_PATCHES", "", "the patch set make check-* checks (default: the kernel's own series)"),
    ("TS_CHECK_VARIANTS", "integration", "check-bisect's configurations"),
    ("TS_BOOT_TIMEOUT", "120", "seconds a guest boot may take"),
    ("TS_SUITES_BOOT_TIMEOUT", "1800", "seconds a boot of make subsystem-tests may take"),
    ("TS_SANITIZED_SCALE", "4", "a sanitized boot may take this times TS_BOOT_TIMEOUT"),
    ("TS_APPEND", "", "extra guest kernel parameters"),
    ("TS_SEED", "1", "seed of timeout_classes' random inputs (make random: fresh)"),
    ("TS_RANDOM", "128", "random inputs per timeout_classes test (0: none)"),
    ("TS_BENCH_ROUNDS", "2", "boots per kernel in make bench"),
    ("TS_ICOUNT", "0", "1: every boot counts instructions (-icount; make bench and the "
     "sanitized boots do it anyway)"),
    ("TS_AUTHOR", "", "make mbox's author, \"Name <email>\""),
    ("TS_AUDIT_DIRS", "kernel fs ipc io_uring net mm drivers", "audited dirs"),
    ("TS_AUDIT_GRAPH_DIRS", lambda v, e: v["TS_AUDIT_DIRS"], "where callers are searched"),
    ("TS_AUDIT_COCCI", "", "another semantic patch to audit with"),
    ("TS_AUDIT_JOBS", "2", "parallel spatch runs"),
    ("TS_AUDIT_FORMS", lambda v, e: os.path.join(v["TS_REPO"], "scripts", "forms_table.py"),
     "the other timeout forms' table"),
    ("TS_AUDIT_BASE_EXPECT", _audit_base_expect,
     "the paths the fixes fix: audit.sh --base must find each inconsistent on the base"),
    ("TS_SPATCH_LIB", "/usr/lib/coccinelle", "spatch's standard.h"),
]

# The places in $TS_WORK that may be moved one by one (layout.py derives
# them from TS_WORK and the kernel otherwise).
MOVABLE = [
    ("TS_SRC", "patched: base commit + series (git am)"),
    ("TS_BASE_SRC", "base: worktree at the base commit"),
    ("TS_FIXES_SRC", "fixes: worktree at the fixes' last commit"),
    ("TS_STABLE_SRC", "stable: worktree at the base commit + patches/stable/X.Y"),
    ("TS_OUT", "O= build directories"),
    ("TS_RESULTS", "logs, verdicts, reports"),
    ("TS_BUILD_LOCK", "one kernel build at a time"),
    ("TS_CCACHE_DIR", "ccache's directory, for every kernel build"),
]


class Config:
    """The values of every TS_* variable for one run, and the places of
    TS_WORK moved one by one.  (Not a dataclass: every `scripts/ts` makes
    one, and dataclasses would import inspect.)"""
    __slots__ = ("values", "moved", "given")

    def __init__(self, values: dict, moved: dict, given: frozenset = frozenset()):
        self.values = values
        self.moved = moved
        # The names the user set (not empty): a default and a setting that
        # equals it are not the same request (make random's seed).
        self.given = given

    def __eq__(self, other):
        return isinstance(other, Config) and (self.all(), self.moved) == (other.all(),
                                                                         other.moved)

    def __repr__(self):
        return f"Config(values={self.all()!r}, moved={self.moved!r})"

    def __getitem__(self, name):
        value = self.values[name]
        if isinstance(value, _Later):
            value = self.values[name] = value.compute()
        return value

    def all(self) -> dict:
        """Every value, computed."""
        return {name: self[name] for name in self.values}

    @property
    def repo(self):
        return self["TS_REPO"]

    @property
    def work(self):
        return self["TS_WORK"]


class _Later:
    """A default computed when it is first asked for (LATER)."""
    __slots__ = ("default", "values", "env")

    def __init__(self, default, values, env):
        self.default, self.values, self.env = default, dict(values), env

    def compute(self) -> str:
        return self.default(self.values, self.env)


# The defaults that read more than the environment (the fixes file), which
# most commands never ask for.
LATER = ("TS_AUDIT_BASE_EXPECT",)


def from_environ(environ=None):
    env = os.environ if environ is None else environ
    values = {}
    for name, default, _ in USER:
        if env.get(name):  # set and not empty, as the shell's ${NAME:-default}
            values[name] = env[name]
        elif callable(default) and name in LATER:
            values[name] = _Later(default, values, env)
        else:
            values[name] = default(values, env) if callable(default) else default
    if values["TS_PATCHES"] and os.path.isdir(values["TS_PATCHES"]):
        values["TS_PATCHES"] = os.path.realpath(values["TS_PATCHES"])
    moved = {name: env[name] for name, _ in MOVABLE if env.get(name)}
    return Config(values, moved, frozenset(name for name, _, _ in USER if env.get(name)))


def replaced(cfg: Config, values: dict, moved: dict) -> Config:
    """CFG with VALUES and MOVED set over its own: one run's configuration
    for a stage that asks another of itself (make random's boots), in the
    same process."""
    return Config({**cfg.values, **values}, {**cfg.moved, **moved}, cfg.given)
