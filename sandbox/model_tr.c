/* model_tr: transcription rows, states and JSON. */
#include "config.h"

#include "model.h"

#include "db.h"
#include "http.h"
#include "sandbox.h"
#include "signed_url.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char tr_columns[] =
	"rid, id, org_id, folder_id, name, language, service, is_subtitle, sharing, tags, tmp_url, document_url,"
	" media_path, document, created_at, updated_at, fetch, ingest_end, work_end, final_state, fixed_state,"
	" failure_reason, failure_message, audio_seconds, cost_cents, refunded, boost, deleted, order_id,"
	" source_rid, seed, started_at";

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? strdup((const char *)s) : NULL;
}

static double col_opt(sqlite3_stmt *st, int i, int *has)
{
	*has = sqlite3_column_type(st, i) != SQLITE_NULL;
	return *has ? sqlite3_column_double(st, i) : 0.0;
}

void tr_from_stmt(sqlite3_stmt *st, struct tr_row *t)
{
	memset(t, 0, sizeof *t);
	t->rid = sqlite3_column_int64(st, 0);
	const unsigned char *id = sqlite3_column_text(st, 1);
	snprintf(t->id, sizeof t->id, "%s", id ? (const char *)id : "");
	t->org_id = sqlite3_column_int64(st, 2);
	t->folder_id = sqlite3_column_int64(st, 3);
	t->name = col_dup(st, 4);
	t->language = col_dup(st, 5);
	t->service = col_dup(st, 6);
	t->is_subtitle = sqlite3_column_int(st, 7);
	t->sharing = sqlite3_column_int(st, 8);
	t->tags = col_dup(st, 9);
	t->tmp_url = col_dup(st, 10);
	t->document_url = col_dup(st, 11);
	t->media_path = col_dup(st, 12);
	t->document = col_dup(st, 13);
	t->created_at = sqlite3_column_double(st, 14);
	t->updated_at = sqlite3_column_double(st, 15);
	t->fetch = sqlite3_column_int(st, 16);
	t->ingest_end = col_opt(st, 17, &t->has_ingest_end);
	t->work_end = col_opt(st, 18, &t->has_work_end);
	t->final_state = col_dup(st, 19);
	t->fixed_state = col_dup(st, 20);
	t->failure_reason = col_dup(st, 21);
	t->failure_message = col_dup(st, 22);
	t->audio_seconds = sqlite3_column_int64(st, 23);
	t->cost_cents = sqlite3_column_int64(st, 24);
	t->refunded = sqlite3_column_int(st, 25);
	t->boost = sqlite3_column_int(st, 26);
	t->deleted = sqlite3_column_int(st, 27);
	t->order_id = col_dup(st, 28);
	t->source_rid = sqlite3_column_int64(st, 29);
	t->seed = sqlite3_column_int64(st, 30);
	t->started_at = col_opt(st, 31, &t->has_started);
}

static int tr_load(const char *where, const char *id, int64_t rid, struct tr_row *t)
{
	char *sql = util_printf("SELECT %s FROM transcriptions WHERE %s", tr_columns, where);
	if (!sql)
		return -1;
	sqlite3_stmt *st = db_prep(sql);
	free(sql);
	if (!st)
		return -1;
	if (id)
		sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(st, 1, rid);
	int rc = -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		tr_from_stmt(st, t);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

int tr_load_id(const char *id, struct tr_row *t)
{
	return tr_load("id=?", id, 0, t);
}

int tr_load_rid(int64_t rid, struct tr_row *t)
{
	return tr_load("rid=?", NULL, rid, t);
}

void tr_row_free(struct tr_row *t)
{
	char **strs[] = {&t->name, &t->language, &t->service, &t->tags, &t->tmp_url, &t->document_url,
			 &t->media_path, &t->document, &t->final_state, &t->fixed_state, &t->failure_reason,
			 &t->failure_message, &t->order_id};
	for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
		free(*strs[i]);
		*strs[i] = NULL;
	}
}

const char *tr_state(const struct tr_row *t, double now)
{
	if (t->fixed_state)
		return t->fixed_state;
	if (!t->has_ingest_end || now < t->ingest_end)
		return "ingesting";
	if (!t->has_work_end || now < t->work_end)
		return strcmp(t->service, "alignment") == 0 ? "aligning" : "automatic_transcribing";
	return t->final_state ? t->final_state : "automatic_done";
}

double tr_updated(const struct tr_row *t, double now)
{
	double u = t->updated_at;
	if (t->fixed_state)
		return u;
	if (t->has_ingest_end && t->ingest_end <= now && t->ingest_end > u)
		u = t->ingest_end;
	if (t->has_work_end && t->work_end <= now && t->work_end > u)
		u = t->work_end;
	return u;
}

double tr_estimate(const struct tr_row *t, double now)
{
	if (t->has_work_end)
		return t->work_end;
	/* Not scheduled yet (media still transferring or order unconfirmed): the estimate
	 * slides with the clock, as the real one does. */
	double base = t->has_started ? fmax(now, t->started_at + 2.0) : now + 2.0;
	return base + work_seconds(t->service, t->boost, t->audio_seconds > 0 ? (double)t->audio_seconds : 30.0);
}

char *tr_editor_url(const char *id)
{
	return util_printf("%s/editor/%s", sb_cfg.origin, id);
}

static void add_time(json_object *o, const char *key, double t)
{
	char buf[32];
	util_iso8601(t, buf);
	json_object_object_add(o, key, json_object_new_string(buf));
}

static json_object *tags_json(const char *tags)
{
	json_object *a = tags ? json_tokener_parse(tags) : NULL;
	if (!a || !json_object_is_type(a, json_type_array)) {
		json_object_put(a);
		a = json_object_new_array();
	}
	return a;
}

static json_object *links_json(const struct tr_row *t, enum tr_form form, const char *state)
{
	json_object *links = json_object_new_object();
	json_object *self = json_object_new_object();
	char *editor = tr_editor_url(t->id);
	if (sb_cfg.legacy) {
		json_object_object_add(self, "url", json_object_new_string(editor ? editor : ""));
		if (form == TR_RETRIEVE) {
			json_object *ed = json_object_new_object();
			json_object_object_add(ed, "url", json_object_new_string(editor ? editor : ""));
			json_object_object_add(links, "editor", ed);
		}
	} else {
		json_object_object_add(self, "editorUrl", json_object_new_string(editor ? editor : ""));
		if (form == TR_RETRIEVE) {
			char path[96];
			snprintf(path, sizeof path, "/files/transcripts/%s.json", t->id);
			char *dl = strcmp(state, "automatic_done") == 0 ? signed_url_make(path) : NULL;
			json_object_object_add(self, "downloadUrl", json_str_or_null(dl));
			free(dl);
		}
	}
	free(editor);
	json_object_object_add(links, "self", self);
	return links;
}

static char *soundwave_url(const struct tr_row *t, const char *state)
{
	if (!t->is_subtitle || strcmp(state, "automatic_done") != 0)
		return NULL;
	char path[96];
	snprintf(path, sizeof path, "/files/soundwaves/%s.json", t->id);
	return signed_url_make(path);
}

json_object *tr_json(const struct tr_row *t, enum tr_form form, double now)
{
	json_object *o = json_object_new_object();
	if (!o)
		return NULL;
	const char *state = tr_state(t, now);
	int legacy = sb_cfg.legacy;
	json_object_object_add(o, "id", json_object_new_string(t->id));
	json_object_object_add(o, "name", json_object_new_string(t->name ? t->name : ""));
	add_time(o, "createdAt", t->created_at);
	add_time(o, "updatedAt", tr_updated(t, now));
	if (form == TR_RETRIEVE && !legacy) {
		json_object_object_add(o, "failureReason", json_str_or_null(t->failure_reason));
		if (t->failure_message)
			json_object_object_add(o, "failureMessage", json_object_new_string(t->failure_message));
	}
	json_object_object_add(o, "state", json_object_new_string(state));
	json_object_object_add(o, "sharingEnabled", json_object_new_boolean(t->sharing));
	json_object_object_add(o, "language", json_object_new_string(t->language ? t->language : ""));
	if (form != TR_CREATE) {
		json_object_object_add(o, "audioLengthInSeconds", json_object_new_int64(t->audio_seconds));
		if (!legacy)
			json_object_object_add(o, "costInCents", json_object_new_int64(t->cost_cents));
		if (!legacy || form == TR_RETRIEVE)
			json_object_object_add(o, "refunded", json_object_new_boolean(t->refunded));
	}
	if (!legacy || form == TR_RETRIEVE)
		json_object_object_add(o, "tags", tags_json(t->tags));
	if (form == TR_RETRIEVE) {
		add_time(o, "deliveryEstimatedAt", tr_estimate(t, now));
		char *sw = soundwave_url(t, state);
		json_object_object_add(o, "soundwaveUrl", json_str_or_null(sw));
		free(sw);
	}
	json_object_object_add(o, "_links", links_json(t, form, state));
	return o;
}

int64_t price_cents_per_minute(const char *service, int translation)
{
	if (translation)
		return strcmp(service, "pro") == 0 ? 600 : 10;
	if (strcmp(service, "pro") == 0)
		return 150;
	if (strcmp(service, "alignment") == 0)
		return 10;
	return 20;
}

int64_t media_minutes(int64_t seconds)
{
	return seconds <= 0 ? 1 : (seconds + 59) / 60;
}

double work_seconds(const char *service, int boost, double media_seconds)
{
	if (strcmp(service, "pro") == 0)
		return boost ? 2 * 3600.0 : 6 * 3600.0;
	if (strcmp(service, "alignment") == 0)
		return 5.0 + 0.05 * media_seconds;
	return fmax(3.0, 0.1 * media_seconds);
}
