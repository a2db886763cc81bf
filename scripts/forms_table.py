#!/usr/bin/env python3
"""usage: scripts/forms_table.py --rst | --json | --check | --check-doc FILE

The table of the timeouts Linux takes in another form than a timespec
(issue 13): one entry per interface, each with the kernel functions whose
code takes or checks it, the rule it follows and what 6.12 answers.  The
audit (scripts/audit.py, forms phase) matches what scripts/forms.cocci
finds to these entries by file:function; the map (scripts/forms.py) shows
them.  Python 3 standard library only; importable.

ENTRIES, a list of dicts, one per interface:

  id           the interface's name in the audit and in the map (the boot's
               "# form <id> ..." lines): select, setitimer, SO_RCVTIMEO, ...
  name         what a reader calls it: "select(2)", "ioctl(PPS_FETCH)"
  entry_points the system calls, ioctl commands or socket options that take
               it, a list of strings
  form         the type of the timeout: "struct timeval", "int milliseconds"
  functions    the kernel functions whose code reads or checks the value, as
               "file:function" (the tree's path); the audit maps each of its
               findings to the entry that lists its function, and fails on
               an entry none of whose functions it finds (a stale table)
  rule         "contract" when the answers are the timespec contract's for
               a relative timeout (Documentation/timers/timeouts.rst), else
               a short name of the interface's own rule
  decision     "kept as ABI" (the rule stays), "converted" (the series moves
               the code onto the contract's helpers, answers unchanged) or
               "fixed" (the rule stays but a bug in it is fixed)
  answers      what 6.12 answers per input class, read from its code, a dict
               of short strings keyed by the boot's class names (CLASSES):
               neg (a negative value), zero, tiny (the smallest value above
               zero), huge, subsec (a sub-second field out of range; None
               when the form has none), before_epoch (an absolute timeout
               before 1970; None: every form here is relative)
  why          why the rule stays, or what changes
  fixed        only for decision "fixed": the answers with the series, for
               the classes the fix changes (a dict keyed like answers); the
               Documentation page shows them in place of 6.12's

SET_ASIDE, a list of dicts: what the audit's rules find that is not a
timeout of a system call interface: id, functions (as above), what (the
value read), why (why it is no timeout here).  Listed so that the audit
knows every finding; stale entries fail as well.

  --rst    an RST list-table of the exceptions (rule not "contract"):
           interface, rule, answers, why it stays; for a Documentation page
  --json   every entry and every set-aside, as JSON
  --check  validate the table (also done by --rst, --json and the audit)
  --check-doc FILE
           exit 1 unless FILE (the series' Documentation/timers/timeouts.rst)
           holds the --rst table exactly, as a block of lines
Exit 0, or 1 naming what is wrong with the table, or 2 on a usage error.
"""
import json
import re
import sys
import textwrap

CLASSES = ('neg', 'zero', 'tiny', 'huge', 'subsec', 'before_epoch')
DECISIONS = ('kept as ABI', 'converted', 'fixed')
FIELDS = ('id', 'name', 'entry_points', 'form', 'functions', 'rule',
          'decision', 'answers', 'why')
ASIDE_FIELDS = ('id', 'functions', 'what', 'why')

NA_UNSIGNED = 'n/a: unsigned, -1 is the largest value'

ENTRIES = [
    {
        'id': 'select',
        'name': 'select(2)',
        'entry_points': ['select', 'old_select', 'compat_select',
                         'compat_old_select'],
        'form': 'struct timeval (__kernel_old_timeval, old_timeval32)',
        'functions': ['fs/select.c:kern_select', 'fs/select.c:do_compat_select'],
        'rule': 'select folding',
        'decision': 'kept as ABI',
        'answers': {
            'neg': 'EINVAL (tv_sec < 0 once tv_usec is folded in)',
            'zero': 'returns at once',
            'tiny': '{0, 1}: a wait of 1 us (plus slack)',
            'huge': 'accepted; the end time saturates: no timeout',
            'subsec': 'whole seconds of tv_usec, of either sign, folded into '
                      'tv_sec: {0, 1500000} is 1.5 s, {-1, 1000000} is zero; '
                      'a negative remainder is EINVAL',
            'before_epoch': None,
        },
        'why': 'Linux has always folded tv_usec into tv_sec here; programs '
               'that pass an unnormalised timeval work, and would break.',
    },
    {
        'id': 'setitimer',
        'name': 'setitimer(2)',
        'entry_points': ['setitimer', 'compat_setitimer'],
        'form': 'struct itimerval: two timevals (__kernel_old_itimerval, '
                'old_itimerval32)',
        # itimer_usec_valid(): the series' conversion (patched tree only)
        'functions': ['kernel/time/itimer.c:get_itimerval',
                      'kernel/time/itimer.c:get_old_itimerval32',
                      'kernel/time/itimer.c:itimer_usec_valid'],
        'rule': 'contract',
        'decision': 'converted',
        'answers': {
            'neg': 'EINVAL',
            'zero': 'it_value {0, 0} disarms the timer',
            'tiny': '{0, 1}: 1 us, rounded to the timer',
            'huge': 'accepted; saturates to KTIME_MAX: never fires',
            'subsec': 'EINVAL (tv_usec outside [0, USEC_PER_SEC))',
            'before_epoch': None,
        },
        'why': 'Its rule is the contract for an interval, written as a '
               'private macro, timeval_valid(); the series converts it to '
               'the one definition, answers unchanged.',
    },
    {
        'id': 'alarm',
        'name': 'alarm(2)',
        'entry_points': ['alarm'],
        'form': 'unsigned int seconds',
        'functions': ['kernel/time/itimer.c:sys_alarm'],
        'rule': 'unsigned seconds',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED + ' (INT_MAX on a 32-bit kernel)',
            'zero': 'cancels the pending alarm',
            'tiny': '1 s',
            'huge': 'accepted, up to UINT_MAX s (INT_MAX on a 32-bit kernel)',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'A count of seconds that cannot be negative has nothing to '
               'check.',
    },
    {
        'id': 'SO_RCVTIMEO',
        'name': 'setsockopt(SO_RCVTIMEO, SO_SNDTIMEO)',
        'entry_points': ['setsockopt SO_RCVTIMEO_OLD', 'setsockopt SO_RCVTIMEO_NEW',
                         'setsockopt SO_SNDTIMEO_OLD', 'setsockopt SO_SNDTIMEO_NEW'],
        'form': 'struct timeval (__kernel_old_timeval, old_timeval32, '
                '__kernel_sock_timeval)',
        'functions': ['net/core/sock.c:sock_set_timeout'],
        'rule': 'socket timeo',
        'decision': 'kept as ABI',
        'answers': {
            'neg': 'accepted as a timeout of zero: the call does not block '
                        '(EAGAIN at once), and a rate-limited log line',
            'zero': '{0, 0}: no timeout, blocks forever',
            'tiny': '{0, 1}: one jiffy',
            'huge': 'tv_sec >= MAX_SCHEDULE_TIMEOUT / HZ - 1: no timeout',
            'subsec': 'EDOM (tv_usec outside [0, USEC_PER_SEC))',
            'before_epoch': None,
        },
        'why': 'socket(7) documents a zero timeout as none; the other '
               'answers are as old and as relied on.',
    },
    {
        'id': 'SO_VM_SOCKETS_CONNECT_TIMEOUT',
        'name': 'setsockopt(SO_VM_SOCKETS_CONNECT_TIMEOUT)',
        'entry_points': ['setsockopt AF_VSOCK SO_VM_SOCKETS_CONNECT_TIMEOUT_OLD',
                         'setsockopt AF_VSOCK SO_VM_SOCKETS_CONNECT_TIMEOUT_NEW'],
        'form': 'struct timeval (__kernel_sock_timeval, by sock_copy_user_timeval())',
        'functions': ['net/vmw_vsock/af_vsock.c:vsock_connectible_setsockopt'],
        'rule': 'vsock ERANGE',
        'decision': 'fixed',
        'answers': {
            'neg': 'ERANGE',
            'zero': '{0, 0}: the default connect timeout, 2 s',
            'tiny': '{0, 1}: one jiffy',
            'huge': 'ERANGE (tv_sec >= MAX_SCHEDULE_TIMEOUT / HZ - 1)',
            'subsec': 'ERANGE for tv_usec >= USEC_PER_SEC, but a negative '
                      'tv_usec is accepted: it wraps, to the 2 s default or to '
                      'a timeout of years',
            'before_epoch': None,
        },
        'why': 'ERANGE, and {0, 0} for the default, are what the option has '
               'answered since it was added, and stay. A negative tv_usec '
               'used to pass the range check and wrap; it is refused now.',
        'fixed': {
            'subsec': 'ERANGE (tv_usec outside [0, USEC_PER_SEC))',
        },
    },
    {
        'id': 'SO_LINGER',
        'name': 'setsockopt(SO_LINGER)',
        'entry_points': ['setsockopt SO_LINGER'],
        'form': 'struct linger: int l_linger seconds',
        'functions': ['net/core/sock.c:sk_setsockopt'],
        'rule': 'linger seconds',
        'decision': 'kept as ABI',
        'answers': {
            'neg': 'accepted: close() lingers with no limit',
            'zero': '{1, 0}: close() does not wait (TCP resets the connection)',
            'tiny': '1 s',
            'huge': 'l_linger >= MAX_SCHEDULE_TIMEOUT / HZ: no limit',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'socket(7) ABI; a linger of zero, to reset on close, is relied '
               'on.',
    },
    {
        'id': 'poll',
        'name': 'poll(2)',
        'entry_points': ['poll'],
        'form': 'int milliseconds',
        'functions': ['fs/select.c:sys_poll'],
        'rule': 'int ms, negative is forever',
        'decision': 'kept as ABI',
        'answers': {
            'neg': 'waits forever',
            'zero': 'returns at once',
            'tiny': '1 ms',
            'huge': 'INT_MAX ms, about 24.8 days',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'poll(2) documents a negative timeout as the way to wait '
               'forever.',
    },
    {
        'id': 'epoll_wait',
        'name': 'epoll_wait(2), epoll_pwait(2)',
        'entry_points': ['epoll_wait', 'epoll_pwait', 'compat_epoll_pwait'],
        'form': 'int milliseconds (ep_timeout_to_timespec())',
        'functions': ['fs/eventpoll.c:sys_epoll_wait', 'fs/eventpoll.c:sys_epoll_pwait',
                      'fs/eventpoll.c:compat_sys_epoll_pwait'],
        'rule': 'int ms, negative is forever',
        'decision': 'kept as ABI',
        'answers': {
            'neg': 'waits forever',
            'zero': 'returns at once',
            'tiny': '1 ms',
            'huge': 'INT_MAX ms, about 24.8 days',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'epoll_wait(2) documents a negative timeout as the way to wait '
               'forever.',
    },
    {
        'id': 'io_uring_min_wait_usec',
        'name': 'io_uring_enter(2) min_wait_usec',
        'entry_points': ['io_uring_enter IORING_ENTER_EXT_ARG'],
        'form': '__u32 microseconds (struct io_uring_getevents_arg)',
        'functions': ['io_uring/io_uring.c:io_get_ext_arg'],
        'rule': 'u32 us, all accepted',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'no minimum wait: the plain wait',
            'tiny': '1 us',
            'huge': 'UINT_MAX us, about 71.6 min',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'A count that cannot be negative has nothing to check; the '
               'wait as a whole is bounded by the timespec timeout, which '
               'follows the contract.',
    },
    {
        'id': 'PPS_FETCH',
        'name': 'ioctl(PPS_FETCH)',
        'entry_points': ['ioctl PPS_FETCH', 'compat ioctl PPS_FETCH'],
        'form': 'struct pps_ktime: s64 sec, s32 nsec, u32 flags',
        'functions': ['drivers/pps/pps.c:pps_cdev_pps_fetch'],
        'rule': 'pps_ktime, negative is ETIMEDOUT',
        'decision': 'fixed',
        'answers': {
            'neg': 'ETIMEDOUT at once',
            'zero': 'no wait: the last event at once',
            'tiny': '{0, 1}: one jiffy',
            'huge': 'clamped to MAX_JIFFY_OFFSET jiffies, the longest wait (some '
                    '12 days on a 32-bit kernel at HZ=1000)',
            'subsec': 'not checked: nsec goes into timespec64_to_jiffies() as '
                      'it is (a negative one can make a wait of years); '
                      'PPS_TIME_INVALID in flags waits forever',
            'before_epoch': None,
        },
        'why': 'ETIMEDOUT at once for a negative sec stays, and so does the '
               'carry of a large nsec, which callers use. A negative nsec '
               'used to make an arbitrary wait; it is refused now.',
        'fixed': {
            'subsec': 'EINVAL for a negative nsec, before sec is looked at; a '
                      'nsec of a second or more is carried into sec; '
                      'PPS_TIME_INVALID in flags waits forever',
        },
    },
    {
        'id': 'CAN_BCM',
        'name': 'CAN BCM ival1, ival2',
        'entry_points': ['sendmsg CAN_BCM TX_SETUP', 'sendmsg CAN_BCM RX_SETUP'],
        'form': 'struct bcm_timeval (long tv_sec, long tv_usec)',
        'functions': ['net/can/bcm.c:bcm_is_invalid_tv'],
        'rule': 'bcm_timeval, at most 400 days',
        'decision': 'kept as ABI',
        'answers': {
            'neg': 'EINVAL',
            'zero': '{0, 0}: no timer (cyclic sending or timeout '
                    'monitoring off)',
            'tiny': '{0, 1}: 1 us',
            'huge': 'EINVAL above 400 days (BCM_TIMER_SEC_MAX)',
            'subsec': 'EINVAL (tv_usec outside [0, USEC_PER_SEC))',
            'before_epoch': None,
        },
        'why': 'The contract plus an upper bound that keeps the cyclic timers '
               'in range; CAN BCM ABI, checked only with SETTIMER.',
    },
    {
        'id': 'LPSETTIMEOUT',
        'name': 'ioctl(LPSETTIMEOUT)',
        'entry_points': ['ioctl LPSETTIMEOUT_OLD', 'ioctl LPSETTIMEOUT_NEW'],
        'form': 'a timeval as s32[2] or s64[2]',
        'functions': ['drivers/char/lp.c:lp_set_timeout'],
        'rule': 'lp timeval, tv_usec clamped',
        'decision': 'kept as ABI',
        'answers': {
            'neg': 'EINVAL (tv_sec or tv_usec)',
            'zero': 'EINVAL (zero jiffies)',
            'tiny': '{0, 1}: one jiffy',
            'huge': 'clamped to MAX_JIFFY_OFFSET',
            'subsec': 'tv_usec > 999999 clamped to 999999 and accepted; '
                      'negative EINVAL',
            'before_epoch': None,
        },
        'why': 'The clamp is on purpose: old user space passes a 32-bit '
               'tv_nsec in the field. A parallel-port printer: nothing to '
               'gain by a change.',
    },
    {
        'id': 'PPSETTIME',
        'name': 'ioctl(PPSETTIME)',
        'entry_points': ['ioctl PPSETTIME32', 'ioctl PPSETTIME64'],
        'form': 'a timeval as s32[2] or s64[2]',
        'functions': ['drivers/char/ppdev.c:pp_set_timeout'],
        'rule': 'ppdev timeval, zero refused',
        'decision': 'kept as ABI',
        'answers': {
            'neg': 'EINVAL',
            'zero': 'EINVAL (zero jiffies)',
            'tiny': '{0, 1}: one jiffy',
            'huge': 'clamped to MAX_JIFFY_OFFSET',
            'subsec': 'EINVAL (tv_usec outside [0, USEC_PER_SEC))',
            'before_epoch': None,
        },
        'why': 'The contract but for zero, which would make every transfer '
               'time out at once; ppdev ABI.',
    },
    {
        'id': 'BINDER_FREEZE',
        'name': 'ioctl(BINDER_FREEZE)',
        'entry_points': ['ioctl BINDER_FREEZE'],
        'form': '__u32 timeout_ms (struct binder_freeze_info)',
        'functions': ['drivers/android/binder.c:binder_ioctl_freeze'],
        'rule': 'u32 ms, zero is no wait',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'no wait: EAGAIN if transactions are pending',
            'tiny': 'one jiffy, then EAGAIN if transactions are pending',
            'huge': '2^31 ms and above: msecs_to_jiffies() gives MAX_JIFFY_OFFSET, the longest wait',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'A device command of its own (Android binder); nothing in '
               'it is invalid.',
    },
    {
        'id': 'IPMICTL_SEND_COMMAND_SETTIME',
        'name': 'ioctl(IPMICTL_SEND_COMMAND_SETTIME)',
        'entry_points': ['ioctl IPMICTL_SEND_COMMAND_SETTIME',
                         'compat ioctl IPMICTL_SEND_COMMAND_SETTIME'],
        'form': 'unsigned int retry_time_ms (struct ipmi_req_settime)',
        'functions': ['drivers/char/ipmi/ipmi_devintf.c:ipmi_ioctl',
                      'drivers/char/ipmi/ipmi_devintf.c:compat_ipmi_ioctl'],
        'rule': 'u32 ms, zero is the default',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'the default retry time, 2 s (module parameter '
                    'default_retry_ms)',
            'tiny': 'the next tick of the 1 s IPMI timer',
            'huge': 'accepted as it is',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'The time between retries of an IPMI message, a protocol '
               'setting; zero for the default is its ABI.',
    },
    {
        'id': 'RDMA_CM_RESOLVE_ADDR',
        'name': 'rdma_cm RESOLVE_ADDR, RESOLVE_IP',
        'entry_points': ['write /dev/infiniband/rdma_cm RDMA_USER_CM_CMD_RESOLVE_ADDR',
                         'write /dev/infiniband/rdma_cm RDMA_USER_CM_CMD_RESOLVE_IP'],
        'form': '__u32 timeout_ms',
        'functions': ['drivers/infiniband/core/ucma.c:ucma_resolve_addr',
                      'drivers/infiniband/core/ucma.c:ucma_resolve_ip'],
        'rule': 'u32 ms',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'expires at once unless the address resolves at once '
                    '(an ADDR_ERROR event, ETIMEDOUT)',
            'tiny': 'one jiffy',
            'huge': '2^31 ms and above: msecs_to_jiffies() gives MAX_JIFFY_OFFSET, the longest wait',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'An RDMA connection manager command, answered by an event; '
               'nothing in it is invalid.',
    },
    {
        'id': 'RDMA_CM_RESOLVE_ROUTE',
        'name': 'rdma_cm RESOLVE_ROUTE',
        'entry_points': ['write /dev/infiniband/rdma_cm RDMA_USER_CM_CMD_RESOLVE_ROUTE'],
        'form': '__u32 timeout_ms',
        'functions': ['drivers/infiniband/core/ucma.c:ucma_resolve_route'],
        'rule': 'u32 ms, zero refused',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'EINVAL',
            'tiny': 'the InfiniBand path query timeout (RoCE and iWARP '
                    'ignore it)',
            'huge': 'accepted as it is',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'An RDMA connection manager command (rdma_resolve_route()); '
               'its ABI.',
    },
    {
        'id': 'CEC_RECEIVE',
        'name': 'ioctl(CEC_RECEIVE)',
        'entry_points': ['ioctl CEC_RECEIVE'],
        'form': '__u32 timeout, milliseconds (struct cec_msg)',
        'functions': ['drivers/media/cec/core/cec-api.c:cec_receive_msg'],
        'rule': 'u32 ms, zero is forever',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'waits forever (EAGAIN at once on a non-blocking file)',
            'tiny': 'one jiffy, then ETIMEDOUT',
            'huge': '2^31 ms and above: msecs_to_jiffies() gives MAX_JIFFY_OFFSET, the longest wait',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'The CEC uAPI documents zero as no timeout.',
    },
    {
        'id': 'MPTCOMMAND',
        'name': 'ioctl(MPTCOMMAND)',
        'entry_points': ['ioctl MPTCOMMAND', 'compat ioctl MPTCOMMAND32'],
        'form': 'int timeout, seconds (struct mpt_ioctl_command)',
        'functions': ['drivers/message/fusion/mptctl.c:mptctl_do_mpt_command'],
        'rule': 'int s, not positive is the default',
        'decision': 'kept as ABI',
        'answers': {
            'neg': 'the default, 10 s',
            'zero': 'the default, 10 s',
            'tiny': '1 s',
            'huge': 'accepted, up to INT_MAX s; times HZ, it wraps on a 32-bit kernel',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'A command of the Fusion MPT management interface; its ABI.',
    },
    {
        'id': 'MPT3COMMAND',
        'name': 'ioctl(MPT3COMMAND)',
        'entry_points': ['ioctl MPT3COMMAND', 'compat ioctl MPT3COMMAND32'],
        'form': 'uint32_t timeout, seconds (struct mpt3_ioctl_command)',
        'functions': ['drivers/scsi/mpt3sas/mpt3sas_ctl.c:_ctl_do_mpt_command'],
        'rule': 'u32 s, at least 10 s',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'raised to 10 s',
            'tiny': 'raised to 10 s',
            'huge': 'accepted as it is',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'A command of the mpt3sas management interface; its ABI.',
    },
    {
        'id': 'IF_PROTO_CISCO',
        'name': 'ioctl(SIOCWANDEV, IF_PROTO_CISCO)',
        'entry_points': ['ioctl SIOCWANDEV IF_PROTO_CISCO'],
        'form': 'unsigned int timeout, seconds (cisco_proto)',
        'functions': ['drivers/net/wan/hdlc_cisco.c:cisco_ioctl'],
        'rule': 'u32 s, at least 2',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'EINVAL',
            'tiny': 'EINVAL below 2 s',
            'huge': 'accepted; timeout times HZ wraps in 32 bits',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'The keepalive timeout of Cisco HDLC, a protocol setting; its '
               'ABI.',
    },
    {
        'id': 'NVME_IOCTL_CMD',
        'name': 'ioctl(NVME_IOCTL_ADMIN_CMD, NVME_IOCTL_IO_CMD, 64-bit forms)',
        'entry_points': ['ioctl NVME_IOCTL_ADMIN_CMD', 'ioctl NVME_IOCTL_IO_CMD',
                         'ioctl NVME_IOCTL_ADMIN64_CMD', 'ioctl NVME_IOCTL_IO64_CMD'],
        'form': '__u32 timeout_ms (struct nvme_passthru_cmd, nvme_passthru_cmd64)',
        'functions': ['drivers/nvme/host/ioctl.c:nvme_user_cmd',
                      'drivers/nvme/host/ioctl.c:nvme_user_cmd64'],
        'rule': 'u32 ms, zero is the default',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'the queue default (admin_timeout 60 s, io_timeout 30 s)',
            'tiny': 'one jiffy',
            'huge': '2^31 ms and above: msecs_to_jiffies() gives MAX_JIFFY_OFFSET, the longest wait, cut to '
                    'the request 32-bit timeout',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'A device command timeout of NVMe passthrough; zero for the '
               'default is its ABI.',
    },
    {
        'id': 'RIO_WAIT_FOR_ASYNC',
        'name': 'ioctl(RIO_WAIT_FOR_ASYNC)',
        'entry_points': ['ioctl RIO_WAIT_FOR_ASYNC'],
        'form': '__u32 timeout, milliseconds (struct rio_async_tx_wait)',
        'functions': ['drivers/rapidio/devices/rio_mport_cdev.c:rio_mport_wait_for_async_dma'],
        'rule': 'u32 ms, zero is the default',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'the default, 3 s (module parameter dma_timeout)',
            'tiny': 'one jiffy, then ETIMEDOUT',
            'huge': '2^31 ms and above: msecs_to_jiffies() gives MAX_JIFFY_OFFSET, the longest wait',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'The RapidIO uAPI documents zero as the default timeout.',
    },
    {
        'id': 'SG_IO',
        'name': 'ioctl(SG_IO) on a SCSI block device',
        'entry_points': ['ioctl SG_IO on SCSI disks, tapes and CD-ROMs (not /dev/sgN, '
                         'whose sg driver reads the timeout on its own)'],
        'form': 'unsigned int timeout, milliseconds (struct sg_io_hdr)',
        'functions': ['drivers/scsi/scsi_ioctl.c:scsi_fill_sghdr_rq'],
        'rule': 'u32 ms, at least 7 s',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'the device sg_timeout, else 60 s',
            'tiny': 'raised to 7 s (BLK_MIN_SG_TIMEOUT)',
            'huge': '2^31 ms and above: msecs_to_jiffies() gives MAX_JIFFY_OFFSET, the longest wait, cut to '
                    'the request 32-bit timeout',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'A SCSI command timeout; the floor keeps error handling '
               'possible. SG_IO ABI of the block layer.',
    },
    {
        'id': 'CDROM_SEND_PACKET',
        'name': 'ioctl(CDROM_SEND_PACKET)',
        'entry_points': ['ioctl CDROM_SEND_PACKET'],
        'form': 'int timeout, clock ticks (struct cdrom_generic_command)',
        'functions': ['drivers/scsi/scsi_ioctl.c:scsi_cdrom_send_packet'],
        'rule': 'clock_t, then SG_IO',
        'decision': 'kept as ABI',
        'answers': {
            'neg': 'read as a huge count: the largest timeout',
            'zero': 'as SG_IO: the device sg_timeout, else 60 s',
            'tiny': 'raised to 7 s, as SG_IO',
            'huge': 'the jiffies are stored in an int and turned into '
                    'milliseconds in 32 bits: a huge count can wrap, to 0 '
                    'and the 60 s default among others',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'A SCSI command timeout in USER_HZ ticks, passed on to SG_IO; '
               'its ABI.',
    },
    {
        'id': 'USBDEVFS_CONTROL',
        'name': 'ioctl(USBDEVFS_CONTROL)',
        'entry_points': ['ioctl USBDEVFS_CONTROL', 'compat ioctl USBDEVFS_CONTROL32'],
        'form': '__u32 timeout, milliseconds (struct usbdevfs_ctrltransfer)',
        'functions': ['drivers/usb/core/devio.c:do_proc_control'],
        'rule': 'u32 ms, zero is forever',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'waits forever',
            'tiny': 'one jiffy, then ETIMEDOUT',
            'huge': '2^31 ms and above: msecs_to_jiffies() gives MAX_JIFFY_OFFSET, the longest wait',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'usbfs ABI: zero is no timeout, as for the in-kernel USB '
               'message calls.',
    },
    {
        'id': 'USBDEVFS_BULK',
        'name': 'ioctl(USBDEVFS_BULK)',
        'entry_points': ['ioctl USBDEVFS_BULK', 'compat ioctl USBDEVFS_BULK32'],
        'form': '__u32 timeout, milliseconds (struct usbdevfs_bulktransfer)',
        'functions': ['drivers/usb/core/devio.c:do_proc_bulk',
                      'drivers/usb/core/devio.c:proc_bulk_compat'],
        'rule': 'u32 ms, zero is forever',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'waits forever',
            'tiny': 'one jiffy, then ETIMEDOUT',
            'huge': '2^31 ms and above: msecs_to_jiffies() gives MAX_JIFFY_OFFSET, the longest wait',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'usbfs ABI: zero is no timeout, as for the in-kernel USB '
               'message calls.',
    },
    {
        'id': 'IOCTL_GNTDEV_DMABUF_EXP_WAIT_RELEASED',
        'name': 'ioctl(IOCTL_GNTDEV_DMABUF_EXP_WAIT_RELEASED)',
        'entry_points': ['ioctl IOCTL_GNTDEV_DMABUF_EXP_WAIT_RELEASED'],
        'form': '__u32 wait_to_ms',
        'functions': ['drivers/xen/gntdev-dmabuf.c:gntdev_ioctl_dmabuf_exp_wait_released'],
        'rule': 'u32 ms',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'no wait: ETIMEDOUT unless already released',
            'tiny': 'one jiffy, then ETIMEDOUT',
            'huge': '2^31 ms and above: msecs_to_jiffies() gives MAX_JIFFY_OFFSET, the longest wait',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'A Xen grant device command; nothing in it is invalid.',
    },
    {
        'id': 'BT_ISO_QOS',
        'name': 'setsockopt(BT_ISO_QOS) broadcast timeouts',
        'entry_points': ['setsockopt SOL_BLUETOOTH BT_ISO_QOS, checked at '
                         'connect() and listen()'],
        'form': '__u16 sync_timeout and timeout, 10 ms units (struct bt_iso_qos)',
        'functions': ['net/bluetooth/iso.c:check_bcast_qos'],
        'rule': 'Bluetooth range, 100 ms to 163.84 s',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'the default, 20 s',
            'tiny': 'EINVAL below 10 units (100 ms), at connect() or listen()',
            'huge': 'EINVAL above 0x4000 units (163.84 s)',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'The range and the unit are the Bluetooth Core '
               'specification, passed on to the controller.',
    },
]

SET_ASIDE = [
    {'id': 'utimes', 'functions': ['fs/utimes.c:do_futimesat',
                                   'fs/utimes.c:do_compat_futimesat'],
     'what': 'tv_usec of utimes(2) and futimesat(2)',
     'why': 'file timestamps, not a timeout'},
    {'id': 'settimeofday', 'functions': ['kernel/time/time.c:sys_settimeofday',
                                         'kernel/time/time.c:compat_sys_settimeofday'],
     'what': 'tv_usec of settimeofday(2)',
     'why': 'a clock setter, not a timeout'},
    {'id': 'rtc_time', 'functions': ['drivers/rtc/dev.c:rtc_uie_task'],
     'what': 'tm_sec of a struct rtc_time',
     'why': 'a date, not a timeout'},
    {'id': 'sw_sync_deadline', 'functions': ['drivers/dma-buf/sw_sync.c:sw_sync_ioctl_get_deadline'],
     'what': 'deadline_ns of SW_SYNC_GET_DEADLINE',
     'why': 'an output; the input must be zero'},
    {'id': 'sync_file_deadline', 'functions': ['drivers/dma-buf/sync_file.c:sync_file_ioctl_set_deadline'],
     'what': 'deadline_ns of SYNC_IOC_SET_DEADLINE',
     'why': 'a hint to the fence signaller, a moment; nothing waits on it'},
    {'id': 'xfs_scrubv_rest', 'functions': ['fs/xfs/scrub/scrub.c:xfs_ioc_scrubv_metadata'],
     'what': 'svh_rest_us of XFS_IOC_SCRUBV_METADATA',
     'why': 'a pause between scrubs, not a timeout'},
    {'id': 'epoll_busy_poll', 'functions': ['fs/eventpoll.c:ep_eventpoll_bp_ioctl'],
     'what': 'busy_poll_usecs of EPIOCSPARAMS',
     'why': 'a busy-poll budget; the wait has its own timeout'},
    {'id': 'ethtool_coalesce', 'functions': ['net/ethtool/ioctl.c:ethtool_set_coalesce_supported'],
     'what': 'the usecs fields of ETHTOOL_SCOALESCE',
     'why': 'interrupt coalescing delays, not timeouts'},
    {'id': 'ipv6_flowlabel_linger', 'functions': ['net/ipv6/ip6_flowlabel.c:fl_create',
                                                  'net/ipv6/ip6_flowlabel.c:ipv6_flowlabel_renew'],
     'what': 'flr_linger of IPV6_FLOWLABEL_MGR',
     'why': 'the lifetime of a flow label, not a wait'},
    {'id': 'hci_vhci_devcoredump', 'functions': ['drivers/bluetooth/hci_vhci.c:force_devcd_write'],
     'what': 'timeout of the force_devcoredump debugfs file',
     'why': 'a debugfs test knob, not a system call interface'},
]


def validate(entries=None, set_aside=None):
    """The problems of the table, a list of strings (empty: valid)."""
    entries = ENTRIES if entries is None else entries
    set_aside = SET_ASIDE if set_aside is None else set_aside
    problems = []
    ids, fns = set(), {}
    unsafe = re.compile(r'[*`|]|[A-Za-z0-9]_(?!\w)')
    for kind, items, fields in (('entry', entries, FIELDS),
                                ('set-aside', set_aside, ASIDE_FIELDS)):
        for e in items:
            name = '%s %s' % (kind, e.get('id', '?'))
            got = set(e) - ({'fixed'} if kind == 'entry' else set())
            if got != set(fields):
                problems.append('%s: fields %s, expected %s' %
                                (name, sorted(e), list(fields)))
                continue
            if e['id'] in ids:
                problems.append('%s: id listed twice' % name)
            ids.add(e['id'])
            if not e['functions']:
                problems.append('%s: no functions' % name)
            for f in e['functions']:
                if not re.match(r'^[\w./-]+\.[ch]:\w+$', f):
                    problems.append('%s: function %r is not file:function' % (name, f))
                elif f in fns:
                    problems.append('%s: %s is also listed by %s' % (name, f, fns[f]))
                fns[f] = e['id']
            if kind == 'set-aside':
                continue
            if e['decision'] not in DECISIONS:
                problems.append('%s: decision %r, not one of %s' %
                                (name, e['decision'], ', '.join(DECISIONS)))
            if (e['decision'] == 'fixed') != ('fixed' in e):
                problems.append('%s: a "fixed" dict goes with decision "fixed", and only '
                                'with it' % name)
            elif 'fixed' in e and (not e['fixed'] or set(e['fixed']) - set(CLASSES)):
                problems.append('%s: fixed answers for %s, expected some of %s' %
                                (name, sorted(e['fixed']), list(CLASSES)))
            if set(e['answers']) != set(CLASSES):
                problems.append('%s: answers for %s, expected %s' %
                                (name, sorted(e['answers']), list(CLASSES)))
            elif not all(e['answers'][c] for c in ('neg', 'zero', 'tiny', 'huge')):
                problems.append('%s: an answer for negative, zero, tiny or huge is empty' % name)
            if not e['entry_points'] or not e['rule'] or not e['why']:
                problems.append('%s: empty entry_points, rule or why' % name)
            texts = [e['name'], e['rule'], e['why']] + \
                [a for a in e['answers'].values() if a] + list(e.get('fixed', {}).values())
            for t in texts:
                if unsafe.search(t):
                    problems.append('%s: %r has a character RST would read as '
                                    'markup (*, `, | or a word ending in _)' % (name, t))
    return problems


def exceptions(entries=None):
    """The entries whose rule is not the contract's, in table order."""
    return [e for e in (ENTRIES if entries is None else entries)
            if e['rule'] != 'contract']


def answers_text(e, series=False):
    """The answers of e per class; series=True: with the series' fixes."""
    labels = (('neg', 'negative'), ('zero', 'zero'), ('tiny', 'tiny'),
              ('huge', 'huge'), ('subsec', 'sub-second field out of range'),
              ('before_epoch', 'before the epoch'))
    answers = dict(e['answers'], **(e.get('fixed', {}) if series else {}))
    return '; '.join('%s: %s' % (label, answers[k])
                     for k, label in labels if answers[k])


def rst(entries=None):
    """An RST list-table of the exceptions as the series leaves them (for
    the Documentation page): interface, rule, answers, why."""
    out = ['.. list-table::', '   :header-rows: 1', '   :widths: 20 15 40 25', '',
           '   * - interface', '     - rule', '     - answers', '     - why it stays']
    for e in exceptions(entries):
        for i, cell in enumerate((e['name'], e['rule'], answers_text(e, series=True),
                                  e['why'])):
            # Wrapped at 76 columns, continued under the cell's first word.
            out += textwrap.wrap(cell, 76, initial_indent='   * - ' if i == 0 else '     - ',
                                 subsequent_indent='       ', break_long_words=False,
                                 break_on_hyphens=False)
    return '\n'.join(out) + '\n'


def check_doc(path):
    """The problem with the page at path, or None if it holds rst()."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        return 'cannot read the page: %s' % e
    if rst() in text:
        return None
    want = rst().splitlines()
    got = text.splitlines()
    start = next((i for i, l in enumerate(got) if l == want[0]), None)
    if start is None:
        return '%s: no "%s" (the exceptions table is missing)' % (path, want[0])
    for n, w in enumerate(want):
        g = got[start + n] if start + n < len(got) else '<end of file>'
        if g != w:
            return ('%s:%d: the exceptions table differs from scripts/forms_table.py --rst: '
                    'has %r, the table gives %r' % (path, start + n + 1, g, w))
    return '%s: the exceptions table differs from scripts/forms_table.py --rst' % path


def main(argv):
    if not (len(argv) == 1 and argv[0] in ('--rst', '--json', '--check')
            or len(argv) == 2 and argv[0] == '--check-doc'):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    problems = validate()
    if problems:
        for p in problems:
            print('error: forms_table: ' + p, file=sys.stderr)
        return 1
    if argv[0] == '--check-doc':
        problem = check_doc(argv[1])
        if problem:
            print('error: forms_table: ' + problem, file=sys.stderr)
            return 1
        print('forms_table: %s holds the exceptions table (%d rows)' %
              (argv[1], len(exceptions())))
    elif argv[0] == '--rst':
        sys.stdout.write(rst())
    elif argv[0] == '--json':
        json.dump({'entries': ENTRIES, 'set_aside': SET_ASIDE}, sys.stdout, indent=1)
        print()
    else:
        print('forms_table: %d entries (%d exceptions), %d set aside' %
              (len(ENTRIES), len(exceptions()), len(SET_ASIDE)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
