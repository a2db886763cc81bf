// SPDX-License-Identifier: GPL-2.0
/*
 * The timeouts Linux takes outside the timespec contract, measured: each
 * interface gets the boundary inputs of its own type, and one line per
 * input says what the kernel answered:
 *
 *   # form <interface> <abi> <input>: <answer>
 *
 * <abi> is native or compat (this program built -m32), <input> names the
 * input class and its value, <answer> is the return value or the errno
 * name, and for the socket options the value read back.  A call that
 * would block forever is ended by a 20 ms interval timer: "blocked" means
 * it waited until then.  scripts/forms.py compares the lines of two
 * kernels and draws the map.  KTAP: one test per interface; a test fails
 * only when its setup fails, never on an answer (judging is the host's).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#if defined(__i386__)
#define ABI "compat"
#else
#define ABI "native"
#endif

/* i386's SYS_select is old_select, which takes its arguments in a struct. */
#ifdef SYS__newselect
#define NR_SELECT SYS__newselect
#else
#define NR_SELECT SYS_select
#endif

static int nfailed, ntest;

static void ktap(const char *name, int ok)
{
	printf("%s %d %s\n", ok ? "ok" : "not ok", ++ntest, name);
	if (!ok)
		nfailed++;
}

static const char *answer(long ret, int err)
{
	static char buf[64];

	if (ret >= 0) {
		snprintf(buf, sizeof(buf), "%ld", ret);
		return buf;
	}
	switch (err) {
	case EINVAL: return "EINVAL";
	case EDOM: return "EDOM";
	case EINTR: return "blocked";
	case EFAULT: return "EFAULT";
	case ERANGE: return "ERANGE";
	case EAGAIN: return "EAGAIN";
	}
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* A 20 ms interval timer that ends a call that would block forever. */
static void bound(int on)
{
	struct itimerval it = { { 0, on ? 20000 : 0 }, { 0, on ? 20000 : 0 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

struct tv_input {
	const char *name;
	long sec, usec;
};

/* Classes of a timeval: negative, zero, tiny, huge, bad sub-second field. */
static const struct tv_input tv_inputs[] = {
	{ "neg sec=-1 usec=0", -1, 0 },
	{ "neg sec=LONG_MIN usec=0", LONG_MIN, 0 },
	{ "zero sec=0 usec=0", 0, 0 },
	{ "tiny sec=0 usec=1", 0, 1 },
	{ "huge sec=LONG_MAX usec=0", LONG_MAX, 0 },
	{ "huge sec=INT_MAX usec=999999", INT_MAX, 999999 },
	{ "subsec sec=0 usec=-1", 0, -1 },
	{ "subsec sec=0 usec=1000000", 0, 1000000 },
	{ "subsec sec=0 usec=1500000", 0, 1500000 },
	{ "subsec sec=-1 usec=1000000", -1, 1000000 },
	{ "subsec sec=1 usec=-1000000", 1, -1000000 },
	{ "subsec sec=0 usec=LONG_MAX", 0, LONG_MAX },
};
#define N_TV (sizeof(tv_inputs) / sizeof(tv_inputs[0]))

static void form_select(void)
{
	int p[2], ok = pipe(p) == 0;
	size_t i;

	/* The pipe's write end is ready: an accepted timeout returns 1 at once. */
	for (i = 0; ok && i < N_TV; i++) {
		struct timeval tv = { tv_inputs[i].sec, tv_inputs[i].usec };
		fd_set w;
		long r;

		FD_ZERO(&w);
		FD_SET(p[1], &w);
		r = syscall(NR_SELECT, p[1] + 1, NULL, &w, NULL, &tv);
		printf("# form select %s %s: %s\n", ABI, tv_inputs[i].name, answer(r, errno));
	}
	ktap("select", ok);
}

static void form_setitimer(void)
{
	size_t i;

	for (i = 0; i < N_TV; i++) {
		struct itimerval it = { { 0, 0 }, { tv_inputs[i].sec, tv_inputs[i].usec } };
		struct itimerval off = { { 0, 0 }, { 0, 0 } };
		long r = syscall(SYS_setitimer, ITIMER_REAL, &it, NULL);

		printf("# form setitimer %s %s: %s\n", ABI, tv_inputs[i].name, answer(r, errno));
		setitimer(ITIMER_REAL, &off, NULL);
	}
	ktap("setitimer", 1);
}

static void form_so_rcvtimeo(void)
{
	int s[2], ok = socketpair(AF_UNIX, SOCK_STREAM, 0, s) == 0;
	size_t i;

	for (i = 0; ok && i < N_TV; i++) {
		struct timeval tv = { tv_inputs[i].sec, tv_inputs[i].usec }, back = { -2, -2 };
		socklen_t len = sizeof(back);
		long r = setsockopt(s[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		int err = errno;

		if (r == 0 && getsockopt(s[0], SOL_SOCKET, SO_RCVTIMEO, &back, &len))
			ok = 0;
		if (r == 0)
			printf("# form SO_RCVTIMEO %s %s: 0 read-back=%ld.%06ld\n", ABI,
			       tv_inputs[i].name, (long)back.tv_sec, (long)back.tv_usec);
		else
			printf("# form SO_RCVTIMEO %s %s: %s\n", ABI, tv_inputs[i].name,
			       answer(r, err));
	}
	ktap("SO_RCVTIMEO", ok);
}

struct ms_input {
	const char *name;
	int ms;
};

static const struct ms_input ms_inputs[] = {
	{ "neg ms=-1", -1 },
	{ "neg ms=INT_MIN", INT_MIN },
	{ "zero ms=0", 0 },
	{ "tiny ms=1", 1 },
	{ "huge ms=INT_MAX", INT_MAX },
};
#define N_MS (sizeof(ms_inputs) / sizeof(ms_inputs[0]))

static void form_poll_epoll(void)
{
	int p[2], ep, ok;
	struct epoll_event ev = { .events = EPOLLIN };
	size_t i;

	ok = pipe(p) == 0;
	ep = ok ? epoll_create1(0) : -1;
	ev.data.fd = ok ? p[0] : -1;
	ok = ep >= 0 && epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev) == 0;
	/* The pipe's read end never becomes ready: only the timeout ends a wait. */
	for (i = 0; ok && i < N_MS; i++) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		long r;

		bound(1);
		r = poll(&pfd, 1, ms_inputs[i].ms);
		printf("# form poll %s %s: %s\n", ABI, ms_inputs[i].name, answer(r, errno));
		r = epoll_wait(ep, &ev, 1, ms_inputs[i].ms);
		printf("# form epoll_wait %s %s: %s\n", ABI, ms_inputs[i].name, answer(r, errno));
		bound(0);
	}
	ktap("poll", ok);
	ktap("epoll_wait", ok);
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm; /* no SA_RESTART: a bounded call ends in EINTR */
	sigaction(SIGALRM, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..5\n");
	form_select();
	form_setitimer();
	form_so_rcvtimeo();
	form_poll_epoll();
	return nfailed ? 1 : 0;
}
