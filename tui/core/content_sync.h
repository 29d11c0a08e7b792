#ifndef STENO_CORE_CONTENT_SYNC_H
#define STENO_CORE_CONTENT_SYNC_H

/* The sync engine's background reader of transcript content (core/content_db.h holds it).
 *
 * What it reads is derived from the database every time (a finished transcription whose
 * content is missing or of another updatedAt: content_db_next_waiting), so it resumes after
 * a restart. One transcription at a time (or `parallel`): its retrieve (GET /transcriptions/ID: the current
 * updatedAt and _links.self.downloadUrl), then one GET of the downloadUrl; on the earlier
 * API form, which has no downloadUrl, a JSON export job instead (never when allow_export is
 * false: --read-only), whose file is read into the store and removed.
 *
 * It never starves the live list or the user's own reads: at most `parallel` content reads
 * are in flight (one in the browser), none starts while `busy` says the sync engine has reads of its own in flight, nor
 * while the engine's rate gate holds requests back after a 429. A transcription the server
 * no longer has (404/410) leaves the store; one whose content cannot be read is noted as
 * failed for its updatedAt (tried again when that changes); a transient failure is tried
 * again after a pause, the others go on meanwhile.
 *
 * With a store (the browser, `steno index`), it listens to it: the items of an
 * organization's full list are noted (names, tags, states, updatedAt) and, once a complete
 * read of that list proves it, the transcriptions it no longer lists leave the content
 * store; a transcription removed from the store (deleted) leaves it too.
 *
 * No curses. The caller's loop runs it: content_sync_timeout_ms / content_sync_run.
 * Ownership: content_sync_new returns a malloc'd fetcher that borrows everything in its
 * config; content_sync_free cancels its read in flight and frees it. */

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/error.h"

struct steno_http;
struct steno_jobs;
struct steno_store;
struct content_sync;

struct content_sync_config {
	struct steno_http *http;       /* required */
	sqlite3 *db;                   /* required: the local store's handle (localdb_handle) */
	struct steno_store *store;     /* may be NULL: nothing is listened to */
	struct steno_jobs *jobs;       /* the earlier form's JSON export; NULL: none */
	const char *export_dir;        /* where that export is written (private); NULL: none */
	bool allow_export;             /* false under --read-only */
	const char *org;               /* only this organization (NULL: any) */
	/* true while reads of higher priority are in flight (NULL: never) */
	bool (*busy)(void *ud);
	/* a transcription's content was stored, removed or failed (NULL: not told) */
	void (*changed)(void *ud, const char *id);
	/* a read failed (log line); NULL: not told */
	void (*log)(void *ud, const char *line);
	void *ud;
	int64_t retry_ms;              /* pause after a transient failure; 0: 5000 */
	/* transcriptions started per second at most (each is two requests); 0: no pacing
	 * beyond one at a time and the rate gate (steno index) */
	double per_second;
	/* reads in flight at most (1 to 4; <= 0: 1): two keep a server at its rate limit while
	 * steno stores what came (steno index); the browser reads one at a time. One at a time
	 * until a retrieve has shown a downloadUrl (on the earlier form each read is an
	 * export) */
	int parallel;
};

struct content_sync *content_sync_new(const struct content_sync_config *cfg,
				      struct steno_error *err);
void content_sync_free(struct content_sync *cs);

/* Milliseconds until it has something to start (0: now), -1 when it waits for an event
 * (its read in flight, an export job, a busy engine) or nothing waits. */
long content_sync_timeout_ms(struct content_sync *cs);
/* Starts the next read when one may start; follows an export job. */
void content_sync_run(struct content_sync *cs);
/* True while a read (or an export) of it is in flight. */
bool content_sync_active(const struct content_sync *cs);
/* Held (current) and waiting transcriptions of its organization; -1 each on error. */
void content_sync_progress(struct content_sync *cs, long *held, long *waiting);
/* Bumped whenever what is held or waits may have changed (a count is worth redoing). */
long content_sync_generation(const struct content_sync *cs);
/* Reads done (stored) and failed since it started. */
long content_sync_fetched(const struct content_sync *cs);
long content_sync_failed(const struct content_sync *cs);

struct steno_transcription;
/* Converts an updatedAt to the version text kept with the content ("" when unknown). */
void content_version_of(const struct steno_transcription *t, char *buf, size_t n);

#endif
