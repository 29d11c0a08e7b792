/* Issue 22: retries that hold everywhere. upload asks its GET again after a malformed
 * answer (as every GET: five tries, counted by the sandbox); the download name's lookup
 * that fails after the engine's retries is said on stderr, never silently left out. */
#include "config.h"

#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_cli_util.h"

static struct sbx sb;
static struct cli_home home;

static void setup(void)
{
	/* the engine's retries of 5xx wait little */
	cr_assert_eq(cli_fixture_start(&sb, &home, NULL, "retry_max_wait = 1\n"), 0, "sandbox did not start");
}

static void teardown(void)
{
	cli_fixture_stop(&sb, &home);
}

TestSuite(cli_retries, .init = setup, .fini = teardown, .timeout = 120);

Test(cli_retries, upload_asks_a_malformed_answer_again)
{
	char wav[700];
	cli_home_wav(&home, "a.wav", 1.0, wav, sizeof wav);
	cr_assert(wav[0]);
	cr_assert_eq(sbx_set_faults(&sb, "malformed=1"), 0);
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"upload", wav, "--json",
		     NULL}), 0);
	cr_expect_eq(r.code, 1, "%s", r.err);
	cr_expect_eq(sbx_reads(&sb, "/api/v1/uploads/new", "received"), 5,
		     "five tries of the GET, as the man page promises for every GET");
	json_object *o = json_tokener_parse(r.out);
	cr_assert(o, "%s", r.out);
	cr_expect_str_eq(sbx_str(o, "code"), "malformed");
	json_object_put(o);
	cli_result_free(&r);
	/* one malformed answer, then a good one: it works */
	cr_assert_eq(sbx_set_faults(&sb, "none"), 0);
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"upload", wav, NULL}), 0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cli_result_free(&r);
}

Test(cli_retries, a_download_name_that_cannot_be_read_is_said)
{
	cr_assert_eq(sbx_set_faults(&sb, "503=1"), 0);
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"export",
		     "00000000000000000000000000000000", "--format", "srt", "--wait", "-o", "dl",
		     NULL}), 0);
	cr_expect_neq(r.code, 0);
	cr_expect(strstr(r.err, "warning: the name of transcription 00000000000000000000000000000000 "
			 "could not be read"), "%s", r.err);
	cli_result_free(&r);
}
