#ifndef STENO_CORE_STATE_INTERNAL_H
#define STENO_CORE_STATE_INTERNAL_H

/* Shared by state.c (the state in memory), state_file.c (the file: JSON, the lock, the
 * merge on save) and choices.c (the remembered choices) only. */

#include "core/state.h"

/* One watched item's fields, all borrowed: what state_watch_put copies. */
struct watch_in {
	const char *origin, *org, *id;
	enum state_watch_kind kind;
	int64_t added_ms, final_ms;
	const struct state_job_end *end;   /* NULL: no job ended on it */
	const char *download_dir, *download_name;   /* a download that waits (NULL: none) */
	bool download_overwrite;
};

/* Adds a watched item as given (times included); a known one is kept. 1 new, 0 known, -1
 * invalid (STENO_ERR_INVALID) or no memory. */
int state_watch_put(struct steno_state *st, const struct watch_in *in, struct steno_error *err);

/* state_folder_learn for an explicit origin ("" = the previous format's, no server). */
int state_folder_put(struct steno_state *st, const char *origin, const char *org_id,
		     const char *folder_id, const char *path, int64_t learned_ms,
		     struct steno_error *err);

/* Adds src's folders, watched items and remembered choices to dst (known ones: fields
 * filled in, the earliest final time kept, the later job end, the later choice), then caps
 * the watched list. 0, or -1 on no memory. */
int state_merge_into(struct steno_state *dst, const struct steno_state *src,
		     struct steno_error *err);

/* One remembered choice's fields, all borrowed: what state_choice_put copies. */
struct choice_in {
	const char *origin, *org, *dialog, *field, *value;
	int64_t used_ms;
};

/* Adds or updates a remembered choice (core/choices.c; strings copied): a known key takes
 * the value when its time is not earlier; recent languages beyond RECENT_MAX per server and
 * organization drop the oldest. 1 changed, 0 not, -1 invalid (STENO_ERR_INVALID) or no
 * memory. */
int state_choice_put(struct steno_state *st, const struct choice_in *in, struct steno_error *err);
/* Puts every choice of src into dst. 0, or -1 on no memory. */
int state_choices_merge(struct steno_state *dst, const struct steno_state *src,
			struct steno_error *err);
void state_choices_free(struct steno_state *st);

/* The claims (state_claims.c): freed; merged into dst by token (those older than
 * STATE_CLAIM_KEEP_MS before now_ms dropped; now_ms 0: none); read from and written to the
 * file's root object ("claims", optional). from: 0, 1 malformed, -1 no memory. to: 0 or -1. */
struct json_object;
/* Members of a JSON object of the file: a string (else NULL), an integer (else 0), the
 * boolean true (json-c would make any non-empty string true). */
const char *state_jstr(struct json_object *o, const char *key);
int64_t state_jint64(struct json_object *o, const char *key);
bool state_jtrue(struct json_object *o, const char *key);
void state_claims_free(struct steno_state *st);
int state_claims_merge(struct steno_state *dst, const struct steno_state *src, int64_t now_ms);
int state_claims_from_json(struct steno_state *st, struct json_object *root);
int state_claims_to_json(const struct steno_state *st, struct json_object *root);

#endif
