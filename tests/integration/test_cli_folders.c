/* Issue 22: folder.NAME = /path in the config: ls --folder NAME sent folder_id=NAME (400).
 * A configured path resolves to the id steno learned for it, or is refused with the reason,
 * sending nothing; steno folders lists what steno learned, per organization. */
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
	static const char *const fast[] = {"--clock-speed", "1000", NULL};
	cr_assert_eq(cli_fixture_start(&sb, &home, fast, "profile = t\n[profile t]\nfolder.pods = /Podcasts/2024\n"
			  "folder.byid = 77\n"), 0, "sandbox did not start");
}

static void teardown(void)
{
	cli_fixture_stop(&sb, &home);
}

TestSuite(cli_folders, .init = setup, .fini = teardown, .timeout = 120);

#define RUN(r, ...) \
	cr_assert_eq(cli_exec(r, &home, &sb, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

Test(cli_folders, a_configured_path_resolves_or_is_refused)
{
	struct cli_result r;
	RUN(&r, "ls", "--folder", "pods");
	cr_expect_eq(r.code, 2, "%s", r.err);
	cr_expect(strstr(r.err, "folder pods is the path /Podcasts/2024") &&
		  strstr(r.err, "knows no id"), "%s", r.err);
	cli_result_free(&r);
	cr_expect_eq(sbx_reads(&sb, "/api/v1/transcriptions", "received"), 0, "nothing was sent");

	/* an order in that folder: its answer gives the folder's id */
	RUN(&r, "order", "create", "http://127.0.0.1:1/x.wav", "--language", "en-US", "--folder",
	    "Podcasts/2024", "--json");
	cr_assert_eq(r.code, 0, "%s", r.err);
	json_object *o = json_tokener_parse(r.out);
	cr_assert(o, "%s", r.out);
	json_object *fid = sbx_get(o, "folder_id");
	cr_assert(fid, "the order names its folder: %s", r.out);
	char id[32];
	snprintf(id, sizeof id, "%s", json_object_get_string(fid));
	json_object_put(o);
	cli_result_free(&r);

	RUN(&r, "folders", "--json");
	cr_expect_eq(r.code, 0, "%s", r.err);
	o = json_tokener_parse(r.out);
	cr_assert(o && json_object_is_type(o, json_type_array), "%s", r.out);
	bool listed = false;
	for (size_t i = 0; i < json_object_array_length(o); i++) {
		json_object *f = json_object_array_get_idx(o, i);
		if (sbx_str(f, "id") && !strcmp(sbx_str(f, "id"), id))
			listed = sbx_str(f, "name") && !strcmp(sbx_str(f, "name"), "pods") &&
				 !strcmp(sbx_str(f, "org"), sb.org_id);
	}
	cr_expect(listed, "folder %s (pods) listed: %s", id, r.out);
	json_object_put(o);
	cli_result_free(&r);

	RUN(&r, "ls", "--folder", "pods", "--json");
	cr_expect_eq(r.code, 0, "%s", r.err);
	cli_result_free(&r);
	RUN(&r, "folders");
	cr_expect(strstr(r.out, "/Podcasts/2024") && strstr(r.out, "pods"), "%s", r.out);
	cli_result_free(&r);
}
