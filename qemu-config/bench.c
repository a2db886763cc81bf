// SPDX-License-Identifier: GPL-2.0
/*
 * bench - cost per call of the timeout entry points the series touches, in
 * the guest, in instructions.
 *
 * Usage: bench [window_ns] [repeats]   (defaults: 4000000 ns, 3 repeats)
 *
 * Built twice (qemu-config/initramfs.mk): native (bench, x86_64) and -m32
 * (bench_32, i386 under the x86_64 kernel's compat syscalls), so that both
 * ABIs are measured: the i386 build calls each entry point through its
 * time64 syscall and, where one exists, its time32 syscall.  Every entry
 * is named "<abi>:<syscall>[-<mode>]", the ABI first.
 *
 * For every entry point, two paths are measured:
 *  - refuse: the input the entry refuses (tv_nsec = -1 or tv_usec = -1;
 *    for the io_uring SQE timeouts of 6.12's series tv_nsec =
 *    NSEC_PER_SEC, since 6.12 refuses a negative one already), answered
 *    EINVAL (ERANGE for vsock);
 *  - quick: a valid input that returns at once (a mismatching futex
 *    value, an absolute time in the past, a disarmed timer, nothing to
 *    wait for, an io_uring timeout armed and removed at once).
 * The series differs per kernel (docs/mainline.md).  A tree whose uapi
 * has registered wait regions (the macro IORING_ENTER_EXT_ARG_REG; 7.3;
 * IORING_REG_WAIT_TS is an enum constant, which #ifdef cannot see)
 * carries the
 * series that keeps io_uring's old answers where public callers rely on
 * them: a timeout request's tv_nsec of a second or more is carried, and
 * io_uring_enter()'s wait takes any signed sum, a negative one ending the
 * wait at once.  There the SQE timeouts' refuse path is tv_sec = -1,
 * which every kernel refuses (in both ABIs: the compat entry
 * zero-extends a tv_nsec of -1), io_uring_enter()'s wait has no refuse path
 * (only its quick one is measured), and the wait timeout of a registered
 * wait region is one more entry of the fixes part.
 * Each path is called in a loop for "repeats" windows of "window_ns" of
 * the guest clock, after a quarter window unmeasured.  A window is the
 * least of 4 sub-windows (window_ns / 4 each): the periodic tick (HZ=250:
 * every 4 ms), and any background work, falls into at most some of them
 * and only ever adds instructions, so the least is the cost of the calls
 * alone, and the same window length for every path keeps the boot short
 * (the expensive io_uring paths make fewer calls, not longer loops).
 * The entries of the fixes part (io_uring, aio, vsock, PPS) are the ones
 * 6.12 does not refuse: there, the refuse path is tried once (bounded
 * by a 20 ms timer: 6.12's io_getevents() waits forever on {0, -1}), and
 * if the kernel answers anything but the refusal, the bench prints
 *   # bench <entry> refuse not refused: <answer or "blocked">
 * and does not count it (the host, scripts/bench-report.py, accepts that
 * on base only).  Any other wrong answer prints
 *   # bench <entry> <path> wrong answer: <answer> (expected <answer>)
 * and fails its test.
 *
 * QEMU runs the guest with -icount shift=0,sleep=off (scripts/bench.sh):
 * its clock advances one nanosecond per instruction executed, so the
 * CLOCK_MONOTONIC difference over a loop, divided by the calls, is the
 * instructions per call, the loop's own included (the same on every
 * kernel).  A relative sleep of {0, 0} still arms a timer and waits for
 * its slack, which under -icount is virtual time and counts as such:
 * those quick paths (nanosleep, clock_nanosleep-rel) are not instruction
 * counts.  Prints KTAP, with one diagnostic line per entry point and path:
 *   # bench <entry> <path> insn/call: <r1> <r2> ... <rN>
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
/* The tree's uapi (initramfs.mk: -isystem of its headers_install). */
#include <linux/aio_abi.h>
#include <linux/futex.h>
#include <linux/io_uring.h>
#include <linux/pps.h>
#include <linux/vm_sockets.h>

#include "kselftest.h"

#if defined(__x86_64__)
#define ABI	"x86_64"
#elif defined(__i386__)
#define ABI	"i386"
#else
#error "bench: x86_64 or i386 only"
#endif

#ifndef __NR_futex_waitv
#define __NR_futex_waitv	449
#endif
#ifndef __NR_futex_wait
#define __NR_futex_wait		455
#endif
#define NSEC_PER_SEC		1000000000LL
/* The kernel's sigset_t, in both ABIs */
#define SIGSET_SIZE		8
/* An io_uring user_data no request has */
#define UD_NONE			0x7e57

/* How the entry point reads its timeout */
enum form {
	T64,	/* __kernel_timespec {s64, s64} (time64, or native) */
	T32,	/* old_timespec32 {s32, s32} (time32) */
	TV,	/* the timeval of this ABI {long, long}; nsec is tv_usec */
};

enum kind {
	K_NANOSLEEP, K_CN_REL, K_CN_ABS, K_FUTEX_REL, K_FUTEX_ABS, K_WAITV, K_FWAIT,
	K_TIMERFD, K_TIMER, K_PPOLL, K_PSELECT, K_EPOLL2, K_SIGTIMEDWAIT, K_SETITIMER,
	K_URING_ENTER, K_URING_TIMEOUT, K_URING_LINK, K_URING_UPDATE, K_URING_CANCEL,
	K_URING_REG_WAIT,
	K_IO_GETEVENTS, K_IO_PGETEVENTS, K_VSOCK, K_PPS,
};

struct input {
	int64_t sec, nsec;
};

struct entry {
	const char *name;	/* without the ABI */
	enum kind kind;
	long nr;
	enum form form;
	int quick_err;		/* what the quick path answers: 0 or an errno */
	int refuse_err;		/* what the refuse path answers; NO_REFUSE: none */
	struct input refuse;
	struct input quick;
	int fixed;		/* 6.12 does not refuse it: the fixes part does */
};

/* An entry with no input it refuses: only its quick path is measured */
#define NO_REFUSE	(-2)

#define NEG	{ 0, -1 }
#define NEG_SEC	{ -1, 0 }
#define ZERO	{ 0, 0 }
#define ONE_S	{ 1, 0 }
#define NSEC1S	{ 0, NSEC_PER_SEC }
#define E(n, k, nr_, f, q) \
	{ .name = n, .kind = k, .nr = nr_, .form = f, .quick_err = q, \
	  .refuse_err = EINVAL, .refuse = NEG, .quick = ZERO }
/*
 * An entry every kernel refuses {-1, 0} of, with its own quick input: a
 * negative tv_sec, since the compat entry zero-extends tv_nsec (-1 is
 * read as 4294967295 ns and carried)
 */
#define E_Q(n, k, nr_, q, qi) \
	{ .name = n, .kind = k, .nr = nr_, .form = T64, .quick_err = q, \
	  .refuse_err = EINVAL, .refuse = NEG_SEC, .quick = qi }
/* An entry of the fixes part: its refusal, refused input and quick input */
#define F(n, k, nr_, f, q, rerr, r, qi) \
	{ .name = n, .kind = k, .nr = nr_, .form = f, .quick_err = q, \
	  .refuse_err = rerr, .refuse = r, .quick = qi, .fixed = 1 }

/*
 * io_uring's timeouts: 7.3's series keeps the SQE timeouts' carry and the
 * wait's signed sum (see the head comment), and adds the registered wait
 * region; 6.12's refuses both.
 */
#ifdef IORING_ENTER_EXT_ARG_REG
#define URING_ENTRIES \
	{ .name = "io_uring_enter-ext_arg", .kind = K_URING_ENTER, \
	  .nr = __NR_io_uring_enter, .form = T64, .quick_err = ETIME, \
	  .refuse_err = NO_REFUSE, .quick = ZERO }, \
	F("io_uring_enter-reg_wait", K_URING_REG_WAIT, __NR_io_uring_enter, T64, ETIME, \
	  EINVAL, NEG, ZERO), \
	E_Q("io_uring-timeout", K_URING_TIMEOUT, __NR_io_uring_enter, 0, ONE_S), \
	E_Q("io_uring-link_timeout", K_URING_LINK, __NR_io_uring_enter, 0, ONE_S), \
	E_Q("io_uring-timeout_update", K_URING_UPDATE, __NR_io_uring_enter, ENOENT, ONE_S)
#else
#define URING_ENTRIES \
	F("io_uring_enter-ext_arg", K_URING_ENTER, __NR_io_uring_enter, T64, ETIME, \
	  EINVAL, NEG, ZERO), \
	F("io_uring-timeout", K_URING_TIMEOUT, __NR_io_uring_enter, T64, 0, \
	  EINVAL, NSEC1S, ONE_S), \
	F("io_uring-link_timeout", K_URING_LINK, __NR_io_uring_enter, T64, 0, \
	  EINVAL, NSEC1S, ONE_S), \
	F("io_uring-timeout_update", K_URING_UPDATE, __NR_io_uring_enter, T64, ENOENT, \
	  EINVAL, NSEC1S, ONE_S)
#endif

/* The fixes' entry points, both ABIs */
#define FIXED_ENTRIES(PGETEVENTS, PGETEVENTS_NR, PGETEVENTS_FORM) \
	URING_ENTRIES, \
	F("io_uring_register-sync_cancel", K_URING_CANCEL, __NR_io_uring_register, T64, \
	  ENOENT, EINVAL, NEG, ZERO), \
	F(PGETEVENTS, K_IO_PGETEVENTS, PGETEVENTS_NR, PGETEVENTS_FORM, 0, EINVAL, NEG, \
	  ZERO), \
	F("setsockopt-vsock_connect_timeout", K_VSOCK, 0, TV, 0, ERANGE, NEG, ONE_S), \
	F("ioctl-pps_fetch", K_PPS, 0, T64, 0, EINVAL, NEG, ZERO)

static const struct entry entries[] = {
#ifdef __x86_64__
	E("nanosleep", K_NANOSLEEP, __NR_nanosleep, T64, 0),
	E("clock_nanosleep-rel", K_CN_REL, __NR_clock_nanosleep, T64, 0),
	E("clock_nanosleep-abs", K_CN_ABS, __NR_clock_nanosleep, T64, 0),
	E("futex-wait", K_FUTEX_REL, __NR_futex, T64, EAGAIN),
	E("futex-wait_bitset-abs", K_FUTEX_ABS, __NR_futex, T64, EAGAIN),
	E("futex_waitv", K_WAITV, __NR_futex_waitv, T64, EAGAIN),
	E("futex_wait", K_FWAIT, __NR_futex_wait, T64, EAGAIN),
	E("timerfd_settime", K_TIMERFD, __NR_timerfd_settime, T64, 0),
	E("timer_settime", K_TIMER, __NR_timer_settime, T64, 0),
	E("ppoll", K_PPOLL, __NR_ppoll, T64, 0),
	E("pselect6", K_PSELECT, __NR_pselect6, T64, 0),
	E("epoll_pwait2", K_EPOLL2, __NR_epoll_pwait2, T64, 0),
	E("rt_sigtimedwait", K_SIGTIMEDWAIT, __NR_rt_sigtimedwait, T64, EAGAIN),
	E("setitimer", K_SETITIMER, __NR_setitimer, TV, 0),
	F("io_getevents", K_IO_GETEVENTS, __NR_io_getevents, T64, 0, EINVAL, NEG, ZERO),
	FIXED_ENTRIES("io_pgetevents", __NR_io_pgetevents, T64),
#else
	/* time64 */
	E("clock_nanosleep_time64-rel", K_CN_REL, __NR_clock_nanosleep_time64, T64, 0),
	E("clock_nanosleep_time64-abs", K_CN_ABS, __NR_clock_nanosleep_time64, T64, 0),
	E("futex_time64-wait", K_FUTEX_REL, __NR_futex_time64, T64, EAGAIN),
	E("futex_time64-wait_bitset-abs", K_FUTEX_ABS, __NR_futex_time64, T64, EAGAIN),
	E("futex_waitv", K_WAITV, __NR_futex_waitv, T64, EAGAIN),
	E("futex_wait", K_FWAIT, __NR_futex_wait, T64, EAGAIN),
	E("timerfd_settime64", K_TIMERFD, __NR_timerfd_settime64, T64, 0),
	E("timer_settime64", K_TIMER, __NR_timer_settime64, T64, 0),
	E("ppoll_time64", K_PPOLL, __NR_ppoll_time64, T64, 0),
	E("pselect6_time64", K_PSELECT, __NR_pselect6_time64, T64, 0),
	E("epoll_pwait2", K_EPOLL2, __NR_epoll_pwait2, T64, 0),
	E("rt_sigtimedwait_time64", K_SIGTIMEDWAIT, __NR_rt_sigtimedwait_time64, T64, EAGAIN),
	FIXED_ENTRIES("io_pgetevents_time64", __NR_io_pgetevents_time64, T64),
	/* time32 (compat_sys_*), and setitimer's compat itimerval */
	E("nanosleep_time32", K_NANOSLEEP, __NR_nanosleep, T32, 0),
	E("clock_nanosleep_time32-rel", K_CN_REL, __NR_clock_nanosleep, T32, 0),
	E("clock_nanosleep_time32-abs", K_CN_ABS, __NR_clock_nanosleep, T32, 0),
	E("futex_time32-wait", K_FUTEX_REL, __NR_futex, T32, EAGAIN),
	E("futex_time32-wait_bitset-abs", K_FUTEX_ABS, __NR_futex, T32, EAGAIN),
	E("timerfd_settime32", K_TIMERFD, __NR_timerfd_settime, T32, 0),
	E("timer_settime32", K_TIMER, __NR_timer_settime, T32, 0),
	E("ppoll_time32", K_PPOLL, __NR_ppoll, T32, 0),
	E("pselect6_time32", K_PSELECT, __NR_pselect6, T32, 0),
	E("rt_sigtimedwait_time32", K_SIGTIMEDWAIT, __NR_rt_sigtimedwait, T32, EAGAIN),
	E("setitimer", K_SETITIMER, __NR_setitimer, TV, 0),
	F("io_getevents_time32", K_IO_GETEVENTS, __NR_io_getevents, T32, 0, EINVAL, NEG,
	  ZERO),
	F("io_pgetevents_time32", K_IO_PGETEVENTS, __NR_io_pgetevents, T32, 0, EINVAL, NEG,
	  ZERO),
#endif
};
#define N_ENTRIES	((int)(sizeof(entries) / sizeof(entries[0])))

struct ts64 {
	int64_t tv_sec, tv_nsec;
};

struct ts32 {
	int32_t tv_sec, tv_nsec;
};

/* The timeval of this ABI: the kernel's (native) or compat (i386) one */
struct ktv {
	long tv_sec, tv_usec;
};

/* An argument that holds a timeout: [0] it_interval, [1] it_value */
union targ {
	struct ts64 t64[2];
	struct ts32 t32[2];
	struct ktv tv[2];
};

/* The input into slot @i of @a, in the entry's form */
static void put(union targ *a, int i, enum form f, struct input in)
{
	switch (f) {
	case T64:
		a->t64[i] = (struct ts64){ in.sec, in.nsec };
		break;
	case T32:
		a->t32[i] = (struct ts32){ (int32_t)in.sec, (int32_t)in.nsec };
		break;
	case TV:
		a->tv[i] = (struct ktv){ (long)in.sec, (long)in.nsec };
		break;
	}
}

static uint32_t word = 1;
static int tfd, epfd, vsockfd, ppsfd;
static int timerid;
static aio_context_t aioctx;

/* A plain io_uring, its rings mapped */
static struct {
	int fd;
	struct io_uring_params p;
	char *sq, *cq;
	struct io_uring_sqe *sqes;
} ring;

#ifdef IORING_ENTER_EXT_ARG_REG
/*
 * A second ring, created disabled so that one page can be registered as
 * its wait region, then enabled: the wait arguments are at offset 0.
 */
static struct {
	int fd;
	struct io_uring_reg_wait *w;
} wring;

static int wring_open(void)
{
	const size_t page = sysconf(_SC_PAGESIZE);
	struct io_uring_params p;
	struct io_uring_region_desc rd;
	struct io_uring_mem_region_reg mr;
	void *region;

	region = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED)
		return -1;
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_R_DISABLED;
	wring.fd = syscall(__NR_io_uring_setup, 8, &p);
	if (wring.fd < 0)
		return -1;
	memset(&rd, 0, sizeof(rd));
	rd.user_addr = (uintptr_t)region;
	rd.size = page;
	rd.flags = IORING_MEM_REGION_TYPE_USER;
	memset(&mr, 0, sizeof(mr));
	mr.region_uptr = (uintptr_t)&rd;
	mr.flags = IORING_MEM_REGION_REG_WAIT_ARG;
	if (syscall(__NR_io_uring_register, wring.fd, IORING_REGISTER_MEM_REGION, &mr, 1) ||
	    syscall(__NR_io_uring_register, wring.fd, IORING_REGISTER_ENABLE_RINGS, NULL, 0))
		return -1;
	wring.w = region;
	return 0;
}
#endif

static unsigned int *ring_u32(char *base, uint32_t off)
{
	return (unsigned int *)(base + off);
}

static int ring_open(void)
{
	const int prot = PROT_READ | PROT_WRITE, flags = MAP_SHARED | MAP_POPULATE;
	size_t sq_len, cq_len;
	void *m;

	memset(&ring.p, 0, sizeof(ring.p));
	ring.fd = syscall(__NR_io_uring_setup, 8, &ring.p);
	if (ring.fd < 0)
		return -1;
	sq_len = ring.p.sq_off.array + ring.p.sq_entries * sizeof(unsigned int);
	cq_len = ring.p.cq_off.cqes + ring.p.cq_entries * sizeof(struct io_uring_cqe);
	if (!(ring.p.features & IORING_FEAT_SINGLE_MMAP))
		return -1;
	if (cq_len > sq_len)
		sq_len = cq_len;
	m = mmap(NULL, sq_len, prot, flags, ring.fd, IORING_OFF_SQ_RING);
	if (m == MAP_FAILED)
		return -1;
	ring.sq = ring.cq = m;
	m = mmap(NULL, ring.p.sq_entries * sizeof(struct io_uring_sqe), prot, flags, ring.fd,
		 IORING_OFF_SQES);
	if (m == MAP_FAILED)
		return -1;
	ring.sqes = m;
	return 0;
}

/*
 * Submit @n SQEs and wait for @n completions in one io_uring_enter(); the
 * result of the completion whose user_data is @ud: 0, or its errno.  Any
 * other failure: -1 (a wrong answer).
 */
static int ring_run(const struct io_uring_sqe *sqe, int n, uint64_t ud)
{
	unsigned int tail = *ring_u32(ring.sq, ring.p.sq_off.tail);
	unsigned int mask = *ring_u32(ring.sq, ring.p.sq_off.ring_mask);
	unsigned int cmask = *ring_u32(ring.cq, ring.p.cq_off.ring_mask);
	struct io_uring_cqe *cqes = (void *)(ring.cq + ring.p.cq_off.cqes);
	unsigned int head, ctail;
	int i, res = 1, seen = 0;

	for (i = 0; i < n; i++, tail++) {
		ring.sqes[tail & mask] = sqe[i];
		ring_u32(ring.sq, ring.p.sq_off.array)[tail & mask] = tail & mask;
	}
	__atomic_store_n(ring_u32(ring.sq, ring.p.sq_off.tail), tail, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, ring.fd, n, n, IORING_ENTER_GETEVENTS, NULL, 0) != n)
		return -1;
	head = *ring_u32(ring.cq, ring.p.cq_off.head);
	ctail = __atomic_load_n(ring_u32(ring.cq, ring.p.cq_off.tail), __ATOMIC_ACQUIRE);
	for (; head != ctail; head++, seen++)
		if (cqes[head & cmask].user_data == ud)
			res = cqes[head & cmask].res;
	__atomic_store_n(ring_u32(ring.cq, ring.p.cq_off.head), head, __ATOMIC_RELEASE);
	if (seen != n || res > 0)
		return -1;
	return -res;
}

/*
 * One call of @e given @in (@refuse: the refuse path's input): 0, the
 * errno it answered, or -1 (no answer)
 */
static int call(const struct entry *e, struct input in, int refuse)
{
	struct futex_waitv w = { .val = 0, .uaddr = (uintptr_t)&word,
				 .flags = FUTEX2_SIZE_U32 | FUTEX2_PRIVATE };
	struct io_uring_sqe sqe[2];
	struct io_uring_getevents_arg garg;
	struct io_uring_sync_cancel_reg reg;
	struct io_event ev;
	struct epoll_event eev;
	struct pps_fdata f;
	uint64_t sigset = 1ULL << (SIGUSR1 - 1);
	union targ a;
	long ret;

	memset(&a, 0, sizeof(a));
	/* timerfd, timer and setitimer: the input is it_value */
	put(&a, e->kind == K_TIMERFD || e->kind == K_TIMER || e->kind == K_SETITIMER,
	    e->form, in);
	switch (e->kind) {
	case K_NANOSLEEP:
		ret = syscall(e->nr, &a, NULL);
		break;
	case K_CN_REL:
		ret = syscall(e->nr, CLOCK_MONOTONIC, 0, &a, NULL);
		break;
	case K_CN_ABS:
		ret = syscall(e->nr, CLOCK_MONOTONIC, TIMER_ABSTIME, &a, NULL);
		break;
	case K_FUTEX_REL:
		ret = syscall(e->nr, &word, FUTEX_WAIT_PRIVATE, 0, &a, NULL, 0);
		break;
	case K_FUTEX_ABS:
		ret = syscall(e->nr, &word, FUTEX_WAIT_BITSET_PRIVATE, 0, &a, NULL,
			      FUTEX_BITSET_MATCH_ANY);
		break;
	case K_WAITV:
		ret = syscall(e->nr, &w, 1, 0, &a, CLOCK_MONOTONIC);
		break;
	case K_FWAIT:
		ret = syscall(e->nr, &word, 0UL, 0xffffffffUL,
			      FUTEX2_SIZE_U32 | FUTEX2_PRIVATE, &a, CLOCK_MONOTONIC);
		break;
	case K_TIMERFD:
		ret = syscall(e->nr, tfd, 0, &a, NULL);
		break;
	case K_TIMER:
		ret = syscall(e->nr, timerid, 0, &a, NULL);
		break;
	case K_PPOLL:
		ret = syscall(e->nr, NULL, 0, &a, NULL, SIGSET_SIZE);
		break;
	case K_PSELECT:
		ret = syscall(e->nr, 0, NULL, NULL, NULL, &a, NULL);
		break;
	case K_EPOLL2:
		ret = syscall(e->nr, epfd, &eev, 1, &a, NULL, SIGSET_SIZE);
		break;
	case K_SIGTIMEDWAIT:
		ret = syscall(e->nr, &sigset, NULL, &a, SIGSET_SIZE);
		break;
	case K_SETITIMER:
		ret = syscall(e->nr, ITIMER_VIRTUAL, &a, NULL);
		break;
	case K_IO_GETEVENTS:
	case K_IO_PGETEVENTS:
		/* nothing submitted: min_nr 1, so the timeout ends the wait */
		ret = syscall(e->nr, aioctx, 1L, 1L, &ev, &a, NULL);
		break;
	case K_VSOCK:
		ret = setsockopt(vsockfd, AF_VSOCK, SO_VM_SOCKETS_CONNECT_TIMEOUT_OLD,
				 &a.tv[0], sizeof(a.tv[0]));
		break;
	case K_PPS:
		memset(&f, 0, sizeof(f));
		f.timeout.sec = in.sec;
		f.timeout.nsec = (int32_t)in.nsec;
		ret = ioctl(ppsfd, PPS_FETCH, &f);
		break;
	case K_URING_ENTER:
		/* an empty ring: the wait timeout ends the wait */
		memset(&garg, 0, sizeof(garg));
		garg.ts = (uintptr_t)&a;
		ret = syscall(e->nr, ring.fd, 0, 1, IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG,
			      &garg, sizeof(garg));
		break;
#ifdef IORING_ENTER_EXT_ARG_REG
	case K_URING_REG_WAIT:
		/* an empty ring: the wait timeout, read from the region, ends the wait */
		memset(wring.w, 0, sizeof(*wring.w));
		wring.w->ts.tv_sec = in.sec;
		wring.w->ts.tv_nsec = in.nsec;
		wring.w->flags = IORING_REG_WAIT_TS;
		ret = syscall(e->nr, wring.fd, 0, 1,
			      IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG |
			      IORING_ENTER_EXT_ARG_REG, (void *)0, sizeof(*wring.w));
		break;
#endif
	case K_URING_CANCEL:
		/* nothing to cancel: ENOENT at once */
		memset(&reg, 0, sizeof(reg));
		reg.addr = UD_NONE;
		reg.fd = -1;
		reg.timeout.tv_sec = in.sec;
		reg.timeout.tv_nsec = in.nsec;
		ret = syscall(e->nr, ring.fd, IORING_REGISTER_SYNC_CANCEL, &reg, 1);
		break;
	case K_URING_TIMEOUT:
		memset(sqe, 0, sizeof(sqe));
		sqe[0].opcode = IORING_OP_TIMEOUT;
		sqe[0].fd = -1;
		sqe[0].addr = (uintptr_t)&a;
		sqe[0].len = 1;
		sqe[0].user_data = 1;
		if (refuse) {
			/*
			 * The refused input, alone; where it is taken (6.12),
			 * an absolute CLOCK_REALTIME time in 1970 fires at once.
			 */
			sqe[0].timeout_flags = IORING_TIMEOUT_ABS | IORING_TIMEOUT_REALTIME;
			return ring_run(sqe, 1, 1);
		}
		/* Armed, then removed: the timeout answers ECANCELED, the removal 0 */
		sqe[1].opcode = IORING_OP_TIMEOUT_REMOVE;
		sqe[1].fd = -1;
		sqe[1].addr = 1;
		sqe[1].user_data = 2;
		ret = ring_run(sqe, 2, 1);
		return ret == ECANCELED ? 0 : ret ? ret : -1;
	case K_URING_LINK:
		/* A NOP and its link timeout: the NOP completes, the timeout is cancelled */
		memset(sqe, 0, sizeof(sqe));
		sqe[0].opcode = IORING_OP_NOP;
		sqe[0].flags = IOSQE_IO_LINK;
		sqe[0].user_data = 3;
		sqe[1].opcode = IORING_OP_LINK_TIMEOUT;
		sqe[1].fd = -1;
		sqe[1].addr = (uintptr_t)&a;
		sqe[1].len = 1;
		sqe[1].user_data = 4;
		ret = ring_run(sqe, 2, 4);
		return ret == ECANCELED && !refuse ? 0 : ret;
	case K_URING_UPDATE:
		/* The update of a timeout that does not exist: ENOENT */
		memset(sqe, 0, sizeof(sqe));
		sqe[0].opcode = IORING_OP_TIMEOUT_REMOVE;
		sqe[0].fd = -1;
		sqe[0].addr = UD_NONE;
		sqe[0].addr2 = (uintptr_t)&a;
		sqe[0].timeout_flags = IORING_TIMEOUT_UPDATE;
		sqe[0].user_data = 5;
		return ring_run(sqe, 1, 5);
	default:
		return -1;
	}
	return ret < 0 ? errno : 0;
}

/* An answer by its errno's name (glibc's strerrorname_np()) */
static const char *errname(int err)
{
	static char buf[32];
	const char *name;

	if (!err)
		return "0";
	if (err == -1)
		return "no answer";
	name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/*
 * The first call of a path, whose answer decides whether it is measured:
 * bounded by a 20 ms timer, since 6.12 may block on what the fixes refuse
 * (io_getevents() with {0, -1} waits until a signal): a blocked call ends
 * in EINTR.
 */
static int probe(const struct entry *e, struct input in, int refuse)
{
	static const struct itimerval on = { { 0, 0 }, { 0, 20000 } }, off;
	int got;

	if (setitimer(ITIMER_REAL, &on, NULL))
		ksft_exit_fail_msg("setitimer(ITIMER_REAL): %s\n", strerror(errno));
	got = call(e, in, refuse);
	if (setitimer(ITIMER_REAL, &off, NULL))
		ksft_exit_fail_msg("setitimer(ITIMER_REAL): %s\n", strerror(errno));
	return got;
}

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static void setup(void)
{
	struct itimerspec off = { { 0, 0 }, { 0, 0 } };
	struct sigaction sa;

	/* No SA_RESTART: a call the probe's timer interrupts ends in EINTR */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	if (sigaction(SIGALRM, &sa, NULL))
		ksft_exit_fail_msg("setup: sigaction(SIGALRM): %s\n", strerror(errno));

	tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	if (tfd < 0)
		ksft_exit_fail_msg("setup: timerfd_create: %s\n", strerror(errno));
	epfd = epoll_create1(0);
	if (epfd < 0)
		ksft_exit_fail_msg("setup: epoll_create1: %s\n", strerror(errno));
	if (syscall(__NR_timer_create, CLOCK_MONOTONIC, NULL, &timerid))
		ksft_exit_fail_msg("setup: timer_create: %s\n", strerror(errno));
	if (timerfd_settime(tfd, 0, &off, NULL))
		ksft_exit_fail_msg("setup: timerfd_settime: %s\n", strerror(errno));
	if (syscall(__NR_io_setup, 1, &aioctx))
		ksft_exit_fail_msg("setup: io_setup: %s\n", strerror(errno));
	if (ring_open())
		ksft_exit_fail_msg("setup: io_uring_setup or its mmap: %s\n", strerror(errno));
#ifdef IORING_ENTER_EXT_ARG_REG
	if (wring_open())
		ksft_exit_fail_msg("setup: a ring with a registered wait region: %s\n",
				   strerror(errno));
#endif
	vsockfd = socket(AF_VSOCK, SOCK_STREAM, 0);
	if (vsockfd < 0)
		ksft_exit_fail_msg("setup: socket(AF_VSOCK): %s\n", strerror(errno));
	/* pps-ktimer's source: an event a second, which PPS_FETCH with a zero timeout does not wait for */
	ppsfd = open("/dev/pps0", O_RDWR);
	if (ppsfd < 0)
		ksft_exit_fail_msg("setup: open /dev/pps0: %s\n", strerror(errno));
}

/*
 * Calls of @en until @window ns of the guest clock have passed, in batches
 * of BATCH calls: the instructions per call times 100 (the loop's own
 * included); the calls that did not answer @want are added to @bad.
 */
#define BATCH	4
#define SUBS	4
static int64_t measure(const struct entry *en, struct input in, int refuse, int want,
		       int64_t window, int *bad)
{
	int64_t t0 = now_ns(), d, n = 0;
	int i;

	do {
		for (i = 0; i < BATCH; i++)
			if (call(en, in, refuse) != want)
				(*bad)++;
		n += BATCH;
		d = now_ns() - t0;
	} while (d < window);
	return d * 100 / n;
}

int main(int argc, char **argv)
{
	int64_t window = argc > 1 ? atoll(argv[1]) : 4000000;
	int repeats = argc > 2 ? atoi(argv[2]) : 3;
	int e, path, r;

	if (window <= 0 || repeats <= 0)
		ksft_exit_fail_msg("usage: bench [window_ns] [repeats] (%lld, %d)\n",
				   (long long)window, repeats);
	setup();
	ksft_print_header();
	for (e = 0, r = 0; e < N_ENTRIES; e++)
		r += entries[e].refuse_err == NO_REFUSE ? 1 : 2;
	ksft_set_plan(r);
	for (e = 0; e < N_ENTRIES; e++) {
		const struct entry *en = &entries[e];

		for (path = en->refuse_err == NO_REFUSE; path < 2; path++) {
			struct input in = path ? en->quick : en->refuse;
			int want = path ? en->quick_err : en->refuse_err;
			const char *pname = path ? "quick" : "refuse";
			char line[512];
			int len, got, bad = 0;

			got = probe(en, in, !path);
			if (got != want) {
				if (!path && en->fixed) {
					/* 6.12's answer: the host judges it */
					ksft_print_msg("bench %s:%s %s not refused: %s\n", ABI,
						       en->name, pname,
						       got == EINTR ? "blocked" : errname(got));
					ksft_test_result_skip("bench %s:%s %s not refused\n", ABI,
							      en->name, pname);
				} else {
					ksft_print_msg("bench %s:%s %s wrong answer: %s (expected %s)\n",
						       ABI, en->name, pname, errname(got),
						       errname(want));
					ksft_test_result_fail("bench %s:%s %s\n", ABI, en->name,
							      pname);
				}
				continue;
			}
			len = snprintf(line, sizeof(line), "bench %s:%s %s insn/call:", ABI,
				       en->name, pname);
			/* Unmeasured: the first calls fault in and warm up. */
			measure(en, in, !path, want, window / SUBS, &bad);
			for (r = 0; r < repeats; r++) {
				int64_t c = INT64_MAX, w;
				int k;

				/* The least of SUBS sub-windows: see the head comment. */
				for (k = 0; k < SUBS; k++) {
					w = measure(en, in, !path, want, window / SUBS, &bad);
					if (w < c)
						c = w;
				}

				/* Two decimals: one instruction more per call shows. */
				len += snprintf(line + len, sizeof(line) - len, " %lld.%02lld",
						(long long)(c / 100), (long long)(c % 100));
				if (len >= (int)sizeof(line))
					ksft_exit_fail_msg("line overflow\n");
			}
			if (bad) {
				ksft_print_msg("bench %s:%s %s wrong answer: %d calls did not answer %s\n",
					       ABI, en->name, pname, bad, errname(want));
				ksft_test_result_fail("bench %s:%s %s\n", ABI, en->name, pname);
				continue;
			}
			ksft_print_msg("%s\n", line);
			ksft_test_result_pass("bench %s:%s %s\n", ABI, en->name, pname);
		}
	}
	ksft_finished();
}
