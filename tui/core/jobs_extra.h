#ifndef STENO_CORE_JOBS_EXTRA_H
#define STENO_CORE_JOBS_EXTRA_H

/* The one-request operations the TUI's dialogs need beside the jobs of core/jobs.h, so that
 * ui/ never calls api/ endpoints itself: the key's organizations, organization settings
 * (glossaries, style guides),
 * deleting a transcription (the store forgets it), reading an order again, and the local
 * transcript cache of the preview (JSON exports kept under the cache dir).
 * Callbacks follow api/endpoints.h: results are freed after the callback returns; `ud` is
 * the owner tag that jobs_extra_cancel(http, ud) uses. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/endpoints.h"
#include "api/error.h"
#include "api/transcript.h"
#include "core/jobs.h"
#include "core/state.h"
#include "core/store.h"

/* GET /organizations: every organization the key can access (the organizations pane). */
/* The list of a read that succeeded, kept in the local store (store_answer_put
 * "organizations"); and the list last kept (0, *out filled; -1 none): what the organizations
 * pane shows when the server cannot be reached or under --offline. */
void jobs_extra_organizations_keep(struct steno_store *st,
				   const struct steno_organization_list *l);
int jobs_extra_organizations_kept(struct steno_store *st, struct steno_organization_list *out);
int jobs_extra_organizations(struct steno_http *http, steno_api_organizations_cb cb, void *ud,
			     struct steno_error *err);
int jobs_extra_glossaries(struct steno_http *http, const char *org_id, steno_api_glossaries_cb cb,
			  void *ud, struct steno_error *err);
int jobs_extra_style_guides(struct steno_http *http, const char *org_id,
			    steno_api_style_guides_cb cb, void *ud, struct steno_error *err);
int jobs_extra_order_get(struct steno_http *http, const char *order_id, steno_api_order_cb cb,
			 void *ud, struct steno_error *err);

/* DELETE /transcriptions/ID (permanent or to the trash). On success the store (may be NULL)
 * forgets it before cb(ud, NULL) runs; a 410 counts as success (it is gone already). */
int jobs_extra_delete(struct steno_http *http, struct steno_store *store, const char *id,
		      bool permanent, steno_api_done_cb cb, void *ud, struct steno_error *err);

/* Remembers the order, export or translation task of job j in the state's watched list (per
 * origin of base_url and org_id, which may be NULL), notes when its state is final, and, once
 * j is over, how it ended (jobs_end_text, with j's last state of it), so that the TUI shows
 * them after a restart. The TUI and the commands call it on every job event. Transcription jobs and jobs whose resource id is not
 * known yet are left out. wall_ms: ms since the epoch. Returns 0, or -1 (no memory; invalid
 * base URL or id). */
int jobs_extra_remember(struct steno_state *st, const char *base_url, const char *org_id,
			const struct steno_job *j, int64_t wall_ms);

/* The jobs' monotonic clock in ms (the `now` of store puts). */
int64_t jobs_extra_now_ms(void);

/* Cancels every request made with owner ud (callbacks are not called; contexts are freed,
 * as they are when steno_http_free drops what is still in flight). */
void jobs_extra_cancel(struct steno_http *http, const void *ud);

/* The cache file of a transcript: CACHE_DIR/transcripts/ID.json (and the directory itself
 * in dir). id must be a safe name (letters, digits, '-', '_'); -1 otherwise. */
int jobs_extra_transcript_path(const char *cache_dir, const char *id, char *dir, size_t dir_size,
			       char *file, size_t file_size);
/* Reads and parses a cached JSON export. 0, or -1 with err (STENO_ERR_IO with errno ENOENT
 * when it is not cached). */
int jobs_extra_transcript_load(const char *path, struct steno_transcript *out,
			       struct steno_error *err);

#endif
