/* steno against the real service's shapes (issue 15), end to end through the steno binary:
 * a stand-in server answering as the vendor's API does (GET /organizations, 40-hex ids) and
 * steno-sandbox (GET /organizations). The organization is found when the key sees exactly one;
 * every request is counted on the server side. */
#include "config.h"

#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "security_server.h"
#include "test_cli_util.h"

static struct sec_server api;
static struct cli_home home;
static struct sbx sb;

#define HEX40 "0123456789abcdef0123456789abcdef01234567"

static void setup(void)
{
	cr_assert_eq(cli_home_init(&home), 0);
	cr_assert_eq(sec_server_start(&api), 0);
}

static void teardown(void)
{
	sec_server_stop(&api);
	cli_home_free(&home);
}

/* Runs steno against the stand-in with a key and no organization anywhere. */
static int run(struct cli_result *r, const char *const *args)
{
	char base[128];
	snprintf(base, sizeof base, "STENO_BASE_URL=%s/api/v1", api.origin);
	const char *const env[] = {base, "STENO_API_KEY=sk-real-shapes", NULL};
	cr_assert_eq(cli_exec(r, &home, NULL, env, args), 0);
	return r->code;
}

static void item_routes(void)
{
	static const char item[] =
		"{\"id\":\"" HEX40 "\",\"name\":\"Interview\",\"createdAt\":\"2026-01-01T00:00:00Z\","
		"\"updatedAt\":\"2026-01-01T00:00:00Z\",\"state\":\"automatic_done\",\"language\":\"en\","
		"\"audioLengthInSeconds\":12,\"costInCents\":0,\"refunded\":false,\"sharingEnabled\":false,"
		"\"tags\":[],\"_links\":{\"self\":{\"url\":\"https://x/api/v1/transcriptions/" HEX40 "\"}}}";
	sec_server_route(&api, "GET", "/api/v1/transcriptions", 200, NULL, "{\"results\":[%s],\"_links\":{}}", item);
	sec_server_route(&api, "GET", "/api/v1/transcriptions/" HEX40, 200, NULL, "%s", item);
}

Test(cli_realshapes, the_only_organization_of_the_key_is_used, .init = setup, .fini = teardown)
{
	struct cli_result r;
	sec_server_route(&api, "GET", "/api/v1/organizations", 200, NULL,
			 "{\"organizations\":[{\"id\":6411621,\"name\":\"Acme\",\"role\":\"admin\"}]}");
	item_routes();
	cr_expect_eq(run(&r, (const char *const[]){"ls", NULL}), 0, "%s", r.err);
	cr_expect(strstr(r.out, "Interview") && strstr(r.out, HEX40), "%s", r.out);
	cli_result_free(&r);
	cr_expect(sec_server_log_has(&api, "GET /api/v1/organizations"));
	cr_expect(sec_server_log_has(&api, "organization_id: 6411621"), "the list asked for the org");

	cr_expect_eq(run(&r, (const char *const[]){"orgs", NULL}), 0, "%s", r.err);
	cr_expect(strstr(r.out, "6411621") && strstr(r.out, "Acme") && strstr(r.out, "admin"), "%s", r.out);
	cli_result_free(&r);
	cr_expect_eq(run(&r, (const char *const[]){"orgs", "--json", NULL}), 0, "%s", r.err);
	json_object *a = json_tokener_parse(r.out);
	cr_expect(a && json_object_is_type(a, json_type_array) && json_object_array_length(a) == 1,
		  "an array like ls --json: %s", r.out);
	json_object_put(a);
	cli_result_free(&r);
}

Test(cli_realshapes, several_organizations_need_a_choice, .init = setup, .fini = teardown)
{
	struct cli_result r;
	sec_server_route(&api, "GET", "/api/v1/organizations", 200, NULL,
			 "{\"organizations\":[{\"id\":1,\"name\":\"A\"},{\"id\":\"2\",\"name\":\"B\"}]}");
	item_routes();
	cr_expect_eq(run(&r, (const char *const[]){"ls", NULL}), 2, "%s", r.err);
	cr_expect(strstr(r.err, "sees 2 organizations") && strstr(r.err, "steno orgs"), "%s", r.err);
	cli_result_free(&r);
	cr_expect_not(sec_server_log_has(&api, "GET /api/v1/transcriptions"), "nothing listed");
	/* --org decides without asking */
	cr_expect_eq(run(&r, (const char *const[]){"ls", "--org", "2", NULL}), 0, "%s", r.err);
	cli_result_free(&r);
}

/* The vendor's docs show 40-hex transcription ids (the sandbox uses 32): accepted as any id. */
Test(cli_realshapes, forty_hex_ids_are_accepted, .init = setup, .fini = teardown)
{
	struct cli_result r;
	item_routes();
	sec_server_route(&api, "DELETE", "/api/v1/transcriptions/" HEX40, 204, NULL, "%s", "");
	cr_expect_eq(run(&r, (const char *const[]){"show", HEX40, NULL}), 0, "%s", r.err);
	cr_expect(strstr(r.out, "Interview"), "%s", r.out);
	cli_result_free(&r);
	cr_expect_eq(run(&r, (const char *const[]){"rm", HEX40, NULL}), 0, "%s", r.err);
	cli_result_free(&r);
	cr_expect(sec_server_log_has(&api, "DELETE /api/v1/transcriptions/" HEX40));
}

/* On the sandbox: `steno orgs` lists the key's organization, and `ls` without any
 * organization configured finds it. */
Test(cli_realshapes, sandbox_orgs_and_the_chosen_organization, .fini = teardown)
{
	struct cli_result r;
	char base[300], key[200];
	cr_assert_eq(cli_home_init(&home), 0);
	cr_assert_eq(sbx_start(&sb, NULL), 0);
	snprintf(base, sizeof base, "STENO_BASE_URL=%s", sb.base_url);
	snprintf(key, sizeof key, "STENO_API_KEY=%s", sb.api_key);
	const char *const env[] = {base, key, NULL};
	cr_assert_eq(cli_exec(&r, &home, NULL, env, (const char *const[]){"orgs", NULL}), 0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect(strstr(r.out, sb.org_id), "%s", r.out);
	cli_result_free(&r);
	cr_assert_eq(cli_exec(&r, &home, NULL, env, (const char *const[]){"ls", "--json", NULL}), 0);
	cr_expect_eq(r.code, 0, "%s", r.err);
	cr_expect_eq(r.out[0], '[', "%s", r.out);
	cli_result_free(&r);
	sbx_stop(&sb);
}

/* Real clients send "language":"en": it is sent (with a warning) and the server decides;
 * --strict refuses it before anything is sent. Counted on the stand-in. */
Test(cli_realshapes, an_unknown_language_is_left_to_the_server, .init = setup, .fini = teardown)
{
	struct cli_result r;
	item_routes();
	sec_server_route(&api, "POST", "/api/v1/transcriptions", 201, NULL,
			 "{\"id\":\"" HEX40 "\",\"name\":\"a\",\"state\":\"initial\",\"language\":\"en\"}");
	cr_expect_eq(run(&r, (const char *const[]){"transcribe", "https://media.example/a.mp3",
						  "--language", "en", "--org", "5", "--strict", NULL}), 2, "%s", r.err);
	cli_result_free(&r);
	cr_expect_not(sec_server_log_has(&api, "POST /api/v1/transcriptions"), "--strict sent nothing");
	cr_expect_eq(run(&r, (const char *const[]){"transcribe", "https://media.example/a.mp3",
						  "--language", "en", "--org", "5", NULL}), 0, "%s", r.err);
	cr_expect(strstr(r.err, "warning: en is not in steno languages"), "%s", r.err);
	cli_result_free(&r);
	cr_expect(sec_server_log_has(&api, "POST /api/v1/transcriptions"), "the server was asked");
}

/* Errors for scripts: with --json a failure is one JSON object on stdout (status, code,
 * message, fields), the exit code stays; a 401 hints at a key of another product's API. */
Test(cli_realshapes, json_errors_and_the_401_hint, .init = setup, .fini = teardown)
{
	struct cli_result r;
	sec_server_route(&api, "GET", "/api/v1/transcriptions/gone", 404, NULL,
			 "{\"error\":\"not_found\",\"message\":\"no transcription gone\"}");
	sec_server_route(&api, "GET", "/api/v1/transcriptions/locked", 401, NULL,
			 "{\"error\":\"unauthorized\",\"message\":\"invalid key\"}");
	cr_expect_eq(run(&r, (const char *const[]){"show", "gone", "--json", NULL}), 1, "%s", r.err);
	json_object *o = json_tokener_parse(r.out);
	cr_assert(o && json_object_is_type(o, json_type_object), "one JSON object: %s", r.out);
	cr_expect_eq(json_object_get_int(sbx_get(o, "status")), 404);
	cr_expect_str_eq(sbx_str(o, "code"), "not_found");
	cr_expect(strstr(sbx_str(o, "message"), "no transcription gone"));
	cr_expect(json_object_is_type(sbx_get(o, "fields"), json_type_object));
	json_object_put(o);
	cli_result_free(&r);
	/* a usage error too */
	cr_expect_eq(run(&r, (const char *const[]){"transcribe", "https://m.example/a.mp3", "--json",
						  "--language", "en", "--strict", "--org", "1", NULL}), 2);
	o = json_tokener_parse(r.out);
	cr_assert(o, "%s", r.out);
	cr_expect_str_eq(sbx_str(o, "code"), "invalid");
	cr_expect(json_object_is_type(sbx_get(o, "status"), json_type_null));
	cr_expect(sbx_get(o, "fields.language"), "%s", r.out);
	json_object_put(o);
	cli_result_free(&r);
	cr_expect_eq(run(&r, (const char *const[]){"show", "locked", NULL}), 1);
	cr_expect(strstr(r.err, "hint:") && strstr(r.err, "another product"), "%s", r.err);
	cli_result_free(&r);
}

/* Smaller things found in the tour (issue 15): a failed or expired export says so; a file given
 * twice is one transcription; "--timestamps 30s" is a usage error; a directory is not media;
 * a name is derived from any URL. */
Test(cli_realshapes, smaller_things_of_the_tour, .init = setup, .fini = teardown)
{
	struct cli_result r;
	sec_server_route(&api, "GET", "/api/v1/exports/f1", 200, NULL,
			 "{\"id\":\"f1\",\"state\":\"failed\",\"format\":\"txt\",\"transcription_ids\":[\"t\"]}");
	sec_server_route(&api, "GET", "/api/v1/exports/x1", 200, NULL,
			 "{\"id\":\"x1\",\"state\":\"expired\",\"format\":\"txt\",\"transcription_ids\":[\"t\"]}");
	cr_expect_eq(run(&r, (const char *const[]){"download", "f1", "--wait", NULL}), 1);
	cr_expect(strstr(r.err, "export f1 failed"), "%s", r.err);
	cli_result_free(&r);
	cr_expect_eq(run(&r, (const char *const[]){"download", "x1", NULL}), 1);
	cr_expect(strstr(r.err, "expired"), "%s", r.err);
	cli_result_free(&r);
	cr_expect_eq(run(&r, (const char *const[]){"export", "t1", "--format", "txt", "--timestamps",
						  "30s", NULL}), 2);
	cr_expect(strstr(r.err, "--timestamps=30s"), "%s", r.err);
	cli_result_free(&r);
	cr_expect_eq(run(&r, (const char *const[]){"upload", ".", NULL}), 2);
	cr_expect(strstr(r.err, "is a directory"), "%s", r.err);
	cli_result_free(&r);
	cr_expect_eq(sec_server_requests(&api), 2, "only the two export reads were sent");

	sec_server_route(&api, "POST", "/api/v1/exports", 201, NULL,
			 "{\"id\":\"e9\",\"state\":\"pending\",\"format\":\"txt\",\"transcription_ids\":[\"t1\"]}");
	sec_server_route(&api, "GET", "/api/v1/exports/e9", 200, NULL,
			 "{\"id\":\"e9\",\"state\":\"pending\",\"format\":\"txt\",\"transcription_ids\":[\"t1\"]}");

	sec_server_route(&api, "POST", "/api/v1/transcriptions", 201, NULL,
			 "{\"id\":\"n1\",\"name\":\"x\",\"state\":\"initial\"}");
	sec_server_route(&api, "GET", "/api/v1/transcriptions/n1", 200, NULL,
			 "{\"id\":\"n1\",\"name\":\"x\",\"state\":\"initial\"}");
	cr_expect_eq(run(&r, (const char *const[]){"transcribe", "https://media.example/", "--language",
						  "en-US", "--org", "1", NULL}), 0, "never 'name is required': %s", r.err);
	cli_result_free(&r);
}

/* rm and show take several ids; one that fails does not stop the others, the exit is 1. */
Test(cli_realshapes, show_and_rm_take_several_ids, .init = setup, .fini = teardown)
{
	struct cli_result r;
	item_routes();
	sec_server_route(&api, "DELETE", "/api/v1/transcriptions/*", 204, NULL, "%s", "");
	cr_expect_eq(run(&r, (const char *const[]){"show", "missing", HEX40, NULL}), 1, "%s", r.err);
	cr_expect(strstr(r.out, "Interview"), "the second one is shown: %s", r.out);
	cli_result_free(&r);
	cr_expect_eq(run(&r, (const char *const[]){"rm", HEX40, "other", NULL}), 0, "%s", r.err);
	cr_expect(strstr(r.out, "deleted " HEX40) && strstr(r.out, "deleted other"), "%s", r.out);
	cli_result_free(&r);
	cr_expect(sec_server_log_has(&api, "DELETE /api/v1/transcriptions/other"));
	cr_expect(sec_server_log_has(&api, "DELETE /api/v1/transcriptions/" HEX40));
	cr_expect_eq(run(&r, (const char *const[]){"languages", "--pro", "--translation", NULL}), 2);
	cli_result_free(&r);
}

/* An upload the storage refuses keeps the storage's words: an S3-style XML error body. */
Test(cli_realshapes, storage_xml_errors_reach_the_message, .init = setup, .fini = teardown)
{
	struct cli_result r;
	char media[700];
	sec_server_route(&api, "GET", "/api/v1/uploads/new", 200, NULL,
			 "{\"signedUrl\":\"%s/bucket/a.wav?X-Amz-Signature=abc\"}", api.origin);
	sec_server_route(&api, "PUT", "/bucket/a.wav", 403, NULL, "%s",
			 "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SignatureDoesNotMatch</Code>"
			 "<Message>The request signature we calculated does not match the signature you "
			 "provided.</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>");
	cli_home_path(&home, "a.wav", media, sizeof media);
	FILE *f = fopen(media, "w");
	cr_assert(f);
	fputs("RIFF....WAVE", f);
	fclose(f);
	cr_expect_eq(run(&r, (const char *const[]){"upload", media, NULL}), 1);
	cr_expect(strstr(r.err, "the storage refused the upload: The request signature we calculated"),
		  "%s", r.err);
	cr_expect(strstr(r.err, "SignatureDoesNotMatch") && strstr(r.err, "403"), "%s", r.err);
	cli_result_free(&r);
	cr_expect(sec_server_log_has(&api, "PUT /bucket/a.wav"));
}

/* How many requests the stand-in logged as line ("GET /path", the query left out). */
static int logged(const char *line)
{
	int n = 0;
	pthread_mutex_lock(&api.mu);
	for (const char *p = api.log; (p = strstr(p, line)); p++)
		n += (p == api.log || p[-1] == '\n') && p[strlen(line)] == '\n';
	pthread_mutex_unlock(&api.mu);
	return n;
}

/* A download link the storage refuses as S3 does an expired presigned URL (403 XML) is read
 * again from the export, once, and the file comes with the fresh link; when the fresh one is
 * refused too, download says so, exit 1, and nothing is left. Counted by the stand-in. */
Test(cli_realshapes, a_refused_download_link_is_read_again_once, .init = setup, .fini = teardown)
{
	static const char expired[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>AccessDenied"
				      "</Code><Message>Request has expired</Message></Error>";
	struct cli_result r;
	char dir[700], file[800];
	cli_home_path(&home, "dl", dir, sizeof dir);
	sec_server_route(&api, "GET", "/api/v1/exports/e5", 200, NULL,
			 "{\"id\":\"e5\",\"state\":\"ready\",\"format\":\"txt\",\"transcription_ids\":[\"t1\"],"
			 "\"download_link\":\"%s/bucket/e5.txt?X-Amz-Expires=3600\"}", api.origin);
	sec_server_route(&api, "GET", "/bucket/e5.txt", 403, NULL, "%s", expired);
	sec_server_route_limit(&api, NULL, 1);
	sec_server_route(&api, "GET", "/bucket/e5.txt", 200, NULL, "hello export\n");
	cr_expect_eq(run(&r, (const char *const[]){"download", "e5", "-o", dir, NULL}), 0, "%s", r.err);
	snprintf(file, sizeof file, "%.*s", (int)strcspn(r.out, "\n"), r.out);   /* the path */
	cli_result_free(&r);
	cr_expect_eq(logged("GET /api/v1/exports/e5"), 2, "its own read and one read again");
	cr_expect_eq(logged("GET /bucket/e5.txt"), 2);
	FILE *f = fopen(file, "r");
	char got[32] = "";
	cr_assert(f, "%s", file);
	cr_expect(fgets(got, sizeof got, f) && strcmp(got, "hello export\n") == 0, "%s", got);
	fclose(f);
	/* as the browser's d does, the saved export is watched (steno(1), state.json) */
	char state[700];
	cli_home_path(&home, "state/steno/state.json", state, sizeof state);
	char *text = cli_read_file(state);
	cr_expect(text && strstr(text, "\"e5\""), "%s", text ? text : "no state file");
	free(text);

	sec_server_route(&api, "GET", "/api/v1/exports/e6", 200, NULL,
			 "{\"id\":\"e6\",\"state\":\"ready\",\"format\":\"txt\",\"transcription_ids\":[\"t2\"],"
			 "\"download_link\":\"%s/bucket/e6.txt\"}", api.origin);
	sec_server_route(&api, "GET", "/bucket/e6.txt", 403, NULL, "%s", expired);
	cr_expect_eq(run(&r, (const char *const[]){"download", "e6", "-o", dir, NULL}), 1);
	cr_expect(strstr(r.err, "403"), "%s", r.err);
	cr_expect(strstr(r.err, "the file server refused the download: Request has expired"),
		  "the storage's own words: %s", r.err);
	cr_expect_null(strstr(r.err, "HTTP 403 (HTTP 403"), "said twice: %s", r.err);
	cli_result_free(&r);
	cr_expect_eq(logged("GET /api/v1/exports/e6"), 2);
	cr_expect_eq(logged("GET /bucket/e6.txt"), 2, "never a loop");
	cr_expect_eq(unlink(file), 0);
	cr_expect_eq(rmdir(dir), 0, "a .part is left");
}
