/* steno index and steno search against a sandbox that recognised real speech (flite speaks,
 * the sandbox's pocketsphinx recognises, --asr on): found by a phrase, a prefix and a folded
 * diacritic, with the time codes of the words in the transcript; a transcription that
 * changes on the server and one that is deleted leave no stale hit. What is asked is taken
 * from the recognised transcript itself (never an exact expectation of the recogniser). */
#include "config.h"

#include <criterion/criterion.h>
#include <ctype.h>
#include <json-c/json.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_cli_util.h"

static const char SPOKEN[] = "Please call me tomorrow morning at nine. The meeting starts in the small "
			     "room on the second floor. We will talk about the budget for next year and "
			     "the new office. Bring your notes and a copy of the report.";

static struct sbx sb;
static struct cli_home home;
static char workdir[600];

static void setup(void)
{
	static const char *const asr[] = {"--asr", "on", "--clock-speed", "1000", NULL};
	cr_assert_eq(sbx_start(&sb, asr), 0, "sandbox did not start");
	cr_assert_eq(cli_home_init(&home), 0);
	cli_home_path(&home, "wav", workdir, sizeof workdir);
	char cmd[700];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s'", workdir);
	cr_assert_eq(system(cmd), 0);
}

static void teardown(void)
{
	sbx_stop(&sb);
	cli_home_free(&home);
}

/* flite speaks text into a WAV; creates an en-US transcription `name` of it; id into id. */
static void create_spoken(const char *text, const char *name, char *id)
{
	char path[700];
	snprintf(path, sizeof path, "%s/%s.wav", workdir, id[0] ? id : "talk");
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		execlp("flite", "flite", "-voice", "kal16", "-t", text, "-o", path, (char *)NULL);
		_exit(127);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "flite failed (.ci/setup installs it)");
	char *data = cli_read_file(path);
	cr_assert(data);
	FILE *f = fopen(path, "rb");
	fseek(f, 0, SEEK_END);
	size_t len = (size_t)ftell(f);
	fclose(f);
	char url[1024], body[2048];
	cr_assert_eq(sbx_upload(&sb, "talk.wav", data, len, url, sizeof url), 0);
	free(data);
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"%s\",\"language\":\"en-US\","
		 "\"tmp_url\":\"%s\",\"organization_id\":\"%s\"}}", name, url, sb.org_id);
	long status;
	json_object *o = sbx_call(&sb, "POST", "transcriptions", body, &status);
	cr_assert_eq(status, 201, "%s", json_object_to_json_string(o));
	snprintf(id, 40, "%s", sbx_str(o, "id"));
	json_object_put(o);
}

/* Waits (real time, 100 s at most) until the transcription is done; its transcript JSON. */
static json_object *wait_transcript(const char *id)
{
	char path[128];
	snprintf(path, sizeof path, "transcriptions/%s", id);
	for (int i = 0; i < 1000; i++) {
		long status;
		json_object *o = sbx_call(&sb, "GET", path, NULL, &status);
		cr_assert_eq(status, 200);
		const char *state = sbx_str(o, "state");
		if (state && !strcmp(state, "automatic_done")) {
			struct sbx_resp r;
			cr_assert_eq(sbx_request(&sb, "GET", sbx_str(o, "_links.self.downloadUrl"), NULL,
						 NULL, NULL, &r), 0);
			json_object_put(o);
			json_object *t = sbx_json(&r);
			sbx_resp_free(&r);
			cr_assert(t);
			return t;
		}
		cr_assert(state && strcmp(state, "failed"), "%s", json_object_to_json_string(o));
		json_object_put(o);
		usleep(100000);
	}
	cr_assert_fail("%s not done after 100 s", id);
	return NULL;
}

struct word {
	char text[48];   /* letters, lower case */
	char raw[48];    /* as recognised */
	double start, end;
};

/* The recognised words (letters only, lower case) with their times. */
static size_t words_of(json_object *t, struct word *w, size_t max)
{
	size_t n = 0;
	for (size_t b = 0; b < json_object_array_length(t); b++) {
		json_object *ws = sbx_get(json_object_array_get_idx(t, b), "words");
		for (size_t i = 0; ws && i < json_object_array_length(ws) && n < max; i++) {
			json_object *x = json_object_array_get_idx(ws, i);
			const char *type = sbx_str(x, "type"), *text = sbx_str(x, "text");
			if (!type || strcmp(type, "word") || !text)
				continue;
			size_t k = 0;
			for (const char *p = text; *p && k < 47; p++)
				if (isalpha((unsigned char)*p))
					w[n].text[k++] = (char)tolower((unsigned char)*p);
			w[n].text[k] = '\0';
			snprintf(w[n].raw, sizeof w[n].raw, "%s", text);
			w[n].start = json_object_get_double(sbx_get(x, "data_start"));
			w[n].end = json_object_get_double(sbx_get(x, "data_end"));
			if (k)
				n++;
		}
	}
	return n;
}

static json_object *search_json(const char *query, const char *const *more)
{
	const char *argv[12] = {"search", query, "--json"};
	size_t k = 3;
	for (size_t i = 0; more && more[i] && k < 11; i++)
		argv[k++] = more[i];
	argv[k] = NULL;
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, argv), 0);
	json_object *o = json_tokener_parse(r.out);
	cr_assert(o, "not one JSON document: %s / %s", r.out, r.err);
	cli_result_free(&r);
	return o;
}

/* The hit of id in a search's JSON, or NULL. */
static json_object *hit_of(json_object *res, const char *id)
{
	json_object *hits = sbx_get(res, "hits");
	for (size_t i = 0; hits && i < json_object_array_length(hits); i++) {
		json_object *h = json_object_array_get_idx(hits, i);
		if (!strcmp(sbx_str(h, "id"), id))
			return h;
	}
	return NULL;
}

static void index_ok(const char *expect)
{
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"index", NULL}), 0);
	cr_assert_eq(r.code, 0, "%s%s", r.out, r.err);
	cr_assert(strstr(r.out, expect), "%s", r.out);
	cli_result_free(&r);
}

Test(cli_content, index_then_phrase_prefix_diacritic_with_time_codes, .init = setup,
     .fini = teardown)
{
	char id[40] = "";
	struct word w[256];
	create_spoken(SPOKEN, "Interview with Zo\xc3\xab", id);
	json_object *t = wait_transcript(id);
	size_t n = words_of(t, w, 256);
	json_object_put(t);
	cr_assert_gt(n, 10, "recognised %zu words", n);
	index_ok("1 transcriptions held, 0 waiting (1 read now");

	/* a phrase: two recognised words of 4+ letters in a row, somewhere after the start */
	size_t p = n / 2;
	while (p + 1 < n && (strlen(w[p].text) < 4 || strlen(w[p + 1].text) < 4))
		p++;
	cr_assert_lt(p + 1, n, "no two long words in a row");
	char phrase[120];
	snprintf(phrase, sizeof phrase, "\"%s %s\"", w[p].text, w[p + 1].text);
	json_object *res = search_json(phrase, NULL);
	json_object *h = hit_of(res, id);
	cr_assert(h, "%s: %s", phrase, json_object_to_json_string(res));
	double start = json_object_get_double(sbx_get(h, "start"));
	double end = json_object_get_double(sbx_get(h, "end"));
	cr_expect(start <= w[p].start + 1e-6 && w[p + 1].end <= end + 1e-6,
		  "%s said at %.2f-%.2f, hit at %.2f-%.2f", phrase, w[p].start, w[p + 1].end, start,
		  end);
	cr_expect_str_eq(sbx_str(h, "name"), "Interview with Zo\xc3\xab");
	cr_expect(sbx_str(h, "speaker"));
	char marked[120];
	snprintf(marked, sizeof marked, "[%s", w[p].text);
	cr_expect(strcasestr(sbx_str(h, "snippet"), marked), "%s", sbx_str(h, "snippet"));
	json_object_put(res);

	/* a prefix of a long word */
	size_t q = 0;
	while (q < n && strlen(w[q].text) < 6)
		q++;
	cr_assert_lt(q, n);
	char prefix[16];
	snprintf(prefix, sizeof prefix, "%.4s*", w[q].text);
	res = search_json(prefix, NULL);
	h = hit_of(res, id);
	cr_expect(h, "%s: %s", prefix, json_object_to_json_string(res));
	json_object_put(res);

	/* the folded diacritic, in the name */
	res = search_json("zoe", (const char *const[]){"--names", NULL});
	h = hit_of(res, id);
	cr_expect(h, "%s", json_object_to_json_string(res));
	cr_expect(h && json_object_get_type(sbx_get(h, "start")) == json_type_null);
	json_object_put(res);

	/* in a pipe: tab-separated fields, the match in brackets, its time code */
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"search", phrase, NULL}), 0);
	cr_expect_eq(r.code, 0);
	char tc[32];
	snprintf(tc, sizeof tc, "\t%ld:%02ld\t", (long)start / 60, (long)start % 60);
	cr_expect(strstr(r.out, id) && strstr(r.out, tc) && strstr(r.out, "["), "%s (%s)", r.out, tc);
	cli_result_free(&r);
}

/* The sandbox's own database: the recognised transcript of id edited, its updatedAt moved. */
static void change_on_server(const char *id, const char *from, const char *to)
{
	char path[700], sql[600];
	sqlite3 *db;
	snprintf(path, sizeof path, "%s/sandbox.db", sb.dir);
	cr_assert_eq(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_busy_timeout(db, 10000);
	snprintf(sql, sizeof sql,
		 "UPDATE asr SET transcript = replace(transcript, '%s', '%s') WHERE rid ="
		 " (SELECT rid FROM transcriptions WHERE id = '%s');"
		 "UPDATE transcriptions SET updated_at = work_end + 60 WHERE id = '%s';",
		 from, to, id, id);
	char *msg = NULL;
	cr_assert_eq(sqlite3_exec(db, sql, NULL, NULL, &msg), SQLITE_OK, "%s", msg);
	cr_assert_eq(sqlite3_changes(db), 1);
	sqlite3_close(db);
}

Test(cli_content, changed_and_deleted_leave_no_stale_hit, .init = setup, .fini = teardown)
{
	char a[40] = "", b[40] = "";
	struct word w[256];
	create_spoken(SPOKEN, "first", a);
	create_spoken(SPOKEN, "second", b);
	json_object *t = wait_transcript(a);
	size_t n = words_of(t, w, 256);
	json_object_put(t);
	json_object_put(wait_transcript(b));
	index_ok("2 transcriptions held, 0 waiting (2 read now");
	size_t p = 0;
	while (p < n && strlen(w[p].text) < 5)
		p++;
	cr_assert_lt(p, n);
	const char *word = w[p].text;
	json_object *res = search_json(word, NULL);
	cr_assert(hit_of(res, a) && hit_of(res, b), "%s", json_object_to_json_string(res));
	json_object_put(res);

	/* a's transcript changes: the word becomes another */
	change_on_server(a, w[p].raw, "xylophone");
	/* b is deleted */
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"rm", b, NULL}), 0);
	cr_assert_eq(r.code, 0, "%s", r.err);
	cli_result_free(&r);
	index_ok("1 transcriptions held, 0 waiting (1 read now");

	res = search_json(word, NULL);
	cr_expect(!hit_of(res, a), "stale hit of the changed one: %s", json_object_to_json_string(res));
	cr_expect(!hit_of(res, b), "hit of the deleted one: %s", json_object_to_json_string(res));
	json_object_put(res);
	res = search_json("xylophone", NULL);
	cr_expect(hit_of(res, a), "%s", json_object_to_json_string(res));
	json_object_put(res);
	res = search_json("second", (const char *const[]){"--names", NULL});
	cr_expect(!hit_of(res, b), "%s", json_object_to_json_string(res));
	json_object_put(res);
}
