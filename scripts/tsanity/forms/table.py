"""The forms table: its entries, the core kernel's, the drivers', then
those new since 6.12 (newer.py), the findings it sets aside, and what is asked of it (valid? which entries
are exceptions to the contract?)."""
from typing import Any

from . import core, drivers, newer, schema

ENTRIES: list[dict[str, Any]] = core.ENTRIES + drivers.ENTRIES + newer.ENTRIES

SET_ASIDE: list[dict[str, Any]] = [
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
] + newer.SET_ASIDE


def validate(entries=None, set_aside=None):
    """The problems of the table, a list of strings (empty: valid)."""
    return schema.check(ENTRIES if entries is None else entries,
                        SET_ASIDE if set_aside is None else set_aside)


def exceptions(entries=None):
    """The entries whose rule is not the contract's, in table order."""
    return [e for e in (ENTRIES if entries is None else entries)
            if e['rule'] != 'contract']


def _key(version):
    return tuple(int(x) for x in version.split('.'))


def for_kernel(version):
    """The table as it holds for Linux VERSION ("X.Y"), an object with the
    module's ENTRIES and SET_ASIDE: without those whose "since" is newer."""
    def has(e):
        return 'since' not in e or _key(version) >= _key(e['since'])

    class Table:
        ENTRIES: list[dict[str, Any]]
        SET_ASIDE: list[dict[str, Any]]
        version: str
    t = Table()
    t.ENTRIES = [e for e in ENTRIES if has(e)]
    t.SET_ASIDE = [e for e in SET_ASIDE if has(e)]
    t.version = version
    return t
