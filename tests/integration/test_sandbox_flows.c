/* steno-sandbox over loopback: state machines on the sandbox clock. Uploads, URL fetches and
 * their failures, alignment, credit locks, deletion, exports in every format, translation tasks. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test_sandbox_util.h"

static struct sbx S;
static struct sbx_receiver *R;

static void stop_all(void)
{
	sbt_stop(&S, &R);
}

/* POST /transcriptions; returns the id (static buffer). extra: more JSON members or "". */
static const char *create(const char *tmp_url, const char *extra, long want)
{
	static char id[40];
	char body[2048];
	long status;
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"Zoë 会議\",\"language\":\"en-US\",\"tmp_url\":\"%s\","
		 "\"organization_id\":\"%s\"%s}}", tmp_url, S.org_id, extra);
	json_object *o = sbx_call(&S, "POST", "transcriptions", body, &status);
	cr_assert_eq(status, want, "create: %ld %s", status, json_object_to_json_string(o));
	snprintf(id, sizeof id, "%s", sbx_str(o, "id") ? sbx_str(o, "id") : "");
	json_object_put(o);
	return id;
}

static json_object *get_tr(const char *id, long *status)
{
	char path[128];
	snprintf(path, sizeof path, "transcriptions/%s", id);
	return sbx_call(&S, "GET", path, NULL, status);
}

static void expect_state(const char *id, const char *state)
{
	long status;
	json_object *o = get_tr(id, &status);
	cr_assert_eq(status, 200);
	cr_assert_str_eq(sbx_str(o, "state"), state, "%s", json_object_to_json_string(o));
	json_object_put(o);
}

/* Waits (real time) until the transcription leaves `state`; worker threads fetch URLs. */
static void wait_not_state(const char *id, const char *state)
{
	for (int i = 0; i < 200; i++) {
		long status;
		json_object *o = get_tr(id, &status);
		int same = sbx_str(o, "state") && strcmp(sbx_str(o, "state"), state) == 0 &&
			   json_object_get_int(sbx_get(o, "audioLengthInSeconds")) == 0 && !sbx_str(o, "failureReason");
		json_object_put(o);
		if (!same)
			return;
		usleep(50000);
	}
	cr_assert_fail("%s stayed %s", id, state);
}

Test(sandbox_flows, upload_auto_states, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char url[1024];
	sbt_upload_wav(&S, "clip.wav", 42, url, sizeof url);
	long status;
	char body[2048];
	snprintf(body, sizeof body, "{\"transcription\":{\"name\":\"n\",\"language\":\"en-US\",\"tmp_url\":\"%s\","
		 "\"organization_id\":\"%s\",\"tags\":[\"x\"]}}", url, S.org_id);
	json_object *c = sbx_call(&S, "POST", "transcriptions", body, &status);
	cr_assert_eq(status, 201);
	static const char *const ck[] = {"id", "name", "createdAt", "updatedAt", "sharingEnabled", "state", "language",
					 "tags", "_links", NULL};
	for (int i = 0; ck[i]; i++)
		cr_assert(sbx_get(c, ck[i]), "create lacks %s", ck[i]);
	cr_assert_eq(json_object_object_length(c), 9, "%s", json_object_to_json_string(c));
	cr_assert_str_eq(sbx_str(c, "state"), "ingesting");
	char id[40];
	snprintf(id, sizeof id, "%s", sbx_str(c, "id"));
	cr_assert_eq(strlen(id), 32);
	json_object_put(c);
	json_object *t = get_tr(id, &status);
	static const char *const rk[] = {"id", "name", "createdAt", "updatedAt", "failureReason", "sharingEnabled",
					 "state", "language", "audioLengthInSeconds", "costInCents", "refunded", "tags",
					 "soundwaveUrl", "_links", "deliveryEstimatedAt", NULL};
	for (int i = 0; rk[i]; i++)
		cr_assert(json_object_object_get_ex(t, rk[i], NULL), "retrieve lacks %s", rk[i]);
	cr_assert_eq(json_object_get_int(sbx_get(t, "audioLengthInSeconds")), 42);
	cr_assert_eq(json_object_get_int(sbx_get(t, "costInCents")), 20);
	cr_assert(sbx_get(t, "failureReason") == NULL);
	char eta[40];
	snprintf(eta, sizeof eta, "%s", sbx_str(t, "deliveryEstimatedAt"));
	json_object_put(t);
	cr_assert_eq(sbx_advance(&S, 2.1), 0);
	expect_state(id, "automatic_transcribing");
	cr_assert_eq(sbx_advance(&S, 4.2), 0);
	t = get_tr(id, &status);
	cr_assert_str_eq(sbx_str(t, "state"), "automatic_done");
	cr_assert_str_eq(sbx_str(t, "deliveryEstimatedAt"), eta);
	const char *dl = sbx_str(t, "_links.self.downloadUrl");
	cr_assert(dl);
	struct sbx_resp r;
	sbx_request(&S, "GET", dl, NULL, NULL, NULL, &r);
	cr_assert_eq(r.status, 200);
	json_object *content = sbx_json(&r);
	cr_assert(json_object_is_type(content, json_type_array), "%s", r.body);
	cr_assert(sbx_str(json_object_array_get_idx(content, 0), "speaker"));
	json_object_put(content);
	sbx_resp_free(&r);
	json_object_put(t);
}

Test(sandbox_flows, signed_urls_forged_and_expired, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char url[1024];
	sbt_upload_wav(&S, "clip.wav", 5, url, sizeof url);
	char forged[1100];
	snprintf(forged, sizeof forged, "%s", url);
	char *sig = strstr(forged, "signature=");
	cr_assert(sig);
	sig[10] = sig[10] == 'a' ? 'b' : 'a';
	struct sbx_resp r;
	sbx_request(&S, "PUT", forged, NULL, "data", NULL, &r);
	cr_assert_eq(r.status, 401, "%ld", r.status);
	cr_assert(strstr(r.body, "invalid_signature"));
	sbx_resp_free(&r);
	cr_assert_eq(sbx_advance(&S, 3601), 0);
	sbx_request(&S, "PUT", url, NULL, "data", NULL, &r);
	cr_assert_eq(r.status, 403);
	cr_assert(strstr(r.body, "url_expired"));
	sbx_resp_free(&r);
}

Test(sandbox_flows, url_fetch_and_failures, .fini = stop_all)
{
	sbt_start(&S, NULL);
	R = sbx_receiver_start(65, "Hello there. General Kenobi.", NULL, 0);
	cr_assert(R);
	char url[256];
	snprintf(url, sizeof url, "%s/media.wav", sbx_receiver_origin(R));
	char ok_id[40], bad_id[40], far_id[40];
	snprintf(ok_id, sizeof ok_id, "%s", create(url, "", 201));
	snprintf(url, sizeof url, "%s/missing.wav", sbx_receiver_origin(R));
	snprintf(bad_id, sizeof bad_id, "%s", create(url, "", 201));
	/* Not loopback: refused before any connection is made. */
	snprintf(far_id, sizeof far_id, "%s", create("http://192.0.2.1/a.wav", "", 201));
	wait_not_state(ok_id, "ingesting");
	wait_not_state(bad_id, "ingesting");
	wait_not_state(far_id, "ingesting");
	cr_assert_eq(sbx_advance(&S, 2.5), 0);
	expect_state(ok_id, "automatic_transcribing");
	long status;
	json_object *t = get_tr(bad_id, &status);
	cr_assert_str_eq(sbx_str(t, "state"), "failed");
	cr_assert_str_eq(sbx_str(t, "failureReason"), "download_failed");
	cr_assert(sbx_str(t, "failureMessage"));
	json_object_put(t);
	t = get_tr(far_id, &status);
	cr_assert_str_eq(sbx_str(t, "failureReason"), "download_failed");
	json_object_put(t);
	cr_assert_eq(sbx_advance(&S, 7), 0);
	t = get_tr(ok_id, &status);
	cr_assert_str_eq(sbx_str(t, "state"), "automatic_done");
	cr_assert_eq(json_object_get_int(sbx_get(t, "audioLengthInSeconds")), 65);
	json_object_put(t);
}

Test(sandbox_flows, signed_url_under_another_host_name, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char url[1024], alias[1100];
	sbt_upload_wav(&S, "clip.wav", 33, url, sizeof url);
	/* Same object, reached as localhost: fetched over HTTP like any URL. */
	const char *rest = strstr(url, "127.0.0.1");
	cr_assert(rest);
	snprintf(alias, sizeof alias, "http://localhost%s", rest + strlen("127.0.0.1"));
	struct sbx_resp r;
	sbx_request(&S, "GET", alias, NULL, NULL, NULL, &r);
	cr_assert_eq(r.status, 200, "GET %s: %ld (curl %d) %s", alias, r.status, r.curl_code, r.body);
	cr_assert_eq(r.len, 44 + 33 * 8000 * 2);
	sbx_resp_free(&r);
	char id[40];
	snprintf(id, sizeof id, "%s", create(alias, "", 201));
	wait_not_state(id, "ingesting");
	long status;
	json_object *t = get_tr(id, &status);
	cr_assert_eq(json_object_get_int(sbx_get(t, "audioLengthInSeconds")), 33, "%s", json_object_to_json_string(t));
	json_object_put(t);
}

Test(sandbox_flows, unsupported_media, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char url[1024];
	cr_assert_eq(sbx_upload(&S, "empty.mp3", "", 0, url, sizeof url), 0);
	const char *id = create(url, "", 201);
	long status;
	cr_assert_eq(sbx_advance(&S, 3), 0);
	json_object *t = get_tr(id, &status);
	cr_assert_str_eq(sbx_str(t, "state"), "failed");
	cr_assert_str_eq(sbx_str(t, "failureReason"), "unsupported_media");
	json_object_put(t);
}

Test(sandbox_flows, alignment_and_document_failure, .fini = stop_all)
{
	sbt_start(&S, NULL);
	R = sbx_receiver_start(20, "One two three. Four five six.", NULL, 0);
	char media[1024], extra[512], good[40], bad[40];
	sbt_upload_wav(&S, "clip.wav", 100, media, sizeof media);
	snprintf(extra, sizeof extra, ",\"service\":\"alignment\",\"document_url\":\"%s/doc.txt\"", sbx_receiver_origin(R));
	snprintf(good, sizeof good, "%s", create(media, extra, 201));
	snprintf(extra, sizeof extra, ",\"service\":\"alignment\",\"document_url\":\"%s/nope.txt\"", sbx_receiver_origin(R));
	snprintf(bad, sizeof bad, "%s", create(media, extra, 201));
	wait_not_state(good, "ingesting");
	wait_not_state(bad, "ingesting");
	cr_assert_eq(sbx_advance(&S, 2.5), 0);
	expect_state(good, "aligning");
	long status;
	json_object *t = get_tr(bad, &status);
	cr_assert_str_eq(sbx_str(t, "failureReason"), "document_unreachable");
	json_object_put(t);
	cr_assert_eq(sbx_advance(&S, 10.1), 0); /* 5 s + 0.05 x 100 s */
	t = get_tr(good, &status);
	cr_assert_str_eq(sbx_str(t, "state"), "automatic_done");
	struct sbx_resp r;
	sbx_request(&S, "GET", sbx_str(t, "_links.self.downloadUrl"), NULL, NULL, NULL, &r);
	cr_assert(strstr(r.body, "Four"), "%s", r.body);
	sbx_resp_free(&r);
	json_object_put(t);
}

Test(sandbox_flows, locked_without_credit_and_pro_timing, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char url[1024];
	sbt_upload_wav(&S, "clip.wav", 30, url, sizeof url);
	const char *pro = create(url, ",\"service\":\"pro\"", 201);
	char pro_id[40];
	snprintf(pro_id, sizeof pro_id, "%s", pro);
	cr_assert_eq(sbx_set_credit(&S, S.org_id, 0), 0);
	const char *id = create(url, "", 201);
	cr_assert_eq(sbx_advance(&S, 3), 0);
	long status;
	json_object *t = get_tr(id, &status);
	cr_assert_str_eq(sbx_str(t, "state"), "locked");
	cr_assert_str_eq(sbx_str(t, "failureReason"), "insufficient_credits");
	json_object_put(t);
	expect_state(pro_id, "automatic_transcribing");
	cr_assert_eq(sbx_advance(&S, 6 * 3600 - 10), 0);
	expect_state(pro_id, "automatic_transcribing");
	cr_assert_eq(sbx_advance(&S, 20), 0);
	expect_state(pro_id, "automatic_done");
}

Test(sandbox_flows, delete_trash_and_permanent, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char a[40], b[40], path[128];
	snprintf(a, sizeof a, "%s", create("http://127.0.0.1:1/a.wav", "", 201));
	snprintf(b, sizeof b, "%s", create("http://127.0.0.1:1/b.wav", "", 201));
	struct sbx_resp r;
	snprintf(path, sizeof path, "transcriptions/%s", a);
	sbx_request(&S, "DELETE", path, S.api_key, NULL, NULL, &r);
	cr_assert_eq(r.status, 204);
	cr_assert_eq(r.len, 0);
	sbx_resp_free(&r);
	long status;
	json_object *o = get_tr(a, &status);
	cr_assert_eq(status, 410);
	cr_assert_str_eq(sbx_str(o, "error"), "gone");
	json_object_put(o);
	snprintf(path, sizeof path, "transcriptions?organization_id=%s", S.org_id);
	o = sbx_call(&S, "GET", path, NULL, &status);
	cr_assert_eq(json_object_array_length(sbx_get(o, "results")), 1);
	json_object_put(o);
	snprintf(path, sizeof path, "transcriptions/%s", a);
	sbx_request(&S, "DELETE", path, S.api_key, NULL, NULL, &r);
	cr_assert_eq(r.status, 410);
	sbx_resp_free(&r);
	snprintf(path, sizeof path, "transcriptions/%s?permanent=true", b);
	sbx_request(&S, "DELETE", path, S.api_key, NULL, NULL, &r);
	cr_assert_eq(r.status, 204);
	sbx_resp_free(&r);
	o = get_tr(b, &status);
	cr_assert_eq(status, 410);
	json_object_put(o);
	sbx_request(&S, "DELETE", path, S.api_key, NULL, NULL, &r);
	cr_assert_eq(r.status, 410);
	sbx_resp_free(&r);
	sbx_request(&S, "DELETE", "transcriptions/ffffffffffffffffffffffffffffffff", S.api_key, NULL, NULL, &r);
	cr_assert_eq(r.status, 404);
	sbx_resp_free(&r);
}

/* A done transcription of the given seconds; returns its id. */
static void done_transcription(double seconds, char id[40])
{
	char url[1024];
	sbt_upload_wav(&S, "clip.wav", seconds, url, sizeof url);
	snprintf(id, 40, "%s", create(url, "", 201));
	cr_assert_eq(sbx_advance(&S, 2 + 3 + seconds * 0.1 + 0.5), 0);
	expect_state(id, "automatic_done");
}

/* Validates a downloaded file with the Debian tool for its kind, when installed. */
static void check_with_tool(const char *format, const struct sbx_resp *r)
{
	static const struct {
		const char *format, *tool, *cmd;
	} checks[] = {
		{"pdf", "pdfinfo", "pdfinfo %s >/dev/null 2>&1"},
		{"docx", "unzip", "unzip -l %s | grep -q word/document.xml"},
		{"zip", "unzip", "unzip -l %s | grep -q '2 files'"},
		{"premiere", "xmllint", "xmllint --noout %s 2>/dev/null"},
		{"fcp", "xmllint", "xmllint --noout %s 2>/dev/null"},
	};
	for (size_t k = 0; k < sizeof checks / sizeof checks[0]; k++) {
		if (strcmp(checks[k].format, format) != 0)
			continue;
		char probe[64], path[] = "/tmp/sbx-export-XXXXXX", cmd[256];
		snprintf(probe, sizeof probe, "command -v %s >/dev/null", checks[k].tool);
		if (system(probe) != 0)
			return;
		int fd = mkstemp(path);
		cr_assert(fd >= 0);
		cr_assert_eq(write(fd, r->body, r->len), (ssize_t)r->len);
		close(fd);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		snprintf(cmd, sizeof cmd, checks[k].cmd, path);
#pragma GCC diagnostic pop
		int rc = system(cmd);
		unlink(path);
		cr_assert_eq(rc, 0, "%s export failed: %s", format, cmd);
	}
}

static json_object *export_create(const char *body, long *status)
{
	return sbx_call(&S, "POST", "exports", body, status);
}

Test(sandbox_flows, exports_every_format, .fini = stop_all, .timeout = 60)
{
	sbt_start(&S, NULL);
	char id[40], id2[40];
	done_transcription(20, id);
	done_transcription(12, id2);
	static const char *const formats[] = {"txt", "docx", "pdf", "srt", "vtt", "stl", "avid", "html", "premiere",
					      "maxqda", "json", "fcp"};
	char eids[12][40], body[512];
	long status;
	for (int i = 0; i < 12; i++) {
		snprintf(body, sizeof body, "{\"export\":{\"format\":\"%s\",\"transcription_ids\":[\"%s\"]}}", formats[i], id);
		json_object *e = export_create(body, &status);
		cr_assert_eq(status, 201, "%s: %s", formats[i], json_object_to_json_string(e));
		cr_assert_str_eq(sbx_str(e, "state"), "pending");
		cr_assert_null(sbx_get(e, "download_link"));
		snprintf(eids[i], sizeof eids[i], "%s", sbx_str(e, "id"));
		json_object_put(e);
	}
	snprintf(body, sizeof body, "{\"export\":{\"format\":\"txt\",\"show_timestamps\":true,\"show_speakers\":true,"
		 "\"timestamps_frequency\":\"10s\",\"transcription_ids\":[\"%s\",\"%s\"]}}", id, id2);
	json_object *z = export_create(body, &status);
	cr_assert_eq(status, 201);
	char zid[40], path[600];
	snprintf(zid, sizeof zid, "%s", sbx_str(z, "id"));
	json_object_put(z);
	cr_assert_eq(sbx_advance(&S, 5), 0);
	snprintf(path, sizeof path, "exports/%s", eids[0]);
	json_object *e = sbx_call(&S, "GET", path, NULL, &status);
	cr_assert_str_eq(sbx_str(e, "state"), "processing");
	json_object_put(e);
	cr_assert_eq(sbx_advance(&S, 16), 0);
	for (int i = 0; i < 13; i++) {
		snprintf(path, sizeof path, "exports/%s", i < 12 ? eids[i] : zid);
		e = sbx_call(&S, "GET", path, NULL, &status);
		cr_assert_str_eq(sbx_str(e, "state"), "ready", "%s", json_object_to_json_string(e));
		const char *link = sbx_str(e, "download_link");
		cr_assert(link);
		/* the link's path names the file: ID.EXT, .zip for several */
		char want[600];
		static const char *const exts[] = {"txt", "docx", "pdf", "srt", "vtt", "stl", "txt",
						   "html", "xml", "txt", "json", "fcp", "zip"};
		snprintf(want, sizeof want, "/%s.%s?", i < 12 ? eids[i] : zid, exts[i]);
		cr_assert(strstr(link, want), "%s: %s lacks %s", i < 12 ? formats[i] : "zip", link, want);
		struct sbx_resp r;
		sbx_request(&S, "GET", link, NULL, NULL, NULL, &r);
		cr_assert_eq(r.status, 200, "%s", i < 12 ? formats[i] : "zip");
		cr_assert_gt(r.len, 10);
		if (i == 1 || i == 12)
			cr_assert(memcmp(r.body, "PK", 2) == 0);
		if (i == 2)
			cr_assert(memcmp(r.body, "%PDF", 4) == 0);
		if (i == 10)
			cr_assert(r.body[0] == '[' || strncmp(r.body, "\xef\xbb\xbf[", 4) == 0);
		if (i == 3 || i == 4)
			cr_assert(strstr(r.body, "-->"), "%s", formats[i]);
		if (i == 5)
			cr_assert(r.len >= 1024 && memcmp(r.body + 3, "STL", 3) == 0, "no EBU STL GSI block");
		check_with_tool(i < 12 ? formats[i] : "zip", &r);
		sbx_resp_free(&r);
		json_object_put(e);
	}
}

Test(sandbox_flows, export_rules_and_failure, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char body[512], pending[40];
	long status;
	snprintf(pending, sizeof pending, "%s", create("http://127.0.0.1:1/a.wav", "", 201));
	snprintf(body, sizeof body, "{\"export\":{\"format\":\"srt\",\"show_timestamps\":true,\"transcription_ids\":[\"%s\"]}}",
		 pending);
	json_object *e = export_create(body, &status);
	cr_assert_eq(status, 422);
	cr_assert(sbx_get(e, "errors.show_timestamps"));
	json_object_put(e);
	snprintf(body, sizeof body, "{\"export\":{\"format\":\"txt\",\"timestamps_frequency\":\"7s\",\"transcription_ids\":[\"%s\"]}}",
		 pending);
	json_object_put(export_create(body, &status));
	cr_assert_eq(status, 422);
	snprintf(body, sizeof body, "{\"export\":{\"format\":\"odt\",\"transcription_ids\":[\"%s\"]}}", pending);
	json_object_put(export_create(body, &status));
	cr_assert_eq(status, 422);
	json_object_put(export_create("{\"export\":{\"format\":\"txt\",\"transcription_ids\":[\"0123\"]}}", &status));
	cr_assert_eq(status, 404);
	json_object_put(export_create("{\"export\":{\"format\":\"txt\",\"transcription_ids\":\"x\"}}", &status));
	cr_assert_eq(status, 400);
	/* Exporting a transcription that never finishes: the export fails. */
	snprintf(body, sizeof body, "{\"export\":{\"format\":\"txt\",\"transcription_ids\":[\"%s\"]}}", pending);
	e = export_create(body, &status);
	cr_assert_eq(status, 201);
	char path[128];
	snprintf(path, sizeof path, "exports/%s", sbx_str(e, "id"));
	json_object_put(e);
	cr_assert_eq(sbx_advance(&S, 11), 0);
	e = sbx_call(&S, "GET", path, NULL, &status);
	cr_assert_str_eq(sbx_str(e, "state"), "failed");
	json_object_put(e);
	json_object_put(sbx_call(&S, "GET", "exports/nope", NULL, &status));
	cr_assert_eq(status, 404);
}

Test(sandbox_flows, export_link_expires, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char id[40], body[256], path[128], link[1024];
	done_transcription(10, id);
	long status;
	snprintf(body, sizeof body, "{\"export\":{\"format\":\"vtt\",\"transcription_ids\":[\"%s\"]}}", id);
	json_object *e = export_create(body, &status);
	snprintf(path, sizeof path, "exports/%s", sbx_str(e, "id"));
	json_object_put(e);
	cr_assert_eq(sbx_advance(&S, 11), 0);
	e = sbx_call(&S, "GET", path, NULL, &status);
	snprintf(link, sizeof link, "%s", sbx_str(e, "download_link"));
	json_object_put(e);
	struct sbx_resp r;
	sbx_request(&S, "GET", link, NULL, NULL, NULL, &r);
	cr_assert_eq(r.status, 200);
	cr_assert(strncmp(r.body, "WEBVTT", 6) == 0, "%.40s", r.body);
	sbx_resp_free(&r);
	/* the extension is part of what is signed */
	char other[1024];
	snprintf(other, sizeof other, "%s", link);
	char *ext = strstr(other, ".vtt?");
	cr_assert(ext, "%s", link);
	memcpy(ext, ".srt", 4);
	sbx_request(&S, "GET", other, NULL, NULL, NULL, &r);
	cr_assert_eq(r.status, 401);
	sbx_resp_free(&r);
	/* The signed link lasts an hour; the export itself a day. */
	cr_assert_eq(sbx_advance(&S, 3601), 0);
	sbx_request(&S, "GET", link, NULL, NULL, NULL, &r);
	cr_assert_eq(r.status, 403);
	sbx_resp_free(&r);
	e = sbx_call(&S, "GET", path, NULL, &status);
	cr_assert_str_eq(sbx_str(e, "state"), "ready");
	json_object_put(e);
	cr_assert_eq(sbx_advance(&S, 86400), 0);
	e = sbx_call(&S, "GET", path, NULL, &status);
	cr_assert_str_eq(sbx_str(e, "state"), "expired");
	cr_assert_null(sbx_get(e, "download_link"));
	json_object_put(e);
}

Test(sandbox_flows, translation_task_progress, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char id[40], body[256];
	done_transcription(60, id);
	long status;
	snprintf(body, sizeof body, "{\"source_transcription_id\":\"%s\",\"target_language\":\"fr\"}", id);
	json_object *t = sbx_call(&S, "POST", "task/transcription_translation", body, &status);
	cr_assert_eq(status, 201, "%s", json_object_to_json_string(t));
	cr_assert_str_eq(sbx_str(t, "state"), "working");
	cr_assert(json_object_object_get_ex(t, "progressPercent", NULL) && !sbx_get(t, "progressPercent"));
	cr_assert_str_eq(sbx_str(t, "targetLanguage"), "fr");
	char path[128];
	snprintf(path, sizeof path, "task/transcription_translation/%s", sbx_str(t, "id"));
	json_object_put(t);
	cr_assert_eq(sbx_advance(&S, 5), 0);
	t = sbx_call(&S, "GET", path, NULL, &status);
	double pct = json_object_get_double(sbx_get(t, "progressPercent"));
	cr_assert(pct > 0 && pct < 100, "%f", pct);
	cr_assert_null(sbx_get(t, "translatedTranscriptionId"));
	json_object_put(t);
	cr_assert_eq(sbx_advance(&S, 120), 0);
	t = sbx_call(&S, "GET", path, NULL, &status);
	cr_assert_str_eq(sbx_str(t, "state"), "done");
	cr_assert(strstr(json_object_to_json_string_ext(t, JSON_C_TO_STRING_PLAIN), "\"progressPercent\":100.0"));
	const char *out = sbx_str(t, "translatedTranscriptionId");
	cr_assert(out);
	json_object *tr = get_tr(out, &status);
	cr_assert_eq(status, 200);
	cr_assert_str_eq(sbx_str(tr, "language"), "fr");
	cr_assert_str_eq(sbx_str(tr, "state"), "automatic_done");
	json_object_put(tr);
	json_object_put(t);
	snprintf(body, sizeof body, "{\"source_transcription_id\":\"%s\",\"target_language\":\"xx\"}", id);
	json_object_put(sbx_call(&S, "POST", "task/transcription_translation", body, &status));
	cr_assert_eq(status, 422);
}

/* failed / download_failed, with a message naming why (static id). */
static void expect_download_failed(const char *id, const char *why)
{
	wait_not_state(id, "ingesting");
	cr_assert_eq(sbx_advance(&S, 2.5), 0);
	long status;
	json_object *t = get_tr(id, &status);
	cr_assert_str_eq(sbx_str(t, "state"), "failed", "%s", json_object_to_json_string(t));
	cr_assert_str_eq(sbx_str(t, "failureReason"), "download_failed");
	cr_assert(strstr(sbx_str(t, "failureMessage"), why), "%s", sbx_str(t, "failureMessage"));
	json_object_put(t);
}

/* Our own signedUrl as tmp_url: a forged one fails as the real service's download would; an
 * expired one still names an object of our storage, which the service reads for the life of
 * the object whatever the expiry of the PUT signature (issue 10: an order made a minute after
 * the upload with --clock-speed 2000 failed ingestion). Transcription and order alike. */
Test(sandbox_flows, forged_own_signed_url_fails_expired_stays_usable, .fini = stop_all)
{
	sbt_start(&S, NULL);
	char url[1024], forged[1024], body[1400], id[40];
	sbt_upload_wav(&S, "clip.wav", 20, url, sizeof url);
	snprintf(forged, sizeof forged, "%s", url);
	char *last = forged + strlen(forged) - 1;
	*last = *last == '0' ? '1' : '0';
	snprintf(id, sizeof id, "%s", create(forged, "", 201));
	expect_download_failed(id, "signature");
	cr_assert_eq(sbx_advance(&S, 2 * 3600), 0); /* the PUT signature has expired */
	snprintf(id, sizeof id, "%s", create(url, "", 201));
	wait_not_state(id, "ingesting");
	cr_assert_eq(sbx_advance(&S, 2.5), 0);
	expect_state(id, "automatic_transcribing");

	long status;
	snprintf(body, sizeof body, "{\"order\":{\"url\":\"%s\",\"language\":\"en-US\","
		 "\"organization_id\":\"%s\"}}", url, S.org_id);
	json_object *o = sbx_call(&S, "POST", "orders", body, &status);
	cr_assert(status == 200 || status == 201, "%ld %s", status, json_object_to_json_string(o));
	char path[128];
	snprintf(path, sizeof path, "orders/%s", sbx_str(o, "id"));
	json_object_put(o);
	const char *st = NULL;
	for (int i = 0; i < 200; i++) {
		o = sbx_call(&S, "GET", path, NULL, &status);
		st = sbx_str(json_object_array_get_idx(sbx_get(o, "ingestions"), 0), "state");
		bool moving = st && strcmp(st, "transferring") == 0;
		if (!moving)
			break;
		json_object_put(o);
		o = NULL;
		usleep(20000);
	}
	cr_assert(o);
	cr_assert(st && strcmp(st, "failed") != 0, "%s", json_object_to_json_string(o));
	json_object_put(o);
}
