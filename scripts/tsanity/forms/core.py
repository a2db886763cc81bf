"""The other timeout forms of the core kernel: the system calls of fs/,
kernel/ and io_uring/, and the socket options of net/core/ and of vsock,
in the order of the table (scripts/forms_table.py), each entry as
tsanity.forms.schema describes it."""
from .schema import NA_UNSIGNED

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
]
