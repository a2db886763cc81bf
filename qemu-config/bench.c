// SPDX-License-Identifier: GPL-2.0
/*
 * bench - cost per call of the converted timeout entry points, in the guest.
 *
 * Usage: bench [calls] [repeats]   (defaults: 20000 calls, 3 repeats)
 *
 * For every entry point the series converts, counts "calls" calls of the
 * -EINVAL path (tv_nsec = -1, or tv_usec = -1) and of a quick valid path
 * that returns at once (a mismatching futex value, an absolute time in
 * the past, a disarmed timer, nothing to wait for), "repeats" times,
 * after a tenth of them unmeasured.
 * QEMU runs the guest with -icount shift=0,sleep=off (scripts/bench.sh):
 * its clock advances one nanosecond per instruction executed, so the
 * CLOCK_MONOTONIC difference over a loop, divided by the calls, is the
 * instructions per call, the loop's own included (the same on every
 * kernel).  A relative sleep of {0, 0} still arms a timer and waits for
 * its slack, which under -icount is virtual time and counts as such, so
 * those two quick paths make a tenth of the calls and are not
 * instruction counts.  Prints KTAP, with one diagnostic line per entry
 * point and path:
 *   # bench <entry> <path> insn/call: <r1> <r2> ... <rN>
 * A call that does not answer what the path expects fails that test.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"

#ifndef __NR_futex_waitv
#define __NR_futex_waitv	449
#endif
#ifndef __NR_futex_wait
#define __NR_futex_wait		455
#endif
#define FUTEX2_SIZE_U32		0x02
#define FUTEX2_PRIVATE		128

struct kts {
	int64_t tv_sec;
	int64_t tv_nsec;
};

struct kits {
	struct kts it_interval;
	struct kts it_value;
};

struct kwaitv {
	uint64_t val;
	uint64_t uaddr;
	uint32_t flags;
	uint32_t reserved;
};

/* The kernel's timeval and itimerval of this ABI (both longs). */
struct ktv {
	long tv_sec;
	long tv_usec;
};

struct kitv {
	struct ktv it_interval;
	struct ktv it_value;
};

static uint32_t word = 1;
static int tfd, epfd;
static int timerid;

enum entry { NANOSLEEP, CN_REL, CN_ABS, FUTEX_REL, FUTEX_ABS, WAITV, FWAIT, TIMERFD,
	     TIMER, PPOLL, PSELECT, EPOLL2, SIGTIMEDWAIT, SETITIMER, N_ENTRIES };

static const char * const names[] = {
	[NANOSLEEP]	= "nanosleep",
	[CN_REL]	= "clock_nanosleep-rel",
	[CN_ABS]	= "clock_nanosleep-abs",
	[FUTEX_REL]	= "futex-wait",
	[FUTEX_ABS]	= "futex-wait_bitset-abs",
	[WAITV]		= "futex_waitv",
	[FWAIT]		= "futex_wait",
	[TIMERFD]	= "timerfd_settime",
	[TIMER]		= "timer_settime",
	[PPOLL]		= "ppoll",
	[PSELECT]	= "pselect6",
	[EPOLL2]	= "epoll_pwait2",
	[SIGTIMEDWAIT]	= "rt_sigtimedwait",
	[SETITIMER]	= "setitimer",
};

/* The errno each entry's quick valid path answers (0: success). */
static const int quick_err[] = {
	[NANOSLEEP] = 0, [CN_REL] = 0, [CN_ABS] = 0, [FUTEX_REL] = EAGAIN,
	[FUTEX_ABS] = EAGAIN, [WAITV] = EAGAIN, [FWAIT] = EAGAIN, [TIMERFD] = 0,
	[TIMER] = 0, [PPOLL] = 0, [PSELECT] = 0, [EPOLL2] = 0, [SIGTIMEDWAIT] = EAGAIN,
	[SETITIMER] = 0,
};

static int call(enum entry e, const struct kts *ts)
{
	struct kwaitv w = { .val = 0, .uaddr = (uintptr_t)&word,
			    .flags = FUTEX2_SIZE_U32 | FUTEX2_PRIVATE };
	struct kits its = { .it_interval = { 0, 0 }, .it_value = *ts };
	/* setitimer's timeval: tv_nsec -1 becomes tv_usec -1. */
	struct kitv itv = { .it_value = { ts->tv_sec, ts->tv_nsec < 0 ? -1 : ts->tv_nsec / 1000 } };
	struct epoll_event ev;
	uint64_t sigset = 1ULL << (SIGUSR1 - 1);
	long ret;

	switch (e) {
	case NANOSLEEP:
		ret = syscall(__NR_nanosleep, ts, NULL);
		break;
	case CN_REL:
		ret = syscall(__NR_clock_nanosleep, CLOCK_MONOTONIC, 0, ts, NULL);
		break;
	case CN_ABS:
		ret = syscall(__NR_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, ts, NULL);
		break;
	case FUTEX_REL:
		ret = syscall(__NR_futex, &word, FUTEX_WAIT_PRIVATE, 0, ts, NULL, 0);
		break;
	case FUTEX_ABS:
		ret = syscall(__NR_futex, &word, FUTEX_WAIT_BITSET_PRIVATE, 0, ts, NULL,
			      FUTEX_BITSET_MATCH_ANY);
		break;
	case WAITV:
		ret = syscall(__NR_futex_waitv, &w, 1, 0, ts, CLOCK_MONOTONIC);
		break;
	case FWAIT:
		ret = syscall(__NR_futex_wait, &word, 0UL, 0xffffffffUL,
			      FUTEX2_SIZE_U32 | FUTEX2_PRIVATE, ts, CLOCK_MONOTONIC);
		break;
	case TIMERFD:
		ret = syscall(__NR_timerfd_settime, tfd, 0, &its, NULL);
		break;
	case TIMER:
		ret = syscall(__NR_timer_settime, timerid, 0, &its, NULL);
		break;
	case PPOLL:
		ret = syscall(__NR_ppoll, NULL, 0, ts, NULL, 8);
		break;
	case PSELECT:
		ret = syscall(__NR_pselect6, 0, NULL, NULL, NULL, ts, NULL);
		break;
	case EPOLL2:
		ret = syscall(__NR_epoll_pwait2, epfd, &ev, 1, ts, NULL, 8);
		break;
	case SIGTIMEDWAIT:
		ret = syscall(__NR_rt_sigtimedwait, &sigset, NULL, ts, 8);
		break;
	case SETITIMER:
		ret = syscall(__NR_setitimer, ITIMER_VIRTUAL, &itv, NULL);
		break;
	default:
		return -1;
	}
	return ret ? errno : 0;
}

static int64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	const struct kts invalid = { 0, -1 }, quick = { 0, 0 };
	int calls = argc > 1 ? atoi(argv[1]) : 20000;
	int repeats = argc > 2 ? atoi(argv[2]) : 3;
	int e, path, r, i;

	tfd = timerfd_create(CLOCK_MONOTONIC, 0);
	epfd = epoll_create1(0);
	if (tfd < 0 || epfd < 0 || calls <= 0 || repeats <= 0 ||
	    syscall(__NR_timer_create, CLOCK_MONOTONIC, NULL, &timerid))
		ksft_exit_fail_msg("setup: timerfd_create, epoll_create1, timer_create or arguments (%d, %d)\n",
				   calls, repeats);
	ksft_print_header();
	ksft_set_plan(2 * N_ENTRIES);
	for (e = 0; e < N_ENTRIES; e++) {
		for (path = 0; path < 2; path++) {
			const struct kts *ts = path ? &quick : &invalid;
			int want = path ? quick_err[e] : EINVAL;
			const char *pname = path ? "quick" : "einval";
			char line[512];
			int n = calls, len, bad = 0;

			if (path && (e == NANOSLEEP || e == CN_REL))
				n = calls / 10 ? calls / 10 : 1;

			len = snprintf(line, sizeof(line), "bench %s %s insn/call:",
				       names[e], pname);
			/* Unmeasured: the first calls fault in and warm up. */
			for (i = 0; i < n / 10 + 1; i++)
				if (call(e, ts) != want)
					bad++;
			for (r = 0; r < repeats; r++) {
				int64_t t0 = now_ns(), d;

				for (i = 0; i < n; i++)
					if (call(e, ts) != want)
						bad++;
				d = now_ns() - t0;
				/* Two decimals: one instruction more per call shows. */
				len += snprintf(line + len, sizeof(line) - len, " %lld.%02lld",
						(long long)(d / n), (long long)(d % n * 100 / n));
				if (len >= (int)sizeof(line))
					ksft_exit_fail_msg("line overflow\n");
			}
			ksft_print_msg("%s\n", line);
			ksft_test_result(!bad, "bench %s %s\n", names[e], pname);
		}
	}
	ksft_finished();
}
