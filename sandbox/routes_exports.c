/* routes_exports: export jobs (pending -> processing -> ready | failed, expired a day after
 * ready), rendered by sandbox/formats when first seen ready; signed download links; the
 * transcript JSON and soundwave files behind a retrieve response's signed URLs. */
#include "config.h"

#include "routes.h"

#include "api/spec_tables.h"
#include "clock.h"
#include "content.h"
#include "db.h"
#include "formats/export.h"
#include "model.h"
#include "routes_util.h"
#include "sandbox.h"
#include "signed_url.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT_MAX_IDS 100
#define EXPORT_SECONDS_PER_FILE 10.0
#define EXPORT_KEEP (86400.0)

static const char *const export_bools[] = {"show_timestamps", "show_speakers", "show_comments", "show_highlights",
					   "show_highlights_only"};

/* One exports row; options and rids are owned json-c objects, strings malloc'ed:
 * export_free releases them (not the struct). */
struct export_row {
	char id[40], format[16];
	json_object *options; /* owned */
	json_object *rids;    /* owned */
	int64_t org_id;
	double created_at;
	char *fixed_state, *file_path;
	int failed;
};

static void export_free(struct export_row *e)
{
	json_object_put(e->options);
	json_object_put(e->rids);
	free(e->fixed_state);
	free(e->file_path);
}

static int export_load(const char *id, struct export_row *e)
{
	sqlite3_stmt *st = db_prep("SELECT id, format, options, rids, org_id, created_at, fixed_state, file_path, failed"
				   " FROM exports WHERE id=?");
	int rc = -1;
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		memset(e, 0, sizeof *e);
		snprintf(e->id, sizeof e->id, "%s", (const char *)sqlite3_column_text(st, 0));
		snprintf(e->format, sizeof e->format, "%s", (const char *)sqlite3_column_text(st, 1));
		e->options = json_tokener_parse((const char *)sqlite3_column_text(st, 2));
		e->rids = json_tokener_parse((const char *)sqlite3_column_text(st, 3));
		e->org_id = sqlite3_column_int64(st, 4);
		e->created_at = sqlite3_column_double(st, 5);
		if (sqlite3_column_text(st, 6))
			e->fixed_state = strdup((const char *)sqlite3_column_text(st, 6));
		if (sqlite3_column_text(st, 7))
			e->file_path = strdup((const char *)sqlite3_column_text(st, 7));
		e->failed = sqlite3_column_int(st, 8);
		rc = (e->options && e->rids) ? 0 : -1;
		if (rc)
			export_free(e);
	}
	sqlite3_finalize(st);
	return rc;
}

static int opt_bool(json_object *options, const char *key)
{
	json_object *v;
	return json_object_object_get_ex(options, key, &v) && json_object_get_boolean(v);
}

/* Renders the file; 0, or -1 when a transcription is not exportable (export fails). */
static int export_render(struct export_row *e)
{
	size_t n = json_object_array_length(e->rids);
	struct sb_transcript ts[EXPORT_MAX_IDS];
	const struct sb_transcript *tp[EXPORT_MAX_IDS];
	char *names[EXPORT_MAX_IDS];
	size_t built = 0;
	int rc = 0;
	double now = clock_now();
	for (; built < n && rc == 0; built++) {
		struct tr_row t;
		names[built] = NULL;
		memset(&ts[built], 0, sizeof ts[0]);
		if (tr_load_rid(json_object_get_int64(json_object_array_get_idx(e->rids, built)), &t) != 0) {
			rc = -1;
			break;
		}
		if (t.deleted || strcmp(tr_state(&t, now), "automatic_done") != 0 || content_build(&t, &ts[built]) != 0)
			rc = -1;
		names[built] = t.name ? strdup(t.name) : NULL;
		tp[built] = &ts[built];
		tr_row_free(&t);
	}
	if (rc == 0) {
		struct sb_export_options opt = {0};
		json_object *tf;
		opt.show_timestamps = opt_bool(e->options, "show_timestamps");
		opt.show_speakers = opt_bool(e->options, "show_speakers");
		opt.show_comments = opt_bool(e->options, "show_comments");
		opt.show_highlights = opt_bool(e->options, "show_highlights");
		opt.show_highlights_only = opt_bool(e->options, "show_highlights_only");
		if (json_object_object_get_ex(e->options, "timestamps_frequency", &tf))
			opt.timestamps_frequency_s = spec_timestamps_frequency_seconds(json_object_get_string(tf));
		opt.created_unix = (long long)e->created_at;
		unsigned char *out = NULL;
		size_t len = 0;
		char err[256];
		const struct spec_export_format *f = spec_export_format_find(e->format);
		int r = n == 1 ? sb_export_render(e->format, tp[0], names[0], &opt, &out, &len, err, sizeof err)
			       : sb_export_render_zip(e->format, tp, (const char *const *)names, n, &opt, &out, &len,
						      err, sizeof err);
		char *path = util_printf("%s/exports/%s.%s", sb_cfg.data_dir, e->id,
					 n == 1 && f ? f->extension : "zip");
		if (r != 0 || !path || util_write_file(path, out, len) != 0) {
			if (r != 0)
				fprintf(stderr, "steno-sandbox: export %s: %s\n", e->id, err);
			rc = -1;
			free(path);
		} else {
			e->file_path = path;
		}
		free(out);
	}
	for (size_t i = 0; i < built && i < n; i++) {
		sb_transcript_free(&ts[i]);
		free(names[i]);
	}
	return rc;
}

static void export_persist(struct export_row *e)
{
	sqlite3_stmt *st = db_prep("UPDATE exports SET file_path=?, failed=? WHERE id=?");
	if (!st)
		return;
	db_bind_text(st, 1, e->file_path);
	sqlite3_bind_int(st, 2, e->failed);
	sqlite3_bind_text(st, 3, e->id, -1, SQLITE_STATIC);
	db_step_done(st);
}

static const char *export_state(struct export_row *e, double now)
{
	size_t n = json_object_array_length(e->rids);
	double ready_at = e->created_at + EXPORT_SECONDS_PER_FILE * (double)(n ? n : 1);
	if (e->fixed_state)
		return e->fixed_state;
	if (e->failed)
		return "failed";
	if (now < e->created_at + 1.0)
		return "pending";
	if (now < ready_at)
		return "processing";
	if (now >= ready_at + EXPORT_KEEP)
		return "expired";
	if (!e->file_path) {
		if (export_render(e) != 0)
			e->failed = 1;
		export_persist(e);
	}
	return e->failed ? "failed" : "ready";
}

static json_object *export_json(struct export_row *e, double now, int with_link)
{
	json_object *o = json_object_new_object();
	const char *state = export_state(e, now);
	json_object_object_add(o, "id", json_object_new_string(e->id));
	json_object_object_add(o, "state", json_object_new_string(state));
	json_object_object_add(o, "format", json_object_new_string(e->format));
	for (int i = 0; i < 4; i++)
		json_object_object_add(o, export_bools[i], json_object_new_boolean(opt_bool(e->options, export_bools[i])));
	json_object *ids = NULL;
	json_object_object_get_ex(e->options, "ids", &ids);
	json_object_object_add(o, "transcription_ids", ids ? json_object_get(ids) : json_object_new_array());
	if (with_link && strcmp(state, "ready") == 0) {
		/* the file's extension in the link: clients name the file from it */
		const struct spec_export_format *f = spec_export_format_find(e->format);
		int zip = json_object_array_length(e->rids) > 1;
		char path[96];
		snprintf(path, sizeof path, "/files/exports/%s.%s", e->id, zip || !f ? "zip" : f->extension);
		char *url = signed_url_make(path);
		json_object_object_add(o, "download_link", json_object_new_string(url ? url : ""));
		free(url);
	}
	return o;
}

/* Option fields: booleans allowed for the format, timestamps_frequency valid and allowed. */
static int export_options(struct sb_req *r, json_object *x, const char *format, json_object *options)
{
	size_t nb = sb_cfg.legacy ? 4 : 5;
	for (size_t i = 0; i < nb; i++) {
		int v = 0;
		if (field_bool(r, x, export_bools[i], &v) != 0)
			return -1;
		if (v && !spec_export_option_allowed(format, export_bools[i])) {
			reply_invalid(r, export_bools[i], "is not available for the %s format", format);
			return -1;
		}
		json_object_object_add(options, export_bools[i], json_object_new_boolean(v));
	}
	const char *tf = NULL;
	if (sb_cfg.legacy || field_string(r, x, "timestamps_frequency", 0, &tf) != 0)
		return sb_cfg.legacy ? 0 : -1;
	if (tf && !spec_timestamps_frequency_is_valid(tf)) {
		reply_invalid(r, "timestamps_frequency", "must be one of 5s, 10s, 15s, 20s, 30s, 60s");
		return -1;
	}
	if (tf && !spec_export_option_allowed(format, "timestamps_frequency")) {
		reply_invalid(r, "timestamps_frequency", "is not available for the %s format", format);
		return -1;
	}
	if (tf)
		json_object_object_add(options, "timestamps_frequency", json_object_new_string(tf));
	return 0;
}

/* Resolves transcription ids to rids (all of one accessible organization). */
static int export_targets(struct sb_req *r, json_object *ids, json_object *rids, int64_t *org)
{
	size_t n = json_object_array_length(ids);
	if (n == 0 || n > EXPORT_MAX_IDS) {
		reply_invalid(r, "transcription_ids", "must hold 1 to %d ids", EXPORT_MAX_IDS);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct tr_row t;
		const char *id = json_object_get_string(json_object_array_get_idx(ids, i));
		if (tr_load_id(id, &t) != 0) {
			reply_error(r, 404, "not_found", "no transcription %s", id);
			return -1;
		}
		int ok = req_org_ok(r, t.org_id), deleted = t.deleted;
		*org = t.org_id;
		json_object_array_add(rids, json_object_new_int64(t.rid));
		tr_row_free(&t);
		if (!ok) {
			reply_error(r, 401, "unauthorized", "the API key has no access to transcription %s", id);
			return -1;
		}
		if (deleted) {
			reply_error(r, 410, "gone", "transcription %s was deleted", id);
			return -1;
		}
	}
	return 0;
}

static int export_insert(const char *id, const char *format, json_object *options, json_object *rids, int64_t org,
			 double now)
{
	sqlite3_stmt *st = db_prep("INSERT INTO exports(id, org_id, format, options, rids, created_at) VALUES(?,?,?,?,?,?)");
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, org);
	sqlite3_bind_text(st, 3, format, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, json_object_to_json_string_ext(options, JSON_C_TO_STRING_PLAIN), -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 5, json_object_to_json_string_ext(rids, JSON_C_TO_STRING_PLAIN), -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(st, 6, now);
	return db_step_done(st);
}

void exports_create(struct sb_req *r)
{
	json_object *root, *x, *ids;
	const char *format;
	if (body_wrapper(r, "export", &root, &x) != 0)
		return;
	json_object *options = json_object_new_object(), *rids = json_object_new_array();
	int64_t org = 0;
	if (field_string(r, x, "format", 1, &format) != 0 || field_string_array(r, x, "transcription_ids", 1, &ids) != 0)
		goto out;
	if (!spec_export_format_find(format)) {
		reply_invalid(r, "format", "%s is not an export format", format);
		goto out;
	}
	if (export_options(r, x, format, options) != 0 || export_targets(r, ids, rids, &org) != 0)
		goto out;
	json_object_object_add(options, "ids", json_object_get(ids));
	char id[33];
	util_random_hex(id, 16);
	double now = clock_now();
	if (export_insert(id, format, options, rids, org, now) != 0) {
		reply_error(r, 500, "internal_error", "database error");
		goto out;
	}
	struct export_row e;
	if (export_load(id, &e) == 0) {
		reply_json(r, 201, export_json(&e, now, 0));
		export_free(&e);
	} else {
		reply_error(r, 500, "internal_error", "database error");
	}
out:
	json_object_put(options);
	json_object_put(rids);
	json_object_put(root);
}

void exports_get(struct sb_req *r)
{
	struct export_row e;
	if (export_load(r->params[0], &e) != 0) {
		reply_error(r, 404, "not_found", "no export %s", r->params[0]);
		return;
	}
	if (!req_org_ok(r, e.org_id))
		reply_error(r, 401, "unauthorized", "the API key has no access to this export");
	else
		reply_json(r, 200, export_json(&e, clock_now(), 1));
	export_free(&e);
}

/* Signed file routes: 401 forged, 403 expired. */
static int signed_ok(struct sb_req *r)
{
	int rc = signed_url_check(r->path, req_query(r, "expires"), req_query(r, "signature"));
	if (rc == -1)
		reply_error(r, 401, "invalid_signature", "the signature of this URL is not valid");
	else if (rc == -2)
		reply_error(r, 403, "url_expired", "this signed URL has expired");
	return rc == 0;
}

void files_export(struct sb_req *r)
{
	struct export_row e;
	if (!signed_ok(r))   /* the signature covers the extension too */
		return;
	char *dot = strchr(r->params[0], '.');
	if (dot)
		*dot = '\0';
	if (export_load(r->params[0], &e) != 0) {
		reply_error(r, 404, "not_found", "no export %s", r->params[0]);
		return;
	}
	const char *state = export_state(&e, clock_now());
	size_t len = 0;
	char *data = strcmp(state, "ready") == 0 && e.file_path ? util_read_file(e.file_path, &len) : NULL;
	if (!data) {
		reply_error(r, 410, "gone", "the export file is not available (state %s)", state);
	} else {
		const struct spec_export_format *f = spec_export_format_find(e.format);
		int zip = json_object_array_length(e.rids) > 1;
		char disp[128];
		snprintf(disp, sizeof disp, "attachment; filename=\"export-%s.%s\"", e.id, zip ? "zip" : f->extension);
		reply_bytes(r, 200, zip ? "application/zip" : f->content_type, data, len);
		reply_header(r, "Content-Disposition", disp);
	}
	export_free(&e);
}

/* ":id.json" param to the transcription; replies on failure. */
static int file_transcription(struct sb_req *r, struct tr_row *t)
{
	char *dot = strstr(r->params[0], ".json");
	if (!signed_ok(r))
		return -1;
	if (dot)
		*dot = '\0';
	if (tr_load_id(r->params[0], t) != 0) {
		reply_error(r, 404, "not_found", "no transcription %s", r->params[0]);
		return -1;
	}
	if (t->deleted) {
		tr_row_free(t);
		reply_error(r, 410, "gone", "the transcription was deleted");
		return -1;
	}
	if (strcmp(tr_state(t, clock_now()), "automatic_done") != 0) {
		tr_row_free(t);
		reply_error(r, 404, "not_found", "the transcription is not done");
		return -1;
	}
	return 0;
}

void files_transcript(struct sb_req *r)
{
	struct tr_row t;
	struct sb_transcript s;
	if (file_transcription(r, &t) != 0)
		return;
	char *json = content_build(&t, &s) == 0 ? sb_transcript_to_json(&s, SB_JSON_EXPORT) : NULL;
	sb_transcript_free(&s);
	tr_row_free(&t);
	if (!json)
		reply_error(r, 500, "internal_error", "cannot build the transcript");
	else
		reply_bytes(r, 200, "application/json; charset=utf-8", json, strlen(json));
}

void files_soundwave(struct sb_req *r)
{
	struct tr_row t;
	if (file_transcription(r, &t) != 0)
		return;
	/* Peaks, 10 per second, deterministic from the media seed. */
	json_object *o = json_object_new_object(), *peaks = json_object_new_array();
	uint64_t x = (uint64_t)t.seed | 1;
	int64_t n = t.audio_seconds * 10;
	for (int64_t i = 0; i < n && i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		json_object_array_add(peaks, json_object_new_int((int)(x % 100)));
	}
	json_object_object_add(o, "samples_per_second", json_object_new_int(10));
	json_object_object_add(o, "peaks", peaks);
	tr_row_free(&t);
	reply_json(r, 200, o);
}
