// SPDX-License-Identifier: GPL-2.0
/*
 * Every timeout entry point against the one definition of a sane timeout
 * in <linux/time64.h>.  A timespec {tv_sec, tv_nsec} is
 *
 *   invalid  tv_nsec outside [0, NSEC_PER_SEC), or relative and tv_sec < 0
 *   expired  absolute and tv_sec < 0: before the epoch
 *   valid    anything else, huge values included (they saturate)
 *
 * Invalid and expired timeouts fail with EINVAL; a valid one lets the call
 * proceed to its normal outcome.  Two io_uring rules are ABI, which
 * programs rely on, and have classes of their own that proceed:
 *
 *   carried  IORING_OP_TIMEOUT, IORING_OP_LINK_TIMEOUT and the timeout
 *            update carry a tv_nsec of a second or more into tv_sec
 *   summed   io_uring_enter()'s wait timeout (IORING_ENTER_EXT_ARG) is
 *            tv_sec * NSEC_PER_SEC + tv_nsec, whatever the signs: a
 *            negative sum ends the wait at once
 *
 * Where such a sum does not fit in a ktime_t it saturates.  Before, the
 * wrapped sum armed an hrtimer that fired at no particular moment, which
 * no single answer shows reliably: the classes here do not look at it.
 *
 * Two tests per mode of an entry point and per ABI feed it every pair of
 * the boundary values below, split by the class of the values the kernel
 * reads: time64_accepted (time32_accepted) the classes that proceed,
 * time64_refused (time32_refused) those answered EINVAL.  A kernel known
 * to answer one group otherwise (a stable kernel without a fix that brings
 * an entry point onto the contract) fails that test alone, and the other
 * still fails if any of its inputs is answered otherwise.  Each test logs
 * each answer on one line with the values the kernel reads in that ABI:
 *
 *   # <abi> <entry> <mode> sec=<s> nsec=<ns>: kernel_sec=<s> kernel_nsec=<ns>
 *     class=<class> expected=<EINVAL|proceeds> got=<answer>
 *
 * The inputs are the boundary table alone by default, so that a run is
 * deterministic.  TIMEOUT_CLASSES_RANDOM=N in the environment adds N
 * random inputs to each test, biased to the boundaries of each field, from
 * the seed TIMEOUT_CLASSES_SEED (decimal; default: the time).  Their names
 * carry the seed and their number, so that an answer can be replayed:
 *
 *   # <abi> <entry> <mode> sec=<s> nsec=<ns> rand=<seed>/<i>: ...
 *
 * A valid input to a blocking call waits for a 1 ms signal, and the
 * harness gives a test 30 s: keep N to a few thousand.
 *
 * A third test per mode and ABI gives the entry point a timeout it cannot
 * read, and logs each answer on one line:
 *
 *   # <abi> <entry> <mode> ptr=<unmapped|straddling|NULL>:
 *     class=<unreadable|null> expected=<errno> got=<answer>
 *
 * The project's own check, never mailed: qemu-config/initramfs.mk builds
 * it with the tree's kselftest_harness.h and exported uapi headers, and
 * with -m32 for the time32 entry points and the compat reading of
 * __kernel_timespec.
 *
 * Any input answered otherwise fails the test, whatever the kernel's
 * version.  An entry point or flag the kernel does not know is skipped.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <sys/utsname.h>
#include <time.h>
#include <linux/aio_abi.h>
#include <linux/futex.h>
#include <linux/io_uring.h>
#include <linux/mqueue.h>
#include <linux/sem.h>

#include "kselftest_harness.h"

#if defined(__x86_64__)
#define ABI_NAME	"x86_64"
#elif defined(__i386__)
#define ABI_NAME	"i386"
#elif __SIZEOF_LONG__ == 8
#define ABI_NAME	"native64"
#else
#define ABI_NAME	"native32"
#endif

#define NSEC_PER_SEC	1000000000LL
#define KTIME_SEC_MAX	(INT64_MAX / NSEC_PER_SEC)
/* The kernel's sigset_t: 8 bytes where libc's _NSIG is 65, 16 where 129 */
#define SIGSET_SIZE	(_NSIG / 8)

struct val {
	int64_t v;
	const char *name;
};

static const struct val secs[] = {
	{ INT64_MIN, "S64_MIN" }, { INT32_MIN, "INT_MIN" }, { -1, "-1" },
	{ 0, "0" }, { 1, "1" }, { INT32_MAX, "INT_MAX" },
	{ KTIME_SEC_MAX - 1, "KTIME_SEC_MAX-1" }, { KTIME_SEC_MAX, "KTIME_SEC_MAX" },
	{ INT64_MAX, "S64_MAX" },
}, nsecs[] = {
	/* __kernel_timespec's tv_nsec is 64 bits: the limits of a 64-bit long */
	{ INT64_MIN, "LONG_MIN" }, { -1, "-1" }, { 0, "0" }, { 1, "1" },
	{ NSEC_PER_SEC - 1, "NSEC_PER_SEC-1" }, { NSEC_PER_SEC, "NSEC_PER_SEC" },
	{ INT64_MAX, "LONG_MAX" },
};

enum kind {
	K_NANOSLEEP, K_CLOCK_NANOSLEEP, K_FUTEX, K_FUTEX_WAITV, K_FUTEX_WAIT,
	K_TIMERFD, K_TIMER, K_PPOLL, K_PSELECT6, K_EPOLL_PWAIT2, K_MQ_SEND,
	K_MQ_RECV, K_SEMTIMEDOP, K_SIGTIMEDWAIT, K_RECVMMSG, K_URING_TIMEOUT,
	K_URING_LINK, K_URING_UPDATE, K_URING_ENTER, K_URING_ENTER_REG,
	K_URING_SYNC_CANCEL, K_IO_GETEVENTS, K_IO_PGETEVENTS, K_NR,
};

/*
 * How the kernel reads a timespec: a __kernel_timespec as is (native, or a
 * structure member), an old_timespec32, or a __kernel_timespec through
 * get_timespec64(), which drops the upper half of tv_nsec under compat and
 * truncates it on a 32-bit kernel.
 */
enum tsabi { TS_64, TS_32, TS_64C };

struct form {
	const char *name;
	long nr;
	enum tsabi abi;
};

/* The entry points of each kind: [0] time64, [1] time32; no name: none */
#if __SIZEOF_LONG__ == 8
#define TS_TIME64	TS_64
#define FORMS(k, name) \
	[k] = { { #name, __NR_##name, TS_64 } }
/* The native entry point is the one form: n64 and n32 are 32-bit names */
#define FORMS2(k, name, n64, n32) \
	FORMS(k, name)
#else
#define TS_TIME64	TS_64C
#define FORMS2(k, name, n64, n32) \
	[k] = { { #n64, __NR_##n64, TS_64C }, { #n32, __NR_##name, TS_32 } }
/*
 * A 32-bit architecture born after time64 (rv32) has no time32 entry
 * points: syscall(-1) answers ENOSYS, and the test skips.
 */
#ifndef __NR_nanosleep
#define __NR_nanosleep		-1
#endif
#ifndef __NR_clock_nanosleep
#define __NR_clock_nanosleep	-1
#endif
#ifndef __NR_futex
#define __NR_futex		-1
#endif
#ifndef __NR_timerfd_settime
#define __NR_timerfd_settime	-1
#endif
#ifndef __NR_timer_settime
#define __NR_timer_settime	-1
#endif
#ifndef __NR_ppoll
#define __NR_ppoll		-1
#endif
#ifndef __NR_pselect6
#define __NR_pselect6		-1
#endif
#ifndef __NR_mq_timedsend
#define __NR_mq_timedsend	-1
#endif
#ifndef __NR_mq_timedreceive
#define __NR_mq_timedreceive	-1
#endif
#ifndef __NR_rt_sigtimedwait
#define __NR_rt_sigtimedwait	-1
#endif
#ifndef __NR_recvmmsg
#define __NR_recvmmsg		-1
#endif
#ifndef __NR_io_getevents
#define __NR_io_getevents	-1
#endif
#ifndef __NR_io_pgetevents
#define __NR_io_pgetevents	-1
#endif
#if !defined(__NR_semtimedop) && !defined(__NR_ipc)
#define __NR_semtimedop		-1
#endif
#endif
#define FORMS64(k, name, nr) \
	[k] = { { name, __NR_##nr, TS_TIME64 } }

static const struct form forms[K_NR][2] = {
	FORMS2(K_CLOCK_NANOSLEEP, clock_nanosleep, clock_nanosleep_time64,
	       clock_nanosleep_time32),
	FORMS2(K_FUTEX, futex, futex_time64, futex_time32),
	FORMS2(K_TIMERFD, timerfd_settime, timerfd_settime64, timerfd_settime32),
	FORMS2(K_TIMER, timer_settime, timer_settime64, timer_settime32),
	FORMS2(K_PPOLL, ppoll, ppoll_time64, ppoll_time32),
	FORMS2(K_PSELECT6, pselect6, pselect6_time64, pselect6_time32),
	FORMS2(K_MQ_SEND, mq_timedsend, mq_timedsend_time64, mq_timedsend_time32),
	FORMS2(K_MQ_RECV, mq_timedreceive, mq_timedreceive_time64, mq_timedreceive_time32),
	FORMS2(K_SIGTIMEDWAIT, rt_sigtimedwait, rt_sigtimedwait_time64, rt_sigtimedwait_time32),
	FORMS2(K_RECVMMSG, recvmmsg, recvmmsg_time64, recvmmsg_time32),
	FORMS2(K_IO_PGETEVENTS, io_pgetevents, io_pgetevents_time64, io_pgetevents_time32),
#if __SIZEOF_LONG__ == 8
	FORMS(K_NANOSLEEP, nanosleep),
	FORMS(K_SEMTIMEDOP, semtimedop),
	FORMS(K_IO_GETEVENTS, io_getevents),
#else
	/* Their time64 successors are clock_nanosleep and io_pgetevents */
	[K_NANOSLEEP] = { {}, { "nanosleep_time32", __NR_nanosleep, TS_32 } },
	[K_IO_GETEVENTS] = { {}, { "io_getevents_time32", __NR_io_getevents, TS_32 } },
#ifdef __NR_ipc
	/* Without semtimedop_time32, ipc(SEMTIMEDOP) is the time32 form */
	[K_SEMTIMEDOP] = { { "semtimedop_time64", __NR_semtimedop_time64, TS_64C },
			   { "ipc", __NR_ipc, TS_32 } },
#else
	FORMS2(K_SEMTIMEDOP, semtimedop, semtimedop_time64, semtimedop_time32),
#endif
#endif
	/* Born with a __kernel_timespec */
	FORMS64(K_FUTEX_WAITV, "futex_waitv", futex_waitv),
	FORMS64(K_FUTEX_WAIT, "futex_wait", futex_wait),
	FORMS64(K_EPOLL_PWAIT2, "epoll_pwait2", epoll_pwait2),
	/* io_uring reads its timeouts with get_timespec64() ... */
	FORMS64(K_URING_TIMEOUT, "io_uring_timeout", io_uring_enter),
	FORMS64(K_URING_LINK, "io_uring_link_timeout", io_uring_enter),
	FORMS64(K_URING_UPDATE, "io_uring_timeout_update", io_uring_enter),
	FORMS64(K_URING_ENTER, "io_uring_enter", io_uring_enter),
	/* ... except these, members of a structure read as is */
	[K_URING_ENTER_REG] = { { "io_uring_enter_reg_wait", __NR_io_uring_enter, TS_64 } },
	[K_URING_SYNC_CANCEL] = { { "io_uring_sync_cancel", __NR_io_uring_register, TS_64 } },
};

FIXTURE(timeout) {
	int fd, fd2;	/* the object the call waits on */
	int timer;
	aio_context_t aio;
	uint32_t word, word2, pi;
};

FIXTURE_VARIANT(timeout) {
	enum kind kind;
	const char *mode;
	int clock;	/* the clock of the call or of its object (not futex's) */
	int op;		/* flags, or the futex command */
	bool abs;	/* the timeout is a moment on the clock, not an interval */
	bool interval;	/* it is it_interval, it_value being 1 s */
	int normal;	/* the errno of a valid call, 0 if it returns 0 */
	bool sleeps;	/* a valid call may block: 0 and EINTR are normal too */
};

#define MODE(id, k, m, c, o, a, n, s)					\
	FIXTURE_VARIANT_ADD(timeout, id) {				\
		.kind = k, .mode = m, .clock = c, .op = o, .abs = a,	\
		.normal = n, .sleeps = s,				\
	}
#define INTERVAL(id, k, m, c)						\
	FIXTURE_VARIANT_ADD(timeout, id) {				\
		.kind = k, .mode = m, .clock = c, .interval = true,	\
	}
#define REL		false
#define ABS		true
#define FUTEX_RT	(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME)
#define URING_WAIT	(IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG)
#define URING_WAIT_REG	(URING_WAIT | IORING_ENTER_EXT_ARG_REG)

MODE(nanosleep, K_NANOSLEEP, "rel", CLOCK_MONOTONIC, 0, REL, 0, true);
MODE(clock_nanosleep_rel_mono, K_CLOCK_NANOSLEEP, "rel-monotonic", CLOCK_MONOTONIC, 0,
	REL, 0, true);
MODE(clock_nanosleep_rel_real, K_CLOCK_NANOSLEEP, "rel-realtime", CLOCK_REALTIME, 0,
	REL, 0, true);
MODE(clock_nanosleep_rel_boot, K_CLOCK_NANOSLEEP, "rel-boottime", CLOCK_BOOTTIME, 0,
	REL, 0, true);
MODE(clock_nanosleep_rel_tai, K_CLOCK_NANOSLEEP, "rel-tai", CLOCK_TAI, 0, REL, 0, true);
MODE(clock_nanosleep_abs_mono, K_CLOCK_NANOSLEEP, "abs-monotonic", CLOCK_MONOTONIC,
	TIMER_ABSTIME, ABS, 0, true);
MODE(clock_nanosleep_abs_real, K_CLOCK_NANOSLEEP, "abs-realtime", CLOCK_REALTIME,
	TIMER_ABSTIME, ABS, 0, true);
MODE(clock_nanosleep_abs_boot, K_CLOCK_NANOSLEEP, "abs-boottime", CLOCK_BOOTTIME,
	TIMER_ABSTIME, ABS, 0, true);
MODE(clock_nanosleep_abs_tai, K_CLOCK_NANOSLEEP, "abs-tai", CLOCK_TAI, TIMER_ABSTIME,
	ABS, 0, true);
/* A futex word that does not match: EAGAIN; our own PI lock: EDEADLK */
MODE(futex_wait, K_FUTEX, "wait", 0, FUTEX_WAIT_PRIVATE, REL, EAGAIN, false);
MODE(futex_wait_bitset_mono, K_FUTEX, "wait_bitset-abs-monotonic", 0,
	FUTEX_WAIT_BITSET_PRIVATE, ABS, EAGAIN, false);
MODE(futex_wait_bitset_real, K_FUTEX, "wait_bitset-abs-realtime", 0,
	FUTEX_WAIT_BITSET | FUTEX_RT, ABS, EAGAIN, false);
MODE(futex_lock_pi, K_FUTEX, "lock_pi-abs", 0, FUTEX_LOCK_PI_PRIVATE, ABS, EDEADLK, false);
MODE(futex_lock_pi2_mono, K_FUTEX, "lock_pi2-abs-monotonic", 0, FUTEX_LOCK_PI2_PRIVATE,
	ABS, EDEADLK, false);
MODE(futex_lock_pi2_real, K_FUTEX, "lock_pi2-abs-realtime", 0, FUTEX_LOCK_PI2 | FUTEX_RT,
	ABS, EDEADLK, false);
MODE(futex_wait_requeue_pi_mono, K_FUTEX, "wait_requeue_pi-abs-monotonic", 0,
	FUTEX_WAIT_REQUEUE_PI_PRIVATE, ABS, EAGAIN, false);
MODE(futex_wait_requeue_pi_real, K_FUTEX, "wait_requeue_pi-abs-realtime", 0,
	FUTEX_WAIT_REQUEUE_PI | FUTEX_RT, ABS, EAGAIN, false);
MODE(futex_waitv_mono, K_FUTEX_WAITV, "abs-monotonic", CLOCK_MONOTONIC, 0, ABS, EAGAIN, false);
MODE(futex_waitv_real, K_FUTEX_WAITV, "abs-realtime", CLOCK_REALTIME, 0, ABS, EAGAIN, false);
MODE(futex2_wait_mono, K_FUTEX_WAIT, "abs-monotonic", CLOCK_MONOTONIC, 0, ABS, EAGAIN, false);
MODE(futex2_wait_real, K_FUTEX_WAIT, "abs-realtime", CLOCK_REALTIME, 0, ABS, EAGAIN, false);
/* Armed, then disarmed */
MODE(timerfd_rel_mono, K_TIMERFD, "it_value-rel", CLOCK_MONOTONIC, 0, REL, 0, false);
MODE(timerfd_abs_mono, K_TIMERFD, "it_value-abs", CLOCK_MONOTONIC, TFD_TIMER_ABSTIME,
	ABS, 0, false);
INTERVAL(timerfd_interval_mono, K_TIMERFD, "it_interval", CLOCK_MONOTONIC);
MODE(timerfd_rel_real, K_TIMERFD, "it_value-rel-realtime", CLOCK_REALTIME, 0, REL, 0, false);
MODE(timerfd_abs_real, K_TIMERFD, "it_value-abs-realtime", CLOCK_REALTIME, TFD_TIMER_ABSTIME,
	ABS, 0, false);
INTERVAL(timerfd_interval_real, K_TIMERFD, "it_interval-realtime", CLOCK_REALTIME);
MODE(timerfd_rel_boot, K_TIMERFD, "it_value-rel-boottime", CLOCK_BOOTTIME, 0, REL, 0, false);
MODE(timerfd_abs_boot, K_TIMERFD, "it_value-abs-boottime", CLOCK_BOOTTIME, TFD_TIMER_ABSTIME,
	ABS, 0, false);
INTERVAL(timerfd_interval_boot, K_TIMERFD, "it_interval-boottime", CLOCK_BOOTTIME);
MODE(timer_rel, K_TIMER, "it_value-rel", CLOCK_MONOTONIC, 0, REL, 0, false);
MODE(timer_abs, K_TIMER, "it_value-abs", CLOCK_MONOTONIC, TIMER_ABSTIME, ABS, 0, false);
INTERVAL(timer_interval, K_TIMER, "it_interval", CLOCK_MONOTONIC);
MODE(ppoll, K_PPOLL, "rel", CLOCK_MONOTONIC, 0, REL, 0, true);
MODE(pselect6, K_PSELECT6, "rel", CLOCK_MONOTONIC, 0, REL, 0, true);
MODE(epoll_pwait2, K_EPOLL_PWAIT2, "rel", CLOCK_MONOTONIC, 0, REL, 0, true);
/* A full queue to send to, an empty one to receive from */
MODE(mq_timedsend, K_MQ_SEND, "abs-realtime", CLOCK_REALTIME, 0, ABS, ETIMEDOUT, true);
MODE(mq_timedreceive, K_MQ_RECV, "abs-realtime", CLOCK_REALTIME, 0, ABS, ETIMEDOUT, true);
MODE(semtimedop, K_SEMTIMEDOP, "rel", CLOCK_MONOTONIC, 0, REL, EAGAIN, true);
MODE(rt_sigtimedwait, K_SIGTIMEDWAIT, "rel", CLOCK_MONOTONIC, 0, REL, EAGAIN, true);
MODE(recvmmsg, K_RECVMMSG, "rel", CLOCK_MONOTONIC, MSG_DONTWAIT, REL, EAGAIN, false);
/* Armed (0) or fired (ETIME): both proceed */
MODE(io_uring_timeout_rel, K_URING_TIMEOUT, "rel", CLOCK_MONOTONIC, 0, REL, ETIME, true);
MODE(io_uring_timeout_rel_boot, K_URING_TIMEOUT, "rel-boottime", CLOCK_BOOTTIME,
	IORING_TIMEOUT_BOOTTIME, REL, ETIME, true);
MODE(io_uring_timeout_abs, K_URING_TIMEOUT, "abs", CLOCK_MONOTONIC, IORING_TIMEOUT_ABS,
	ABS, ETIME, true);
MODE(io_uring_timeout_abs_real, K_URING_TIMEOUT, "abs-realtime", CLOCK_REALTIME,
	IORING_TIMEOUT_ABS | IORING_TIMEOUT_REALTIME, ABS, ETIME, true);
MODE(io_uring_timeout_abs_boot, K_URING_TIMEOUT, "abs-boottime", CLOCK_BOOTTIME,
	IORING_TIMEOUT_ABS | IORING_TIMEOUT_BOOTTIME, ABS, ETIME, true);
/* Linked to a read of an empty pipe: fired, or cancelled by the read */
MODE(io_uring_link_timeout_rel, K_URING_LINK, "rel", CLOCK_MONOTONIC, 0, REL, ETIME, true);
MODE(io_uring_link_timeout_abs, K_URING_LINK, "abs", CLOCK_MONOTONIC, IORING_TIMEOUT_ABS,
	ABS, ETIME, true);
/* The update of a timeout that does not exist */
MODE(io_uring_timeout_update_rel, K_URING_UPDATE, "rel", CLOCK_MONOTONIC,
	IORING_TIMEOUT_UPDATE, REL, ENOENT, false);
MODE(io_uring_timeout_update_abs, K_URING_UPDATE, "abs", CLOCK_MONOTONIC,
	IORING_TIMEOUT_UPDATE | IORING_TIMEOUT_ABS, ABS, ENOENT, false);
/* A completion that never comes; absolute on the ring's CLOCK_MONOTONIC */
MODE(io_uring_enter_rel, K_URING_ENTER, "ext_arg-rel", CLOCK_MONOTONIC, URING_WAIT,
	REL, ETIME, true);
MODE(io_uring_enter_abs, K_URING_ENTER, "ext_arg-abs", CLOCK_MONOTONIC,
	URING_WAIT | IORING_ENTER_ABS_TIMER, ABS, ETIME, true);
/* The wait timeout in a registered wait region (IORING_REG_WAIT_TS) */
MODE(io_uring_enter_reg_rel, K_URING_ENTER_REG, "reg_wait-rel", CLOCK_MONOTONIC,
	URING_WAIT_REG, REL, ETIME, true);
MODE(io_uring_enter_reg_abs, K_URING_ENTER_REG, "reg_wait-abs", CLOCK_MONOTONIC,
	URING_WAIT_REG | IORING_ENTER_ABS_TIMER, ABS, ETIME, true);
/* Nothing to cancel; exactly {-1, -1} means no timeout */
MODE(io_uring_sync_cancel, K_URING_SYNC_CANCEL, "rel", CLOCK_MONOTONIC, 0, REL, ENOENT, false);
/* Nothing submitted: no event ever comes */
MODE(io_getevents, K_IO_GETEVENTS, "rel", CLOCK_MONOTONIC, 0, REL, 0, true);
MODE(io_pgetevents, K_IO_PGETEVENTS, "rel", CLOCK_MONOTONIC, 0, REL, 0, true);

static void kick(int sig)
{
}

/*
 * Register one page at @region as the wait region of the ring @fd, which
 * was created disabled (a wait region can only be registered then), and
 * enable the ring: 0, or the errno of the step that failed.
 */
static int reg_wait_region(int fd, void *region)
{
	struct io_uring_region_desc rd = {
		.user_addr = (uintptr_t)region, .size = sysconf(_SC_PAGESIZE),
		.flags = IORING_MEM_REGION_TYPE_USER,
	};
	struct io_uring_mem_region_reg mr = {
		.region_uptr = (uintptr_t)&rd, .flags = IORING_MEM_REGION_REG_WAIT_ARG,
	};

	if (syscall(__NR_io_uring_register, fd, IORING_REGISTER_MEM_REGION, &mr, 1) ||
	    syscall(__NR_io_uring_register, fd, IORING_REGISTER_ENABLE_RINGS, NULL, 0))
		return errno;
	return 0;
}

/* The object of each kind; SKIP where the kernel lacks it or forbids it */
FIXTURE_SETUP(timeout)
{
	struct sigaction sa = { .sa_handler = kick };	/* no SA_RESTART */
	struct mq_attr attr = { .mq_maxmsg = 1, .mq_msgsize = 8 };
	struct sigevent sev = { .sigev_notify = SIGEV_NONE };
	struct io_uring_params p = {};
	char mq_name[32];
	int fds[2] = { -1, -1 }, ret = 0, err;
	sigset_t usr1;

	self->fd = -1;
	self->fd2 = -1;
	self->pi = syscall(__NR_gettid);
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	switch (variant->kind) {
	case K_CLOCK_NANOSLEEP:
		/* Without POSIX timers only three clocks exist */
		if (clock_getres(variant->clock, NULL) && errno == EINVAL)
			SKIP(return, "clock %d: not in this kernel", variant->clock);
		break;
	case K_TIMERFD:
		ret = timerfd_create(variant->clock, TFD_CLOEXEC);
		self->fd = ret;
		break;
	case K_TIMER:
		ret = syscall(__NR_timer_create, variant->clock, &sev, &self->timer);
		break;
	case K_EPOLL_PWAIT2:
		ret = epoll_create1(EPOLL_CLOEXEC);
		self->fd = ret;
		break;
	case K_MQ_SEND:
	case K_MQ_RECV:
		snprintf(mq_name, sizeof(mq_name), "timeout_classes.%d", getpid());
		ret = syscall(__NR_mq_open, mq_name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
		self->fd = ret;
		if (ret >= 0)
			syscall(__NR_mq_unlink, mq_name);
		if (ret >= 0 && variant->kind == K_MQ_SEND)
			ASSERT_EQ(0, syscall(__NR_mq_timedsend, self->fd, "x", 1, 0, NULL));
		break;
	case K_SEMTIMEDOP:
		/* A new semaphore is 0: taking one blocks */
		ret = syscall(__NR_semget, IPC_PRIVATE, 1, IPC_CREAT | 0600);
		self->fd = ret;
		break;
	case K_SIGTIMEDWAIT:
		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		ret = sigprocmask(SIG_BLOCK, &usr1, NULL);
		break;
	case K_RECVMMSG:
		ret = socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, fds);
		break;
	case K_URING_LINK:
	case K_URING_TIMEOUT:
	case K_URING_UPDATE:
	case K_URING_ENTER:
	case K_URING_ENTER_REG:
	case K_URING_SYNC_CANCEL:
		/* Each input gets a ring of its own: this only asks for one */
		if (variant->kind == K_URING_ENTER_REG)
			p.flags = IORING_SETUP_R_DISABLED;
		ret = syscall(__NR_io_uring_setup, 4, &p);
		if (ret < 0 && errno == EPERM)
			SKIP(return, "io_uring_setup: EPERM (kernel.io_uring_disabled)");
		if (ret >= 0 && variant->kind == K_URING_ENTER_REG) {
			void *region = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
					    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			ASSERT_TRUE(region != MAP_FAILED);
			err = reg_wait_region(ret, region);
			munmap(region, sysconf(_SC_PAGESIZE));
			close(ret);
			/* Unknown to the kernel: registration code or region flag */
			if (err == EINVAL)
				SKIP(return, "no registered wait regions in this kernel");
			ASSERT_EQ(0, err) TH_LOG("registering a wait region: %s", strerror(err));
		} else if (ret >= 0) {
			/*
			 * The flag alone, without a wait: 0, or -EINVAL where
			 * the kernel does not know it.
			 */
			bool abs_wait = variant->kind == K_URING_ENTER &&
					(variant->op & IORING_ENTER_ABS_TIMER);

			err = 0;
			if (abs_wait && syscall(__NR_io_uring_enter, ret, 0, 0,
						IORING_ENTER_ABS_TIMER, NULL, 0))
				err = errno;
			close(ret);
			if (err == EINVAL)
				SKIP(return, "IORING_ENTER_ABS_TIMER: not in this kernel");
		}
		/* The empty pipe that the linked read waits on */
		if (ret >= 0 && variant->kind == K_URING_LINK)
			ret = pipe2(fds, O_CLOEXEC);
		break;
	case K_IO_GETEVENTS:
	case K_IO_PGETEVENTS:
		ret = syscall(__NR_io_setup, 1, &self->aio);
		break;
	default:
		break;
	}
	err = errno;
	if (variant->kind == K_RECVMMSG || variant->kind == K_URING_LINK) {
		self->fd = fds[0];
		self->fd2 = fds[1];
	}
	if (ret < 0 && err == ENOSYS)
		SKIP(return, "%s: not in this kernel (ENOSYS)", variant->mode);
	ASSERT_LE(0, ret) TH_LOG("setting up %s: %s", variant->mode, strerror(err));
}

FIXTURE_TEARDOWN(timeout)
{
	if (self->fd >= 0 && variant->kind == K_SEMTIMEDOP)
		syscall(__NR_semctl, self->fd, 0, IPC_RMID, 0);
	else if (self->fd >= 0)
		close(self->fd);
	if (self->fd2 >= 0)
		close(self->fd2);
	if (self->aio)
		syscall(__NR_io_destroy, self->aio);
}

/* A plain io_uring; both rings through the SQ ring's offset (5.4+) */
enum { UD_TIMEOUT = 1, UD_READ, UD_LINK, UD_UPDATE, UD_NR, UD_NONE = 0x7e57 };

/*
 * What an entry point is given for its timeout: a timespec, an itimerspec
 * ([0] it_interval, [1] it_value), the cancel request of io_uring that
 * holds one, or the wait arguments that uring_call() writes into a
 * registered wait region, at the byte offset it passes to io_uring_enter().
 */
union arg {
	struct __kernel_timespec t64[2];
	struct __kernel_old_timespec t32[2];	/* 32-bit builds only */
	struct io_uring_sync_cancel_reg reg;
	struct {
		struct io_uring_reg_wait w;	/* w.ts first: arg_offset() 0 */
		unsigned long off;
	} rw;
};

static void put_ts(union arg *a, int i, enum tsabi abi, int64_t sec, int64_t nsec)
{
	if (abi == TS_32) {
		a->t32[i].tv_sec = (int32_t)sec;
		a->t32[i].tv_nsec = (int32_t)nsec;
	} else {
		a->t64[i].tv_sec = sec;
		a->t64[i].tv_nsec = nsec;
	}
}

/* The argument that carries the timeout {sec, nsec}, written into @a */
static void *fill(const FIXTURE_VARIANT(timeout) *v, const struct form *f, union arg *a,
		  int64_t sec, int64_t nsec)
{
	memset(a, 0, sizeof(*a));
	switch (v->kind) {
	case K_TIMERFD:
	case K_TIMER:
		/* In it_value, or in it_interval with it_value 1 s */
		put_ts(a, !v->interval, f->abi, sec, nsec);
		if (v->interval)
			put_ts(a, 1, f->abi, 1, 0);
		break;
	case K_URING_SYNC_CANCEL:
		a->reg.addr = UD_NONE;
		a->reg.fd = -1;
		a->reg.timeout.tv_sec = sec;
		a->reg.timeout.tv_nsec = nsec;
		break;
	case K_URING_ENTER_REG:
		a->rw.w.ts.tv_sec = sec;
		a->rw.w.ts.tv_nsec = nsec;
		a->rw.w.flags = IORING_REG_WAIT_TS;
		break;
	default:
		put_ts(a, 0, f->abi, sec, nsec);
	}
	return a;
}

static size_t ts_size(const struct form *f)
{
	return f->abi == TS_32 ? sizeof(struct __kernel_old_timespec) :
				 sizeof(struct __kernel_timespec);
}

/* Where in that argument the timespec under test starts */
static size_t arg_offset(const FIXTURE_VARIANT(timeout) *v, const struct form *f)
{
	if (v->kind == K_URING_SYNC_CANCEL)
		return offsetof(struct io_uring_sync_cancel_reg, timeout);
	if ((v->kind == K_TIMERFD || v->kind == K_TIMER) && !v->interval)
		return ts_size(f);	/* it_value */
	return 0;
}

struct ring {
	int fd, inflight;
	struct io_uring_params p;
	char *rings;
	size_t len;
	struct io_uring_sqe *sqes;
	bool seen[UD_NR];
	int res[UD_NR];	/* by user_data */
};

static unsigned int *ring_u32(const struct ring *r, __u32 off)
{
	return (unsigned int *)(r->rings + off);
}

static int ring_open(struct ring *r, unsigned int setup_flags)
{
	const int prot = PROT_READ | PROT_WRITE, flags = MAP_SHARED | MAP_POPULATE;
	size_t sq_len;
	void *m;

	memset(r, 0, sizeof(*r));
	r->p.flags = setup_flags;
	r->fd = syscall(__NR_io_uring_setup, 4, &r->p);
	if (r->fd < 0)
		return errno;
	r->len = r->p.cq_off.cqes + r->p.cq_entries * sizeof(struct io_uring_cqe);
	sq_len = r->p.sq_off.array + r->p.sq_entries * sizeof(unsigned int);
	if (r->len < sq_len)
		r->len = sq_len;
	m = mmap(NULL, r->len, prot, flags, r->fd, IORING_OFF_SQ_RING);
	r->rings = m == MAP_FAILED ? NULL : m;
	m = mmap(NULL, r->p.sq_entries * sizeof(*r->sqes), prot, flags, r->fd, IORING_OFF_SQES);
	r->sqes = m == MAP_FAILED ? NULL : m;
	return r->rings && r->sqes ? 0 : errno;
}

static void ring_close(struct ring *r)
{
	if (r->sqes)
		munmap(r->sqes, r->p.sq_entries * sizeof(*r->sqes));
	if (r->rings)
		munmap(r->rings, r->len);
	if (r->fd >= 0)
		close(r->fd);
}

static int ring_submit(struct ring *r, const struct io_uring_sqe *sqe, int n)
{
	unsigned int tail = *ring_u32(r, r->p.sq_off.tail);
	unsigned int mask = *ring_u32(r, r->p.sq_off.ring_mask);
	long ret;
	int i;

	for (i = 0; i < n; i++, tail++) {
		r->sqes[tail & mask] = sqe[i];
		ring_u32(r, r->p.sq_off.array)[tail & mask] = tail & mask;
	}
	__atomic_store_n(ring_u32(r, r->p.sq_off.tail), tail, __ATOMIC_RELEASE);
	ret = syscall(__NR_io_uring_enter, r->fd, n, 0, 0, NULL, 0);
	if (ret < 0)
		return errno;
	r->inflight += ret;
	return ret == n ? 0 : EIO;
}

/* Take the completions there are; with @wait, until none is in flight */
static int ring_reap(struct ring *r, bool wait)
{
	struct io_uring_cqe *cqes = (void *)ring_u32(r, r->p.cq_off.cqes);
	unsigned int mask = *ring_u32(r, r->p.cq_off.ring_mask);

	for (;;) {
		unsigned int head = *ring_u32(r, r->p.cq_off.head);
		unsigned int tail = __atomic_load_n(ring_u32(r, r->p.cq_off.tail),
						    __ATOMIC_ACQUIRE);

		for (; head != tail; head++, r->inflight--) {
			struct io_uring_cqe *cqe = &cqes[head & mask];

			if (cqe->user_data < UD_NR) {
				r->seen[cqe->user_data] = true;
				r->res[cqe->user_data] = cqe->res;
			}
		}
		__atomic_store_n(ring_u32(r, r->p.cq_off.head), head, __ATOMIC_RELEASE);
		if (!wait || r->inflight <= 0)
			return 0;
		/* The kick interrupts the wait: wait again */
		if (syscall(__NR_io_uring_enter, r->fd, 0, 1, IORING_ENTER_GETEVENTS, NULL, 0) &&
		    errno != EINTR)
			return errno;
	}
}

/*
 * A wait with its arguments in a registered wait region of one page, on a
 * ring created disabled: the arguments go to @ra->off, which is a byte
 * offset into the region.
 */
static int reg_wait_call(struct ring *r, const FIXTURE_VARIANT(timeout) *v,
			 const struct form *f, const union arg *ra)
{
	const size_t page = sysconf(_SC_PAGESIZE);
	char *region;
	int err;

	region = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED)
		return errno;
	err = reg_wait_region(r->fd, region);
	if (!err) {
		memcpy(region, &ra->rw.w, sizeof(ra->rw.w));
		if (syscall(f->nr, r->fd, 0, 1, v->op, (void *)ra->rw.off, sizeof(ra->rw.w)))
			err = errno;
	}
	munmap(region, page);
	return err;
}

/* One io_uring request or wait on a new ring: 0, or the answer's errno */
static int uring_call(FIXTURE_DATA(timeout) *self, const FIXTURE_VARIANT(timeout) *v,
		      const struct form *f, void *ts)
{
	struct io_uring_getevents_arg arg = { .ts = (uintptr_t)ts };
	struct io_uring_sqe sqe[2] = {};
	int err, ud = 0, n;
	struct ring r;
	char byte;

	err = ring_open(&r, v->kind == K_URING_ENTER_REG ? IORING_SETUP_R_DISABLED : 0);
	if (err)
		goto out;
	switch (v->kind) {
	case K_URING_TIMEOUT:
		/* Refused at once, fired at once, or armed: closing cancels it */
		sqe[0] = (struct io_uring_sqe){ .opcode = IORING_OP_TIMEOUT, .fd = -1,
			.addr = (uintptr_t)ts, .len = 1, .timeout_flags = v->op,
			.user_data = UD_TIMEOUT };
		err = ring_submit(&r, sqe, 1) ?: ring_reap(&r, false);
		if (!err && r.seen[UD_TIMEOUT])
			err = -r.res[UD_TIMEOUT];
		goto out;
	case K_URING_LINK:
		/* A refused link timeout fails the read too; else a byte ends it */
		sqe[0] = (struct io_uring_sqe){ .opcode = IORING_OP_READ, .flags = IOSQE_IO_LINK,
			.fd = self->fd, .off = -1, .addr = (uintptr_t)&byte, .len = 1,
			.user_data = UD_READ };
		sqe[1] = (struct io_uring_sqe){ .opcode = IORING_OP_LINK_TIMEOUT, .fd = -1,
			.addr = (uintptr_t)ts, .len = 1, .timeout_flags = v->op,
			.user_data = UD_LINK };
		ud = UD_LINK;
		err = ring_submit(&r, sqe, 2) ?: ring_reap(&r, false);
		if (!err && !r.seen[UD_READ] && write(self->fd2, "x", 1) != 1)
			err = errno;
		break;
	case K_URING_UPDATE:
		sqe[0] = (struct io_uring_sqe){ .opcode = IORING_OP_TIMEOUT_REMOVE, .fd = -1,
			.addr = UD_NONE, .addr2 = (uintptr_t)ts, .timeout_flags = v->op,
			.user_data = UD_UPDATE };
		ud = UD_UPDATE;
		err = ring_submit(&r, sqe, 1);
		break;
	case K_URING_ENTER:
		if (syscall(f->nr, r.fd, 0, 1, v->op, &arg, sizeof(arg)))
			err = errno;
		break;
	case K_URING_ENTER_REG:
		err = reg_wait_call(&r, v, f, ts);
		break;
	default:
		if (syscall(f->nr, r.fd, IORING_REGISTER_SYNC_CANCEL, ts, 1))
			err = errno;
		break;
	}
	if (!err)
		err = ring_reap(&r, true);
	if (!err && ud)
		err = r.seen[ud] ? -r.res[ud] : EIO;
	/* A link timeout that fires while the read completes fails to cancel it */
	if (ud == UD_LINK && (err == ENOENT || err == EALREADY))
		err = ETIME;
	/* The byte a cancelled read left behind */
	if (v->kind == K_URING_LINK && !ioctl(self->fd, FIONREAD, &n) && n > 0)
		n = read(self->fd, &byte, 1);
out:
	ring_close(&r);
	return err == ECANCELED ? 0 : err;
}

/* One call given @ts (see fill()): 0 or its errno */
static int call(FIXTURE_DATA(timeout) *self, const FIXTURE_VARIANT(timeout) *v,
		const struct form *f, void *ts)
{
	unsigned long usr1[SIGSET_SIZE / sizeof(long)] = {};
	struct futex_waitv w = { .val = 1, .uaddr = (uintptr_t)&self->word,
				 .flags = FUTEX_32 | FUTEX_PRIVATE_FLAG };
	struct sembuf sop = { .sem_num = 0, .sem_op = -1 };
	char buf[8];
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct mmsghdr mmsg = { .msg_hdr = { .msg_iov = &iov, .msg_iovlen = 1 } };
	union arg off = {};
	struct epoll_event ev;
	struct io_event aio_ev;
	long ret = 0, id;

	usr1[(SIGUSR1 - 1) / (8 * sizeof(long))] = 1UL << ((SIGUSR1 - 1) % (8 * sizeof(long)));

	switch (v->kind) {
	case K_NANOSLEEP:
		ret = syscall(f->nr, ts, NULL);
		break;
	case K_CLOCK_NANOSLEEP:
		ret = syscall(f->nr, v->clock, v->op, ts, NULL);
		break;
	case K_FUTEX:
		switch (v->op & FUTEX_CMD_MASK) {
		case FUTEX_LOCK_PI:
		case FUTEX_LOCK_PI2:
			ret = syscall(f->nr, &self->pi, v->op, 0, ts, NULL, 0);
			break;
		case FUTEX_WAIT_REQUEUE_PI:
			ret = syscall(f->nr, &self->word, v->op, 1, ts, &self->word2, 0);
			break;
		default:
			ret = syscall(f->nr, &self->word, v->op, 1, ts, NULL,
				      FUTEX_BITSET_MATCH_ANY);
		}
		break;
	case K_FUTEX_WAITV:
		ret = syscall(f->nr, &w, 1, 0, ts, v->clock);
		break;
	case K_FUTEX_WAIT:
		ret = syscall(f->nr, &self->word, 1UL, (unsigned long)FUTEX_BITSET_MATCH_ANY,
			      FUTEX2_SIZE_U32 | FUTEX2_PRIVATE, ts, v->clock);
		break;
	case K_TIMERFD:
	case K_TIMER:
		id = v->kind == K_TIMER ? self->timer : self->fd;
		ret = syscall(f->nr, id, v->op, ts, NULL);
		if (!ret)	/* disarm */
			syscall(f->nr, id, 0, &off, NULL);
		break;
	case K_PPOLL:
		ret = syscall(f->nr, NULL, 0, ts, NULL, SIGSET_SIZE);
		break;
	case K_PSELECT6:
		ret = syscall(f->nr, 0, NULL, NULL, NULL, ts, NULL);
		break;
	case K_EPOLL_PWAIT2:
		ret = syscall(f->nr, self->fd, &ev, 1, ts, NULL, SIGSET_SIZE);
		break;
	case K_MQ_SEND:
		ret = syscall(f->nr, self->fd, "x", 1, 0, ts);
		break;
	case K_MQ_RECV:
		ret = syscall(f->nr, self->fd, buf, sizeof(buf), NULL, ts);
		break;
	case K_SEMTIMEDOP:
#ifdef __NR_ipc
		if (f->nr == __NR_ipc) {
			ret = syscall(f->nr, SEMTIMEDOP, self->fd, 1, 0, &sop, ts);
			break;
		}
#endif
		ret = syscall(f->nr, self->fd, &sop, 1, ts);
		break;
	case K_SIGTIMEDWAIT:
		ret = syscall(f->nr, usr1, NULL, ts, SIGSET_SIZE);
		break;
	case K_RECVMMSG:
		ret = syscall(f->nr, self->fd, &mmsg, 1, v->op, ts);
		break;
	case K_IO_GETEVENTS:
	case K_IO_PGETEVENTS:
		/* io_getevents() has no sixth argument, io_pgetevents() no sigmask */
		ret = syscall(f->nr, self->aio, 1L, 1L, &aio_ev, ts, NULL);
		break;
	default:
		return uring_call(self, v, f, ts);
	}
	return ret < 0 ? errno : 0;
}

/* A periodic signal while a call runs: a blocking call ends with EINTR */
static int kicked_call(FIXTURE_DATA(timeout) *self, const FIXTURE_VARIANT(timeout) *v,
		       const struct form *f, void *ts)
{
	static const struct itimerval on = { { 0, 1000 }, { 0, 1000 } }, off;
	int err;

	setitimer(ITIMER_REAL, &on, NULL);
	err = call(self, v, f, ts);
	setitimer(ITIMER_REAL, &off, NULL);
	return err;
}

static const char *errname(int err)
{
	static const char *const names[] = {
		[EPERM] = "EPERM", [ENOENT] = "ENOENT", [EINTR] = "EINTR", [EIO] = "EIO",
		[EAGAIN] = "EAGAIN", [EFAULT] = "EFAULT", [EINVAL] = "EINVAL",
		[EDEADLK] = "EDEADLK", [ENOSYS] = "ENOSYS", [ETIME] = "ETIME",
		[ETIMEDOUT] = "ETIMEDOUT", [ECANCELED] = "ECANCELED",
	};
	static char buf[16];

	if (!err)
		return "0";
	if (err > 0 && err < (int)ARRAY_SIZE(names) && names[err])
		return names[err];
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

/*
 * The class of the values the kernel reads, as <linux/time64.h> defines
 * it, or as the io_uring ABI does
 */
static const char *classify(const FIXTURE_VARIANT(timeout) *v, int64_t sec, int64_t nsec)
{
	const bool carries = v->kind == K_URING_TIMEOUT || v->kind == K_URING_LINK ||
			     v->kind == K_URING_UPDATE;

	if (v->kind == K_URING_SYNC_CANCEL && sec == -1 && nsec == -1)
		return "none";
	if (v->kind == K_URING_ENTER && (sec < 0 || nsec < 0 || nsec >= NSEC_PER_SEC))
		return "summed";
	if (carries && sec >= 0 && nsec >= NSEC_PER_SEC)
		return "carried";
	if (nsec < 0 || nsec >= NSEC_PER_SEC)
		return "invalid";
	if (sec < 0)
		return v->abs ? "expired" : "invalid";
	return v->abs ? "valid-absolute" : "valid-relative";
}

/* TIMEOUT_CLASSES_RANDOM and TIMEOUT_CLASSES_SEED, read once */
static unsigned long n_random;
static unsigned long long seed;
/*
 * A 32-bit kernel stores tv_nsec in a 32-bit long.  Told from uname(), which
 * a linux32 personality fools: then only the logged kernel_nsec is wrong,
 * not the class, which the low 32 bits decide either way.
 */
static bool kernel32;

static unsigned long long env_number(const char *name, unsigned long long dflt,
				     unsigned long long max)
{
	const char *s = getenv(name);
	unsigned long long n;
	char *end;

	if (!s)
		return dflt;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || !isdigit((unsigned char)*s) || *end || n > max)
		ksft_exit_fail_msg("%s=%s: not a decimal number up to %llu\n", name, s, max);
	return n;
}

static void __attribute__((constructor)) read_env(void)
{
	struct utsname u;

	n_random = env_number("TIMEOUT_CLASSES_RANDOM", 0, 1000000);
	seed = env_number("TIMEOUT_CLASSES_SEED", time(NULL), ULLONG_MAX);
	kernel32 = sizeof(long) == 4 && !uname(&u) && !strstr(u.machine, "64");
}

/* splitmix64: from the same state, the same numbers on every ABI */
static uint64_t next_rand(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * A random value of a field, biased to its boundaries: one of the table's
 * values, one next to one (wrapping at the limits of int64_t), a value in
 * [0, span), or random bits of random width and either sign; each a
 * quarter of the time.
 */
static int64_t rand_field(uint64_t *state, const struct val *table, unsigned int n,
			  uint64_t span)
{
	uint64_t r = next_rand(state), x = next_rand(state);

	switch (r & 3) {
	case 0:
		return table[(r >> 2) % n].v;
	case 1:
		return (int64_t)((uint64_t)table[(r >> 2) % n].v + (x & 1 ? 1 : -1));
	case 2:
		return x % span;
	default:
		return (int64_t)x >> ((r >> 2) % 64);
	}
}

/*
 * A test's own sequence, from the seed and the test's name (FNV-1a): its
 * inputs do not depend on which tests ran before it.  Each ABI and entry
 * point has its own, so two kernels are compared input by input through
 * the same binary.
 */
static uint64_t rand_state(const char *name)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*name)
		h = (h ^ (unsigned char)*name++) * 0x100000001b3ULL;
	return seed ^ h;
}

/* The inputs tried and not answered as the contract says, of one test */
struct tally {
	unsigned int tried, wrong;
};

/*
 * Try one input if its class is of the test's group (refused: invalid or
 * expired), log it, and count it in t->wrong if answered otherwise
 */
static void try_input(FIXTURE_DATA(timeout) *self, const FIXTURE_VARIANT(timeout) *v,
		      const struct form *f, int64_t sec, int64_t nsec, const char *name,
		      bool refused, struct tally *t)
{
	int64_t ksec = sec, knsec = nsec;
	const char *cls, *exp, *got;
	union arg a;
	int err;

	/* What the kernel reads, and so the class it must answer for */
	if (f->abi == TS_32)
		ksec = (int32_t)sec;
	if (f->abi == TS_32 || kernel32)
		knsec = (int32_t)nsec;
	else if (f->abi == TS_64C)
		knsec = (uint32_t)nsec;
	cls = classify(v, ksec, knsec);
	if ((!strcmp(cls, "invalid") || !strcmp(cls, "expired")) != refused)
		return;
	exp = refused ? "EINVAL" : "proceeds";
	t->tried++;

	err = kicked_call(self, v, f, fill(v, f, &a, sec, nsec));
	if (err == EINVAL)
		got = "EINVAL";
	else if (err == v->normal || (v->sleeps && (!err || err == EINTR)))
		got = "proceeds";
	else
		got = errname(err);
	fprintf(TH_LOG_STREAM,
		"# %s: kernel_sec=%lld kernel_nsec=%lld class=%s expected=%s got=%s\n",
		name, (long long)ksec, (long long)knsec, cls, exp, got);
	t->wrong += !!strcmp(exp, got);
}

static void run(struct __test_metadata *_metadata, FIXTURE_DATA(timeout) *self,
		const FIXTURE_VARIANT(timeout) *v, const struct form *f, bool refused)
{
	const unsigned int n_nsecs = ARRAY_SIZE(nsecs), n = ARRAY_SIZE(secs) * n_nsecs;
	struct tally t = { 0, 0 };
	unsigned int i;
	unsigned long j;
	int64_t sec, nsec;
	uint64_t state;
	char name[160];
	union arg a;

	if (!f->name)
		SKIP(return, "%s: no entry point of this kind on " ABI_NAME, v->mode);
	if (kicked_call(self, v, f, fill(v, f, &a, 0, 0)) == ENOSYS)
		SKIP(return, "%s: not in this kernel (ENOSYS)", f->name);

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s %s %s sec=%s nsec=%s", ABI_NAME, f->name,
			 v->mode, secs[i / n_nsecs].name, nsecs[i % n_nsecs].name);
		try_input(self, v, f, secs[i / n_nsecs].v, nsecs[i % n_nsecs].v, name,
			  refused, &t);
	}
	snprintf(name, sizeof(name), "%s %s %s", ABI_NAME, f->name, v->mode);
	state = rand_state(name);
	for (j = 0; j < n_random; j++) {
		sec = rand_field(&state, secs, ARRAY_SIZE(secs), 1ULL << 32);
		nsec = rand_field(&state, nsecs, n_nsecs, NSEC_PER_SEC);
		snprintf(name, sizeof(name), "%s %s %s sec=%lld nsec=%lld rand=%llu/%lu", ABI_NAME,
			 f->name, v->mode, (long long)sec, (long long)nsec, seed, j);
		try_input(self, v, f, sec, nsec, name, refused, &t);
	}
	/* io_uring_enter()'s summed wait timeout has no class it refuses */
	if (!t.tried)
		SKIP(return, "%s: no timeout of this mode is %s (ABI)", v->mode,
		     refused ? "refused" : "accepted");
	/* The closing line: every input of the group was tried */
	fprintf(TH_LOG_STREAM, "# %s %s %s: %u inputs, %u not answered as the contract says\n",
		ABI_NAME, f->name, v->mode, t.tried, t.wrong);
	EXPECT_EQ(0, t.wrong);
}

/*
 * A timeout the kernel cannot read: at an address in page zero, which
 * nothing maps unless the process asks (the MMAP_PAGE_ZERO personality;
 * then that input is left out), or a timespec straddling the end of a
 * readable page (its first half readable, the rest not).  Every entry
 * point answers EFAULT before it waits or looks at anything else; the
 * io_uring requests answer in their completion, and io_uring_enter()
 * reads its timeout before it looks at the ring.  A registered wait
 * region is not read through a pointer: its inputs are byte offsets the
 * region cannot serve (reg_bad_offsets()).
 * NULL is tried only where it does not mean "no timeout" (NO_TIMEOUT
 * here): most answer EFAULT, timer_settime() and
 * IORING_REGISTER_SYNC_CANCEL EINVAL.
 */
#define NO_TIMEOUT	0
#define UNMAPPED	((void *)0x800)

static const struct {
	int fault;	/* unmapped and straddling */
	int null;
} bad_answers[K_NR] = {
	[K_NANOSLEEP]		= { EFAULT, EFAULT },
	[K_CLOCK_NANOSLEEP]	= { EFAULT, EFAULT },
	[K_FUTEX]		= { EFAULT, NO_TIMEOUT },
	[K_FUTEX_WAITV]		= { EFAULT, NO_TIMEOUT },
	[K_FUTEX_WAIT]		= { EFAULT, NO_TIMEOUT },
	[K_TIMERFD]		= { EFAULT, EFAULT },
	[K_TIMER]		= { EFAULT, EINVAL },
	[K_PPOLL]		= { EFAULT, NO_TIMEOUT },
	[K_PSELECT6]		= { EFAULT, NO_TIMEOUT },
	[K_EPOLL_PWAIT2]	= { EFAULT, NO_TIMEOUT },
	[K_MQ_SEND]		= { EFAULT, NO_TIMEOUT },
	[K_MQ_RECV]		= { EFAULT, NO_TIMEOUT },
	[K_SEMTIMEDOP]		= { EFAULT, NO_TIMEOUT },
	[K_SIGTIMEDWAIT]	= { EFAULT, NO_TIMEOUT },
	[K_RECVMMSG]		= { EFAULT, NO_TIMEOUT },
	[K_URING_TIMEOUT]	= { EFAULT, EFAULT },
	[K_URING_LINK]		= { EFAULT, EFAULT },
	[K_URING_UPDATE]	= { EFAULT, EFAULT },
	[K_URING_ENTER]		= { EFAULT, NO_TIMEOUT },
	[K_URING_ENTER_REG]	= { EFAULT, NO_TIMEOUT },
	[K_URING_SYNC_CANCEL]	= { EFAULT, EINVAL },
	[K_IO_GETEVENTS]	= { EFAULT, NO_TIMEOUT },
	[K_IO_PGETEVENTS]	= { EFAULT, NO_TIMEOUT },
};

struct bad_ptr {
	const char *name, *cls;
	void *ptr;
	int exp;
};

/*
 * The wait arguments at an offset a one-page wait region cannot serve:
 * past its end, straddling its end, and not aligned to a long.
 */
static unsigned int reg_bad_offsets(FIXTURE_DATA(timeout) *self,
				    const FIXTURE_VARIANT(timeout) *v, const struct form *f)
{
	const size_t page = sysconf(_SC_PAGESIZE);
	const struct {
		const char *name;
		unsigned long off;
	} offs[] = {
		{ "past_end", page },
		{ "straddling", page - sizeof(uint64_t) },
		{ "misaligned", sizeof(uint32_t) },
	};
	unsigned int i, wrong = 0;
	union arg a;
	int err;

	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		fill(v, f, &a, 0, 0);
		a.rw.off = offs[i].off;
		err = kicked_call(self, v, f, &a);
		wrong += err != bad_answers[v->kind].fault;
		fprintf(TH_LOG_STREAM, "# %s %s %s ptr=%s: class=unreadable expected=%s got=%s\n",
			ABI_NAME, f->name, v->mode, offs[i].name,
			errname(bad_answers[v->kind].fault), errname(err));
	}
	fprintf(TH_LOG_STREAM, "# %s %s %s: %zu inputs, %u not answered as the contract says\n",
		ABI_NAME, f->name, v->mode, ARRAY_SIZE(offs), wrong);
	return wrong;
}

static void bad_pointers(struct __test_metadata *_metadata, FIXTURE_DATA(timeout) *self,
			 const FIXTURE_VARIANT(timeout) *v, const struct form *f)
{
	const size_t page = sysconf(_SC_PAGESIZE), off = arg_offset(v, f) + ts_size(f) / 2;
	struct bad_ptr ptrs[3];
	unsigned int i, n = 0, wrong = 0;
	char *map, *straddling;
	unsigned char vec;
	union arg a;
	int err;

	if (!f->name)
		SKIP(return, "%s: no entry point of this kind on " ABI_NAME, v->mode);
	if (kicked_call(self, v, f, fill(v, f, &a, 0, 0)) == ENOSYS)
		SKIP(return, "%s: not in this kernel (ENOSYS)", f->name);
	ASSERT_NE(0, bad_answers[v->kind].fault) TH_LOG("%s: no row in bad_answers[]", f->name);
	if (v->kind == K_URING_ENTER_REG) {
		EXPECT_EQ(0, reg_bad_offsets(self, v, f));
		return;
	}
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_TRUE(map != MAP_FAILED);
	ASSERT_EQ(0, mprotect(map + page, page, PROT_NONE));
	/* The readable part holds the start of a valid timeout */
	straddling = map + page - off;
	memcpy(straddling, fill(v, f, &a, 0, 0), off);

	if (mincore(NULL, page, &vec) && errno == ENOMEM)
		ptrs[n++] = (struct bad_ptr){ "unmapped", "unreadable", UNMAPPED,
					      bad_answers[v->kind].fault };
	else
		fprintf(TH_LOG_STREAM, "# %s %s %s: page zero is mapped: no unmapped input\n",
			ABI_NAME, f->name, v->mode);
	ptrs[n++] = (struct bad_ptr){ "straddling", "unreadable", straddling,
				      bad_answers[v->kind].fault };
	if (bad_answers[v->kind].null != NO_TIMEOUT)
		ptrs[n++] = (struct bad_ptr){ "NULL", "null", NULL, bad_answers[v->kind].null };
	for (i = 0; i < n; i++) {
		err = kicked_call(self, v, f, ptrs[i].ptr);
		wrong += err != ptrs[i].exp;
		/* The expected answer has a name: errname()'s buffer is err's */
		fprintf(TH_LOG_STREAM, "# %s %s %s ptr=%s: class=%s expected=%s got=%s\n",
			ABI_NAME, f->name, v->mode, ptrs[i].name, ptrs[i].cls,
			errname(ptrs[i].exp), errname(err));
	}
	munmap(map, 2 * page);
	fprintf(TH_LOG_STREAM, "# %s %s %s: %u inputs, %u not answered as the contract says\n",
		ABI_NAME, f->name, v->mode, n, wrong);
	EXPECT_EQ(0, wrong);
}

TEST_F(timeout, time64_accepted)
{
	run(_metadata, self, variant, &forms[variant->kind][0], false);
}

TEST_F(timeout, time64_refused)
{
	run(_metadata, self, variant, &forms[variant->kind][0], true);
}

TEST_F(timeout, time64_bad_pointers)
{
	bad_pointers(_metadata, self, variant, &forms[variant->kind][0]);
}

#if __SIZEOF_LONG__ == 4
TEST_F(timeout, time32_accepted)
{
	run(_metadata, self, variant, &forms[variant->kind][1], false);
}

TEST_F(timeout, time32_refused)
{
	run(_metadata, self, variant, &forms[variant->kind][1], true);
}

TEST_F(timeout, time32_bad_pointers)
{
	bad_pointers(_metadata, self, variant, &forms[variant->kind][1]);
}
#endif

TEST_HARNESS_MAIN
