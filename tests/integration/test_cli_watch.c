/* steno watch against a sandbox on real time (a short transcription takes ~5 s): one line per state change until the
 * items named settle, JSON lines, exit codes, kinds, ids that do not exist. */
#include "config.h"

#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_cli_util.h"

#define RUN(res, ...) \
	cr_assert_eq(cli_exec(res, &home, &sb, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

static struct sbx sb;
static struct cli_home home;
static struct sbx_receiver *rc;

static void setup(void)
{
	static const char *const fast[] = {"--clock-speed", "1", NULL};   /* states last seconds */
	cr_assert_eq(sbx_start(&sb, fast), 0, "sandbox did not start");
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
