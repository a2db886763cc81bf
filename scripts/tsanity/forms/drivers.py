"""The other timeout forms of drivers and protocol families: the ioctls
and commands of devices under drivers/, and CAN BCM's and Bluetooth ISO's
options, in the order of the table (scripts/forms_table.py), each entry
as tsanity.forms.schema describes it."""
from .schema import NA_UNSIGNED

ENTRIES = [
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
