/* steno-sandbox over loopback: ready lines, routing and error statuses, auth, field sets,
 * lists, paging and filters, the legacy form. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_sandbox_util.h"

static struct sbx S;

static void stop_all(void)
{
	sbt_stop(&S, NULL);
}

static void expect_error(const char *method, const char *target, const char *key, const char *body,
			 const char *hdr, long status, const char *code)
{
	struct sbx_resp r;
	sbx_request(&S, method, target, key, body, hdr, &r);
	cr_assert_eq(r.status, status, "%s %s: got %ld (%s), want %ld", method, target, r.status, r.body, status);
	json_object *o = sbx_json(&r);
	cr_assert(o, "%s %s: body is not JSON: %s", method, target, r.body);
	cr_assert(sbx_str(o, "error") && sbx_str(o, "message"), "error body lacks error/message: %s", r.body);
	if (code)
		cr_assert_str_eq(sbx_str(o, "error"), code);
	json_object_put(o);
	sbx_resp_free(&r);
}

/* Exactly these keys, no more, no fewer. */
static void expect_keys(json_object *o, const char *const *keys)
{
	size_t n = 0;
	for (; keys[n]; n++)
		cr_assert(json_object_object_get_ex(o, keys[n], NULL), "missing key %s in %s", keys[n],
			  json_object_to_json_string(o));
	cr_assert_eq((size_t)json_object_object_length(o), n, "unexpected keys in %s", json_object_to_json_string(o));
}

Test(sandbox_api, ready_lines_and_teapot, .fini = stop_all)
{
	sbt_start(&S, NULL);
	cr_assert(strncmp(S.base_url, "http://127.0.0.1:", 17) == 0, "%s", S.base_url);
	cr_assert(strstr(S.base_url, "/api/v1"));
	cr_assert(strlen(S.api_key) > 10 && strlen(S.admin_key) > 10);
	cr_assert(strspn(S.org_id, "0123456789") == strlen(S.org_id) && strlen(S.org_id) > 0);
	expect_error("GET", "/teapot", NULL, NULL, NULL, 418, "teapot");
	expect_error("GET", "teapot", NULL, NULL, NULL, 418, "teapot");
}

Test(sandbox_api, routing_statuses, .fini = stop_all)
{
	sbt_start(&S, NULL);
	expect_error("GET", "nothing/here", S.api_key, NULL, NULL, 404, "not_found");
	expect_error("GET", "transcriptions/00000000000000000000000000000000", S.api_key, NULL, NULL, 404, "not_found");
	struct sbx_resp r;
	char allow[64];
	sbx_request(&S, "POST", "transcriptions/abc", S.api_key, "{}", NULL, &r);
	cr_assert_eq(r.status, 405);
	cr_assert(sbx_resp_header(&r, "Allow", allow, sizeof allow));
	cr_assert(strstr(allow, "GET") && strstr(allow, "DELETE"), "Allow: %s", allow);
	sbx_resp_free(&r);
	sbx_request(&S, "DELETE", "exports/abc", S.api_key, NULL, NULL, &r);
	cr_assert_eq(r.status, 405);
	cr_assert_str_eq(sbx_resp_header(&r, "Allow", allow, sizeof allow), "GET");
	sbx_resp_free(&r);
	expect_error("GET", "glossaries?organization_id=1", S.api_key, NULL, "Accept: text/html", 406, "not_acceptable");
	/* Accept including JSON is fine. */
	sbx_request(&S, "GET", "teapot", NULL, NULL, "Accept: text/html, application/json;q=0.9", &r);
	cr_assert_eq(r.status, 418);
	sbx_resp_free(&r);
}

Test(sandbox_api, auth_statuses, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char path[128];
	snprintf(path, sizeof path, "glossaries?organization_id=%s", S.org_id);
	expect_error("GET", path, NULL, NULL, NULL, 401, "unauthorized");
	expect_error("GET", path, "sk_wrong", NULL, NULL, 401, "unauthorized");
	expect_error("POST", "/_sandbox/clock/advance", S.api_key, "{\"seconds\":1}", NULL, 403, "forbidden");
	expect_error("GET", "/_sandbox/webhooks", NULL, NULL, NULL, 401, "unauthorized");
	/* Another organization: its key cannot see the demo org, and vice versa. */
	struct sbx_resp r;
	sbx_request(&S, "POST", "/_sandbox/organizations", S.admin_key, "{\"name\":\"Other\"}", NULL, &r);
	cr_assert_eq(r.status, 201, "%s", r.body);
	json_object *o = sbx_json(&r);
	char other_key[128], other_org[32];
	snprintf(other_key, sizeof other_key, "%s", sbx_str(o, "api_key"));
	snprintf(other_org, sizeof other_org, "%s", sbx_str(o, "id"));
	json_object_put(o);
	sbx_resp_free(&r);
	expect_error("GET", path, other_key, NULL, NULL, 401, "unauthorized");
	snprintf(path, sizeof path, "transcriptions?organization_id=%s", other_org);
	expect_error("GET", path, S.api_key, NULL, NULL, 401, "unauthorized");
	sbx_request(&S, "GET", path, other_key, NULL, NULL, &r);
	cr_assert_eq(r.status, 200);
	sbx_resp_free(&r);
	/* A second key of that organization works the same. */
	char keys_path[128];
	snprintf(keys_path, sizeof keys_path, "/_sandbox/organizations/%s/keys", other_org);
	sbx_request(&S, "POST", keys_path, S.admin_key, NULL, NULL, &r);
	cr_assert_eq(r.status, 201, "%s", r.body);
	o = sbx_json(&r);
	char key2[128];
	snprintf(key2, sizeof key2, "%s", sbx_str(o, "api_key"));
	json_object_put(o);
	sbx_resp_free(&r);
	cr_assert_str_neq(key2, other_key);
	sbx_request(&S, "GET", path, key2, NULL, NULL, &r);
	cr_assert_eq(r.status, 200);
	sbx_resp_free(&r);
	expect_error("POST", "/_sandbox/organizations/999/keys", S.admin_key, NULL, NULL, 404, "not_found");
	/* The admin key reaches every organization. */
	sbx_request(&S, "GET", path, S.admin_key, NULL, NULL, &r);
	cr_assert_eq(r.status, 200);
	sbx_resp_free(&r);
}

Test(sandbox_api, validation_statuses, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char body[1024];
	expect_error("POST", "transcriptions", S.api_key, "{not json", NULL, 400, "invalid_json");
	expect_error("POST", "transcriptions", S.api_key, "{\"name\":\"x\"}", NULL, 400, NULL);
	expect_error("POST", "transcriptions", S.api_key, "{\"transcription\":{\"name\":5}}", NULL, 400, NULL);
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"x\",\"language\":\"xx-XX\",\"tmp_url\":"
		 "\"http://127.0.0.1:1/a.wav\",\"organization_id\":\"%s\"}}", S.org_id);
	struct sbx_resp r;
	sbx_request(&S, "POST", "transcriptions", S.api_key, body, NULL, &r);
	cr_assert_eq(r.status, 422);
	json_object *o = sbx_json(&r);
	cr_assert(json_object_is_type(sbx_get(o, "errors.language"), json_type_array), "%s", r.body);
	json_object_put(o);
	sbx_resp_free(&r);
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"x\",\"language\":\"ja-JP\",\"service\":\"pro\","
		 "\"tmp_url\":\"http://127.0.0.1:1/a.wav\",\"organization_id\":\"%s\"}}", S.org_id);
	expect_error("POST", "transcriptions", S.api_key, body, NULL, 422, "validation_failed");
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"x\",\"language\":\"en-US\",\"service\":\"alignment\","
		 "\"tmp_url\":\"http://127.0.0.1:1/a.wav\",\"organization_id\":\"%s\"}}", S.org_id);
	expect_error("POST", "transcriptions", S.api_key, body, NULL, 422, "validation_failed");
	snprintf(body, sizeof body, "{\"transcription\":{\"language\":\"en-US\",\"tmp_url\":\"http://127.0.0.1:1/a\","
		 "\"organization_id\":\"%s\"}}", S.org_id);
	expect_error("POST", "transcriptions", S.api_key, body, NULL, 422, "validation_failed");
	expect_error("GET", "transcriptions", S.api_key, NULL, NULL, 422, "validation_failed");
	expect_error("GET", "uploads/new", S.api_key, NULL, NULL, 422, "validation_failed");
	/* A JSON body over the cap. */
	size_t big = 1100 * 1024;
	char *huge = malloc(big + 1);
	memset(huge, ' ', big);
	huge[big] = '\0';
	huge[0] = '{';
	huge[big - 1] = '}';
	expect_error("POST", "exports", S.api_key, huge, NULL, 413, "payload_too_large");
	free(huge);
}

static json_object *list_page(const char *query, long *status)
{
	char path[512];
	snprintf(path, sizeof path, "transcriptions?organization_id=%s%s", S.org_id, query);
	return sbx_call(&S, "GET", path, NULL, status);
}

Test(sandbox_api, list_fields_paging_filters, .fini = stop_all)
{
	const char *args[] = {"--seed-demo", "45", NULL};
	sbt_start(&S, args);
	long status;
	json_object *o = list_page("", &status);
	cr_assert_eq(status, 200);
	json_object *results = sbx_get(o, "results");
	cr_assert_eq(json_object_array_length(results), 20);
	static const char *const item_keys[] = {"id", "name", "createdAt", "updatedAt", "state", "sharingEnabled",
						"language", "audioLengthInSeconds", "costInCents", "refunded", "tags",
						"_links", NULL};
	expect_keys(json_object_array_get_idx(results, 0), item_keys);
	cr_assert(sbx_str(json_object_array_get_idx(results, 0), "_links.self.editorUrl"));
	const char *next = sbx_str(o, "_links.next.url");
	cr_assert(next && strstr(next, "page=1"), "next: %s", next ? next : "(none)");
	/* Most recent first. */
	const char *a = sbx_str(json_object_array_get_idx(results, 0), "createdAt");
	const char *b = sbx_str(json_object_array_get_idx(results, 19), "createdAt");
	cr_assert(strcmp(a, b) >= 0);
	json_object_put(o);
	/* Walk all pages: 45 seeded + order/task outputs; the last page has no next link. */
	int pages = 0, total = 0;
	char url[1024];
	snprintf(url, sizeof url, "transcriptions?organization_id=%s", S.org_id);
	for (;;) {
		json_object *p = sbx_call(&S, "GET", url, NULL, &status);
		cr_assert_eq(status, 200);
		total += (int)json_object_array_length(sbx_get(p, "results"));
		pages++;
		const char *n = sbx_str(p, "_links.next.url");
		if (!n) {
			cr_assert_null(sbx_get(p, "_links.next"));
			json_object_put(p);
			break;
		}
		snprintf(url, sizeof url, "%s", n);
		json_object_put(p);
	}
	cr_assert_geq(total, 45);
	cr_assert_eq(pages, (total + 19) / 20);
	/* tags: all listed tags must match. */
	o = list_page("&tags=interview,medical", &status);
	results = sbx_get(o, "results");
	cr_assert_gt(json_object_array_length(results), 0);
	for (size_t i = 0; i < json_object_array_length(results); i++) {
		const char *tags = json_object_to_json_string(sbx_get(json_object_array_get_idx(results, i), "tags"));
		cr_assert(strstr(tags, "\"interview\"") && strstr(tags, "\"medical\""), "%s", tags);
	}
	json_object_put(o);
	o = list_page("&tags=no-such-tag", &status);
	cr_assert_eq(json_object_array_length(sbx_get(o, "results")), 0);
	json_object_put(o);
	o = list_page("&folder_id=1&tags=a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p", &status);
	cr_assert_eq(status, 200);
	json_object_put(o);
	o = list_page("&tags=a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q", &status);
	cr_assert_eq(status, 422);
	json_object_put(o);
}

Test(sandbox_api, folder_filter_includes_subfolders, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char body[1024];
	const char *folders[] = {"Top", "Top/Sub", "Top/Sub/Deeper", "Elsewhere"};
	for (int i = 0; i < 4; i++) {
		long status;
		snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"f%d\",\"language\":\"en-US\",\"tmp_url\":"
			 "\"http://127.0.0.1:1/a.wav\",\"organization_id\":\"%s\",\"folder\":\"%s\"}}", i, S.org_id, folders[i]);
		json_object *o = sbx_call(&S, "POST", "transcriptions", body, &status);
		cr_assert_eq(status, 201);
		json_object_put(o);
	}
	/* Folder ids come from folder_id of an order placed in the same path. */
	long status;
	snprintf(body, sizeof body, "{\"order\":{\"url\":\"http://127.0.0.1:1/b.wav\",\"language\":\"en-US\","
		 "\"organization_id\":\"%s\",\"folder\":\"Top\"}}", S.org_id);
	json_object *ord = sbx_call(&S, "POST", "orders", body, &status);
	cr_assert_eq(status, 201);
	long long top = json_object_get_int64(sbx_get(ord, "folder_id"));
	json_object_put(ord);
	char q[64];
	snprintf(q, sizeof q, "&folder_id=%lld", top);
	json_object *o = list_page(q, &status);
	cr_assert_eq(status, 200);
	/* f0, f1, f2 and the order's file; not f3. */
	cr_assert_eq(json_object_array_length(sbx_get(o, "results")), 4, "%s", json_object_to_json_string(o));
	json_object_put(o);
	expect_error("GET", "transcriptions?organization_id=1&folder_id=x", S.api_key, NULL, NULL, 401, NULL);
	char q2[128];
	snprintf(q2, sizeof q2, "transcriptions?organization_id=%s&folder_id=999999", S.org_id);
	expect_error("GET", q2, S.api_key, NULL, NULL, 404, "not_found");
}

Test(sandbox_api, glossaries_and_style_guides, .fini = stop_all)
{
	const char *args[] = {"--seed-demo", "1", NULL};
	sbt_start(&S, args);
	char path[128];
	long status;
	snprintf(path, sizeof path, "glossaries?organization_id=%s", S.org_id);
	json_object *o = sbx_call(&S, "GET", path, NULL, &status);
	cr_assert_eq(status, 200);
	json_object *g = json_object_array_get_idx(sbx_get(o, "glossaries"), 0);
	static const char *const gk[] = {"id", "name", "source_language", "target_languages", "organization_default",
					 "imported", "created_at", "updated_at", NULL};
	expect_keys(g, gk);
	cr_assert(json_object_is_type(sbx_get(g, "id"), json_type_int));
	json_object_put(o);
	snprintf(path, sizeof path, "style_guides?organization_id=%s", S.org_id);
	o = sbx_call(&S, "GET", path, NULL, &status);
	cr_assert_eq(status, 200);
	static const char *const sk[] = {"id", "name", "operation", "organization_default", "verbatim", "fix_grammar",
					 "sdh", "speaker_id", "notation_tags", "created_at", "updated_at", NULL};
	expect_keys(json_object_array_get_idx(sbx_get(o, "style_guides"), 0), sk);
	cr_assert_eq(json_object_array_length(sbx_get(o, "style_guides")), 3);
	json_object_put(o);
}

Test(sandbox_api, paging_ten_thousand, .fini = stop_all, .timeout = 60)
{
	sbt_start(&S, NULL);
	char path[128];
	struct sbx_resp r;
	snprintf(path, sizeof path, "/_sandbox/organizations/%s/seed", S.org_id);
	sbx_request(&S, "POST", path, S.admin_key, "{\"transcriptions\":10000}", NULL, &r);
	cr_assert_eq(r.status, 201, "%s", r.body);
	sbx_resp_free(&r);
	char url[1024];
	snprintf(url, sizeof url, "transcriptions?organization_id=%s", S.org_id);
	int total = 0, pages = 0;
	char seen_first[40] = "";
	for (;;) {
		long status;
		json_object *p = sbx_call(&S, "GET", url, NULL, &status);
		cr_assert_eq(status, 200);
		json_object *res = sbx_get(p, "results");
		if (pages == 0)
			snprintf(seen_first, sizeof seen_first, "%s", sbx_str(json_object_array_get_idx(res, 0), "id"));
		total += (int)json_object_array_length(res);
		pages++;
		const char *n = sbx_str(p, "_links.next.url");
		if (!n) {
			json_object_put(p);
			break;
		}
		snprintf(url, sizeof url, "%s", n);
		json_object_put(p);
	}
	cr_assert_eq(total, 10000);
	cr_assert_eq(pages, 500);
	cr_assert_eq(strlen(seen_first), 32);
}

Test(sandbox_api, legacy_form, .fini = stop_all)
{
	const char *args[] = {"--seed-demo", "3", "--api-form", "legacy", NULL};
	sbt_start(&S, args);
	long status;
	json_object *o = sbx_call(&S, "GET", "transcriptions?page=0", NULL, &status);
	cr_assert_eq(status, 200);
	json_object *item = json_object_array_get_idx(sbx_get(o, "results"), 0);
	cr_assert(sbx_str(item, "_links.self.url"));
	cr_assert_null(sbx_get(item, "_links.self.editorUrl"));
	cr_assert_null(sbx_get(item, "costInCents"));
	cr_assert_null(sbx_get(item, "tags"));
	cr_assert_null(sbx_get(item, "refunded"));
	char path[128];
	snprintf(path, sizeof path, "transcriptions/%s", sbx_str(item, "id"));
	json_object *t = sbx_call(&S, "GET", path, NULL, &status);
	cr_assert_eq(status, 200);
	cr_assert(sbx_str(t, "_links.editor.url"));
	cr_assert_null(sbx_get(t, "_links.self.downloadUrl"));
	cr_assert_null(sbx_get(t, "failureReason"));
	cr_assert_null(sbx_get(t, "costInCents"));
	json_object_put(t);
	json_object_put(o);
	/* Create needs folder_id in the legacy form. */
	char body[512];
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"x\",\"language\":\"en-US\",\"tmp_url\":"
		 "\"http://127.0.0.1:1/a.wav\",\"organization_id\":\"%s\"}}", S.org_id);
	expect_error("POST", "transcriptions", S.api_key, body, NULL, 422, "validation_failed");
}

/* GET /organizations (open-points: the real service's extension): the key's organization,
 * every one for the admin key, {id (integer), name, role}. */
Test(sandbox_api, organizations_of_the_key, .fini = stop_all)
{
	const char *args[] = {"--seed-demo", "1", NULL};
	sbt_start(&S, args);
	long status;
	json_object *o = sbx_call(&S, "GET", "organizations", NULL, &status);
	cr_assert_eq(status, 200);
	json_object *a = sbx_get(o, "organizations");
	cr_assert_eq(json_object_array_length(a), 1, "%s", json_object_to_json_string(o));
	json_object *g = json_object_array_get_idx(a, 0);
	static const char *const ok[] = {"id", "name", "role", NULL};
	expect_keys(g, ok);
	cr_assert(json_object_is_type(sbx_get(g, "id"), json_type_int));
	cr_assert_eq(json_object_get_int64(sbx_get(g, "id")), atoll(S.org_id));
	json_object_put(o);
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&S, "GET", "/api/v1/organizations", S.admin_key, NULL, NULL, &r), 0);
	cr_assert_eq(r.status, 200);
	o = sbx_json(&r);
	cr_assert_geq(json_object_array_length(sbx_get(o, "organizations")), 2, "%s", r.body);
	json_object_put(o);
	sbx_resp_free(&r);
	expect_error("GET", "/api/v1/organizations", "sk_wrong", NULL, NULL, 401, NULL);
}
