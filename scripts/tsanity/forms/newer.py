"""The other timeout forms that 7.3 has and 6.12 has not, in the order of
the table (scripts/forms_table.py): three device ioctls and two findings
set aside.  Each carries "since": "7.3" (tsanity.forms.schema), and its
answers are 7.3's, read from 7.3-rc7 (Debian's linux-source-7.3); the
comments give the file:line of every answer there."""
from .schema import NA_UNSIGNED

ENTRIES = [
    # IBWAIT -- GPIB core, drivers/gpib/common/gpib_os.c wait_ioctl().
    # Build: drivers/gpib/common/Makefile:2,4 obj-$(CONFIG_GPIB_COMMON) +=
    #   gpib_common.o (gpib_os.o iblib.o); drivers/gpib/Kconfig:15 config
    #   GPIB_COMMON (selected by the board drivers, Kconfig:28,41,53...),
    #   under menuconfig GPIB (Kconfig:2; drivers/Makefile:152). Not test-only.
    # Form: include/uapi/linux/gpib_ioctl.h:51-60 struct gpib_wait_ioctl,
    #   :59 __u32 usec_timeout; :127 IBWAIT = _IOWR(GPIB_CODE, 5, ...).
    # Entry: gpib_os.c:708-712 case IBWAIT in ibioctl() (the board must be
    #   online, :690-693); :2062-2063 .unlocked_ioctl and .compat_ioctl are
    #   both ibioctl (all fields fixed-size: one layout).
    # Path of the value: gpib_os.c:1358 copy_from_user(&wait_cmd);
    #   :1376-1377 ibwait(..., wait_cmd.usec_timeout, desc); :1384 ibsta
    #   copied back. iblib.c:635-636 ibwait(.., unsigned long usec_timeout);
    #   :656-657 winfo.usec_timeout = usec_timeout; start_wait_timer();
    #   iblib.c:612-619 start_wait_timer(): `if (winfo->usec_timeout > 0)`
    #   mod_timer(jiffies + usec_to_jiffies(usec_timeout)).
    # functions: the audit finds wait_ioctl (forms.json: line 1377). ibwait
    #   and start_wait_timer read and check the value too (the zero rule is
    #   iblib.c:617) but take it as a parameter or a field of winfo, which
    #   the audit's rules do not follow; only wait_ioctl is listed.
    # neg: __u32.
    # zero: iblib.c:617 no timer when usec_timeout is 0; :659-663
    #   wait_event_interruptible() until wait_satisfied() or a signal
    #   (ERESTARTSYS); :647-650 wait_mask == 0 returns the status at once
    #   whatever the timeout.
    # tiny: drivers/gpib/include/gpib_proto.h:14-19 usec_to_jiffies(u) =
    #   1 + (u + usec_per_jiffy - 1) / usec_per_jiffy: 1 us -> 2 jiffies.
    #   Expiry: iblib.c:571-577 wait_timeout() sets timed_out and wakes;
    #   :599-606 wait_satisfied() adds TIMO and ends the wait only if
    #   wait_mask & TIMO; ibwait() then returns 0 (:675) and the ioctl 0,
    #   TIMO in ibsta: no ETIMEDOUT. Without TIMO in wait_mask the wait
    #   goes on after the timer.
    # huge: same formula, usec an unsigned int, usec_per_jiffy an unsigned
    #   long (gpib_proto.h:14-16): UINT_MAX us -> 1 + 4294968 jiffies at
    #   HZ=1000 (about 4295 s, 71.6 min; the same at other HZ). On a 32-bit
    #   kernel the sum u + usec_per_jiffy - 1 wraps for the last
    #   usec_per_jiffy - 1 values (UINT_MAX included): 1 jiffy.
    # subsec, before_epoch: none (one relative integer).
    # Aside, not in the audit's findings: IBTMO (gpib_os.c:792,
    #   timeout_ioctl() :1731-1744, a bare u32 copied in, no field read) sets
    #   board->usec_timeout, the timeout of ibcmd/ibrd/ibrpp/ibwrt
    #   (iblib.c:113,320,350,703 os_start_timer(), gpib_os.c:95-109; they
    #   answer ETIMEDOUT, iblib.c:125,707) and of serial polls
    #   (gpib_os.c:1339). The forms rules cannot see it (FORMS_* selection:
    #   a variable copied in AND a timeout field of it read).
    # 6.12: no GPIB at all (neither drivers/gpib nor drivers/staging/gpib;
    #   no file named *gpib*): 7.3 only.
    {
        'id': 'IBWAIT',
        'since': '7.3',
        'name': 'ioctl(IBWAIT)',
        'entry_points': ['ioctl IBWAIT', 'compat ioctl IBWAIT'],
        'form': '__u32 usec_timeout, microseconds (struct gpib_wait_ioctl)',
        'functions': ['drivers/gpib/common/gpib_os.c:wait_ioctl'],
        'rule': 'u32 us, zero is forever, TIMO in ibsta',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'no timer: waits until a condition of wait_mask or a '
                    'signal (a wait_mask of 0 does not wait, whatever the '
                    'timeout)',
            'tiny': 'two jiffies (usec_to_jiffies() rounds up and adds one); '
                    'then the ioctl returns 0 with TIMO in ibsta if wait_mask '
                    'holds TIMO, else the wait goes on',
            'huge': 'UINT_MAX us, about 71.6 min; on a 32-bit kernel the '
                    'rounding up wraps for the last usec_per_jiffy - 1 values, '
                    'UINT_MAX included: one jiffy',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'The GPIB core wait of the linux-gpib library (ibwait): the '
               'timeout is a status bit, TIMO, that ends the wait only if '
               'asked for, and zero is no timeout; nothing in it is invalid.',
    },
    # NTSYNC_IOC_WAIT -- drivers/misc/ntsync.c ntsync_schedule().
    # Build: drivers/misc/Makefile:56 obj-$(CONFIG_NTSYNC); drivers/misc/
    #   Kconfig:454-463 config NTSYNC, tristate, no dependency (6.12 had
    #   "depends on BROKEN"). Not test-only.
    # Form: include/uapi/linux/ntsync.h:30-39 struct ntsync_wait_args, :31
    #   __u64 timeout; :28 NTSYNC_WAIT_REALTIME; :44-45 NTSYNC_IOC_WAIT_ANY,
    #   NTSYNC_IOC_WAIT_ALL. Documented: Documentation/userspace-api/
    #   ntsync.rst:276-284 ("Absolute timeout in nanoseconds ... equal to or
    #   earlier than the current time ... returns immediately ... U64_MAX
    #   ... will not fail with ETIMEDOUT").
    # Entry: ntsync.c:1187-1190 ntsync_char_ioctl(); :1200-1201
    #   .unlocked_ioctl and .compat_ioctl = compat_ptr_ioctl (fixed-size
    #   fields: one layout). Copy-in: :959 ntsync_wait_any(), :1042
    #   ntsync_wait_all(); both call ntsync_schedule() (:1002, :1098) and
    #   answer ETIMEDOUT when it returns 0 with nothing signaled (:1027,
    #   :1143).
    # functions: ntsync_schedule (:829-858) is the only reader of
    #   args->timeout (:831, :836); setup_wait() (:875) checks flags and pad
    #   only. The audit finds it (forms.json: line 831; the type is copied
    #   in the file).
    # neg: __u64; :836 U64_MAX -> timeout_ptr NULL ->
    #   kernel/time/sleep_timeout.c:206-209 schedule(), no timer.
    #   include/linux/ktime.h:220-223 ns_to_ktime(u64) returns it as an s64
    #   ktime_t: 2^63 and up is negative, a past time:
    #   kernel/time/hrtimer.c:1575-1582 (already expired, not queued),
    #   :2355-2359 sleeper task cleared, sleep_timeout.c:223 returns 0 ->
    #   ETIMEDOUT (:1027 / :1143) unless signaled.
    # zero: sleep_timeout.c:198-201 an expiry of 0 returns 0 at once
    #   (after the objects were tried: :989-998 wait_any, :1077-1094
    #   wait_all) -> ETIMEDOUT unless signaled.
    # tiny: 1 ns absolute, before now on either clock: expired, as zero.
    # huge: up to KTIME_MAX (2^63 - 1 ns, some 292 years after the clock's
    #   zero): queued, in effect never fires; 2^63 .. U64_MAX - 1: as neg.
    # before_epoch: the form is absolute. On CLOCK_REALTIME
    #   (NTSYNC_WAIT_REALTIME, :838-839) a u64 names a time before 1970 only
    #   by the wrap above (negative ktime): ETIMEDOUT at once. On
    #   CLOCK_MONOTONIC (:840-841) timens_ktime_to_host():
    #   kernel/time/namespace.c:46-51 a time before the namespace's offset is
    #   made 0: at once. (schema.py says before_epoch is None as "every form
    #   here is relative"; this is the table's first absolute form.)
    # Signals: :843-846 ERESTARTSYS; the restarted ioctl keeps the same
    #   absolute deadline.
    # 6.12: drivers/misc/ntsync.c exists (Kconfig "depends on BROKEN",
    #   Kconfig:518-520) with semaphores only: NTSYNC_IOC_CREATE_SEM and
    #   NTSYNC_IOC_SEM_POST, no struct ntsync_wait_args, no wait ioctl, no
    #   ntsync_schedule(): 7.3 only.
    {
        'id': 'NTSYNC_IOC_WAIT',
        'since': '7.3',
        'name': 'ioctl(NTSYNC_IOC_WAIT_ANY, NTSYNC_IOC_WAIT_ALL)',
        'entry_points': ['ioctl NTSYNC_IOC_WAIT_ANY', 'ioctl NTSYNC_IOC_WAIT_ALL',
                         'compat ioctl NTSYNC_IOC_WAIT_ANY',
                         'compat ioctl NTSYNC_IOC_WAIT_ALL'],
        'form': '__u64 timeout, absolute nanoseconds on CLOCK_MONOTONIC, or on '
                'CLOCK_REALTIME with NTSYNC_WAIT_REALTIME (struct ntsync_wait_args)',
        'functions': ['drivers/misc/ntsync.c:ntsync_schedule'],
        'rule': 'u64 absolute ns, U64_MAX is forever',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED + ', and U64_MAX waits forever (no timer); '
                   'the other values from 2^63 up are a negative ktime, a '
                   'time past: ETIMEDOUT at once unless an object is '
                   'signaled',
            'zero': 'time 0, past: no wait, ETIMEDOUT at once unless an '
                    'object is signaled',
            'tiny': '1 ns after the clock zero, past: as zero',
            'huge': 'up to 2^63 - 1 ns (KTIME_MAX, some 292 years after the '
                    'clock zero): in effect no timeout; from 2^63 up, as '
                    'negative',
            'subsec': None,
            'before_epoch': 'before 1970 (NTSYNC_WAIT_REALTIME) only as the '
                            'values from 2^63 up, a negative ktime: ETIMEDOUT '
                            'at once; on CLOCK_MONOTONIC in a time namespace '
                            'a time before its offset is made 0, the same',
        },
        'why': 'The ntsync ABI for user-space NT emulators, documented in '
               'Documentation/userspace-api/ntsync.rst: an absolute '
               'deadline, at or before now returns at once, U64_MAX waits '
               'forever; a wait restarted after a signal keeps its deadline.',
    },
    # LEAPRAID_COMMAND -- drivers/scsi/leapraid/leapraid_app.c
    #   leapraid_ctl_do_command().
    # Build: drivers/scsi/leapraid/Makefile:6 obj-$(CONFIG_SCSI_LEAPRAID)
    #   += leapraid.o (leapraid_app.o among its objects, :7-10);
    #   drivers/scsi/leapraid/Kconfig:3-5 config SCSI_LEAPRAID, depends on
    #   PCI && SCSI (so 32-bit builds are possible); drivers/scsi/
    #   Makefile:117. Not test-only.
    # Form: leapraid_app.c:122-134 struct leapraid_ioctl_command, :124 u32
    #   timeout, defined in the .c file: no uapi header; it holds user
    #   pointers, so its size differs between 32- and 64-bit.
    # Entry: misc device "leapraid_ctl" (:14, :790-794); :784-788 fops with
    #   .unlocked_ioctl only, no .compat_ioctl (32-bit callers on a 64-bit
    #   kernel get ENOTTY); :642 switch (_IOC_NR(cmd)), :21 LEAPRAID_COMMAND
    #   20, :648-649 copy_from_user(&karg), :662 only when _IOC_SIZE(cmd) ==
    #   sizeof(struct leapraid_ioctl_command), :664 leapraid_ctl_do_command.
    # functions: leapraid_ctl_do_command is the only reader (:445-449); the
    #   audit finds it (forms.json: line 445).
    # neg: u32.
    # zero, tiny: :446-447 below LEAPRAID_CTL_CMD_TIMEOUT raised to it;
    #   leapraid_func.h:210 LEAPRAID_CTL_CMD_TIMEOUT = LEAPRAID_UNIFIED_TIMEOUT,
    #   :208 = 30 (seconds: :449 timeout * HZ).
    # huge: :297 unsigned long timeout; :448-449
    #   wait_for_completion_timeout(.., timeout * HZ):
    #   kernel/sched/completion.c:170-172 TASK_UNINTERRUPTIBLE. 64-bit:
    #   UINT_MAX * HZ fits, a wait of up to UINT_MAX s. 32-bit: the product
    #   wraps in 32 bits; wait_for_common() takes a long (completion.c:130),
    #   a value of 2^31 and up is negative: kernel/time/sleep_timeout.c:85-90
    #   pr_err "wrong timeout value", returns 0 at once.
    # On expiry: :461-466 not DONE -> issue_reset unless the command was
    #   already reset (leapraid_func.h:83-84); :504-524 rc = -ENODATA and a
    #   target reset or an adapter hard reset.
    # subsec, before_epoch: none.
    # 6.12: no drivers/scsi/leapraid, no file or Kconfig naming leapraid:
    #   7.3 only.
    {
        'id': 'LEAPRAID_COMMAND',
        'since': '7.3',
        'name': 'ioctl(LEAPRAID_COMMAND)',
        'entry_points': ['ioctl on /dev/leapraid_ctl, _IOC_NR 20 (LEAPRAID_COMMAND) '
                         'with the size of struct leapraid_ioctl_command; no '
                         'compat ioctl'],
        'form': 'u32 timeout, seconds (struct leapraid_ioctl_command, defined in '
                'the driver, no uapi header)',
        'functions': ['drivers/scsi/leapraid/leapraid_app.c:leapraid_ctl_do_command'],
        'rule': 'u32 s, at least 30 s',
        'decision': 'kept as ABI',
        'answers': {
            'neg': NA_UNSIGNED,
            'zero': 'raised to 30 s (LEAPRAID_CTL_CMD_TIMEOUT)',
            'tiny': 'raised to 30 s',
            'huge': 'accepted, an uninterruptible wait of up to UINT_MAX s; '
                    'times HZ, it wraps on a 32-bit kernel, to a shorter '
                    'wait, or to none when the jiffies read as a negative '
                    'long (schedule_timeout() logs a wrong timeout value)',
            'subsec': None,
            'before_epoch': None,
        },
        'why': 'A command of the LeapRAID management interface; when it '
               'expires the driver resets the target or the adapter and the '
               'ioctl fails with ENODATA. The floor and the unit are its ABI.',
    },
]

SET_ASIDE = [

    # xfs_verify_media_rest -- fs/xfs/xfs_verify_media.c xfs_verify_media().
    # Build: fs/xfs/Makefile:110 xfs_verify_media.o in xfs-y, :10
    #   obj-$(CONFIG_XFS_FS) += xfs.o (always with XFS). Not test-only.
    # Form: fs/xfs/libxfs/xfs_fs.h:1167-1188 struct xfs_verify_media, :1186
    #   __u32 me_rest_us "rest time between IOs, usecs"; :1236
    #   XFS_IOC_VERIFY_MEDIA. Entry: fs/xfs/xfs_ioctl.c:1466-1467;
    #   xfs_verify_media.c:425-426 CAP_SYS_ADMIN, :428 copy_from_user,
    #   :445 xfs_verify_media().
    # Use: xfs_verify_media.c:351-397, the read loop; after each successful
    #   read but the last, :382-389 if me_rest_us, sleep until now +
    #   me_rest_us * 1000 ns (TASK_KILLABLE, schedule_hrtimeout ABS), then
    #   :391-394 EINTR on a fatal signal. Nothing waits for an event: a pause
    #   between reads, the same code as svh_rest_us of
    #   XFS_IOC_SCRUBV_METADATA (fs/xfs/scrub/scrub.c:985-992), already set
    #   aside as xfs_scrubv_rest. (Aside: me_rest_us * 1000 is computed in
    #   32 bits, __u32 times int, so a rest above 4294967 us wraps before
    #   ktime_add_ns(); scrub.c:989 does the same.)
    # The audit finds it at line 382 (forms.json).
    # 6.12: no fs/xfs/xfs_verify_media.c, no XFS_IOC_VERIFY_MEDIA nor
    #   me_rest_us under fs/xfs: 7.3 only.
    {'id': 'xfs_verify_media_rest',
     'since': '7.3',
     'functions': ['fs/xfs/xfs_verify_media.c:xfs_verify_media'],
     'what': 'me_rest_us of XFS_IOC_VERIFY_MEDIA',
     'why': 'a pause between verify reads, not a timeout'},
    # io_uring_mock_rw_delay -- io_uring/mock_file.c io_create_mock_file().
    # Build: io_uring/Makefile:26 obj-$(CONFIG_IO_URING_MOCK_FILE);
    #   init/Kconfig:1987-1996 tristate "Enable io_uring mock files
    #   (Experimental)" if EXPERT, default n, "should only be enabled for
    #   specific test purposes". Test-only.
    # Form: include/uapi/linux/io_uring/mock_file.h struct
    #   io_uring_mock_create, __u64 rw_delay_ns; IORING_MOCK_MGR_CMD_CREATE.
    # Entry: a uring_cmd on the misc device io_uring_mock
    #   (mock_file.c:318-327), :306-307 CAP_SYS_ADMIN, :312-313
    #   IORING_MOCK_MGR_CMD_CREATE; :223 add_taint(TAINT_TEST) ("a testing
    #   only driver", :219-222); :234 copy_from_user(&mc).
    # Use: :242-243 EINVAL above NSEC_PER_SEC; :251 stored in the mock file;
    #   :140-143 and :153-158 zero is a synchronous read or write, else
    #   :113-128 io_mock_delay_rw() completes the I/O after rw_delay_ns
    #   (relative hrtimer). A delay injected into a mock file's I/O so that
    #   tests reach the async completion path; no caller waits on it with a
    #   timeout. Only io_create_mock_file reads the user's field (the audit
    #   finds it at line 242); io_mock_read_iter, io_mock_write_iter and
    #   io_mock_delay_rw read the stored copy (mf->rw_delay_ns), which the
    #   audit does not find: left out, as the other set-asides list only
    #   the function found.
    # 6.12: no io_uring/mock_file.c, no IO_URING_MOCK_FILE in init/Kconfig:
    #   7.3 only.
    {'id': 'io_uring_mock_rw_delay',
     'since': '7.3',
     'functions': ['io_uring/mock_file.c:io_create_mock_file'],
     'what': 'rw_delay_ns of IORING_MOCK_MGR_CMD_CREATE (/dev/io_uring_mock)',
     'why': 'a delay injected into the I/O of a test-only mock file '
            '(CONFIG_IO_URING_MOCK_FILE, taints the kernel), not a timeout'},
]
