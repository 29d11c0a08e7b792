/* model: transcription rows and their states, computed from the sandbox clock on read. */
#ifndef SB_MODEL_H
#define SB_MODEL_H

#include <json-c/json.h>
#include <stdint.h>

/* One transcriptions row. Strings are malloc'ed; tr_row_free releases them (not the struct). */
struct tr_row {
	int64_t rid, org_id, folder_id, source_rid;
	char id[33];
	char *name, *language, *service, *tags, *tmp_url, *document_url, *media_path, *document;
	char *final_state, *fixed_state, *failure_reason, *failure_message, *order_id;
	int is_subtitle, sharing, refunded, boost, deleted, fetch;
	int has_ingest_end, has_work_end, has_started;
	double created_at, updated_at, ingest_end, work_end, started_at;
	int64_t audio_seconds, cost_cents, seed;
};

enum tr_form { TR_LIST, TR_CREATE, TR_RETRIEVE };

/* Column list for SELECT; use with tr_from_stmt (columns from index 0). */
extern const char tr_columns[];
struct sqlite3_stmt;
void tr_from_stmt(struct sqlite3_stmt *st, struct tr_row *t);
/* 0 found, -1 not found/error. */
int tr_load_id(const char *id, struct tr_row *t);
int tr_load_rid(int64_t rid, struct tr_row *t);
void tr_row_free(struct tr_row *t);

/* State of t at time now (see open-points.md "Durations"). */
const char *tr_state(const struct tr_row *t, double now);
double tr_updated(const struct tr_row *t, double now);
double tr_estimate(const struct tr_row *t, double now);
/* Response object of the given form, current or legacy per sb_cfg. */
json_object *tr_json(const struct tr_row *t, enum tr_form form, double now);
/* Editor URL of a transcription id (malloc'ed). */
char *tr_editor_url(const char *id);

/* Per-minute prices and durations (open-points.md). */
int64_t price_cents_per_minute(const char *service, int translation);
int64_t media_minutes(int64_t seconds);
double work_seconds(const char *service, int boost, double media_seconds);

#endif
