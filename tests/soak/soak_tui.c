#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vterm.h>

#include "soak_tui.h"

double soak_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Appends log_path to a sanitizer option string so that reports land in files. */
static void child_set_sanitizer_env(const char *name, const char *dir, const char *extra)
{
	char buf[1024];
	const char *old = getenv(name);

	snprintf(buf, sizeof buf, "%s%s%slog_path=%s/san", old ? old : "", old && *old ? ":" : "", extra, dir);
	setenv(name, buf, 1);
}

static void child_exec(const char *const *argv, const struct sbx *s, const char *dir)
{
	sbx_child_env(s, dir);
	/* A small quarantine: RSS then measures the program, not ASan's freed-memory pool. */
	child_set_sanitizer_env("ASAN_OPTIONS", dir, "quarantine_size_mb=8:");
	child_set_sanitizer_env("UBSAN_OPTIONS", dir, "");
	execv(argv[0], (char *const *)(uintptr_t)argv);
	_exit(127);
}

int soak_tui_start(struct soak_tui *t, const struct sbx *s, int rows, int cols, const char *trace)
{
	const char *bin = getenv("STENO_BIN");
	const char *argv[4] = {bin, NULL, NULL, NULL};
	struct winsize ws = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols};

	memset(t, 0, sizeof *t);
	t->fd = -1;
	t->rss_first_kb = -1;
	if (!bin)
		return -1;
	if (trace) {
		argv[1] = "--trace";
		argv[2] = trace;
	}
	snprintf(t->dir, sizeof t->dir, "/tmp/steno-soak-tui-XXXXXX");
	if (!mkdtemp(t->dir)) {
		t->dir[0] = '\0';
		return -1;
	}
	t->rows = rows;
	t->cols = cols;
	t->pid = forkpty(&t->fd, NULL, NULL, &ws);
	if (t->pid < 0)
		return -1;
	if (t->pid == 0)
		child_exec(argv, s, t->dir);
	VTerm *vt = vterm_new(rows, cols);
	if (!vt)
		return -1;
	vterm_set_utf8(vt, 1);
	t->vt = vt;
	t->screen = vterm_obtain_screen(vt);
	vterm_screen_reset(t->screen, 1);
	return 0;
}

static void raw_append(struct soak_tui *t, const char *buf, size_t n)
{
	if (t->rawlen + n + 1 > t->rawcap) {
		size_t cap = t->rawcap ? t->rawcap * 2 : 65536;
		while (cap < t->rawlen + n + 1)
			cap *= 2;
		if (cap > 8u << 20)
			return;
		char *p = realloc(t->raw, cap);
		if (!p)
			return;
		t->raw = p;
		t->rawcap = cap;
	}
	memcpy(t->raw + t->rawlen, buf, n);
	t->rawlen += n;
	t->raw[t->rawlen] = '\0';
}

int soak_tui_pump(struct soak_tui *t, int ms)
{
	struct pollfd p = {.fd = t->fd, .events = POLLIN};
	char buf[16384];

	if (t->fd < 0)
		return 0;
	if (poll(&p, 1, ms) <= 0)
		return 1;
	ssize_t n = read(t->fd, buf, sizeof buf);
	if (n <= 0)
		return 0; /* EIO: the child closed the pty */
	vterm_input_write(t->vt, buf, (size_t)n);
	if (t->keep_raw)
		raw_append(t, buf, (size_t)n);
	return 1;
}

int soak_tui_send(struct soak_tui *t, const char *keys)
{
	size_t len = strlen(keys);

	return write(t->fd, keys, len) == (ssize_t)len ? 0 : -1;
}

static size_t put_utf8(char *out, uint32_t ch)
{
	if (ch < 0x80) {
		out[0] = (char)ch;
		return 1;
	}
	if (ch < 0x800) {
		out[0] = (char)(0xC0 | (ch >> 6));
		out[1] = (char)(0x80 | (ch & 0x3F));
		return 2;
	}
	if (ch > 0xFFFF)
		ch = '?';
	out[0] = (char)(0xE0 | (ch >> 12));
	out[1] = (char)(0x80 | ((ch >> 6) & 0x3F));
	out[2] = (char)(0x80 | (ch & 0x3F));
	return 3;
}

const char *soak_tui_text(struct soak_tui *t)
{
	static char out[100 * (200 * 3 + 1) + 1];
	size_t len = 0;

	for (int y = 0; y < t->rows && y < 100; y++) {
		for (int x = 0; x < t->cols && x < 200; x++) {
			VTermScreenCell c;
			VTermPos pos = {.row = y, .col = x};
			vterm_screen_get_cell(t->screen, pos, &c);
			len += put_utf8(out + len, c.chars[0] ? c.chars[0] : ' ');
			if (c.width == 2)
				x++;
		}
		out[len++] = '\n';
	}
	out[len] = '\0';
	return out;
}

int soak_tui_wait(struct soak_tui *t, const char *needle, int present, double seconds)
{
	double end = soak_now() + seconds;

	for (;;) {
		int found = strstr(soak_tui_text(t), needle) != NULL;
		if (found == (present != 0))
			return 0;
		if (soak_now() > end || !soak_tui_pump(t, 100))
			return -1;
	}
}

long soak_tui_sample_rss(struct soak_tui *t)
{
	char path[64], line[256];
	long kb = -1;

	snprintf(path, sizeof path, "/proc/%d/status", (int)t->pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	fclose(f);
	if (kb < 0)
		return -1;
	if (t->rss_first_kb < 0)
		t->rss_first_kb = kb;
	t->rss_last_kb = kb;
	if (kb > t->rss_max_kb)
		t->rss_max_kb = kb;
	t->rss_samples++;
	return kb;
}

int soak_tui_quit(struct soak_tui *t, double seconds)
{
	double end = soak_now() + seconds;

	if (soak_tui_send(t, "q") != 0)
		return -1;
	while (soak_tui_pump(t, 100))
		if (soak_now() > end)
			return -1;
	for (;;) {
		pid_t r = waitpid(t->pid, &t->status, WNOHANG);
		if (r == t->pid) {
			t->exited = 1;
			return 0;
		}
		if (r < 0 || soak_now() > end)
			return -1;
		struct timespec ts = {0, 10 * 1000000};
		nanosleep(&ts, NULL);
	}
}

int soak_tui_sanitizer_reports(const struct soak_tui *t)
{
	int n = 0;
	DIR *d = opendir(t->dir);

	if (!d)
		return 0;
	for (struct dirent *e; (e = readdir(d));)
		if (strncmp(e->d_name, "san.", 4) == 0)
			n++;
	closedir(d);
	return n;
}

void soak_tui_stop(struct soak_tui *t)
{
	char cmd[320];

	if (t->pid > 0 && !t->exited) {
		kill(t->pid, SIGKILL);
		waitpid(t->pid, NULL, 0);
		t->exited = 1;
	}
	free(t->raw);
	t->raw = NULL;
	t->rawlen = t->rawcap = 0;
	if (t->vt)
		vterm_free(t->vt);
	t->vt = NULL;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->dir[0]) {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", t->dir);
		if (system(cmd) != 0)
			fprintf(stderr, "soak: could not remove %s\n", t->dir);
		t->dir[0] = '\0';
	}
}
