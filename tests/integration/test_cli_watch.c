/* steno watch against a sandbox on real time (a short transcription takes ~5 s): one line per state change until the
 * items named settle, JSON lines, exit codes, kinds, ids that do not exist. watch --list against a sandbox whose
 * clock stands nearly still: an item another client creates is printed within one live interval, its later
 * states follow, SIGINT ends it with 130. An idle watch --list (every timer minutes away) sleeps:
 * its wakeups, counted by the kernel, stay near zero, and SIGINT still ends it at once. */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "test_cli_util.h"

#define RUN(res, ...) \
	cr_assert_eq(cli_exec(res, &home, &sb, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

static struct sbx sb;
static struct cli_home home;
static struct sbx_receiver *rc;

static void setup(void)
{
	/* states last seconds; under valgrind steno takes seconds to start, so they last longer
	 * there (its first read came after a 5 s transcription had ended) */
	static const char *const fast[] = {"--clock-speed", "1", NULL};
	static const char *const slow[] = {"--clock-speed", "0.2", NULL};
	cr_assert_eq(sbx_start(&sb, getenv("STENO_UNDER_VALGRIND") ? slow : fast), 0,
		     "sandbox did not start");
	cr_assert_eq(cli_home_init(&home), 0);
	cr_assert_eq(cli_home_config(&home, "refresh_interval = 1\nrefresh_max = 1\n"), 0);
	rc = sbx_receiver_start(3.0, NULL, NULL, 0);
	cr_assert_not_null(rc);
}

static void teardown(void)
{
	sbx_receiver_stop(rc);
	sbx_stop(&sb);
	cli_home_free(&home);
}

TestSuite(watch, .init = setup, .fini = teardown, .timeout = 120);

/* A transcription of media at url; its id into id. */
static void create(const char *url, char *id, size_t n)
{
	char body[512];
	long status = 0;

	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"w\",\"language\":\"en-US\","
		 "\"tmp_url\":\"%s\",\"organization_id\":\"%s\"}}", url, sb.org_id);
	json_object *o = sbx_call(&sb, "POST", "transcriptions", body, &status);
	cr_assert_eq(status, 201);
	snprintf(id, n, "%s", sbx_str(o, "id"));
	json_object_put(o);
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

Test(watch, one_line_per_change_until_done)
{
	char url[300], id[64], last[160];
	struct cli_result r;

	snprintf(url, sizeof url, "%s/media.wav", sbx_receiver_origin(rc));
	create(url, id, sizeof id);
	RUN(&r, "watch", id);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect_geq(lines(r.out), 2, "from its first state to done:\n%s", r.out);
	snprintf(last, sizeof last, "transcription %s automatic_done\n", id);
	size_t len = strlen(r.out), ll = strlen(last);
	cr_expect(len >= ll && !strcmp(r.out + len - ll, last), "%s", r.out);
	/* no state printed twice in a row */
	for (char *a = r.out, *b; (b = strchr(a, '\n')) && b[1]; a = b + 1) {
		char *c = strchr(b + 1, '\n');
		cr_expect(!c || (size_t)(c - b) != (size_t)(b - a + 1) ||
			  strncmp(a, b + 1, (size_t)(b - a)), "repeated: %s", r.out);
	}
	cli_result_free(&r);
}

Test(watch, json_lines_and_exit_1_when_one_failed)
{
	char ok_url[300], ok[64], bad[64];
	struct cli_result r;

	snprintf(ok_url, sizeof ok_url, "%s/media.wav", sbx_receiver_origin(rc));
	create(ok_url, ok, sizeof ok);
	create("http://127.0.0.1:1/none.wav", bad, sizeof bad);
	RUN(&r, "watch", "--json", ok, bad);
	cr_expect_eq(r.code, 1, "one failed: %s", r.err);
	bool ok_done = false, bad_failed = false;
	for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
		json_object *o = json_tokener_parse(line);
		cr_assert_not_null(o, "not a JSON line: %s", line);
		if (sbx_get(o, "code")) {   /* the failure object, the last line (issue 22) */
			cr_expect_str_eq(sbx_str(o, "code"), "job_failed", "%s", line);
			cr_expect_null(strtok(NULL, "\n"), "the failure object comes last");
			json_object_put(o);
			break;
		}
		const char *id = sbx_str(o, "id"), *st = sbx_str(o, "state");
		cr_expect_str_eq(sbx_str(o, "kind"), "transcription");
		if (!strcmp(id, ok) && !strcmp(st, "automatic_done"))
			ok_done = json_object_get_boolean(sbx_get(o, "settled"));
		if (!strcmp(id, bad) && !strcmp(st, "failed"))
			bad_failed = json_object_get_boolean(sbx_get(o, "failed"));
		json_object_put(o);
	}
	cr_expect(ok_done && bad_failed);
	cli_result_free(&r);
}

Test(watch, unknown_ids_end_it_with_exit_1)
{
	struct cli_result r;

	RUN(&r, "watch", "0123456789abcdef0123456789abcdef", "order:999999");
	cr_expect_eq(r.code, 1, "%s", r.err);
	cr_expect(strstr(r.out, "transcription 0123456789abcdef0123456789abcdef not found"), "%s",
		  r.out);
	cr_expect(strstr(r.out, "order 999999 not found"), "%s", r.out);
	cli_result_free(&r);
	RUN(&r, "watch");
	cr_expect_eq(r.code, 2, "nothing to watch is a usage error");
	cli_result_free(&r);
}

/* ---- watch --list ---- */

#define LIVE_S 5   /* refresh = 5: the live list's shortest interval */

static void setup_still(void)
{
	/* the sandbox's clock stands nearly still: states move only when the test jumps it */
	static const char *const still[] = {"--clock-speed", "0.001", NULL};
	cr_assert_eq(sbx_start(&sb, still), 0, "sandbox did not start");
	cr_assert_eq(cli_home_init(&home), 0);
	cr_assert_eq(cli_home_config(&home, "refresh = 5\nrefresh_interval = 1\nrefresh_max = 1\n"), 0);
	rc = sbx_receiver_start(30.0, NULL, NULL, 0);
	cr_assert_not_null(rc);
}

static pid_t watch_pid;   /* the running watch, killed if the test ends before it */

static void teardown_list(void)
{
	if (watch_pid > 0) {
		kill(watch_pid, SIGKILL);
		waitpid(watch_pid, NULL, 0);
	}
	teardown();
}

TestSuite(watch_list, .init = setup_still, .fini = teardown_list, .timeout = 120);

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The states printed so far for id (in the JSON lines of the file at path), in order, into
 * states (at most max); their number. Every complete line must parse. */
static int states_of(const char *path, const char *id, char states[][40], int max)
{
	char *text = cli_read_file(path);
	int n = 0;

	for (char *line = text, *end; line && (end = strchr(line, '\n')); line = end + 1) {
		*end = '\0';
		json_object *o = json_tokener_parse(line);
		cr_assert_not_null(o, "not a JSON line: %s", line);
		const char *st = sbx_str(o, "state");
		if (sbx_str(o, "id") && !strcmp(sbx_str(o, "id"), id) && st && n < max)
			snprintf(states[n++], 40, "%s", st);
		json_object_put(o);
	}
	free(text);
	return n;
}

/* Waits up to seconds until a line for id is printed (with that state, when not NULL). */
static bool printed(const char *path, const char *id, const char *state, double seconds)
{
	char states[16][40];

	for (double end = mono_s() + seconds;; ) {
		int n = states_of(path, id, states, 16);
		for (int i = 0; i < n; i++)
			if (!state || !strcmp(states[i], state))
				return true;
		if (mono_s() > end)
			return false;
		nanosleep(&(struct timespec){0, 50 * 1000000}, NULL);
	}
}

/* Starts `steno watch --list --json`, stdout and stderr into the home's watch.out and
 * watch.err (their paths into outp and errp, 600 bytes each). */
static pid_t spawn_list_watch(char *outp, char *errp)
{
	cli_home_path(&home, "watch.out", outp, 600);
	cli_home_path(&home, "watch.err", errp, 600);
	pid_t pid = watch_pid = cli_spawn(&home, &sb, NULL,
					  (const char *const[]){"watch", "--list", "--json", NULL}, outp, errp);
	cr_assert_gt(pid, 0);
	return pid;
}

/* Sends SIGINT to the watch and waits, at most `seconds`, for its end: its wait status. */
static int interrupt_watch(pid_t pid, double seconds)
{
	int st = 0;

	cr_assert_eq(kill(pid, SIGINT), 0);
	for (double end = mono_s() + seconds; waitpid(pid, &st, WNOHANG) == 0; ) {
		cr_assert(mono_s() < end, "SIGINT did not end it within %.0f s", seconds);
		nanosleep(&(struct timespec){0, 20 * 1000000}, NULL);
	}
	watch_pid = 0;
	return st;
}

Test(watch_list, a_new_item_and_its_changes_are_printed_until_sigint)
{
	char url[300], before[64], fresh[64], outp[600], errp[600], states[16][40];

	snprintf(url, sizeof url, "%s/media.wav", sbx_receiver_origin(rc));
	create(url, before, sizeof before);
	pid_t pid = spawn_list_watch(outp, errp);
	/* the list's first read: the item already there is printed with its state */
	cr_assert(printed(outp, before, NULL, 60), "the listed item was not printed");
	/* another client creates one: the live re-read finds it, with no other trigger */
	double t0 = mono_s();
	create(url, fresh, sizeof fresh);
	cr_assert(printed(outp, fresh, NULL, 4 * LIVE_S), "a new item was never printed");
	double took = mono_s() - t0;
	cr_expect_leq(took, LIVE_S + 4, "printed %.1f s after its creation, the list is read every %d s",
		      took, LIVE_S);
	cr_expect_eq(states_of(outp, fresh, states, 16), 1);
	cr_expect_neq(strcmp(states[0], "automatic_done"), 0, "first seen while it works: %s", states[0]);
	/* its later changes: the sandbox's clock jumps until it is done (one or two steps) */
	for (int jump = 0; jump < 3 && !printed(outp, fresh, "automatic_done", 0); jump++) {
		cr_assert_eq(sbx_advance(&sb, 8 * 3600), 0);
		printed(outp, fresh, "automatic_done", 8);
	}
	cr_assert(printed(outp, fresh, "automatic_done", 0), "its end was not printed");
	int n = states_of(outp, fresh, states, 16);
	for (int i = 1; i < n; i++)
		cr_expect_neq(strcmp(states[i - 1], states[i]), 0, "%s printed twice", states[i]);
	/* a list watch has no end of its own: SIGINT ends it, 130 as the man page says */
	int st = interrupt_watch(pid, 30);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 130, "status %d", st);
	char *out = cli_read_file(outp), *err = cli_read_file(errp);
	cr_assert(out && err);
	cr_expect(strstr(err, "interrupted"), "%s", err);
	cr_expect(!strstr(err, "Sanitizer") && !strstr(err, "runtime error:"), "%s", err);
	/* JSON lines to the end: the failure object of --json is one line too, the last */
	size_t len = strlen(out);
	cr_assert(len > 0 && out[len - 1] == '\n', "%s", out);
	out[len - 1] = '\0';
	char *last = strrchr(out, '\n');
	json_object *o = json_tokener_parse(last ? last + 1 : out);
	cr_assert_not_null(o, "the last line is not JSON:\n%s", out);
	cr_expect_str_eq(sbx_str(o, "code"), "interrupted");
	json_object_put(o);
	states_of(outp, fresh, states, 16);   /* every line parses */
	free(out);
	free(err);
}

/* ---- an idle watch --list sleeps ---- */

static void setup_idle(void)
{
	static const char *const still[] = {"--clock-speed", "0.001", NULL};
	cr_assert_eq(sbx_start(&sb, still), 0, "sandbox did not start");
	cr_assert_eq(cli_home_init(&home), 0);
	/* every timer of the watch is ten minutes away */
	cr_assert_eq(cli_home_config(&home, "refresh = 600\nrefresh_interval = 600\n"
				     "refresh_max = 600\n"), 0);
	rc = sbx_receiver_start(30.0, NULL, NULL, 0);
	cr_assert_not_null(rc);
}

TestSuite(watch_idle, .init = setup_idle, .fini = teardown_list, .timeout = 120);

/* The times the process went to sleep of its own will (voluntary_ctxt_switches, summed over
 * its threads), as the kernel counts them; -1 when it cannot be read. */
static long wakeups(pid_t pid)
{
	char dir[64], path[400], line[256];
	long sum = 0;

	snprintf(dir, sizeof dir, "/proc/%d/task", (int)pid);
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d)); ) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s/status", dir, e->d_name);
		FILE *f = fopen(path, "r");
		while (f && fgets(line, sizeof line, f))
			if (!strncmp(line, "voluntary_ctxt_switches:", 24))
				sum += strtol(line + 24, NULL, 10);
		if (f)
			fclose(f);
	}
	closedir(d);
	return sum;
}

Test(watch_idle, no_wakeup_while_nothing_is_due_and_sigint_still_ends_it_at_once)
{
	char url[300], id[64], outp[600], errp[600];

	snprintf(url, sizeof url, "%s/media.wav", sbx_receiver_origin(rc));
	create(url, id, sizeof id);
	pid_t pid = spawn_list_watch(outp, errp);
	cr_assert(printed(outp, id, NULL, 60), "the listed item was not printed");
	/* the first reads are over; nothing is due for ten minutes. A loop that wakes once a
	 * second would count 8 or more in 8 s (fewer only if the machine stalls it for seconds) */
	nanosleep(&(struct timespec){2, 0}, NULL);
	long w0 = wakeups(pid);
	nanosleep(&(struct timespec){8, 0}, NULL);
	long w1 = wakeups(pid);
	cr_assert(w0 >= 0 && w1 >= w0, "/proc/%d/task/*/status unreadable", (int)pid);
	cr_expect_leq(w1 - w0, 2, "%ld wakeups in 8 s with nothing due", w1 - w0);
	/* with no timer near, only the signal wakes it: SIGINT ends it, 130 */
	int st = interrupt_watch(pid, 10);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 130, "status %d", st);
	char *err = cli_read_file(errp);
	cr_expect(err && strstr(err, "interrupted"), "%s", err ? err : "");
	free(err);
}

/* `steno watch --list | head -n 1`: head goes away after the first line and the watch has
 * nothing more to write for ten minutes. It sees the closed pipe at once all the same
 * (POLLERR on stdout in its wait), not at a next write: exit 141, as other commands. */
Test(watch_idle, a_pipe_closed_by_its_reader_ends_it_at_once)
{
	char url[300], id[64], bin[1100];

	snprintf(url, sizeof url, "%s/media.wav", sbx_receiver_origin(rc));
	create(url, id, sizeof id);
	snprintf(bin, sizeof bin, "STENO_BIN_PIPED=%s", getenv("STENO_BIN"));
	const char *env[] = {bin, NULL};
	/* the reader's end is closed when the { } group ends, just after it notes the time */
	static const char script[] =
		"timeout 30 \"$STENO_BIN_PIPED\" watch --list | { head -n 1; date +%s%N >\"$HOME/closed\"; }\n"
		"st=${PIPESTATUS[0]}; echo \"end=$(date +%s%N) status=$st\"\n";
	struct cli_result r;
	cr_assert_eq(cli_exec_prog(&r, &home, &sb, env, "/bin/bash",
				   (const char *const[]){"-c", script, NULL}), 0);
	cr_assert_eq(r.code, 0, "%s", r.err);
	char closed_path[600];
	cli_home_path(&home, "home/closed", closed_path, sizeof closed_path);
	char *closed = cli_read_file(closed_path), *end = strstr(r.out, "end="),
	     *status = strstr(r.out, "status=");
	cr_assert(closed && end && status, "%s\n%s", r.out, r.err);
	cr_expect(strstr(r.out, id) && strstr(r.out, id) < end, "the first line: %s", r.out);
	cr_expect_eq(atoi(status + 7), 141, "exit status: %s\n%s", r.out, r.err);
	double took = (double)(strtoll(end + 4, NULL, 10) - strtoll(closed, NULL, 10)) / 1e9;
	cr_expect_leq(took, 3.0, "it ended %.1f s after its reader", took);
	cr_expect(!strstr(r.err, "Sanitizer") && !strstr(r.err, "runtime error:"), "%s", r.err);
	free(closed);
	cli_result_free(&r);
}
