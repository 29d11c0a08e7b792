/* steno's creating commands against a sandbox whose clock runs fast: upload, transcribe,
 * export (download, no overwrite), translate (order and task), orders (create, confirm,
 * show, watch, translation), validation before sending, an expired signed URL. */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <time.h>
#include <json-c/json.h>
#include <poll.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_cli_util.h"

#define RUN(res, ...) \
	cr_assert_eq(cli_exec(res, &home, &sb, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

static struct sbx sb;
static struct cli_home home;
static char wav[700];

static void setup(void)
{
	static const char *const fast[] = {"--clock-speed", "1000", "--seed-demo", "1", NULL};
	cr_assert_eq(sbx_start(&sb, fast), 0, "sandbox did not start");
	cr_assert_eq(cli_home_init(&home), 0);
	/* refresh_interval is at least 1 s: waits take a second or two. */
	cr_assert_eq(cli_home_config(&home, "refresh_interval = 1\nrefresh_max = 1\n"), 0);
	cli_home_wav(&home, "a.wav", 3.0, wav, sizeof(wav));
	cr_assert(wav[0], "a.wav written");
}

static void teardown(void)
{
	sbx_stop(&sb);
	cli_home_free(&home);
}

static json_object *parse_out(const struct cli_result *r)
{
	json_object *o = json_tokener_parse(r->out);
	cr_assert(o, "not JSON: %s / %s", r->out, r->err);
	return o;
}

/* Rows of a table of the sandbox ("orders", "exports"), counted by the sandbox. */
static long count_rows(const char *table)
{
	struct sbx_resp resp;
	char path[64];
	if (sbx_request(&sb, "GET", "/_sandbox/state", sb.admin_key, NULL, NULL, &resp) != 0)
		return -1;
	json_object *o = sbx_json(&resp);
	sbx_resp_free(&resp);
	snprintf(path, sizeof path, "counts.%s", table);
	json_object *v = o ? sbx_get(o, path) : NULL;
	long n = v ? (long)json_object_get_int64(v) : -1;
	json_object_put(o);
	return n;
}

/* transcribe FILE --wait --json: the id of a finished transcription. */
static void transcribe_file(char *id, size_t n)
{
	struct cli_result r;
	RUN(&r, "transcribe", wav, "--language", "en-US", "--name", "Test é", "--tags", "a,b",
	    "--wait", "--json");
	cr_assert_eq(r.code, 0, "%s", r.err);
	/* no progress when stderr is not a terminal: only the created event (issue 22) */
	cr_expect(!strchr(r.err, '\r') && strstr(r.err, "{\"event\":\"created\",\"created\":"
		  "\"transcription\""), "%s", r.err);
	json_object *o = parse_out(&r);
	cr_expect_str_eq(sbx_str(o, "state"), "automatic_done");
	cr_expect_str_eq(sbx_str(o, "name"), "Test é");
	snprintf(id, n, "%s", sbx_str(o, "id"));
	json_object_put(o);
	cli_result_free(&r);
}

Test(cli_jobs, upload_prints_a_signed_url, .init = setup, .fini = teardown)
{
	struct cli_result r;
	RUN(&r, "upload", wav);
	cr_assert_eq(r.code, 0, "%s", r.err);
	cr_expect(strncmp(r.out, sb.origin, strlen(sb.origin)) == 0 && strstr(r.out, "a.wav"),
		  "%s", r.out);
	cr_expect(!strstr(r.out, sb.api_key));
	cli_result_free(&r);
	RUN(&r, "upload", "/no/such/file.wav");
	cr_expect_eq(r.code, 2);
	cli_result_free(&r);
}

Test(cli_jobs, transcribe_and_export, .init = setup, .fini = teardown)
{
	char id[64];
	transcribe_file(id, sizeof(id));
	struct cli_result r;
	RUN(&r, "export", id, "--format", "txt", "--timestamps=10s", "--speakers", "-o", "dl",
	    "--json");
	cr_assert_eq(r.code, 0, "%s", r.err);
	json_object *o = parse_out(&r);
	cr_expect_str_eq(sbx_str(o, "state"), "ready");
	char file[800];
	snprintf(file, sizeof(file), "%s/%s", home.dir, sbx_str(o, "file"));
	json_object_put(o);
	cli_result_free(&r);
	struct stat st;
	cr_expect(stat(file, &st) == 0 && st.st_size > 0, "downloaded %s", file);
	/* Same file again: refused without --force, replaced with it. */
	RUN(&r, "export", id, "--format", "txt", "--timestamps=10s", "--speakers", "-o", "dl");
	cr_expect_eq(r.code, 1, "no overwrite: %s", r.err);
	cli_result_free(&r);
	RUN(&r, "export", id, "--format", "txt", "--timestamps=10s", "--speakers", "-o", "dl",
	    "--force");
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strstr(r.out, "file"), "%s", r.out);
	cli_result_free(&r);
	/* Without --wait: created, pending; then shown, and downloaded once ready. */
	RUN(&r, "export", id, "--format", "srt", "--json");
	cr_expect_eq(r.code, 0, "%s", r.err);
	o = parse_out(&r);
	char eid[64];
	snprintf(eid, sizeof(eid), "%s", sbx_str(o, "id"));
	json_object_put(o);
	cli_result_free(&r);
	cr_assert_eq(sbx_advance(&sb, 60), 0);
	RUN(&r, "show", "--export", eid);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strstr(r.out, "ready") && strstr(r.out, "download"), "%s", r.out);
	cli_result_free(&r);
	RUN(&r, "download", eid, "-o", "dl2", "--json");
	cr_expect_eq(r.code, 0, "%s", r.err);
	o = parse_out(&r);
	snprintf(file, sizeof(file), "%s/%s", home.dir, sbx_str(o, "file"));
	cr_expect(strstr(file, ".srt"), "%s", file);
	json_object_put(o);
	cli_result_free(&r);
	cr_expect(stat(file, &st) == 0 && st.st_size > 0, "downloaded %s", file);
	RUN(&r, "download", eid, "-o", "dl2");
	cr_expect_eq(r.code, 1, "exists: %s", r.err);
	cli_result_free(&r);
	/* --read-only: an export is made on the server, so it is refused before anything is
	 * sent (counted by the sandbox); downloading the ready one is a local write, allowed. */
	long exports = count_rows("exports");
	RUN(&r, "--read-only", "export", id, "--format", "txt");
	cr_expect_eq(r.code, 2, "read-only refuses export: %s", r.err);
	cr_expect(strstr(r.err, "read-only"), "%s", r.err);
	cli_result_free(&r);
	RUN(&r, "--read-only", "export", id, "--format", "txt", "--wait", "-o", "dl3");
	cr_expect_eq(r.code, 2, "read-only refuses export --wait: %s", r.err);
	cli_result_free(&r);
	cr_expect_eq(count_rows("exports"), exports, "an export reached the server");
	RUN(&r, "--read-only", "download", eid, "-o", "dl3");
	cr_expect_eq(r.code, 0, "read-only downloads a ready export: %s", r.err);
	cli_result_free(&r);
	/* An option the format does not take: usage error, nothing sent. */
	long before = -1;
	RUN(&r, "export", id, "--format", "srt", "--speakers");
	cr_expect_eq(r.code, 2);
	cr_expect(strstr(r.err, "show_speakers"), "names the field: %s", r.err);
	cli_result_free(&r);
	(void)before;
}

static void touch(const char *rel)
{
	char path[900];
	cli_home_path(&home, rel, path, sizeof(path));
	FILE *f = fopen(path, "w");
	cr_assert(f, "%s", path);
	fclose(f);
}

static bool home_has(const char *rel)
{
	char path[900];
	struct stat st;
	cli_home_path(&home, rel, path, sizeof(path));
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Issue 15 "Exports in scripts" and issue 12 "Downloads": a file given as the directory or an
 * existing file is found before the export is created (counted on the sandbox); the export's
 * id goes to stderr as soon as it exists; one naming pattern for every download, in which txt,
 * avid and maxqda no longer share a name. */
Test(cli_jobs, export_destination_checked_first_and_one_name_per_format, .init = setup,
     .fini = teardown)
{
	char id[64], rel[200];
	transcribe_file(id, sizeof(id));
	struct cli_result r;
	long before = cli_count_rows(&sb, "exports");
	touch("afile");
	RUN(&r, "export", id, "--format", "txt", "-o", "afile");
	cr_expect_eq(r.code, 1, "%s", r.err);
	cr_expect(strstr(r.err, "not a directory"), "%s", r.err);
	cli_result_free(&r);
	cr_assert_eq(mkdir(strcat(strcpy(rel, home.dir), "/dl"), 0700), 0);
	snprintf(rel, sizeof(rel), "dl/Test \xc3\xa9-%s.txt", id);
	touch(rel);
	RUN(&r, "export", id, "--format", "txt", "-o", "dl");
	cr_expect_eq(r.code, 1, "%s", r.err);
	cr_expect(strstr(r.err, "exists"), "%s", r.err);
	cli_result_free(&r);
	cr_expect_eq(cli_count_rows(&sb, "exports"), before, "no export was created");

	static const char *const formats[] = {"txt", "avid", "maxqda"};
	static const char *const exts[] = {"txt", "avid.txt", "maxqda.txt"};
	for (int i = 0; i < 3; i++) {
		RUN(&r, "export", id, "--format", formats[i], "-o", "dl2", "--json");
		cr_expect_eq(r.code, 0, "%s", r.err);
		cr_expect(strstr(r.err, "{\"event\":\"created\",\"created\":\"export\","), "the id first: %s",
			  r.err);
		cli_result_free(&r);
		snprintf(rel, sizeof(rel), "dl2/Test \xc3\xa9-%s.%s", id, exts[i]);
		cr_expect(home_has(rel), "%s", rel);
	}
	cr_expect_eq(cli_count_rows(&sb, "exports"), before + 3);
	RUN(&r, "export", id, "--format", "srt", "-o", "dl3");
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strstr(r.err, "steno export: export ") && strstr(r.err, " created"), "%s", r.err);
	cli_result_free(&r);
	/* the same id twice is one transcription (not a ZIP of two) */
	RUN(&r, "export", id, id, "--format", "vtt", "--json");
	cr_expect_eq(r.code, 0, "%s", r.err);
	json_object *o = parse_out(&r);
	cr_expect_eq(json_object_array_length(sbx_get(o, "transcription_ids")), 1, "%s", r.out);
	char eid[64];
	snprintf(eid, sizeof(eid), "%s", sbx_str(o, "id"));
	json_object_put(o);
	cli_result_free(&r);
	/* download --wait waits for it to be ready */
	RUN(&r, "download", eid, "--wait", "-o", "dl4");
	cr_expect_eq(r.code, 0, "%s", r.err);
	cli_result_free(&r);
	snprintf(rel, sizeof(rel), "dl4/Test \xc3\xa9-%s.vtt", id);
	cr_expect(home_has(rel), "%s", rel);
}

Test(cli_jobs, validation_happens_before_sending, .init = setup, .fini = teardown)
{
	long before = cli_count_transcriptions(&sb);
	struct cli_result r;
	RUN(&r, "transcribe", "http://127.0.0.1:1/a.wav", "--language", "xx-XX", "--strict");
	cr_expect_eq(r.code, 2);
	cr_expect(strstr(r.err, "language"), "%s", r.err);
	cli_result_free(&r);
	/* without --strict a well-formed unknown code goes to the server, which decides */
	RUN(&r, "transcribe", "http://127.0.0.1:1/a.wav", "--language", "xx-XX");
	cr_expect_eq(r.code, 1, "the sandbox refuses it: %s", r.err);
	cr_expect(strstr(r.err, "warning") && strstr(r.err, "422"), "%s", r.err);
	cli_result_free(&r);
	RUN(&r, "transcribe", "http://127.0.0.1:1/a.wav", "--language", "xx_XX");
	cr_expect_eq(r.code, 2, "not a language code at all: %s", r.err);
	cli_result_free(&r);
	RUN(&r, "transcribe", "http://127.0.0.1:1/a.wav", "--language", "en-US", "--service",
	    "alignment");
	cr_expect_eq(r.code, 2, "alignment needs --document");
	cr_expect(strstr(r.err, "document"), "%s", r.err);
	cli_result_free(&r);
	RUN(&r, "order", "create", "http://127.0.0.1:1/a.wav", "--language", "xx", "--service", "pro",
	    "--strict");
	cr_expect_eq(r.code, 2);
	cli_result_free(&r);
	RUN(&r, "translate", "abc", "--to", "fr", "--task", "--boost");
	cr_expect_eq(r.code, 2);
	cli_result_free(&r);
	/* a subtitles style guide on a transcription order (issue 15) */
	RUN(&r, "style-guides", "--json");
	json_object *guides = json_tokener_parse(r.out);
	cli_result_free(&r);
	char sid[32] = "";
	for (size_t i = 0; guides && i < json_object_array_length(guides); i++) {
		json_object *g = json_object_array_get_idx(guides, i);
		if (sbx_str(g, "operation") && strcmp(sbx_str(g, "operation"), "subtitles") == 0)
			snprintf(sid, sizeof(sid), "%lld", (long long)json_object_get_int64(sbx_get(g, "id")));
	}
	json_object_put(guides);
	cr_assert(sid[0], "the seed has a subtitles style guide");
	RUN(&r, "order", "create", "http://127.0.0.1:1/a.wav", "--language", "en-US", "--style-guide", sid);
	cr_expect_eq(r.code, 2, "%s", r.err);
	cr_expect(strstr(r.err, "subtitles style guide"), "%s", r.err);
	cli_result_free(&r);
	cr_expect_eq(cli_count_transcriptions(&sb), before, "nothing was created");
}

Test(cli_jobs, translate_order_and_task, .init = setup, .fini = teardown)
{
	char id[64];
	transcribe_file(id, sizeof(id));
	struct cli_result r;
	RUN(&r, "translate", id, "--to", "fr,de", "--confirm", "--wait", "--json");
	cr_assert_eq(r.code, 0, "%s", r.err);
	json_object *o = parse_out(&r);
	cr_expect_str_eq(sbx_str(o, "state"), "fulfilled");
	json_object_put(o);
	cli_result_free(&r);
	RUN(&r, "translate", id, "--to", "es", "--task", "--wait", "--json");
	cr_assert_eq(r.code, 0, "%s", r.err);
	o = parse_out(&r);
	cr_expect_str_eq(sbx_str(o, "state"), "done");
	cr_expect(sbx_str(o, "translatedTranscriptionId") != NULL);
	char tid[64];
	snprintf(tid, sizeof(tid), "%s", sbx_str(o, "id"));
	json_object_put(o);
	cli_result_free(&r);
	RUN(&r, "show", "--task", tid);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strstr(r.out, "done"), "%s", r.out);
	cli_result_free(&r);
	RUN(&r, "translate", id, "--to", "klingon");
	cr_expect_eq(r.code, 2, "unknown target language");
	cli_result_free(&r);
	RUN(&r, "order", "translation", id, "--to", "it", "--json");
	cr_expect_eq(r.code, 0, "%s", r.err);
	o = parse_out(&r);
	cr_expect_str_eq(sbx_str(o, "state"), "incomplete");
	json_object_put(o);
	cli_result_free(&r);
}

/* Issue 15: order watch and order confirm --wait agree on a locked order (exit 1: it waits
 * for action, it was not done). */
Test(cli_jobs, a_locked_order_is_exit_1_for_watch_and_confirm, .init = setup, .fini = teardown)
{
	struct cli_result r;
	RUN(&r, "order", "create", wav, "--language", "en-US", "--json");
	cr_assert_eq(r.code, 0, "%s", r.err);
	json_object *o = parse_out(&r);
	char oid[64], path[128];
	snprintf(oid, sizeof(oid), "%s", sbx_str(o, "id"));
	json_object_put(o);
	cli_result_free(&r);
	struct sbx_resp resp;
	snprintf(path, sizeof(path), "/_sandbox/organizations/%s/credit", sb.org_id);
	cr_assert_eq(sbx_request(&sb, "PUT", path, sb.admin_key, "{\"credit_cents\":0}", NULL, &resp), 0);
	cr_assert_eq(resp.status, 200, "%s", resp.body);
	sbx_resp_free(&resp);
	RUN(&r, "order", "confirm", oid, "--wait");
	cr_expect_eq(r.code, 1, "%s%s", r.out, r.err);
	cli_result_free(&r);
	RUN(&r, "order", "watch", oid);
	cr_expect_eq(r.code, 1, "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "locked"), "%s", r.out);
	cli_result_free(&r);
}

Test(cli_jobs, orders, .init = setup, .fini = teardown)
{
	struct cli_result r;
	RUN(&r, "order", "create", wav, "--language", "en-US", "--name", "Order 1", "--tags", "x",
	    "--glossary", "1", "--json");
	cr_assert_eq(r.code, 0, "%s", r.err);
	json_object *o = parse_out(&r);
	char oid[64];
	snprintf(oid, sizeof(oid), "%s", sbx_str(o, "id"));
	cr_expect_str_eq(sbx_str(o, "state"), "incomplete");
	json_object_put(o);
	cli_result_free(&r);

	RUN(&r, "order", "show", oid);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strstr(r.out, "incomplete") && strstr(r.out, "total"), "%s", r.out);
	cli_result_free(&r);

	RUN(&r, "order", "confirm", oid, "--wait", "--json");
	cr_expect_eq(r.code, 0, "%s", r.err);
	o = parse_out(&r);
	cr_expect_str_eq(sbx_str(o, "state"), "fulfilled");
	json_object_put(o);
	cli_result_free(&r);

	RUN(&r, "order", "watch", oid);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strncmp(r.out, "fulfilled\n", 10) == 0, "%s", r.out);
	cli_result_free(&r);

	RUN(&r, "order", "confirm", oid);
	cr_expect_eq(r.code, 1, "confirming twice is refused by the server");
	cr_expect(strstr(r.err, "422"), "%s", r.err);
	cli_result_free(&r);

	/* A style guide decides verbatim: pro + verbatim guide in English is accepted. */
	RUN(&r, "order", "create", "http://127.0.0.1:1/x.wav", "--language", "en-US", "--service",
	    "pro", "--style-guide", "2", "--boost", "--subtitle", "--webhook",
	    "http://127.0.0.1:1/hook", "--json");
	cr_expect_eq(r.code, 0, "%s", r.err);
	cli_result_free(&r);
	RUN(&r, "order", "create", "http://127.0.0.1:1/x.wav", "--language", "en-US",
	    "--style-guide", "999");
	cr_expect_eq(r.code, 2, "unknown style guide");
	cli_result_free(&r);

	RUN(&r, "order", "create", wav, "--language", "en-US", "--confirm", "--wait");
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strstr(r.out, "fulfilled"), "%s", r.out);
	cli_result_free(&r);
}

/* The name of a transcription from a URL is the last path segment without the query. */
Test(cli_jobs, name_from_url, .init = setup, .fini = teardown)
{
	size_t len = 0;
	void *data = sbx_make_wav(2.0, &len);
	char url[1024];
	cr_assert_eq(sbx_upload(&sb, "old.wav", data, len, url, sizeof(url)), 0);
	free(data);
	struct cli_result r;
	RUN(&r, "transcribe", url, "--language", "en-US", "--json");
	cr_expect_eq(r.code, 0, "%s", r.err);
	json_object *o = parse_out(&r);
	cr_expect_str_eq(sbx_str(o, "name"), "old.wav");
	json_object_put(o);
	cli_result_free(&r);
}

/* On a terminal, a wait shows progress on stderr (and the line is cleared at the end). */
Test(cli_jobs, progress_on_a_terminal, .init = setup, .fini = teardown)
{
	int fd = -1;
	pid_t pid = forkpty(&fd, NULL, NULL, NULL);
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		char env[4][1024];
		snprintf(env[0], 1024, "STENO_BASE_URL=%s", sb.base_url);
		snprintf(env[1], 1024, "STENO_API_KEY=%s", sb.api_key);
		snprintf(env[2], 1024, "STENO_ORG_ID=%s", sb.org_id);
		snprintf(env[3], 1024, "XDG_CONFIG_HOME=%s/cfg", home.dir);
		for (int i = 0; i < 4; i++)
			putenv(env[i]);
		execl(getenv("STENO_BIN"), "steno", "transcribe", wav, "--language", "en-US",
		      "--wait", (char *)NULL);
		_exit(127);
	}
	char buf[65536];
	size_t len = 0;
	for (;;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		if (poll(&p, 1, 60000) <= 0)
			break;
		ssize_t n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len >= sizeof(buf) - 1)
			break;
	}
	buf[len] = '\0';
	int st = 0;
	waitpid(pid, &st, 0);
	close(fd);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0, "status %d: %s", st, buf);
	cr_expect(strstr(buf, "waiting") || strstr(buf, "uploading"), "progress shown: %s", buf);
	cr_expect(strstr(buf, "\r\033[K"), "the progress line is cleared");
	cr_expect(!strstr(buf, sb.api_key));
}

/* SIGINT during a wait: steno stops, says so, exits 130. The media is real (the receiver's),
 * so the order cannot fail by itself before the signal comes: a pro order then takes hours. */
Test(cli_jobs, interrupted_wait_exits_130, .init = setup, .fini = teardown)
{
	long before = count_rows("orders");
	char errp[800], media[256];
	struct sbx_receiver *rc = sbx_receiver_start(60.0, NULL, NULL, 0);
	cr_assert_not_null(rc);
	snprintf(media, sizeof media, "%s/media.wav", sbx_receiver_origin(rc));
	cli_home_path(&home, "int.err", errp, sizeof(errp));
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int n = open("/dev/null", O_WRONLY);
		dup2(e, 2);
		dup2(n, 1);
		char env[4][1024];
		snprintf(env[0], 1024, "STENO_BASE_URL=%s", sb.base_url);
		snprintf(env[1], 1024, "STENO_API_KEY=%s", sb.api_key);
		snprintf(env[2], 1024, "STENO_ORG_ID=%s", sb.org_id);
		snprintf(env[3], 1024, "XDG_CONFIG_HOME=%s/cfg", home.dir);
		for (int i = 0; i < 4; i++)
			putenv(env[i]);
		execl(getenv("STENO_BIN"), "steno", "order", "create", media,
		      "--language", "en-US", "--service", "pro", "--confirm", "--wait", (char *)NULL);
		_exit(127);
	}
	/* Wait until the order exists (steno is then waiting on it; pro takes 6 hours). */
	for (int i = 0; i < 400 && count_rows("orders") <= before; i++) {
		struct timespec ts = {0, 25 * 1000000};
		nanosleep(&ts, NULL);
	}
	cr_expect_gt(count_rows("orders"), before);
	kill(pid, SIGINT);
	int st = 0;
	waitpid(pid, &st, 0);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 130, "status %d", st);
	char *err = cli_read_file(errp);
	cr_expect(err && strstr(err, "interrupted"), "%s", err ? err : "");
	free(err);
	sbx_receiver_stop(rc);
}

/* What the shell creates is remembered for the TUI's activity pane: the order in the state
 * file's watched list (origin and organization, never the key), marked final once the
 * confirmed order is. */
Test(cli_jobs, creations_are_remembered_in_the_state_file, .init = setup, .fini = teardown)
{
	struct cli_result r;
	RUN(&r, "order", "create", wav, "--language", "en-US", "--json");
	cr_assert_eq(r.code, 0, "%s", r.err);
	json_object *o = parse_out(&r);
	char oid[64];
	snprintf(oid, sizeof(oid), "%s", sbx_str(o, "id"));
	json_object_put(o);
	cli_result_free(&r);

	char path[700];
	cli_home_path(&home, "state/steno/state.json", path, sizeof(path));
	char *text = cli_read_file(path);
	cr_assert(text, "no state file at %s", path);
	json_object *st = json_tokener_parse(text);
	cr_assert(st, "%s", text);
	json_object *w = sbx_get(st, "watched");
	cr_assert_eq(json_object_array_length(w), 1, "%s", text);
	json_object *item = json_object_array_get_idx(w, 0);
	cr_expect_str_eq(sbx_str(item, "kind"), "order");
	cr_expect_str_eq(sbx_str(item, "id"), oid);
	cr_expect_str_eq(sbx_str(item, "org"), sb.org_id);
	cr_expect(strncmp(sbx_str(item, "origin"), "http://127.0.0.1:", 17) == 0, "%s", text);
	cr_expect_null(strstr(text, sb.api_key), "the key went into the state file");
	cr_expect_null(sbx_get(item, "final_ms"));
	json_object_put(st);
	free(text);

	RUN(&r, "order", "confirm", oid, "--wait");
	cr_assert_eq(r.code, 0, "%s", r.err);
	cli_result_free(&r);
	text = cli_read_file(path);
	cr_assert(text);
	st = json_tokener_parse(text);
	item = json_object_array_get_idx(sbx_get(st, "watched"), 0);
	cr_expect_eq(json_object_array_length(sbx_get(st, "watched")), 1, "%s", text);
	cr_expect_not_null(sbx_get(item, "final_ms"), "%s", text);
	json_object_put(st);
	free(text);
}
