/* steno transcribe against a stand-in server that keeps its connection alive, acts on the
 * POST and drops the reply: the server reads the POST once (counted on its side), and the
 * command never sends it again: its item found, it carries on (exit 0, issue 22); not found,
 * the outcome is unknown (exit 3) and it says so. */
#include "config.h"

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "keepalive_server.h"
#include "test_cli_util.h"

static struct keepalive_server srv;
static struct cli_home home;
static char wav[600];

static void setup(void)
{
	signal(SIGPIPE, SIG_IGN);
	cr_assert_eq(keepalive_server_start(&srv), 0);
	cr_assert_eq(cli_home_init(&home), 0);
	cli_home_path(&home, "talk.wav", wav, sizeof(wav));
	FILE *f = fopen(wav, "wb");
	cr_assert_not_null(f);
	fputs("RIFF....WAVEfmt not really audio", f);
	fclose(f);
	char signed_url[512];
	snprintf(signed_url, sizeof(signed_url),
		 "{\"signedUrl\":\"http://127.0.0.1:%d/store/talk.wav?sig=1\"}", srv.port);
	keepalive_server_route(&srv, "/api/v1/uploads/new", signed_url);
	srv.drop_posts = 100;
}

static void teardown(void)
{
	keepalive_server_stop(&srv);
	cli_home_free(&home);
}

TestSuite(cli_post_once, .init = setup, .fini = teardown, .timeout = 60);

static void transcribe(struct cli_result *r)
{
	char base[160];
	snprintf(base, sizeof(base), "STENO_BASE_URL=%s", srv.base);
	const char *env[] = {base, "STENO_API_KEY=sk_test_standin", "STENO_ORG_ID=6411621", NULL};
	const char *argv[] = {"transcribe", wav, "--name", "Board call", "--language", "en-US", NULL};
	cr_assert_eq(cli_exec(r, &home, NULL, env, argv), 0);
}

static void list_with(const char *name, long seconds_ago)
{
	char when[40], body[1024];
	time_t t = time(NULL) - seconds_ago;
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	snprintf(body, sizeof(body),
		 "{\"results\":[{\"id\":\"00112233445566778899aabbccddeeff\",\"name\":\"%s\","
		 "\"createdAt\":\"%s\",\"updatedAt\":\"%s\",\"state\":\"ingesting\","
		 "\"language\":\"en-US\"}],\"_links\":{}}", name, when, when);
	keepalive_server_route(&srv, "/api/v1/transcriptions", body);
}

Test(cli_post_once, lost_reply_found_in_the_list)
{
	list_with("Board call", 2);
	struct cli_result r;
	transcribe(&r);
	cr_assert_eq(keepalive_server_hits(&srv, "PUT", "/store/talk.wav"), 1);
	cr_assert_eq(keepalive_server_hits(&srv, "POST", "/api/v1/transcriptions"), 1,
		     "the server read the POST %d times",
		     keepalive_server_hits(&srv, "POST", "/api/v1/transcriptions"));
	cr_assert_eq(r.code, 0, "exit %d: %s", r.code, r.err);
	cr_assert(strstr(r.err, "no answer from the server, but transcription "
			 "00112233445566778899aabbccddeeff was found"), "%s", r.err);
	cli_result_free(&r);
}

Test(cli_post_once, lost_reply_not_found)
{
	list_with("Another name", 2);
	struct cli_result r;
	transcribe(&r);
	cr_assert_eq(keepalive_server_hits(&srv, "POST", "/api/v1/transcriptions"), 1);
	cr_assert_eq(r.code, 3, "exit %d: %s", r.code, r.err);
	cr_assert(strstr(r.err, "not found"), "%s", r.err);
	cr_assert(strstr(r.err, "may have acted on it"), "%s", r.err);
	cli_result_free(&r);
}

Test(cli_post_once, an_older_namesake_is_not_it)
{
	list_with("Board call", 3600);
	struct cli_result r;
	transcribe(&r);
	cr_assert_eq(r.code, 3, "exit %d: %s", r.code, r.err);
	cr_assert(strstr(r.err, "not found"), "%s", r.err);
	cli_result_free(&r);
}
