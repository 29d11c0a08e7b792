/* Issue 22: with --json every command prints exactly one JSON document on stdout, on every
 * failure path too: the failure object {"status","code","server_code","message","fields",
 * "exit","created"} whose code is in the man page's vocabulary and whose exit is the exit
 * status. Several IDs: one array. watch (a stream of JSON lines) ends with that object. */
#include "config.h"

#include <criterion/criterion.h>
#include <ctype.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_cli_util.h"

static struct sbx sb;
static struct cli_home home;

static void setup(void)
{
	static const char *const fast[] = {"--clock-speed", "1000", NULL};
	cr_assert_eq(cli_fixture_start(&sb, &home, fast, "refresh_interval = 1\nrefresh_max = 1\n"), 0, "sandbox did not start");
}

static void teardown(void)
{
	cli_fixture_stop(&sb, &home);
}

TestSuite(cli_json_doc, .init = setup, .fini = teardown, .timeout = 180);

/* The whole of s is one JSON value (white space around it allowed), or NULL. */
static json_object *one_document(const char *s)
{
	struct json_tokener *tok = json_tokener_new_ex(64);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	size_t len = strlen(s);
	json_object *o = json_tokener_parse_ex(tok, s, (int)len);
	size_t end = json_tokener_get_parse_end(tok);
	bool ok = json_tokener_get_error(tok) == json_tokener_success;
	json_tokener_free(tok);
	while (ok && end < len && strchr(" \n\t\r", s[end]))
		end++;
	if (!ok || end != len) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static const char *const codes[] = {"usage", "invalid", "rejected", "read_only", "config",
	"unauthorized", "not_found", "rate_limited", "server_error", "http", "network", "timeout",
	"malformed", "io", "exists", "job_failed", "needs_action", "no_memory", "failed",
	"outcome_unknown", "ambiguous", "interrupted"};

static void check_failure(json_object *o, int exit_code, const char *code, const char *what)
{
	cr_assert(json_object_is_type(o, json_type_object), "%s: an object", what);
	const char *c = sbx_str(o, "code");
	bool known = false;
	for (size_t i = 0; c && i < sizeof codes / sizeof *codes; i++)
		known = known || !strcmp(codes[i], c);
	cr_expect(known, "%s: code %s is in the vocabulary", what, c ? c : "(none)");
	if (code)
		cr_expect_str_eq(c, code, "%s", what);
	cr_expect_eq(json_object_get_int(sbx_get(o, "exit")), exit_code, "%s", what);
	cr_expect(sbx_str(o, "message") && sbx_str(o, "message")[0], "%s", what);
	cr_expect(json_object_is_type(sbx_get(o, "fields"), json_type_object), "%s", what);
	cr_expect(json_object_is_type(sbx_get(o, "created"), json_type_array), "%s", what);
}

/* Runs argv; it must fail with `exit_code` and print one failure object (code: when not NULL). */
static void fails(int exit_code, const char *code, const char *const *argv)
{
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, argv), 0);
	char what[300] = "";
	for (size_t i = 0, o = 0; argv[i] && o < sizeof what; i++)
		o += (size_t)snprintf(what + o, sizeof what - o, "%s ", argv[i]);
	cr_expect_eq(r.code, exit_code, "%s: exit %d: %s", what, r.code, r.err);
	json_object *o = one_document(r.out);
	cr_assert(o, "%s: stdout is not one JSON document:\n%s\nstderr: %s", what, r.out, r.err);
	check_failure(o, r.code, code, what);
	json_object_put(o);
	cli_result_free(&r);
}

#define FAILS(x, c, ...) fails(x, c, (const char *const[]){__VA_ARGS__, NULL})

static void incomplete_order(char *id, size_t n)
{
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"order", "create",
		     "http://127.0.0.1:1/x.wav", "--language", "en-US", "--json", NULL}), 0);
	cr_assert_eq(r.code, 0, "%s", r.err);
	json_object *o = one_document(r.out);
	cr_assert(o, "%s", r.out);
	snprintf(id, n, "%s", sbx_str(o, "id"));
	json_object_put(o);
	cli_result_free(&r);
}

Test(cli_json_doc, every_failure_is_one_document)
{
	const char *missing = "00000000000000000000000000000000";
	/* usage: unknown options, missing arguments, unknown commands and subcommands */
	FAILS(2, "usage", "ls", "--bogus", "--json");
	FAILS(2, "usage", "show", "--json");
	FAILS(2, "usage", "--json", "show");
	FAILS(2, "usage", "bogus", "--json");
	FAILS(2, "usage", "--json", "--bogus", "ls");
	FAILS(2, "usage", "order", "bogus", "--json");
	FAILS(2, "usage", "order", "show", "--json");
	FAILS(2, "usage", "transcribe", "/nonexistent.wav", "--language", "en-US", "--json");
	FAILS(2, "usage", "languages", "--bogus", "--json");
	FAILS(2, "usage", "orgs", "extra", "--json");
	FAILS(2, "usage", "watch", "--json");
	FAILS(2, "usage", "download", "--json");
	FAILS(2, "invalid", "transcribe", "https://m.example/a.mp3", "--language", "xx-XX",
	      "--strict", "--json");
	/* read-only refusals */
	FAILS(2, "read_only", "--read-only", "transcribe", "https://m.example/a.mp3", "--language",
	      "en-US", "--json");
	FAILS(2, "read_only", "--read-only", "rm", missing, "--json");
	FAILS(2, "read_only", "--read-only", "--json", "export", missing, "--format", "txt");
	/* the server's answers */
	FAILS(1, "not_found", "show", missing, "--json");
	FAILS(1, "not_found", "show", "--order", missing, "--json");
	FAILS(1, "not_found", "order", "show", missing, "--json");
	FAILS(1, "not_found", "rm", missing, "--json");
	FAILS(1, "not_found", "download", missing, "--json");
	FAILS(1, NULL, "export", missing, "--format", "txt", "--json");
	FAILS(1, NULL, "translate", missing, "--to", "fr", "--json");
	FAILS(1, NULL, "order", "translation", missing, "--to", "fr", "--json");
	FAILS(1, NULL, "order", "confirm", missing, "--json");
	/* an incomplete order: order watch fails (waits for a person) with one document */
	char oid[64];
	incomplete_order(oid, sizeof oid);
	FAILS(1, "needs_action", "order", "watch", oid, "--json");
	FAILS(1, "needs_action", "--json", "order", "watch", oid);
}

/* watch: JSON lines, the failure object last; the same exit as order watch. */
Test(cli_json_doc, watch_ends_with_the_failure_object)
{
	char oid[64], arg[80];
	incomplete_order(oid, sizeof oid);
	snprintf(arg, sizeof arg, "order:%s", oid);
	const char *const cases[][4] = {
		{"watch", arg, "--json", NULL},
		{"watch", "00000000000000000000000000000000", "--json", NULL},
	};
	const char *const code[] = {"needs_action", "not_found"};
	for (size_t k = 0; k < 2; k++) {
		struct cli_result r;
		cr_assert_eq(cli_exec(&r, &home, &sb, NULL, cases[k]), 0);
		cr_expect_eq(r.code, 1, "%s: %s", cases[k][1], r.err);
		char *last = NULL;
		for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
			json_object *o = one_document(line);
			cr_assert(o, "not a JSON line: %s", line);
			json_object_put(o);
			last = line;
		}
		cr_assert(last, "no line");
		json_object *o = one_document(last);
		check_failure(o, 1, code[k], cases[k][1]);
		json_object_put(o);
		cli_result_free(&r);
	}
}

/* Several IDs: one array, the failure object its last element. */
Test(cli_json_doc, several_ids_are_one_array)
{
	struct cli_result r;
	const char *const argv[] = {"show", "00000000000000000000000000000000",
				    "00000000000000000000000000000001", "--json", NULL};
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, argv), 0);
	cr_expect_eq(r.code, 1);
	json_object *o = one_document(r.out);
	cr_assert(o && json_object_is_type(o, json_type_array), "%s", r.out);
	size_t n = json_object_array_length(o);
	cr_assert_geq(n, 1);
	check_failure(json_object_array_get_idx(o, n - 1), 1, "not_found", "show a b");
	json_object_put(o);
	cli_result_free(&r);
}

/* A failed export says why (the API has no reason of its own: its transcription's state),
 * and its failure object names the export it created. */
Test(cli_json_doc, a_failed_export_says_why)
{
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"transcribe",
		     "http://127.0.0.1:1/none.wav", "--language", "en-US", "--wait", "--json", NULL}), 0);
	cr_assert_eq(r.code, 1, "%s", r.err);
	json_object *o = one_document(r.out);
	cr_assert(o, "%s", r.out);
	check_failure(o, 1, "job_failed", "transcribe");
	char tid[64];
	snprintf(tid, sizeof tid, "%s", sbx_str(json_object_array_get_idx(sbx_get(o, "created"), 0),
						  "id"));
	json_object_put(o);
	cli_result_free(&r);
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"export", tid, "--format",
		     "txt", "--wait", "-o", "dl", "--json", NULL}), 0);
	cr_expect_eq(r.code, 1, "%s", r.err);
	o = one_document(r.out);
	cr_assert(o, "%s", r.out);
	check_failure(o, 1, "job_failed", "export");
	cr_expect(strstr(sbx_str(o, "message"), "only a finished transcription can be exported"),
		  "%s", r.out);
	cr_expect(strstr(r.err, tid), "%s", r.err);
	cr_expect_str_eq(sbx_str(json_object_array_get_idx(sbx_get(o, "created"), 0), "kind"),
			 "export");
	json_object_put(o);
	cli_result_free(&r);
}

/* The languages steno-sandbox(1) says it recognises are transcription languages it accepts
 * (it said `en`, which it answers 422, as the spec's language table has it). */
Test(cli_json_doc, the_recognised_languages_are_accepted)
{
	const char *src = getenv("STENO_SRCDIR");
	char path[1024];
	snprintf(path, sizeof path, "%s/docs/steno-sandbox.1", src ? src : ".");
	char *man = cli_read_file(path);
	cr_assert_not_null(man, "%s", path);
	char *sec = strstr(man, ".SS Speech recognition");
	cr_assert_not_null(sec);
	char *end = strstr(sec, ".PP");
	if (end)
		*end = '\0';
	int tried = 0;
	for (char *p = strstr(sec, "\\fB"); p; p = strstr(p + 3, "\\fB")) {
		/* a bold word: \fBen\-US\fR, \fBen\-*\fR; a language code when it looks like one */
		char *e = strstr(p + 3, "\\fR");
		if (!e || e - p > 20)
			continue;
		char lang[16];
		size_t o = 0;
		for (const char *c = p + 3; c < e && o + 3 < sizeof lang; c++) {
			if (*c == '\\')
				continue;
			if (*c == '*') {
				memcpy(lang + o, "US", 2);
				o += 2;
			} else {
				lang[o++] = *c;
			}
		}
		lang[o] = '\0';
		bool code = (o == 2 || (o == 5 && lang[2] == '-')) && islower((unsigned char)lang[0]) &&
			    islower((unsigned char)lang[1]) &&
			    (o == 2 || (isupper((unsigned char)lang[3]) && isupper((unsigned char)lang[4])));
		if (!code)
			continue;
		char body[300];
		snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"l\",\"language\":\"%s\","
			 "\"tmp_url\":\"http://127.0.0.1:1/a.wav\",\"organization_id\":\"%s\"}}", lang,
			 sb.org_id);
		long status = 0;
		json_object *r = sbx_call(&sb, "POST", "transcriptions", body, &status);
		json_object_put(r);
		cr_expect(status / 100 == 2, "steno-sandbox(1) says %s is recognised; the sandbox "
			  "answers %ld", lang, status);
		tried++;
	}
	cr_expect_geq(tried, 1);
	free(man);
}

/* -q and --fields on the list commands (ls has its own): the first column alone, chosen
 * columns, chosen JSON keys; a column the table lacks is a usage error. */
Test(cli_json_doc, list_commands_take_q_and_fields)
{
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"languages", "-q", NULL}), 0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strncmp(r.out, "af-ZA\n", 6) == 0, "%s", r.out);
	cli_result_free(&r);
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"orgs", "--fields", "name,id",
		     NULL}), 0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strncmp(r.out, "NAME", 4) == 0 && strstr(r.out, sb.org_id), "%s", r.out);
	cli_result_free(&r);
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"languages", "--json",
		     "--fields", "code", NULL}), 0);
	json_object *o = one_document(r.out);
	cr_assert(o && json_object_array_length(o) > 10, "%s", r.out);
	cr_expect_eq(json_object_object_length(json_object_array_get_idx(o, 0)), 1);
	json_object_put(o);
	cli_result_free(&r);
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"languages", "--fields",
		     "bogus", NULL}), 0);
	cr_expect_eq(r.code, 2, "%s", r.err);
	cr_expect(strstr(r.err, "no column bogus"), "%s", r.err);
	cli_result_free(&r);
	FAILS(2, "usage", "orgs", "-q", "--json");
}
