/* `steno ls --all` (concurrent, ahead) gives exactly what a page-by-page listing gives. */
#include "config.h"

#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_cli_util.h"

static struct sbx sb;
static struct cli_home home;

static void start(const char *page_size, int n)
{
	const char *const extra[] = {"--page-size", page_size, NULL};
	cr_assert_eq(sbx_start(&sb, extra), 0, "sandbox did not start");
	cr_assert_eq(cli_home_init(&home), 0);
	if (n == 0)
		return;
	char path[128], body[64];
	snprintf(path, sizeof(path), "/_sandbox/organizations/%s/seed", sb.org_id);
	snprintf(body, sizeof(body), "{\"transcriptions\":%d}", n);
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&sb, "POST", path, sb.admin_key, body, NULL, &r), 0);
	cr_assert(r.status / 100 == 2);
	sbx_resp_free(&r);
}

static void teardown(void)
{
	sbx_stop(&sb);
	cli_home_free(&home);
}

static json_object *run_json(const char *const *argv)
{
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, argv), 0);
	cr_assert_eq(r.code, 0, "%s", r.err);
	json_object *a = json_tokener_parse(r.out);
	cr_assert(a && json_object_is_type(a, json_type_array), "%s", r.out);
	cli_result_free(&r);
	return a;
}

/* Page by page with --page until an empty page, concatenated. */
static json_object *sequential(void)
{
	json_object *all = json_object_new_array();
	for (int p = 0;; p++) {
		char num[16];
		snprintf(num, sizeof(num), "%d", p);
		json_object *a = run_json((const char *const[]){"ls", "--page", num, "--json", NULL});
		size_t n = json_object_array_length(a);
		for (size_t i = 0; i < n; i++)
			json_object_array_add(all, json_object_get(json_object_array_get_idx(a, i)));
		json_object_put(a);
		if (n == 0)
			break;
	}
	return all;
}

static void expect_same(json_object *a, json_object *b, size_t n)
{
	cr_assert_eq(json_object_array_length(a), n);
	cr_assert_eq(json_object_array_length(b), n);
	for (size_t i = 0; i < n; i++)
		cr_expect_str_eq(sbx_str(json_object_array_get_idx(a, i), "id"),
				 sbx_str(json_object_array_get_idx(b, i), "id"), "item %zu", i);
}

Test(cli_lsall, equals_sequential, .fini = teardown)
{
	start("20", 310);
	json_object *seq = sequential();
	json_object *all = run_json((const char *const[]){"ls", "--all", "--json", NULL});
	expect_same(all, seq, 310);
	json_object_put(all);
	/* The table has a header and one line per item. */
	struct cli_result r;
	cr_assert_eq(cli_exec(&r, &home, &sb, NULL, (const char *const[]){"ls", "--all", NULL}), 0);
	size_t lines = 0;
	for (const char *p = r.out; (p = strchr(p, '\n')); p++)
		lines++;
	cr_expect_eq(lines, 311);
	cli_result_free(&r);
	/* Still the same through faults. */
	struct sbx_resp resp;
	cr_assert_eq(sbx_request(&sb, "PUT", "/_sandbox/faults", sb.admin_key,
				 "{\"spec\":\"503=0.1,truncate=0.05,malformed=0.1\"}", NULL, &resp), 0);
	sbx_resp_free(&resp);
	all = run_json((const char *const[]){"ls", "--all", "--json", NULL});
	expect_same(all, seq, 310);
	json_object_put(all);
	json_object_put(seq);
}

/* The last page is full: the list ends on the empty page after it. */
Test(cli_lsall, full_last_page, .fini = teardown)
{
	start("10", 50);
	json_object *all = run_json((const char *const[]){"ls", "--all", "--json", NULL});
	json_object *seq = sequential();
	expect_same(all, seq, 50);
	json_object_put(all);
	json_object_put(seq);
}

Test(cli_lsall, empty_list, .fini = teardown)
{
	start("10", 0);
	json_object *all = run_json((const char *const[]){"ls", "--all", "--json", NULL});
	cr_expect_eq(json_object_array_length(all), 0);
	json_object_put(all);
}
