/* tui_pty: runs a full-screen program on a pty (screen kept by libvterm) and measures it.
 *
 *   tui_pty frame ROWSxCOLS NEEDLE -- CMD...   ms from fork until NEEDLE is on screen
 *   tui_pty idle SECONDS NEEDLE -- CMD...      CPU ms (utime+stime) over SECONDS once NEEDLE shows,
 *                                              the same in microseconds from the scheduler's
 *                                              own count (schedstat), and context switches
 *                                              (wakeups) per minute, all and voluntary only
 *   tui_pty rss NEEDLE KEYS NEEDLE2 -- CMD...  VmRSS kB when NEEDLE shows, then after KEYS
 *                                              were typed and NEEDLE2 showed ("-" KEYS: none);
 *                                              the same as USS (private pages, smaps_rollup)
 *   tui_pty keys NEEDLE KEYS NEEDLE2 -- CMD...  once NEEDLE shows: types KEYS (one by one, each
 *                                              once the screen is still) and prints the ms from
 *                                              the last key until NEEDLE2 is on screen,
 *                                              and VmRSS and USS then
 * Prints one line "name value" per figure. Every wait is for text, with a 120 s limit
 * (TUI_PTY_LIMIT_S seconds when set: loading 100,000 rows takes longer). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vterm.h>

struct run {
	pid_t pid;
	int fd, rows, cols;
	VTerm *vt;
	VTermScreen *screen;
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int run_start(struct run *r, int rows, int cols, char **argv)
{
	struct winsize ws = { .ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols };

	r->rows = rows;
	r->cols = cols;
	r->pid = forkpty(&r->fd, NULL, NULL, &ws);
	if (r->pid < 0)
		return -1;
	if (r->pid == 0) {
		setenv("TERM", "xterm-256color", 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	r->vt = vterm_new(rows, cols);
	vterm_set_utf8(r->vt, 1);
	r->screen = vterm_obtain_screen(r->vt);
	vterm_screen_reset(r->screen, 1);
	return 0;
}

static int run_pump(struct run *r, int ms)
{
	struct pollfd p = { .fd = r->fd, .events = POLLIN };
	char buf[16384];

	if (poll(&p, 1, ms) <= 0)
		return 1;
	ssize_t n = read(r->fd, buf, sizeof buf);
	if (n <= 0)
		return 0;
	vterm_input_write(r->vt, buf, (size_t)n);
	return 1;
}

static int run_has(struct run *r, const char *needle)
{
	char line[4096];

	for (int y = 0; y < r->rows; y++) {
		VTermRect rect = { .start_row = y, .end_row = y + 1, .start_col = 0, .end_col = r->cols };
		size_t n = vterm_screen_get_text(r->screen, line, sizeof line - 1, rect);
		line[n] = '\0';
		if (strstr(line, needle))
			return 1;
	}
	return 0;
}

static int run_wait(struct run *r, const char *needle)
{
	const char *limit = getenv("TUI_PTY_LIMIT_S");
	double end = now_ms() + (limit && atof(limit) > 0 ? atof(limit) * 1000 : 120000);

	while (!run_has(r, needle)) {
		if (now_ms() > end || !run_pump(r, 100)) {
			fprintf(stderr, "tui_pty: '%s' did not appear\n", needle);
			return -1;
		}
	}
	return 0;
}

static void run_stop(struct run *r)
{
	kill(r->pid, SIGTERM);
	while (run_pump(r, 200))
		;
	waitpid(r->pid, NULL, 0);
	vterm_free(r->vt);
	close(r->fd);
}

static long proc_cpu_ms(pid_t pid)
{
	char path[64], buf[2048];
	unsigned long ut = 0, st = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')');   /* the command name may hold spaces */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	return (long)((ut + st) * 1000 / (unsigned long)sysconf(_SC_CLK_TCK));
}

/* The sum over every thread of pid of what read_one reads from /proc/PID/task/TID/FILE;
 * -1 when /proc cannot be read. */
static long long tasks_sum(pid_t pid, const char *file, long long (*read_one)(FILE *f))
{
	char path[128];
	long long total = 0;
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "/proc/%d/task/%.20s/%s", (int)pid, e->d_name, file);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		total += read_one(f);
		fclose(f);
	}
	closedir(d);
	return total;
}

/* A thread's context switches from its status: voluntary ones (it blocked, e.g. asleep in
 * poll(), and woke up again: one per wakeup of an idle loop), plus with `preempted` the
 * involuntary ones (another process took the CPU: they grow with the machine's load). */
static long long status_switches(FILE *f, bool preempted)
{
	char line[256];
	long long total = 0, v;

	while (fgets(line, sizeof line, f))
		if (sscanf(line, "voluntary_ctxt_switches: %lld", &v) == 1 ||
		    (preempted && sscanf(line, "nonvoluntary_ctxt_switches: %lld", &v) == 1))
			total += v;
	return total;
}

static long long switches_of(FILE *f) { return status_switches(f, true); }
static long long voluntary_of(FILE *f) { return status_switches(f, false); }

/* A thread's time on a CPU in ns as the scheduler counts it (the first field of its
 * schedstat): a finer clock than the 10 ms ticks of utime+stime. */
static long long sched_ns_of(FILE *f)
{
	long long ns = 0;

	return fscanf(f, "%lld", &ns) == 1 ? ns : 0;
}

static long proc_rss_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* Unique set size: the pages only this process maps (Private_Clean + Private_Dirty). */
static long proc_uss_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = 0, v;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/smaps_rollup", (int)pid);
	if (!(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "Private_Clean: %ld kB", &v) == 1 ||
		    sscanf(line, "Private_Dirty: %ld kB", &v) == 1)
			kb += v;
	fclose(f);
	return kb;
}

static char **after_dashes(int argc, char **argv)
{
	for (int i = 1; i < argc - 1; i++)
		if (!strcmp(argv[i], "--"))
			return argv + i + 1;
	return NULL;
}

static int cmd_frame(char *size, const char *needle, char **cmd)
{
	struct run r;
	int rows = 30, cols = 120;

	if (sscanf(size, "%dx%d", &rows, &cols) != 2)
		return 2;
	double t0 = now_ms();
	if (run_start(&r, rows, cols, cmd) < 0 || run_wait(&r, needle) < 0)
		return 1;
	printf("first_frame_ms %.1f\n", now_ms() - t0);
	run_stop(&r);
	return 0;
}

static int cmd_idle(double seconds, const char *needle, char **cmd)
{
	struct run r;

	if (run_start(&r, 30, 120, cmd) < 0 || run_wait(&r, needle) < 0)
		return 1;
	/* let the start settle, then count */
	double settle = now_ms() + 2000;
	while (now_ms() < settle)
		run_pump(&r, 100);
	long c0 = proc_cpu_ms(r.pid);
	long long w0 = tasks_sum(r.pid, "status", switches_of);
	long long v0 = tasks_sum(r.pid, "status", voluntary_of);
	long long s0 = tasks_sum(r.pid, "schedstat", sched_ns_of);
	double end = now_ms() + seconds * 1000;
	while (now_ms() < end)
		run_pump(&r, (int)(end - now_ms()) + 1);
	long c1 = proc_cpu_ms(r.pid);
	long long w1 = tasks_sum(r.pid, "status", switches_of);
	long long v1 = tasks_sum(r.pid, "status", voluntary_of);
	long long s1 = tasks_sum(r.pid, "schedstat", sched_ns_of);
	printf("idle_cpu_ms %ld\n", c1 - c0);
	printf("idle_cpu_us %lld\n", (s1 - s0) / 1000);
	printf("idle_wakeups_per_min %.1f\n", (double)(w1 - w0) * 60.0 / seconds);
	printf("idle_voluntary_per_min %.1f\n", (double)(v1 - v0) * 60.0 / seconds);
	run_stop(&r);
	return 0;
}

static int cmd_rss(const char *needle, const char *keys, const char *needle2, char **cmd)
{
	struct run r;

	if (run_start(&r, 30, 120, cmd) < 0 || run_wait(&r, needle) < 0)
		return 1;
	printf("rss_start_kb %ld\n", proc_rss_kb(r.pid));
	printf("uss_start_kb %ld\n", proc_uss_kb(r.pid));
	if (strcmp(keys, "-") && write(r.fd, keys, strlen(keys)) != (ssize_t)strlen(keys))
		return 1;
	if (run_wait(&r, needle2) < 0)
		return 1;
	printf("rss_loaded_kb %ld\n", proc_rss_kb(r.pid));
	printf("uss_loaded_kb %ld\n", proc_uss_kb(r.pid));
	run_stop(&r);
	return 0;
}

static int cmd_keys(const char *needle, const char *keys, const char *needle2, char **cmd)
{
	struct run r;

	if (run_start(&r, 30, 120, cmd) < 0 || run_wait(&r, needle) < 0)
		return 1;
	double t0 = 0;
	for (const char *k = keys; *k; k++) {
		struct pollfd p = { .fd = r.fd, .events = POLLIN };
		while (poll(&p, 1, 300) > 0 && run_pump(&r, 0))
			;   /* the previous key's screen is drawn: quiet for 300 ms */
		t0 = now_ms();
		if (write(r.fd, k, 1) != 1)
			return 1;
	}
	if (run_wait(&r, needle2) < 0)
		return 1;
	printf("key_to_text_ms %.1f\n", now_ms() - t0);
	printf("rss_loaded_kb %ld\n", proc_rss_kb(r.pid));
	printf("uss_loaded_kb %ld\n", proc_uss_kb(r.pid));
	run_stop(&r);
	return 0;
}

int main(int argc, char **argv)
{
	char **cmd = after_dashes(argc, argv);

	if (argc < 4 || !cmd) {
		fprintf(stderr, "usage: see the comment at the top of bench/tui_pty.c\n");
		return 2;
	}
	if (!strcmp(argv[1], "frame"))
		return cmd_frame(argv[2], argv[3], cmd);
	if (!strcmp(argv[1], "idle"))
		return cmd_idle(atof(argv[2]), argv[3], cmd);
	if (!strcmp(argv[1], "rss") && argc >= 7)
		return cmd_rss(argv[2], argv[3], argv[4], cmd);
	if (!strcmp(argv[1], "keys") && argc >= 7)
		return cmd_keys(argv[2], argv[3], argv[4], cmd);
	return 2;
}
