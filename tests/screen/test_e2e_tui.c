/* End-to-end runs of the real steno binary ($STENO_BIN) on a pty, the screen kept by
 * libvterm: it starts, shows the list, `q` quits with status 0; `--sandbox` runs its own
 * sandbox; a resize relays out. Every wait is for text to appear, never a fixed sleep. */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <vterm.h>

#include "../integration/sandbox_fixture.h"

/* seconds for a screen to come; under valgrind on a busy machine, steno --sandbox took
 * more than 20 to be online */
#define E2E_TIMEOUT_S (getenv("STENO_UNDER_VALGRIND") ? 60.0 : 20.0)

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
static char reuse_dir[256];   /* set: the next e2e_start runs in this dir (its state) */

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

static void e2e_start_cfg(int rows, int cols, const char *const *args, const struct sbx *s,
			  const char *config_text);

static void e2e_start(int rows, int cols, const char *const *args, const struct sbx *s)
{
	e2e_start_cfg(rows, cols, args, s, NULL);
}

/* Writes DIR/config/steno/config (the child's XDG_CONFIG_HOME is DIR/config). */
static void e2e_config(const char *text)
{
	char path[300];

	snprintf(path, sizeof path, "%s/config", E.dir);
	cr_assert(mkdir(path, 0700) == 0 || errno == EEXIST);
	snprintf(path, sizeof path, "%s/config/steno", E.dir);
	cr_assert(mkdir(path, 0700) == 0 || errno == EEXIST);
	snprintf(path, sizeof path, "%s/config/steno/config", E.dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

static void e2e_start_cfg(int rows, int cols, const char *const *args, const struct sbx *s,
			  const char *config_text)
{
	const char *bin = getenv("STENO_BIN");
	const char *argv[8] = { bin };
	struct winsize ws = { .ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols };

	cr_assert_not_null(bin, "STENO_BIN is not set");
	for (int i = 0; args && args[i] && i < 6; i++)
		argv[i + 1] = args[i];
	memset(&E, 0, sizeof E);
	snprintf(E.dir, sizeof E.dir, "%s", reuse_dir[0] ? reuse_dir : "/tmp/steno-e2e-XXXXXX");
	cr_assert(reuse_dir[0] || mkdtemp(E.dir));
	reuse_dir[0] = '\0';
	E.rows = rows;
	E.cols = cols;
	if (config_text)
		e2e_config(config_text);
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

TestSuite(e2e, .fini = e2e_stop, .timeout = 180);

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

/* Runs until a screen line holds both needles (no key sent); fails after max_s. */
static void e2e_wait_line(const char *a, const char *b, double max_s)
{
	double end = now_s() + max_s;

	for (;;) {
		char *t = e2e_text();
		for (char *line = t, *nl; line && *line; line = nl ? nl + 1 : NULL) {
			nl = strchr(line, '\n');
			size_t n = nl ? (size_t)(nl - line) : strlen(line);
			char one[1400];
			snprintf(one, sizeof one, "%.*s", (int)n, line);
			if (strstr(one, a) && strstr(one, b))
				return;
		}
		if (now_s() > end || !e2e_pump(200))
			cr_assert_fail("no line with '%s' and '%s' after %.0f s:\n%s", a, b, max_s, t);
	}
}

Test(e2e, an_item_made_by_another_process_appears_with_no_key_and_moves_on)
{
	struct sbx_receiver *rc = sbx_receiver_start(3.0, NULL, NULL, 0);
	char body[512];
	long status = 0;

	cr_assert_not_null(rc);
	with_sandbox();
	e2e_start_cfg(30, 120, NULL, &S, "refresh = 5\n");
	e2e_wait_text("Entrevista");
	e2e_wait_text("online");
	/* this test process is the other client: it creates through the API */
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"From elsewhere\","
		 "\"language\":\"en-US\",\"tmp_url\":\"%s/media.wav\",\"organization_id\":\"%s\"}}",
		 sbx_receiver_origin(rc), S.org_id);
	double t0 = now_s();
	json_object *o = sbx_call(&S, "POST", "transcriptions", body, &status);
	cr_assert_eq(status, 201);
	json_object_put(o);
	e2e_wait_line("From elsewhere", "", 8);
	cr_assert(now_s() - t0 < 7, "within one refresh interval (5 s) and a read: %.1f s",
		  now_s() - t0);
	/* its later states arrive by themselves: ingesting, transcribing, then done */
	e2e_wait_line("From elsewhere", "done", 20);
	e2e_send("q");
	int st = e2e_wait_exit();
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
	sbx_receiver_stop(rc);
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

/* The whole state file of the run in E.dir (caller frees; "" when there is none). */
static char *state_text(void)
{
	char path[300], *buf = NULL;
	size_t len = 0;
	snprintf(path, sizeof path, "%s/state/steno/state.json", E.dir);
	FILE *in = fopen(path, "r"), *mem = open_memstream(&buf, &len);
	cr_assert_not_null(mem);
	for (int c; in && (c = fgetc(in)) != EOF;)
		fputc(c, mem);
	if (in)
		fclose(in);
	fclose(mem);
	return buf;
}

/* A dialog's choices made on a configured server are remembered in the user's state file;
 * --sandbox then, with the same state directory, neither offers them nor writes anything
 * into that file. */
Test(e2e, remembered_choices_stay_with_their_server)
{
	with_sandbox();
	e2e_start(30, 120, NULL, &S);
	e2e_wait_text("online");
	e2e_send("a");
	e2e_wait_text("New transcription");
	e2e_send("Talk\tgerman");
	e2e_wait_text("de-DE");
	e2e_send("\r\t\thttp://127.0.0.1:9/a.wav\x1bOQ");   /* F2: create */
	e2e_wait_text("Created transcription");
	e2e_send("\rq");
	int st = e2e_wait_exit();
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
	char *before = state_text();
	cr_assert(strstr(before, "\"de-DE\""), "the language is not remembered:\n%s", before);
	snprintf(reuse_dir, sizeof reuse_dir, "%s", E.dir);
	vterm_free(E.vt);
	close(E.fd);
	static const char *const args[] = { "--sandbox", NULL };
	e2e_start(30, 120, args, NULL);
	e2e_wait_text("online");
	e2e_send("a");
	e2e_wait_text("en-US  English (United States)");
	const char *t = e2e_text();
	cr_assert_null(strstr(t, "German (Germany)"), "a choice of another server is offered:\n%s", t);
	e2e_send("\x1b");
	e2e_wait_text("q:quit");
	e2e_send("q");
	st = e2e_wait_exit();
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d", st);
	char *after = state_text();
	cr_assert_str_eq(after, before, "--sandbox wrote into the user's state file");
	free(before);
	free(after);
}

/* The pids of the steno-sandbox processes whose arguments mention text (its --data dir). */
static int sandboxes_mentioning(const char *text, pid_t *out, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	cr_assert_not_null(d);
	while (n < max && (e = readdir(d))) {
		char path[300], buf[8192];
		int pid = atoi(e->d_name);
		if (pid <= 0)
			continue;
		snprintf(path, sizeof path, "/proc/%d/cmdline", pid);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t len = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[len] = '\0';
		const char *base = strrchr(buf, '/');
		if (strcmp(base ? base + 1 : buf, "steno-sandbox") != 0)
			continue;
		for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
			if (strstr(buf + i, text)) {
				out[n++] = pid;
				break;
			}
	}
	closedir(d);
	return n;
}

/* A process gone or a zombie of someone else's (it does not run any more). */
static int process_gone(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 1;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *close_paren = strrchr(buf, ')');
	return close_paren && close_paren[1] == ' ' && close_paren[2] == 'Z';
}

/* Runs `steno --sandbox` with its temporary directory in E.dir/tmp, ends it by `how` (a
 * signal's number, SANDBOX_BY_CTRL_BACKSLASH: the key ^\ typed, or 0: the terminal hangs up,
 * the pty's master is closed), and finds no steno-sandbox-* directory and no steno-sandbox
 * process left. A signal or ^\ must end steno by its own exit (130, as an interrupted
 * command), not by the signal: only then has curses been ended. */
#define SANDBOX_BY_CTRL_BACKSLASH (-1)
static void sandbox_ends_clean(int how)
{
	static const char *const args[] = { "--sandbox", NULL };
	char tmp[64] = "/tmp/steno-e2e-tmp-XXXXXX", glob_cmd[400];
	pid_t sb[4];
	cr_assert_not_null(mkdtemp(tmp));
	setenv("TMPDIR", tmp, 1);   /* the child inherits it: its sandbox directory goes there */
	e2e_start(30, 120, args, NULL);
	e2e_wait_text("online");
	e2e_wait_text("Commande n°4");
	int n = sandboxes_mentioning(tmp, sb, 4);
	cr_assert_eq(n, 1, "not one sandbox running in %s (%d)", tmp, n);
	if (how) {
		if (how == SANDBOX_BY_CTRL_BACKSLASH)
			e2e_send("\x1c");   /* ^\: the terminal's QUIT character, if ISIG is on */
		else
			cr_assert_eq(kill(E.pid, how), 0);
		int st = e2e_wait_exit();
		cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 130,
			  "steno did not leave by itself with 130 (status 0x%x)", (unsigned)st);
	} else {
		close(E.fd);
		E.fd = -1;
		double end = now_s() + E2E_TIMEOUT_S;
		while (waitpid(E.pid, &E.status, WNOHANG) != E.pid) {
			cr_assert(now_s() < end, "steno did not exit on hang-up");
			struct timespec ts = { 0, 20 * 1000000 };
			nanosleep(&ts, NULL);
		}
		E.exited = 1;
	}
	snprintf(glob_cmd, sizeof glob_cmd, "test -z \"$(ls -A '%s')\"", tmp);
	cr_assert_eq(system(glob_cmd), 0, "a sandbox directory is left in %s", tmp);
	double end = now_s() + E2E_TIMEOUT_S;
	while (!process_gone(sb[0]))
		cr_assert(now_s() < end, "the sandbox (pid %d) still runs", (int)sb[0]);
	rmdir(tmp);
}

Test(e2e, sandbox_mode_ends_clean_on_sighup)
{
	sandbox_ends_clean(SIGHUP);
}

Test(e2e, sandbox_mode_ends_clean_on_sigterm)
{
	sandbox_ends_clean(SIGTERM);
}

Test(e2e, sandbox_mode_ends_clean_on_sigint)
{
	sandbox_ends_clean(SIGINT);
}

Test(e2e, sandbox_mode_ends_clean_on_sigquit)
{
	sandbox_ends_clean(SIGQUIT);
}

Test(e2e, sandbox_mode_ends_clean_on_ctrl_backslash)
{
	sandbox_ends_clean(SANDBOX_BY_CTRL_BACKSLASH);
}

Test(e2e, sandbox_mode_ends_clean_when_the_terminal_hangs_up)
{
	sandbox_ends_clean(0);
}
