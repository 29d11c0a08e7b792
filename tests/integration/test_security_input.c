/* Security against hostile server input, end to end through the steno binary (issue 7):
 * server-supplied names cannot escape the download directory (an export whose id and link
 * basename are ../../x or absolute), and no server string (names, tags, failure reasons,
 * editor links, error bodies) carries a terminal control sequence (ESC/CSI/OSC/DCS, C1,
 * BEL, bidi overrides) into steno's tables, --json output or error messages. The TUI's
 * download path (the download job, core/jobs_download, named after the link) is driven
 * directly. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/http.h"
#include "core/jobs.h"
#include "security_server.h"
#include "test_cli_util.h"

static struct sec_server api, files;
static struct cli_home home;

static void setup(void)
{
	cr_assert_eq(cli_home_init(&home), 0);
	cr_assert_eq(sec_server_start(&api), 0);
	cr_assert_eq(sec_server_start(&files), 0);
}

static void teardown(void)
{
	sec_server_stop(&api);
	sec_server_stop(&files);
	cli_home_free(&home);
}

static int run(struct cli_result *r, const char *const *args)
{
	char base[128];
	snprintf(base, sizeof base, "STENO_BASE_URL=%s/api/v1", api.origin);
	const char *const env[] = {base, "STENO_API_KEY=sk-hostile-test", "STENO_ORG_ID=1", NULL};
	cr_assert_eq(cli_exec(r, &home, NULL, env, args), 0);
	cr_expect(r->code >= 0 && r->code < 128, "steno %s crashed: %d", args[0], r->code);
	return r->code;
}

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* A ready export whose id and transcription id (what the file is named after) are hostile. */
static void ready_export(const char *id, const char *link_name)
{
	char path[128];
	snprintf(path, sizeof path, "/api/v1/exports/%s*", id[0] == '/' ? "abs" : "dotdot");
	sec_server_route(&api, "GET", path, 200, NULL,
			 "{\"id\":\"%s\",\"state\":\"ready\",\"format\":\"txt\",\"transcription_ids\":[\"%s\"],"
			 "\"download_link\":\"%s/files/%s\"}", id, id, files.origin, link_name);
}

Test(security_input, download_names_stay_in_the_directory, .init = setup, .fini = teardown)
{
	char abs_target[600], dl[700], parent[700], grand[700];
	struct cli_result r;

	snprintf(abs_target, sizeof abs_target, "%s/abs-escape", home.dir);
	cr_assert_eq(cli_home_config(&home, "download_name = {id}.{ext}\n"), 0);
	sec_server_route(&files, "GET", "/files/*", 200, NULL, "payload\n");
	ready_export("../../dotdot-escape", "..%2F..%2Fdotdot-link.txt");
	ready_export(abs_target, "%2Ftmp%2Fabs-link.txt");
	cli_home_path(&home, "dl", dl, sizeof dl);
	cr_assert_eq(mkdir(dl, 0700), 0);
	/* The id on the command line is the user's; the server answers with hostile ones. */
	cr_expect_eq(run(&r, (const char *const[]){"download", "dotdot", "-o", dl, "--json", NULL}), 0, "%s", r.err);
	cr_expect(strstr(r.out, dl), "the file is in the directory: %s", r.out);
	cli_result_free(&r);
	cr_expect_eq(run(&r, (const char *const[]){"download", "abs", "-o", dl, "--json", NULL}), 0, "%s", r.err);
	cr_expect(strstr(r.out, dl), "the file is in the directory: %s", r.out);
	cli_result_free(&r);
	snprintf(parent, sizeof parent, "%s/dotdot-escape.txt", home.dir);
	snprintf(grand, sizeof grand, "%s/../dotdot-escape.txt", home.dir);
	cr_expect(!exists(parent) && !exists(grand), "a file escaped the download directory");
	cr_expect(!exists("/tmp/dotdot-escape.txt") && !exists("/tmp/abs-link.txt"));
	strcat(abs_target, ".txt");
	cr_expect(!exists(abs_target), "an absolute name was written: %s", abs_target);
	/* What was written is in dl/, as plain names (download_name {id}.{ext}: '/' is '_'). */
	char inside[2000];
	snprintf(inside, sizeof inside, "%s/___.._dotdot-escape.txt", dl);
	cr_expect(exists(inside), "the safe basename is used: %s", inside);
	snprintf(inside, sizeof inside, "%s/%s", dl, abs_target); /* abs_target ends in .txt now */
	for (char *p = inside + strlen(dl) + 1; *p; p++)
		*p = *p == '/' ? '_' : *p;
	cr_expect(exists(inside), "the safe basename is used: %s", inside);
}

/* Hostile strings as JSON escapes: ESC sequences, C1, BEL, bidi overrides. */
#define EVIL_NAME "evilname\\u001b]0;PWNED\\u0007\\u001b[2J\\u009b6n\\u202eexe.txt"
#define EVIL_TAG "eviltag\\u001b[31m\\u001bP1$q\\u001b\\\\"
#define EVIL_REASON "evilreason\\u001b]52;c;cm0=\\u0007\\u2066"

static void hostile_routes(void)
{
	static const char item[] =
		"{\"id\":\"%s\",\"name\":\"" EVIL_NAME "\",\"createdAt\":\"2026-01-01T00:00:00Z\","
		"\"updatedAt\":\"2026-01-01T00:00:00Z\",\"state\":\"failed\",\"failureReason\":\"" EVIL_REASON
		"\",\"sharingEnabled\":false,\"language\":\"en-US\",\"audioLengthInSeconds\":12,"
		"\"costInCents\":10,\"refunded\":false,\"tags\":[\"" EVIL_TAG "\"],"
		"\"_links\":{\"self\":{\"editorUrl\":\"http://x/\\u001b]0;T\\u0007e\"}}}";
	char one[2048];

	snprintf(one, sizeof one, item, "t1");
	sec_server_route(&api, "GET", "/api/v1/transcriptions/t1", 200, NULL, "%s", one);
	sec_server_route(&api, "GET", "/api/v1/transcriptions", 200, NULL, "{\"results\":[%s]}", one);
	sec_server_route(&api, "GET", "/api/v1/transcriptions/bad", 422, NULL,
			 "{\"error\":\"bad\\u001b]0;PWNED\\u0007\",\"message\":\"evilmsg\\u001b[2J\\u009b\\u202e\","
			 "\"errors\":{\"name\\u001b[1m\":[\"evilfield\\u001b[5m\"]}}");
	sec_server_route(&api, "GET", "/api/v1/exports/e1", 200, NULL,
			 "{\"id\":\"e1\",\"state\":\"failed\\u001b[31m\",\"format\":\"txt\\u0007\","
			 "\"transcription_ids\":[\"t1\\u001b]0;x\\u0007\"]}");
}

/* No byte of a control sequence reaches the output. */

static void expect_clean(const char *what, const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		cr_expect(*p != 0x1b && *p != 0x07, "%s: raw ESC/BEL at offset %td", what, p - (const unsigned char *)text);
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			cr_expect(0, "%s: a C1 control at %td", what, p - (const unsigned char *)text);
		if (p[0] == 0xe2 && ((p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) ||
				     (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9)))
			cr_expect(0, "%s: a bidi control at %td", what, p - (const unsigned char *)text);
		if (*p == 0x1b || *p == 0x07)
			break;
	}
}

static void run_clean(const char *const *args, const char *visible)
{
	struct cli_result r;

	run(&r, args);
	expect_clean(args[0], r.out);
	expect_clean(args[0], r.err);
	cr_expect(strstr(r.out, visible) || strstr(r.err, visible), "%s %s shows the text around it:\n%s%s",
		  args[0], args[1] ? args[1] : "", r.out, r.err);
	cli_result_free(&r);
}

Test(security_input, no_escape_injection_through_server_strings, .init = setup, .fini = teardown)
{
	hostile_routes();
	run_clean((const char *const[]){"ls", NULL}, "evilname");
	run_clean((const char *const[]){"ls", "--all", NULL}, "evilname");
	run_clean((const char *const[]){"show", "t1", NULL}, "evilreason");
	run_clean((const char *const[]){"show", "t1", NULL}, "eviltag");
	run_clean((const char *const[]){"show", "--json", "t1", NULL}, "evilname");
	run_clean((const char *const[]){"show", "bad", NULL}, "evilfield");
	run_clean((const char *const[]){"show", "--json", "bad", NULL}, "evilfield");
	run_clean((const char *const[]){"show", "--export", "e1", NULL}, "failed");
	run_clean((const char *const[]){"download", "e1", "-o", "dl", NULL}, "failed");
	run_clean((const char *const[]){"ls", "--json", NULL}, "evilname");
	run_clean((const char *const[]){"ls", "--all", "--json", NULL}, "evilname");
}

/* The TUI's download (core/jobs_download, as the export dialog starts it) names the file
 * after the download link, not after an id: a hostile link basename stays inside too. The
 * saved file's path into path ("" when the job did not finish). */
static void tui_download(struct steno_http *http, const char *link, const char *dir, char *path,
			 size_t size)
{
	char id[] = "e7", state[] = "ready", format[] = "txt";
	struct steno_export e = {.id = id, .state = state, .format = format};
	struct steno_error err;
	struct jobs_config jc = {.http = http};
	struct steno_jobs *jm = jobs_new(&jc, &err);

	cr_assert_not_null(jm, "%s", err.message);
	e.download_link = (char *)(uintptr_t)link;
	int job = jobs_download(jm, &e, dir, NULL, false, &err);
	cr_assert_gt(job, 0, "%s", err.message);
	cr_assert_eq(jobs_run(jm, 10000), 0, "the download did not end");
	const struct steno_job *j = jobs_get(jm, job);
	snprintf(path, size, "%s", j->step == JOB_STEP_DONE && j->file ? j->file : "");
	jobs_free(jm);
}

Test(security_input, tui_download_link_names_stay_in_the_directory, .init = setup, .fini = teardown)
{
	char base[128], dl[700], link[600], parent[800];
	struct steno_http *http = NULL;
	struct steno_error err;
	char saved[1024];
	static const char *const names[] = {
		"/files/x/%2e%2e%2f%2e%2e%2flink-escape.txt", "/files/%2Ftmp%2Flink-abs-escape.txt",
		"/files/..%5C..%5Clink-bs-escape.txt",
	};

	snprintf(base, sizeof base, "%s/api/v1", api.origin);
	struct steno_http_config cfg = {.base_url = base, .api_key = "sk-hostile-test"};
	cr_assert_eq(steno_http_new(&cfg, &http, &err), 0, "%s", err.message);
	sec_server_route(&files, "GET", "/files/*", 200, NULL, "payload\n");
	cli_home_path(&home, "dl", dl, sizeof dl);
	cr_assert_eq(mkdir(dl, 0700), 0);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(link, sizeof link, "%s%s", files.origin, names[i]);
		tui_download(http, link, dl, saved, sizeof saved);
		cr_expect(strncmp(saved, dl, strlen(dl)) == 0 && !strchr(saved + strlen(dl) + 1, '/'),
			  "%s was saved as %s", names[i], saved);
	}
	steno_http_free(http);
	snprintf(parent, sizeof parent, "%s/link-escape.txt", home.dir);
	cr_expect(!exists(parent) && !exists("/tmp/link-abs-escape.txt") && !exists("/tmp/link-escape.txt"));
	cr_expect(!sec_server_log_has(&files, "sk-hostile-test"), "the key went to the download host");
}

/* Issue 13 item 5: U+009B and U+202E in a server's id reached the file name and the path that
 * `steno download` prints; a name starting with '-' was written as is. */
Test(security_input, download_names_lose_c1_bidi_and_leading_dash, .init = setup, .fini = teardown)
{
	struct cli_result r;
	char dl[700], want[800];

	sec_server_route(&files, "GET", "/files/*", 200, NULL, "payload\n");
	sec_server_route(&api, "GET", "/api/v1/exports/c1*", 200, NULL,
			 "{\"id\":\"c1\",\"state\":\"ready\",\"format\":\"txt\","
			 "\"transcription_ids\":[\"-rf\\u009b6n\\u202etxt\"],\"download_link\":\"%s/files/x\"}",
			 files.origin);
	cli_home_path(&home, "dl", dl, sizeof dl);
	cr_assert_eq(mkdir(dl, 0700), 0);
	cr_assert_eq(cli_home_config(&home, "download_name = {id}.{ext}\n"), 0);
	cr_expect_eq(run(&r, (const char *const[]){"download", "c1", "-o", dl, NULL}), 0, "%s", r.err);
	expect_clean("download", r.out);
	expect_clean("download", r.err);
	cli_result_free(&r);
	snprintf(want, sizeof want, "%s/_rf_6n_txt.txt", dl);
	cr_expect(exists(want), "the name is reduced to a safe set: %s", want);
}
