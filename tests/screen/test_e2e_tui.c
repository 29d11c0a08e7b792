/* End-to-end runs of the real steno binary ($STENO_BIN) on a pty, the screen kept by
 * libvterm: it starts, shows the list, `q` quits with status 0; `--sandbox` runs its own
 * sandbox; a resize relays out. Every wait is for text to appear, never a fixed sleep. */
#include "config.h"

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vterm.h>

#include "../integration/sandbox_fixture.h"

#define E2E_TIMEOUT_S 20.0

/* Ownership: e2e_start fills it, e2e_stop frees it. */
struct e2e {
	pid_t pid;
	int fd;              /* the pty's master */
	VTerm *vt;
	VTermScreen *screen;
	int rows, cols;
	int exited, status;
	char dir[256];
};

static struct sbx S;
static int have_sbx;
static struct e2e E;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void e2e_child(const char *const *argv, const struct sbx *s, const char *dir)
{
	sbx_child_env(s, dir);
	execv(argv[0], (char *const *)(uintptr_t)argv);
	_exit(127);
}

static void e2e_start(int rows, int cols, const char *const *args, const struct sbx *s)
{
	const char *bin = getenv("STENO_BIN");
	const char *argv[8] = { bin };
	struct winsize ws = { .ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols };

	cr_assert_not_null(bin, "STENO_BIN is not set");
	for (int i = 0; args && args[i] && i < 6; i++)
		argv[i + 1] = args[i];
	memset(&E, 0, sizeof E);
	snprintf(E.dir, sizeof E.dir, "/tmp/steno-e2e-XXXXXX");
	cr_assert_not_null(mkdtemp(E.dir));
	E.rows = rows;
	E.cols = cols;
	E.pid = forkpty(&E.fd, NULL, NULL, &ws);
	cr_assert_geq(E.pid, 0, "forkpty: %s", strerror(errno));
	if (E.pid == 0)
		e2e_child(argv, s, E.dir);
	E.vt = vterm_new(rows, cols);
	cr_assert_not_null(E.vt);
	vterm_set_utf8(E.vt, 1);
	E.screen = vterm_obtain_screen(E.vt);
	vterm_screen_reset(E.screen, 1);
}

/* Feeds what the program wrote to libvterm; waits at most ms. Returns 0 on EOF. */
static int e2e_pump(int ms)
{
	struct pollfd p = { .fd = E.fd, .events = POLLIN };
	char buf[8192];

	if (poll(&p, 1, ms) <= 0)
		return 1;
	ssize_t n = read(E.fd, buf, sizeof buf);
	if (n <= 0)
		return 0;   /* EIO: the child closed the pty */
	vterm_input_write(E.vt, buf, (size_t)n);
	return 1;
}

/* The screen as UTF-8 text. A static buffer: a failing assertion can quote it. */
static char *e2e_text(void)
{
	static char out[200 * (300 * 4 + 1) + 1];
	size_t len = 0;

	cr_assert(E.rows <= 200 && E.cols <= 300);
	for (int y = 0; y < E.rows; y++) {
		for (int x = 0; x < E.cols; x++) {
			VTermScreenCell c;
			VTermPos pos = { .row = y, .col = x };
			vterm_screen_get_cell(E.screen, pos, &c);
			uint32_t ch = c.chars[0] ? c.chars[0] : ' ';
			if (ch < 0x80) {
				out[len++] = (char)ch;
			} else if (ch < 0x800) {
				out[len++] = (char)(0xC0 | (ch >> 6));
				out[len++] = (char)(0x80 | (ch & 0x3F));
			} else {
				out[len++] = (char)(0xE0 | (ch >> 12));
				out[len++] = (char)(0x80 | ((ch >> 6) & 0x3F));
				out[len++] = (char)(0x80 | (ch & 0x3F));
			}
			if (c.width == 2)
				x++;
		}
		out[len++] = '\n';
	}
	out[len] = '\0';
	return out;
}

static void e2e_wait_text(const char *needle)
{
	double end = now_s() + E2E_TIMEOUT_S;

	for (;;) {
		char *t = e2e_text();
		int found = strstr(t, needle) != NULL;
		if (found)
			return;
		if (now_s() > end || !e2e_pump(200))
			cr_assert_fail("'%s' did not appear:\n%s", needle, t);
	}
}

static void e2e_send(const char *keys)
{
	cr_assert_eq(write(E.fd, keys, strlen(keys)), (ssize_t)strlen(keys));
}

/* Reads until the child closes the pty, then reaps it. */
static int e2e_wait_exit(void)
{
	double end = now_s() + E2E_TIMEOUT_S;

	while (e2e_pump(200))
		cr_assert(now_s() < end, "steno did not exit");
	cr_assert_eq(waitpid(E.pid, &E.status, 0), E.pid);
	E.exited = 1;
	return E.status;
}

static void e2e_stop(void)
{
	char cmd[300];

	if (E.pid > 0 && !E.exited) {
		kill(E.pid, SIGKILL);
		waitpid(E.pid, NULL, 0);
	}
	if (E.vt)
		vterm_free(E.vt);
	if (E.fd > 0)
		close(E.fd);
	if (E.dir[0]) {
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", E.dir);
		if (system(cmd) != 0)
			cr_log_warn("could not remove %s", E.dir);
	}
	if (have_sbx)
		sbx_stop(&S);
	have_sbx = 0;
}

static void with_sandbox(void)
{
	static const char *const args[] = { "--seed-demo", "30", NULL };
	cr_assert_eq(sbx_start(&S, args), 0);
	have_sbx = 1;
}

TestSuite(e2e, .fini = e2e_stop, .timeout = 60);

Test(e2e, starts_shows_the_list_and_q_quits)
{
	with_sandbox();
	e2e_start(30, 120, NULL, &S);
	e2e_wait_text("Transcriptions");
	e2e_wait_text("Entrevista");
	e2e_wait_text("online");
	e2e_send("j");
	e2e_wait_text("Vorlesung");   /* the details follow the cursor */
	e2e_send("q");
	int st = e2e_wait_exit();
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
}

Test(e2e, resize_relays_out)
{
	with_sandbox();
	e2e_start(30, 120, NULL, &S);
	e2e_wait_text("Entrevista");
	struct winsize ws = { .ws_row = 6, .ws_col = 30 };
	cr_assert_eq(ioctl(E.fd, TIOCSWINSZ, &ws), 0);
	kill(E.pid, SIGWINCH);
	/* A fresh terminal at the new size rather than vterm_set_size: libvterm 0.1.4 reads past
	 * its buffers when shrunk while output is in flight (valgrind shows it). steno repaints
	 * the whole screen after SIGWINCH, so the new terminal receives everything it needs. */
	vterm_free(E.vt);
	E.vt = vterm_new(6, 30);
	cr_assert_not_null(E.vt);
	vterm_set_utf8(E.vt, 1);
	E.screen = vterm_obtain_screen(E.vt);
	vterm_screen_reset(E.screen, 1);
	E.rows = 6;
	E.cols = 30;
	e2e_wait_text("terminal too small");
	e2e_send("q");
	int st = e2e_wait_exit();
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
}

Test(e2e, sandbox_mode_runs_its_own_sandbox)
{
	static const char *const args[] = { "--sandbox", NULL };
	e2e_start(30, 120, args, NULL);
	e2e_wait_text("Transcriptions");
	e2e_wait_text("online");
	e2e_wait_text("Commande n°4");   /* the demo's order outputs come first */
	e2e_send("q");
	int st = e2e_wait_exit();
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
}

/* --sandbox keeps its own state and cache beside its data, removed when steno exits: the
 * user's state and cache directories (the XDG ones of the run) get nothing, even after a
 * preview (which caches the transcript). */
Test(e2e, sandbox_mode_never_writes_into_the_users_state_or_cache)
{
	static const char *const args[] = { "--sandbox", NULL };
	char cmd[600];
	e2e_start(30, 120, args, NULL);
	e2e_wait_text("online");
	e2e_wait_text("Entrevista");
	e2e_send("jjp");   /* the third row of the demo is a finished transcription */
	e2e_wait_text("Speaker 1");
	e2e_send("q");
	e2e_wait_text("Transcriptions");
	e2e_send("q");
	int st = e2e_wait_exit();
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
	snprintf(cmd, sizeof cmd, "test -z \"$(find '%s/state' '%s/cache' -type f 2>/dev/null)\"",
		 E.dir, E.dir);
	cr_assert_eq(system(cmd), 0, "--sandbox wrote into the user's state or cache (%s)", E.dir);
}
