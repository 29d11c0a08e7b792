/* Issue 22: a lost reply to a create. The sandbox commits every POST and drops the answer to
 * some (--faults drop_post=P). A command that finds its item carries on (waits) and exits 0;
 * parallel commands creating items of the same name each report their own item or say
 * "ambiguous" (exit 3), never another's; the server holds exactly one item per command. */
#include "config.h"

#include <criterion/criterion.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_cli_util.h"

static struct sbx sb;
static struct cli_home home;

static void setup(void)
{
	static const char *const fast[] = {"--clock-speed", "1000", NULL};
	signal(SIGPIPE, SIG_IGN);
	cr_assert_eq(cli_fixture_start(&sb, &home, fast, "refresh_interval = 1\nrefresh_max = 1\n"), 0, "sandbox did not start");
}

static void teardown(void)
{
	cli_fixture_stop(&sb, &home);
}

TestSuite(cli_outcomes, .init = setup, .fini = teardown, .timeout = 240);

/* A signed URL of a fresh upload (made before the faults are on). */
static void media(char *url, size_t n)
{
	size_t len;
	void *wav = sbx_make_wav(2.0, &len);
	cr_assert_not_null(wav);
	cr_assert_eq(sbx_upload(&sb, "a.wav", wav, len, url, n), 0);
	free(wav);
}

/* Transcriptions of the organization named `name`, per the API's list (ids into ids). */
static int server_items(const char *name, char ids[][64], int max)
{
	char path[128];
	snprintf(path, sizeof path, "transcriptions?organization_id=%s", sb.org_id);
	long status = 0;
	json_object *o = sbx_call(&sb, "GET", path, NULL, &status);
	cr_assert(o && status == 200, "list: %ld", status);
	json_object *res = sbx_get(o, "results");
	int n = 0;
	for (size_t i = 0; res && i < json_object_array_length(res); i++) {
		json_object *t = json_object_array_get_idx(res, i);
		if (!strcmp(sbx_str(t, "name"), name) && n < max)
			snprintf(ids[n++], 64, "%s", sbx_str(t, "id"));
	}
	json_object_put(o);
	return n;
}

static bool has_event_found(const char *err)
{
	return strstr(err, "\"found_after_lost_reply\":true") != NULL;
}

Test(cli_outcomes, a_found_outcome_carries_on_and_exits_0)
{
	char url[512];
	media(url, sizeof url);
	cr_assert_eq(sbx_set_faults(&sb, "drop_post=1"), 0);
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"transcribe", url, "--name",
		     "Solo", "--language", "en-US", "--wait", "--json", NULL}), 0);
	cr_expect_eq(r.code, 0, "exit %d: %s", r.code, r.err);
	cr_expect(has_event_found(r.err), "%s", r.err);
	json_object *o = json_tokener_parse(r.out);
	cr_assert(o, "one JSON document: %s", r.out);
	cr_expect_str_eq(sbx_str(o, "state"), "automatic_done", "it waited: %s", r.out);
	char ids[8][64];
	cr_assert_eq(server_items("Solo", ids, 8), 1);
	cr_expect_str_eq(sbx_str(o, "id"), ids[0]);
	json_object_put(o);
	cli_result_free(&r);
	/* the people's form says it too, and the item is claimed: a second lookup for the same
	 * name does not take it */
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"transcribe", url, "--name",
		     "Solo", "--language", "en-US", NULL}), 0);
	cr_expect_eq(r.code, 0, "exit %d: %s", r.code, r.err);
	cr_expect(strstr(r.err, "no answer from the server, but transcription"), "%s", r.err);
	cr_expect(!strstr(r.err, ids[0]), "the first one's item is not claimed again: %s", r.err);
	cli_result_free(&r);
	cr_expect_eq(server_items("Solo", ids, 8), 2);
}

#define N_PAR 6

Test(cli_outcomes, parallel_creations_of_one_name_each_get_their_own_or_ambiguous)
{
	char url[N_PAR][512];
	for (int i = 0; i < N_PAR; i++)
		media(url[i], sizeof url[i]);
	cr_assert_eq(sbx_set_faults(&sb, "drop_post=0.5"), 0);
	pid_t pid[N_PAR];
	char outp[N_PAR][600], errp[N_PAR][600];
	for (int i = 0; i < N_PAR; i++) {
		snprintf(outp[i], sizeof outp[i], "%s/par.out.%d", home.dir, i);
		snprintf(errp[i], sizeof errp[i], "%s/par.err.%d", home.dir, i);
		const char *argv[] = {"transcribe", url[i], "--name", "Same", "--language", "en-US",
				      "--tags", "t1", "--wait", "--json", NULL};
		pid[i] = cli_spawn(&home, &sb, NULL, argv, outp[i], errp[i]);
		cr_assert(pid[i] > 0);
	}
	char mine[N_PAR][64];
	int n_mine = 0, n_found = 0, n_ambiguous = 0;
	for (int i = 0; i < N_PAR; i++) {
		int st = 0;
		cr_assert_eq(waitpid(pid[i], &st, 0), pid[i]);
		char *out = cli_read_file(outp[i]), *err = cli_read_file(errp[i]);
		cr_assert(out && err);
		cr_assert(WIFEXITED(st), "process %d: %s", i, err);
		json_object *o = json_tokener_parse(out);
		cr_assert(o, "process %d: stdout is one JSON document: %s / %s", i, out, err);
		int code = WEXITSTATUS(st);
		if (code == 0) {
			cr_expect_str_eq(sbx_str(o, "state"), "automatic_done", "%s", out);
			snprintf(mine[n_mine++], 64, "%s", sbx_str(o, "id"));
			n_found += has_event_found(err);
		} else {
			cr_expect_eq(code, 3, "process %d exit %d: %s", i, code, err);
			const char *c = sbx_str(o, "code");
			cr_expect(c && (!strcmp(c, "ambiguous") || !strcmp(c, "outcome_unknown")),
				  "%s", out);
			cr_expect_eq(json_object_get_int(sbx_get(o, "exit")), 3, "%s", out);
			if (c && !strcmp(c, "ambiguous")) {
				n_ambiguous++;
				cr_expect(strstr(err, "ambiguous"), "%s", err);
				cr_expect(json_object_array_length(sbx_get(o, "candidates")) >= 1, "%s", out);
			}
		}
		json_object_put(o);
		free(out);
		free(err);
	}
	/* no two commands report the same item */
	for (int i = 0; i < n_mine; i++)
		for (int k = i + 1; k < n_mine; k++)
			cr_expect_str_neq(mine[i], mine[k], "two commands report %s", mine[i]);
	char ids[32][64];
	int n = server_items("Same", ids, 32);
	cr_expect_eq(n, N_PAR, "one item per command on the server: %d", n);
	for (int i = 0; i < n_mine; i++) {
		bool there = false;
		for (int k = 0; k < n; k++)
			there = there || !strcmp(ids[k], mine[i]);
		cr_expect(there, "%s is on the server", mine[i]);
	}
	cr_log_info("%d own (%d found after a lost reply), %d ambiguous", n_mine, n_found,
		    n_ambiguous);
	cr_expect_eq(sbx_reads(&sb, "/transcriptions", "received") >= 0, 1);
}

/* ---- an id that exists is never lost ---- */

static void setup_slow(void)
{
	static const char *const slow[] = {"--clock-speed", "0.001", NULL};
	signal(SIGPIPE, SIG_IGN);
	cr_assert_eq(cli_fixture_start(&sb, &home, slow, "refresh_interval = 1\nrefresh_max = 1\n"), 0, "sandbox did not start");
}

/* A suite of its own: Criterion runs a suite's .init before a test's own, and the fast
 * sandbox and home it made were left behind. */
TestSuite(cli_outcomes_slow, .init = setup_slow, .fini = teardown, .timeout = 240);

/* Waits until file holds `what` (up to 60 s); its content, malloc'd, or NULL. */
static char *wait_for_text(const char *path, const char *what)
{
	for (int i = 0; i < 600; i++) {
		char *s = cli_read_file(path);
		if (s && strstr(s, what))
			return s;
		free(s);
		struct timespec ts = {0, 100 * 1000000};
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/* Each creating command with --wait says the id at once (a JSON event on stderr with
 * --json, stdout kept for its one document), and an interrupted wait names it again. */
Test(cli_outcomes_slow, an_interrupted_wait_names_what_was_created)
{
	char url[512];
	media(url, sizeof url);
	const char *const cmds[][10] = {
		{"transcribe", url, "--language", "en-US", "--wait", "--json", NULL},
		{"order", "create", url, "--language", "en-US", "--confirm", "--wait", "--json", NULL},
		{"order", "create", url, "--language", "en-US", "--confirm", "--wait", NULL},
	};
	const char *const kinds[] = {"transcription", "order", "order"};
	for (size_t k = 0; k < 3; k++) {
		char outp[600], errp[600];
		snprintf(outp, sizeof outp, "%s/int.out.%zu", home.dir, k);
		snprintf(errp, sizeof errp, "%s/int.err.%zu", home.dir, k);
		pid_t pid = cli_spawn(&home, &sb, NULL, cmds[k], outp, errp);
		cr_assert(pid > 0);
		bool json = k < 2;
		char *err = wait_for_text(errp, json ? "{\"event\":\"created\"" : " created");
		cr_assert_not_null(err, "%s: the id is said as soon as it exists", cmds[k][0]);
		char id[64] = "";
		const char *p = json ? strstr(err, "\"id\":\"") : strstr(err, kinds[k]);
		cr_assert_not_null(p, "%s", err);
		if (json)
			sscanf(p + 6, "%63[0-9a-zA-Z_-]", id);
		else
			sscanf(p + strlen(kinds[k]) + 1, "%63[0-9a-zA-Z_-]", id);
		cr_assert(id[0], "%s", err);
		free(err);
		kill(pid, SIGINT);
		int st = 0;
		cr_assert_eq(waitpid(pid, &st, 0), pid);
		cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 130, "%s: status %d", cmds[k][0], st);
		err = cli_read_file(errp);
		char *out = cli_read_file(outp);
		cr_assert(err && out);
		/* named again, after "interrupted" */
		const char *intr = strstr(err, "interrupted");
		cr_expect(intr && strstr(intr, id), "%s: the id again after the interrupt: %s",
			  cmds[k][0], err);
		if (json) {
			json_object *o = json_tokener_parse(out);
			cr_assert(o, "one document: %s", out);
			cr_expect_str_eq(sbx_str(o, "code"), "interrupted");
			json_object *c = sbx_get(o, "created");
			cr_assert(c && json_object_array_length(c) == 1, "%s", out);
			cr_expect_str_eq(sbx_str(json_object_array_get_idx(c, 0), "id"), id);
			cr_expect_str_eq(sbx_str(json_object_array_get_idx(c, 0), "kind"), kinds[k]);
			json_object_put(o);
		}
		free(err);
		free(out);
	}
}

/* --timeout D on a --wait: the wait is given up after D (exit 1, code timeout) and what was
 * created is named again. */
Test(cli_outcomes_slow, a_wait_gives_up_at_its_timeout)
{
	char url[512];
	media(url, sizeof url);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"transcribe", url,
		     "--language", "en-US", "--wait", "--timeout", "2s", "--json", NULL}), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double took = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	cr_expect_eq(r.code, 1, "%s", r.err);
	cr_expect(took >= 2.0 && took < 30, "%.1f s", took);
	json_object *o = json_tokener_parse(r.out);
	cr_assert(o, "%s", r.out);
	cr_expect_str_eq(sbx_str(o, "code"), "timeout");
	const char *id = sbx_str(json_object_array_get_idx(sbx_get(o, "created"), 0), "id");
	cr_assert(id, "%s", r.out);
	const char *gave = strstr(r.err, "gave up waiting");
	cr_expect(gave && strstr(gave, id), "named again: %s", r.err);
	json_object_put(o);
	cli_result_free(&r);
}

/* --timeout counts from when the item exists: a slow server (each answer 1 s late) takes
 * longer than D to upload and create, and the transcription is created all the same; the
 * wait then gives up D after the create's answer, naming it. */
Test(cli_outcomes_slow, a_wait_timeout_counts_from_the_create)
{
	char wav[1024];
	cli_home_wav(&home, "tone.wav", 2.0, wav, sizeof wav);
	cr_assert(wav[0]);
	cr_assert_eq(sbx_set_faults(&sb, "latency=1:1000ms"), 0);
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"transcribe", wav,
		     "--language", "en-US", "--name", "slow-create", "--wait", "--timeout", "2s",
		     "--json", NULL}), 0);
	cr_assert_eq(sbx_set_faults(&sb, "none"), 0);
	cr_expect_eq(r.code, 1, "%s", r.err);
	char ids[4][64];
	cr_assert_eq(server_items("slow-create", ids, 4), 1, "created: %s", r.err);
	json_object *o = json_tokener_parse(r.out);
	cr_assert(o, "%s", r.out);
	cr_expect_str_eq(sbx_str(o, "code"), "timeout");
	const char *gave = strstr(r.err, "gave up waiting");
	cr_expect(gave && strstr(gave, ids[0]), "named again: %s", r.err);
	json_object_put(o);
	cli_result_free(&r);
}

/* download -o - writes the file to stdout, and leaves nothing behind. */
Test(cli_outcomes, download_to_stdout)
{
	char url[512];
	media(url, sizeof url);
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"transcribe", url,
		     "--language", "en-US", "--name", "To stdout", "--wait", "--json", NULL}), 0);
	cr_assert_eq(r.code, 0, "%s", r.err);
	json_object *o = json_tokener_parse(r.out);
	char tid[64];
	snprintf(tid, sizeof tid, "%s", sbx_str(o, "id"));
	json_object_put(o);
	cli_result_free(&r);
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"export", tid, "--format",
		     "txt", "--json", NULL}), 0);
	cr_assert_eq(r.code, 0, "%s", r.err);
	o = json_tokener_parse(r.out);
	char eid[64];
	snprintf(eid, sizeof eid, "%s", sbx_str(o, "id"));
	json_object_put(o);
	cli_result_free(&r);
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"download", eid, "--wait",
		     "-o", "-", NULL}), 0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strlen(r.out) > 0 && !strstr(r.out, "To stdout-"), "the file, not its path: %s",
		  r.out);
	cli_result_free(&r);
	char dash[700];
	cli_home_path(&home, "-", dash, sizeof dash);
	cr_expect_neq(access(dash, F_OK), 0, "no file named -");
}
