/* Issue 22: `steno ls --all ... | head -1` stops at the first write to the closed pipe
 * (SIGPIPE is ignored: EPIPE is seen), exit 141, instead of fetching every page; the table
 * form streams its rows as pages arrive. Pages are counted by the sandbox. */
#include "config.h"

#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_cli_util.h"

static struct sbx sb;
static struct cli_home home;

#define PAGES 150

static void setup(void)
{
	const char *const extra[] = {"--page-size", "2", NULL};
	cr_assert_eq(cli_fixture_start(&sb, &home, extra, NULL), 0, "sandbox did not start");
	cr_assert_eq(cli_seed_transcriptions(&sb, 2 * PAGES), 0);
}

static void teardown(void)
{
	cli_fixture_stop(&sb, &home);
}

TestSuite(cli_pipes, .init = setup, .fini = teardown, .timeout = 120);

/* Runs `steno ARGS | head -n LINES` in bash; steno's exit status into *code, the lines out. */
static char *piped(const char *args, int lines, int *code)
{
	char bin[1100], script[600];
	snprintf(bin, sizeof bin, "STENO_BIN_PIPED=%s", getenv("STENO_BIN"));
	snprintf(script, sizeof script,
		 "\"$STENO_BIN_PIPED\" %s | head -n %d; echo \"status=${PIPESTATUS[0]}\"", args, lines);
	const char *env[] = {bin, NULL};
	struct cli_result r;
	cr_assert_eq(cli_exec_prog(&r, &home, &sb, env, "/bin/bash",
				   (const char *const[]){"-c", script, NULL}), 0);
	cr_assert_eq(r.code, 0, "%s", r.err);
	char *st = strstr(r.out, "status=");
	cr_assert_not_null(st, "%s", r.out);
	*code = atoi(st + 7);
	*st = '\0';
	char *out = strdup(r.out);
	cr_expect(!strstr(r.err, "Sanitizer"), "%s", r.err);
	cli_result_free(&r);
	return out;
}

static long page_reads(void)
{
	return sbx_reads(&sb, "/api/v1/transcriptions", "received");
}

Test(cli_pipes, ndjson_stops_at_the_closed_pipe)
{
	int code = -1;
	char *out = piped("ls --all --ndjson", 1, &code);
	cr_expect(strstr(out, "\"id\""), "%s", out);
	cr_expect_eq(code, 141, "the reader went away: exit 141 (as SIGPIPE), not %d", code);
	long reads = page_reads();
	cr_expect(reads > 0 && reads < PAGES / 3, "%ld of %d pages fetched after the reader left",
		  reads, PAGES);
	free(out);
}

Test(cli_pipes, the_table_streams_and_stops_too)
{
	int code = -1;
	char *out = piped("ls --all", 2, &code);
	cr_expect(strncmp(out, "ID", 2) == 0, "the heads first: %s", out);
	cr_expect_eq(code, 141, "exit %d", code);
	long reads = page_reads();
	cr_expect(reads > 0 && reads < PAGES / 3, "%ld of %d pages fetched: the rows of the first "
		  "pages went out before the last ones came", reads, PAGES);
	free(out);
}

/* -q, --limit (it stops fetching too), --fields, --sort, and --where's note. */
Test(cli_pipes, quiet_limit_fields_sort)
{
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"ls", "--all", "-q",
		     "--limit", "5", NULL}), 0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	int lines = 0;
	for (char *p = r.out; *p; p++)
		lines += *p == '\n';
	cr_expect_eq(lines, 5, "%s", r.out);
	cr_expect_eq(strlen(r.out), 5 * 33, "ids alone: %s", r.out);
	cli_result_free(&r);
	long reads = page_reads();
	cr_expect(reads > 0 && reads < PAGES / 3, "--limit stops fetching: %ld pages", reads);

	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"ls", "--fields",
		     "name,id", NULL}), 0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strncmp(r.out, "NAME ", 5) == 0 && strstr(r.out, "  ID\n"), "%s", r.out);
	cli_result_free(&r);

	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"ls", "--page", "3",
		     "--json", "--fields", "id,name", "--sort", "-name", NULL}), 0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	json_object *a = json_tokener_parse(r.out);
	cr_assert(a && json_object_array_length(a) == 2, "%s", r.out);
	json_object *x = json_object_array_get_idx(a, 0), *y = json_object_array_get_idx(a, 1);
	cr_expect_eq(json_object_object_length(x), 2, "only the fields: %s", r.out);
	cr_expect(strcmp(sbx_str(x, "name"), sbx_str(y, "name")) >= 0, "descending: %s", r.out);
	json_object_put(a);
	cli_result_free(&r);

	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"ls", "--where", "zzz",
		     NULL}), 0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strstr(r.err, "--where filtered only the page listed"), "%s", r.err);
	cli_result_free(&r);
}
