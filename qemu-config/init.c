// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the integration-boot guest (built static by scripts/ts initramfs).
 *
 * usage: /init  (run by the kernel as PID 1; no arguments)
 *
 * Mounts proc, sysfs, devtmpfs and a tmpfs on /tmp, then runs the test
 * programs of /etc/tests (one absolute path a line, in order), one at a time.
 * Each program's stdout and stderr go through one pipe; every line it prints
 * is copied to /dev/console indented by four spaces, so that its own
 * (K)TAP document nests under ours:
 *
 *   KTAP version 1
 *   1..K
 *       TAP version 13          <- the program's output, indented
 *       ...
 *   ok 1 timeout_classes        <- exit 0
 *   ok 2 foo # SKIP             <- exit 4 (KSFT_SKIP)
 *   not ok 3 bar                <- any other exit, a signal, or the watchdog
 *   # boot-to-verdict: 4.321 s  <- CLOCK_BOOTTIME when the verdict is known
 *
 * A watchdog kills a program's whole process group after TEST_TIMEOUT_S
 * seconds (or after /etc/tests' optional second field, in seconds).
 *
 * A line of /etc/tests is "PATH [SECONDS [SKIP CWD NAME]]": the three
 * optional fields (the subsystems' suites: make subsystem-tests) give the
 * exit status that means skip (default KSFT_SKIP), the directory the
 * program runs in (default /tmp) and its KTAP name (default the base
 * name of PATH).
 *
 * Then /init ends QEMU through the isa-debug-exit device (iobase 0xf4,
 * iosize 1): it writes 0 when every program passed or skipped and 1
 * otherwise, and QEMU exits with status (value << 1) | 1, i.e. 1 = pass and
 * 3 = fail.  Should ioperm() fail, it falls back to reboot(RB_AUTOBOOT),
 * which QEMU's -no-reboot turns into exit status 0, like a kernel panic with
 * panic=-1: the host treats 0 as "no verdict".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TEST_LIST "/etc/tests"
#define TEST_TIMEOUT_S 30
#define DEBUG_EXIT_PORT 0xf4
#define KSFT_SKIP 4

static FILE *con;

static void out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(con, fmt, ap);
	va_end(ap);
	fflush(con);
}

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void do_mount(const char *src, const char *dir, const char *type,
		     const char *opts)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, MS_NOSUID, opts) && errno != EBUSY)
		out("# init: mount %s on %s: %s\n", type, dir, strerror(errno));
}

static void poweroff(int failed)
{
	fflush(NULL);
	sync();
	if (ioperm(DEBUG_EXIT_PORT, 1, 1) == 0)
		outb(failed ? 1 : 0, DEBUG_EXIT_PORT);
	else
		out("# init: ioperm(0x%x): %s; rebooting instead\n",
		    DEBUG_EXIT_PORT, strerror(errno));
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}

/*
 * Copy the complete lines of buf[0..*len) to the console, indented, and keep
 * the incomplete last one; flush that too at the end (flush_partial) or when
 * it fills the whole buffer of cap bytes.
 */
static void emit_lines(char *buf, size_t *len, size_t cap, int flush_partial)
{
	char *start = buf, *nl;
	size_t left = *len;

	while ((nl = memchr(start, '\n', left))) {
		out("    %.*s\n", (int)(nl - start), start);
		left -= nl + 1 - start;
		start = nl + 1;
	}
	if (left && (flush_partial || left == cap)) {
		out("    %.*s\n", (int)left, start);
		left = 0;
	}
	memmove(buf, start, left);
	*len = left;
}

/*
 * Run one program; return 0 pass, 1 fail, 2 skip.  Its output is copied
 * until it exits and the pipe is drained; leftovers of its process group
 * are killed then.
 */
static int run_test(const char *path, const char *name, int timeout_s,
		    int skip, const char *cwd)
{
	char buf[8192];
	size_t len = 0;
	int pfd[2], status = 0, exited = 0, timed_out = 0, open_pipe = 1;
	double deadline = now(CLOCK_MONOTONIC) + timeout_s;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC)) {
		out("# %s: pipe: %s\n", name, strerror(errno));
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		out("# %s: fork: %s\n", name, strerror(errno));
		return 1;
	}
	if (pid == 0) {
		char *argv[] = { (char *)path, NULL };
		int nul = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		if (chdir(cwd)) {
			dprintf(pfd[1], "# %s: chdir %s: %s\n", name, cwd, strerror(errno));
			_exit(127);
		}
		if (nul >= 0)
			dup2(nul, 0); /* no reading from the console */
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execv(path, argv);
		dprintf(2, "# %s: exec %s: %s\n", name, path, strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	close(pfd[1]);

	while (open_pipe || !exited) {
		double left = deadline - now(CLOCK_MONOTONIC);
		struct pollfd p = { .fd = pfd[0], .events = POLLIN };

		if (left <= 0) {
			timed_out = 1;
			break;
		}
		if (open_pipe) {
			/* Wake up now and then to notice the exit of the main
			 * process while a descendant keeps the pipe open. */
			int r = poll(&p, 1, exited ? (int)(left * 1000) + 1 : 100);

			if (r > 0) {
				ssize_t n = read(pfd[0], buf + len, sizeof(buf) - len);

				if (n > 0) {
					len += n;
					emit_lines(buf, &len, sizeof(buf), 0);
				} else if (n == 0 || errno != EINTR) {
					open_pipe = 0;
				}
			}
		} else {
			usleep(10000);
		}
		if (!exited && waitpid(pid, &status, WNOHANG) == pid) {
			exited = 1;
			/* Give descendants a moment, then stop waiting for them. */
			if (open_pipe && deadline > now(CLOCK_MONOTONIC) + 1)
				deadline = now(CLOCK_MONOTONIC) + 1;
		}
	}
	emit_lines(buf, &len, sizeof(buf), 1);
	kill(-pid, SIGKILL);
	if (!exited)
		waitpid(pid, &status, 0);
	/* Reap what is left of the group (reparented to us). */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	close(pfd[0]);

	if (timed_out && !exited) {
		out("    # %s: killed by the watchdog after %d s\n", name, timeout_s);
		return 1;
	}
	if (timed_out)
		out("    # %s: exited, but left processes holding its output; killed them\n",
		    name);
	if (WIFSIGNALED(status)) {
		out("    # %s: killed by signal %d (%s)\n", name, WTERMSIG(status),
		    strsignal(WTERMSIG(status)));
		return 1;
	}
	if (WEXITSTATUS(status) == skip)
		return 2;
	if (WEXITSTATUS(status)) {
		out("    # %s: exit status %d\n", name, WEXITSTATUS(status));
		return 1;
	}
	return timed_out;
}

int main(void)
{
	char **paths = NULL, **cwds = NULL, **names = NULL;
	int *timeouts = NULL, *skips = NULL;
	int n = 0, failed = 0, i;
	char line[512];
	FILE *list;
	int fd;

	do_mount("devtmpfs", "/dev", "devtmpfs", NULL);
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	con = fdopen(1, "w");
	if (!con)
		poweroff(1);
	do_mount("proc", "/proc", "proc", NULL);
	do_mount("sysfs", "/sys", "sysfs", NULL);
	do_mount("tmpfs", "/tmp", "tmpfs", "mode=1777");
	setenv("PATH", "/bin", 1);
	setenv("HOME", "/tmp", 1);
	chdir("/tmp");

	list = fopen(TEST_LIST, "r");
	if (!list) {
		out("# init: %s: %s\n", TEST_LIST, strerror(errno));
		poweroff(1);
	}
	/* As many programs as the list holds: none is left out unsaid. */
	while (fgets(line, sizeof(line), list)) {
		char path[256], cwd[256] = "/tmp", name[256] = "";
		int t = TEST_TIMEOUT_S, skip = KSFT_SKIP;

		if (line[0] == '#' ||
		    sscanf(line, "%255s %d %d %255s %255s", path, &t, &skip, cwd, name) < 1)
			continue;
		if (!name[0])
			snprintf(name, sizeof(name), "%s",
				 strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
		paths = realloc(paths, (n + 1) * sizeof(*paths));
		timeouts = realloc(timeouts, (n + 1) * sizeof(*timeouts));
		skips = realloc(skips, (n + 1) * sizeof(*skips));
		cwds = realloc(cwds, (n + 1) * sizeof(*cwds));
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!paths || !timeouts || !skips || !cwds || !names ||
		    !(paths[n] = strdup(path)) || !(cwds[n] = strdup(cwd)) ||
		    !(names[n] = strdup(name))) {
			out("# init: out of memory reading %s\n", TEST_LIST);
			poweroff(1);
		}
		skips[n] = skip;
		timeouts[n++] = t;
	}
	fclose(list);

	out("KTAP version 1\n");
	out("1..%d\n", n);
	for (i = 0; i < n; i++) {
		const char *name = names[i];
		double t0 = now(CLOCK_MONOTONIC);
		int r = run_test(paths[i], name, timeouts[i], skips[i], cwds[i]);

		out("# %s: %.3f s\n", name, now(CLOCK_MONOTONIC) - t0);
		if (r == 1)
			failed++;
		out("%s %d %s%s\n", r == 1 ? "not ok" : "ok", i + 1, name,
		    r == 2 ? " # SKIP" : "");
	}
	out("# boot-to-verdict: %.3f s\n", now(CLOCK_BOOTTIME));
	out("# init: %d of %d programs failed\n", failed, n);
	poweroff(failed);
	return 0;
}
