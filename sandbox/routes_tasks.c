/* routes_tasks: translation tasks (superseded by orders): working with a rising
 * progressPercent, then done with translatedTranscriptionId. */
#include "config.h"

#include "routes.h"

#include "api/spec_tables.h"
#include "clock.h"
#include "db.h"
#include "model.h"
#include "routes_util.h"
#include "util.h"
#include "work.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct task_row {
	char id[40], target[16], out_id[33];
	int64_t org_id, source_rid, out_rid;
	double created_at, done_at;
	int source_gone;
};

static int task_load(const char *id, struct task_row *t)
{
	sqlite3_stmt *st = db_prep("SELECT k.id, k.target_language, k.org_id, k.source_rid, k.out_rid, k.created_at,"
				   " k.done_at, COALESCE(o.id,''), COALESCE(s.deleted, 2) FROM tasks k"
				   " LEFT JOIN transcriptions o ON o.rid=k.out_rid"
				   " LEFT JOIN transcriptions s ON s.rid=k.source_rid WHERE k.id=?");
	int rc = -1;
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW) {
		memset(t, 0, sizeof *t);
		snprintf(t->id, sizeof t->id, "%s", (const char *)sqlite3_column_text(st, 0));
		snprintf(t->target, sizeof t->target, "%s", (const char *)sqlite3_column_text(st, 1));
		t->org_id = sqlite3_column_int64(st, 2);
		t->source_rid = sqlite3_column_int64(st, 3);
		t->out_rid = sqlite3_column_int64(st, 4);
		t->created_at = sqlite3_column_double(st, 5);
		t->done_at = sqlite3_column_double(st, 6);
		snprintf(t->out_id, sizeof t->out_id, "%s", (const char *)sqlite3_column_text(st, 7));
		t->source_gone = sqlite3_column_int(st, 8) == 2;
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

static json_object *task_json(const struct task_row *t, double now, int fresh)
{
	json_object *o = json_object_new_object();
	int done = now >= t->done_at;
	/* The source removed for good before the translation finished: nothing to translate. */
	int failed = !done && t->source_gone;
	json_object_object_add(o, "id", json_object_new_string(t->id));
	json_object_object_add(o, "state", json_object_new_string(failed ? "failed" : done ? "done" : "working"));
	json_object_object_add(o, "failureReason", failed ? json_object_new_string("internal_error") : NULL);
	if (fresh || failed) {
		json_object_object_add(o, "progressPercent", NULL);
	} else {
		double pct = done ? 100.0 : floor((now - t->created_at) / (t->done_at - t->created_at) * 1000.0) / 10.0;
		char buf[16];
		snprintf(buf, sizeof buf, "%.1f", pct);
		json_object_object_add(o, "progressPercent", json_object_new_double_s(pct, buf));
	}
	json_object_object_add(o, "targetLanguage", json_object_new_string(t->target));
	if (done && !failed)
		json_object_object_add(o, "translatedTranscriptionId", json_object_new_string(t->out_id));
	return o;
}

int task_source(struct sb_req *r, const char *id, struct tr_row *src)
{
	if (tr_load_id(id, src) != 0) {
		reply_error(r, 404, "not_found", "no transcription %s", id);
		return -1;
	}
	const char *err = NULL;
	int status = 422;
	if (!req_org_ok(r, src->org_id)) {
		status = 401;
		err = "the API key has no access to the source transcription";
	} else if (src->deleted) {
		status = 410;
		err = "the source transcription was deleted";
	} else if (!spec_translation_source_for(src->language)) {
		err = "the source language cannot be translated";
	} else if (strcmp(tr_state(src, clock_now()), "automatic_done") != 0) {
		err = "the source transcription is not done yet";
	}
	if (!err)
		return 0;
	tr_row_free(src);
	if (status == 422)
		reply_invalid(r, "source_transcription_id", "%s", err);
	else
		reply_error(r, status, status == 401 ? "unauthorized" : "gone", "%s", err);
	return -1;
}

void tasks_create(struct sb_req *r)
{
	json_object *root, *b;
	const char *source_id, *target;
	if (body_wrapper(r, NULL, &root, &b) != 0)
		return;
	if (field_string(r, b, "source_transcription_id", 1, &source_id) != 0 ||
	    field_string(r, b, "target_language", 1, &target) != 0) {
		json_object_put(root);
		return;
	}
	if (!spec_target_language_is_valid(target)) {
		reply_invalid(r, "target_language", "%s is not a translation target language", target);
		json_object_put(root);
		return;
	}
	struct tr_row src;
	if (task_source(r, source_id, &src) != 0) {
		json_object_put(root);
		return;
	}
	double now = clock_now(), dur = work_task_seconds(&src);
	char out_id[33], id[33];
	int64_t out = work_translation_create(&src, target, NULL, 0, now, dur, out_id);
	util_random_hex(id, 16);
	sqlite3_stmt *st = db_prep("INSERT INTO tasks(id, org_id, source_rid, target_language, created_at, done_at,"
				   " out_rid) VALUES(?,?,?,?,?,?,?)");
	int ok = out > 0 && st;
	if (st) {
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, src.org_id);
		sqlite3_bind_int64(st, 3, src.rid);
		sqlite3_bind_text(st, 4, target, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 5, now);
		sqlite3_bind_double(st, 6, now + dur);
		sqlite3_bind_int64(st, 7, out);
		ok = db_step_done(st) == 0 && ok;
	}
	tr_row_free(&src);
	json_object_put(root);
	struct task_row t;
	if (!ok || task_load(id, &t) != 0) {
		reply_error(r, 500, "internal_error", "database error");
		return;
	}
	reply_json(r, 201, task_json(&t, now, 1));
}

void tasks_get(struct sb_req *r)
{
	struct task_row t;
	if (task_load(r->params[0], &t) != 0) {
		reply_error(r, 404, "not_found", "no translation task %s", r->params[0]);
		return;
	}
	if (!req_org_ok(r, t.org_id)) {
		reply_error(r, 401, "unauthorized", "the API key has no access to this task");
		return;
	}
	reply_json(r, 200, task_json(&t, clock_now(), 0));
}
