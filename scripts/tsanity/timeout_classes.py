"""What timeout_classes (qemu-config/timeout_classes.c) prints.

The one place of the host scripts that knows the output of that test,
the project's check of every entry point against the contract (never
mailed): intended.py and report.py read its lines through this module
only.  Imported, not run on its own.

timeout_classes is a kselftest_harness test, two tests per fixture
variant (entry point and mode) and ABI of the timespec: time64_accepted
(time32_accepted) and time64_refused (time32_refused), which split the
inputs by the class of the values the kernel reads (refused: invalid or
expired).  A test that runs tries every input of the boundary table in
its group and writes, on TH_LOG_STREAM, one diagnostic line per input,
then a closing line:

  # x86_64 io_uring_timeout rel sec=S64_MAX nsec=NSEC_PER_SEC: kernel_sec=9223372036854775807 kernel_nsec=1000000000 class=invalid expected=EINVAL got=proceeds
  # x86_64 io_uring_timeout rel: 63 inputs, 12 not answered as the contract says

The case name is "<abi> <entry> <mode> sec=<name> nsec=<name>"; kernel_sec
and kernel_nsec are the values the kernel reads (the diagnostic lines of
the selftest before issue 5 lacked them), class is theirs as
<linux/time64.h> defines it, expected is what the contract wants for that
class (EINVAL or proceeds) and got what the kernel answered (EINVAL,
proceeds, or another errno's name).  Then the test checks
EXPECT_EQ(0, wrong); when inputs failed, the harness adds its own lines,
and the test ends FAIL:

  # timeout_classes.c:745:time64:Expected 0 (0) == wrong (12)
  # time64: Test failed
  #          FAIL  timeout.io_uring_timeout_rel.time64_refused

after the harness's "#  RUN           timeout.<variant>.<test> ..." line
that opens every test.  A test whose ABI has no entry point of its kind
skips, with the harness's line:

  #      SKIP      rel: no entry point of this kind on i386

and so does the refused test of io_uring_enter()'s summed wait timeout,
whose ABI refuses no input:

  #      SKIP      ext_arg-rel: no timeout of this mode is refused (ABI)

(the selftest's other SKIPs, an entry point or clock missing from the
kernel, io_uring disabled, are not expected in the integration boot).

With TIMEOUT_CLASSES_RANDOM=N in its environment (`scripts/ts boot` puts
TS_RANDOM and TS_SEED there), each of those tests then tries N random
inputs, named by their values, the seed and their number:

  # x86_64 nanosleep rel sec=-2 nsec=999999999 rand=1/17: kernel_sec=-2 kernel_nsec=999999999 class=invalid expected=EINVAL got=EINVAL

and its closing line counts them too.  A second test of each variant and
ABI, timeout.<variant>.time64_bad_pointers (time32_bad_pointers), gives
the entry point a timeout it cannot read and logs each answer as a case
with no values and no mode of timeout:

  # x86_64 nanosleep rel ptr=straddling: class=unreadable expected=EFAULT got=EFAULT

then a closing line like the other tests'.  case_name() reads no such
case: it has no input values, so no rule and no row of the matrix is
about it, and the two kernels must simply answer it alike.
"""
import re

# The name of a case: "<abi> <entry> <mode> sec=<name> nsec=<name>".
NAME = re.compile(r"^(?P<abi>\S+) (?P<entry>\S+) (?P<mode>\S+) sec=(?P<sec>\S+) nsec=(?P<nsec>\S+)"
                  r"(?: rand=(?P<seed>\d+)/(?P<i>\d+))?$")
# The name of a bad-pointer case: "<abi> <entry> <mode> ptr=<pointer>".
POINTER = re.compile(r"^(?P<abi>\S+) (?P<entry>\S+) (?P<mode>\S+) ptr=(?P<ptr>\S+)$")
# The diagnostic line of a case (kernel_* since issue 5).
DIAG = re.compile(r"#\s*(?P<name>\S.*?):"
                  r"(?: kernel_sec=(?P<sec>-?\d+) kernel_nsec=(?P<nsec>-?\d+))?"
                  r" class=(?P<cls>\S+) expected=(?P<exp>\S+) got=(?P<got>\S+)\s*$")
# The closing line of a test: every input was tried.
DONE = re.compile(r"^# (?P<test>\S+ \S+ \S+): (?P<n>\d+) inputs, (?P<k>\d+) not answered "
                  r"as the contract says$")
# The harness's line for the test's EXPECT_EQ(0, wrong) (t.wrong in the
# test's earlier form, whose counter was a field of a struct).
EXPECT_WRONG = re.compile(r"^# \S+:\d+:\S+:Expected 0 \(0\) == (?:t\.)?wrong \((?P<k>\d+)\)$")
# The harness's other lines of a test that failed.
RUN = re.compile(r"^# +RUN +\S+ \.\.\.$")
TEST_FAILED = re.compile(r"^# \S+: Test failed$")
FAIL = re.compile(r"^# +FAIL +\S+$")
# A test that fails only by inputs answered against the contract holds
# nothing but these lines besides its diagnostic lines.
FAILED_TEST_LOG = (DONE, EXPECT_WRONG, RUN, TEST_FAILED, FAIL)
# The reasons a test may skip in the integration boot.
SKIP_STRUCTURAL = re.compile(r"^# +SKIP +.*: (?:no entry point of this kind on \S+"
                             r"|no timeout of this mode is refused \(ABI\))$")
# The reasons a test may skip on an older (stable) kernel: the kernel lacks
# the entry point, clock, flag or feature.
SKIP_ABSENT = re.compile(r"^# +SKIP +(?P<reason>.*\bin this kernel\b.*)$")

# The names of the tv_sec inputs (the selftest's secs[]) by group; a
# random input is named by its value.
SEC_NEGATIVE = frozenset({"S64_MIN", "INT_MIN", "-1"})
SEC_HUGE = frozenset({"KTIME_SEC_MAX-1", "KTIME_SEC_MAX", "S64_MAX"})
KTIME_SEC_MAX = (2**63 - 1) // 10**9


def case_name(name):
    """The parts of a case name (abi, entry, mode, sec, nsec; seed and i
    for a random input, else None) as a match, or None if it is not one."""
    return NAME.match(name)


def pointer_case(name):
    """The parts of a bad-pointer case's name (abi, entry, mode, ptr) as a
    match, or None if it is not one."""
    return POINTER.match(name)


def diag(line):
    """The case of a diagnostic line: dict of name, sec, nsec (int, or None
    from a selftest before issue 5), cls, exp and got; None if the line is
    not one."""
    m = DIAG.search(line)
    if not m:
        return None
    d = m.groupdict()
    if d["sec"] is not None:
        d["sec"], d["nsec"] = int(d["sec"]), int(d["nsec"])
    return d


def closing(log):
    """The closing lines of a test's log, as matches of DONE (n: inputs
    tried, k: not answered as the contract says)."""
    return [m for m in map(DONE.match, log) if m]


def expect_wrong(log):
    """The numbers of failed inputs that the harness's EXPECT_EQ(0, wrong)
    lines of a test's log report."""
    return [int(m["k"]) for m in map(EXPECT_WRONG.match, log) if m]


def only_failed_inputs(line):
    """True if the line may be in the log of a test that failed by its
    inputs alone: a diagnostic line, or one of FAILED_TEST_LOG."""
    return bool(diag(line)) or any(r.match(line) for r in FAILED_TEST_LOG)


def skipped_absent(log):
    """The reason of a skipped test whose log says the kernel lacks what it
    tests, or None."""
    return next((m["reason"] for m in map(SKIP_ABSENT.match, log) if m), None)


def skipped_structurally(log):
    """True if a skipped test's log says its ABI has no entry point of its
    kind."""
    return any(SKIP_STRUCTURAL.match(l) for l in log)


def sec_group(sec):
    """The tv_sec group of an input, by its name in the case name (a
    random input's is its value)."""
    try:
        value = int(sec)
    except ValueError:
        value = None
    if sec in SEC_NEGATIVE or (value is not None and value < 0):
        return "tv_sec < 0"
    if sec in SEC_HUGE or (value is not None and value >= KTIME_SEC_MAX - 1):
        return "tv_sec >= KTIME_SEC_MAX-1"
    if value is not None and value > 2**31 - 1:
        return "INT_MAX < tv_sec < KTIME_SEC_MAX-1"
    return "0 <= tv_sec <= INT_MAX"
