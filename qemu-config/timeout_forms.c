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
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>
/* The tree's uapi headers (initramfs.mk: -isystem of its headers_install). */
#include <linux/can.h>
#include <linux/can/bcm.h>
#include <linux/io_uring.h>
#include <linux/pps.h>
#include <linux/vm_sockets.h>

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
	if (err == EINTR)
		return "blocked";
	/* The errno's name (glibc's strerrorname_np()) */
	if (strerrorname_np(err))
		return strerrorname_np(err);
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
	/* CAN BCM's limit is 400 days (BCM_TIMER_SEC_MAX): one second more. */
	{ "huge sec=34560001 usec=0", 34560001, 0 },
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

/*
 * SO_VM_SOCKETS_CONNECT_TIMEOUT: the connect timeout of an AF_VSOCK stream
 * socket, a timeval in the socket's own option (the _OLD number is the
 * one with the timeval of this ABI), read back.  Creating the socket
 * needs no transport.
 */
static void form_vsock(void)
{
	int s = socket(AF_VSOCK, SOCK_STREAM, 0);
	size_t i;

	for (i = 0; s >= 0 && i < N_TV; i++) {
		struct timeval tv = { tv_inputs[i].sec, tv_inputs[i].usec }, back = { -2, -2 };
		socklen_t len = sizeof(back);
		long r = setsockopt(s, AF_VSOCK, SO_VM_SOCKETS_CONNECT_TIMEOUT_OLD, &tv, sizeof(tv));
		int err = errno;

		if (r == 0 && getsockopt(s, AF_VSOCK, SO_VM_SOCKETS_CONNECT_TIMEOUT_OLD, &back, &len)) {
			printf("# form: getsockopt(SO_VM_SOCKETS_CONNECT_TIMEOUT): %s\n", strerror(errno));
			break;
		}
		if (r == 0)
			printf("# form SO_VM_SOCKETS_CONNECT_TIMEOUT %s %s: 0 read-back=%ld.%06ld\n",
			       ABI, tv_inputs[i].name, (long)back.tv_sec, (long)back.tv_usec);
		else
			printf("# form SO_VM_SOCKETS_CONNECT_TIMEOUT %s %s: %s\n", ABI,
			       tv_inputs[i].name, answer(r, err));
	}
	if (s < 0)
		printf("# form: socket(AF_VSOCK): %s\n", strerror(errno));
	ktap("SO_VM_SOCKETS_CONNECT_TIMEOUT", s >= 0 && i == N_TV);
	if (s >= 0)
		close(s);
}

/*
 * CAN BCM: an RX_SETUP with SETTIMER on "any" CAN device (ifindex 0) is
 * where bcm_rx_setup() checks ival1 and ival2; ival1 gets the input,
 * ival2 is {0, 0}.  A BCM message head carries longs, which the kernel
 * reads in its own size: the compat build's heads are refused as short.
 */
static void form_can_bcm(void)
{
	struct sockaddr_can addr = { .can_family = AF_CAN, .can_ifindex = 0 };
	int s = socket(PF_CAN, SOCK_DGRAM, CAN_BCM);
	int ok = s >= 0 && connect(s, (struct sockaddr *)&addr, sizeof(addr)) == 0;
	size_t i;

	if (!ok)
		printf("# form: CAN_BCM socket or connect: %s\n", strerror(errno));
	for (i = 0; ok && i < N_TV; i++) {
		struct bcm_msg_head head = {
			.opcode = RX_SETUP,
			.flags = SETTIMER | STARTTIMER,
			.ival1 = { tv_inputs[i].sec, tv_inputs[i].usec },
			.can_id = 0x100 + i,
		};
		long r = write(s, &head, sizeof(head));

		printf("# form CAN_BCM %s %s: %s\n", ABI, tv_inputs[i].name, answer(r, errno));
	}
	ktap("CAN_BCM", ok);
	if (s >= 0)
		close(s);
}

struct pps_input {
	const char *name;
	long long sec;
	int nsec;
};

/* Classes of a struct pps_ktime (s64 sec, s32 nsec). */
static const struct pps_input pps_inputs[] = {
	{ "neg sec=-1 nsec=0", -1, 0 },
	{ "neg sec=LLONG_MIN nsec=0", LLONG_MIN, 0 },
	{ "zero sec=0 nsec=0", 0, 0 },
	{ "tiny sec=0 nsec=1", 0, 1 },
	{ "huge sec=LLONG_MAX nsec=0", LLONG_MAX, 0 },
	{ "huge sec=INT_MAX nsec=999999999", INT_MAX, 999999999 },
	{ "subsec sec=0 nsec=-1", 0, -1 },
	{ "subsec sec=0 nsec=-1000000000", 0, -1000000000 },
	{ "subsec sec=0 nsec=INT_MIN", 0, INT_MIN },
	{ "subsec sec=0 nsec=1000000000", 0, 1000000000 },
	{ "subsec sec=0 nsec=INT_MAX", 0, INT_MAX },
	{ "subsec sec=-1 nsec=1000000000", -1, 1000000000 },
};
#define N_PPS (sizeof(pps_inputs) / sizeof(pps_inputs[0]))

/*
 * PPS_FETCH on the ktimer client's /dev/pps0, which has an event every
 * second.  A wait the timeout ends answers ETIMEDOUT; an event inside it
 * answers 0, and since the events do not wait for us, such an answer is
 * retried (up to 5 times) until a wait ends without one.  A negative
 * timeout answers ETIMEDOUT at once; a wait longer than the 20 ms bound
 * answers "blocked".
 */
static void form_pps_fetch(void)
{
	int fd = open("/dev/pps0", O_RDWR);
	size_t i;

	if (fd < 0)
		printf("# form: open /dev/pps0: %s\n", strerror(errno));
	for (i = 0; fd >= 0 && i < N_PPS; i++) {
		struct pps_fdata f;
		long r;
		int err, tries = 0;

		do {
			memset(&f, 0, sizeof(f));
			f.timeout.sec = pps_inputs[i].sec;
			f.timeout.nsec = pps_inputs[i].nsec;
			bound(1);
			r = ioctl(fd, PPS_FETCH, &f);
			err = errno;
			bound(0);
		} while (r == 0 && ++tries < 5);
		printf("# form PPS_FETCH %s %s: %s\n", ABI, pps_inputs[i].name, answer(r, err));
	}
	ktap("PPS_FETCH", fd >= 0);
	if (fd >= 0)
		close(fd);
}

struct us_input {
	const char *name;
	unsigned int us;
};

/* io_uring_getevents_arg.min_wait_usec is a __u32: "negative" is huge. */
static const struct us_input us_inputs[] = {
	{ "zero us=0", 0 },
	{ "tiny us=1", 1 },
	{ "huge us=999999", 999999 },
	{ "huge us=1000000", 1000000 },
	{ "huge us=4294967", 4294967 },
	{ "neg us=-1", UINT_MAX },
};
#define N_US (sizeof(us_inputs) / sizeof(us_inputs[0]))

/*
 * io_uring_enter()'s min_wait_usec, with a 10 ms wait timeout
 * (IORING_ENTER_EXT_ARG) on an empty ring: a wait the timeout ends
 * answers ETIME, one longer than the 20 ms bound "blocked".
 */
static void form_io_uring_min_wait(void)
{
	struct io_uring_params p;
	int fd;
	size_t i;

	memset(&p, 0, sizeof(p));
	fd = syscall(__NR_io_uring_setup, 4, &p);
	if (fd < 0)
		printf("# form: io_uring_setup: %s\n", strerror(errno));
	for (i = 0; fd >= 0 && i < N_US; i++) {
		struct __kernel_timespec ts = { 0, 10000000 };
		struct io_uring_getevents_arg arg = {
			.min_wait_usec = us_inputs[i].us,
			.ts = (uint64_t)(uintptr_t)&ts,
		};
		long r;
		int err;

		bound(1);
		r = syscall(__NR_io_uring_enter, fd, 0, 1,
			    IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG, &arg, sizeof(arg));
		err = errno;
		bound(0);
		printf("# form io_uring_min_wait_usec %s %s: %s\n", ABI, us_inputs[i].name,
		       answer(r, err));
	}
	ktap("io_uring_min_wait_usec", fd >= 0);
	if (fd >= 0)
		close(fd);
}

struct s_input {
	const char *name;
	int s;
};

/* Classes of a count of seconds in an int: alarm()'s is unsigned. */
static const struct s_input s_inputs[] = {
	{ "neg s=-1", -1 },
	{ "neg s=INT_MIN", INT_MIN },
	{ "zero s=0", 0 },
	{ "tiny s=1", 1 },
	{ "huge s=INT_MAX", INT_MAX },
};
#define N_S (sizeof(s_inputs) / sizeof(s_inputs[0]))

/*
 * SO_LINGER: l_linger is an int count of seconds, l_onoff set; the value
 * read back.  alarm(): an unsigned count of seconds; a second alarm(0)
 * reads back what is left of it (and cancels it).
 */
static void form_linger_alarm(void)
{
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	size_t i;

	for (i = 0; s >= 0 && i < N_S; i++) {
		struct linger l = { 1, s_inputs[i].s }, back = { -2, -2 };
		socklen_t len = sizeof(back);
		long r = setsockopt(s, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
		int err = errno;

		if (r == 0 && getsockopt(s, SOL_SOCKET, SO_LINGER, &back, &len)) {
			printf("# form: getsockopt(SO_LINGER): %s\n", strerror(errno));
			break;
		}
		if (r == 0)
			printf("# form SO_LINGER %s %s: 0 read-back=%d\n", ABI, s_inputs[i].name,
			       back.l_linger);
		else
			printf("# form SO_LINGER %s %s: %s\n", ABI, s_inputs[i].name, answer(r, err));
	}
	if (s < 0)
		printf("# form: socket(AF_UNIX): %s\n", strerror(errno));
	ktap("SO_LINGER", s >= 0 && i == N_S);
	if (s >= 0)
		close(s);
	for (i = 0; i < N_S; i++) {
		long r = syscall(SYS_alarm, (unsigned int)s_inputs[i].s);
		unsigned int left = alarm(0);

		if (r < 0)
			printf("# form alarm %s %s: %s\n", ABI, s_inputs[i].name, answer(r, errno));
		else
			printf("# form alarm %s %s: 0 read-back=%u\n", ABI, s_inputs[i].name, left);
	}
	ktap("alarm", 1);
}

int main(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm; /* no SA_RESTART: a bounded call ends in EINTR */
	sigaction(SIGALRM, &sa, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..11\n");
	form_select();
	form_setitimer();
	form_so_rcvtimeo();
	form_poll_epoll();
	form_vsock();
	form_can_bcm();
	form_pps_fetch();
	form_io_uring_min_wait();
	form_linger_alarm();
	return nfailed ? 1 : 0;
}
