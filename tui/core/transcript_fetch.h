#ifndef STENO_CORE_TRANSCRIPT_FETCH_H
#define STENO_CORE_TRANSCRIPT_FETCH_H

/* The content of one transcription for the preview, parsed (the pane keeps it in the local
 * store, core/content_db.h, and shows it; no file stays behind). The current API
 * gives it directly: the retrieve response carries _links.self.downloadUrl, the content in
 * JSON, so it takes a retrieve and one GET (the key goes along only on the API's origin).
 * Only when the retrieve gives no downloadUrl for a finished transcription (the earlier API
 * form) is a JSON export made instead, and then `note` says so; with allow_export false (the
 * browser's --read-only) that export is refused rather than created.
 * No curses; the caller's loop runs the engine. */

#include <stdbool.h>

#include "api/error.h"
#include "api/transcript.h"
#include "core/jobs.h"

struct steno_http;

enum tfetch_step {
	TFETCH_RETRIEVING,   /* GET /transcriptions/ID */
	TFETCH_READING,      /* GET downloadUrl */
	TFETCH_EXPORTING,    /* fallback: the export job `job` runs */
	TFETCH_DONE,         /* the content is in `transcript` */
	TFETCH_FAILED,       /* error says why */
};

struct tfetch_opts {
	struct steno_http *http;         /* borrowed */
	struct steno_jobs *jobs;         /* borrowed; the fallback export runs there */
	const char *id;                  /* the transcription */
	const char *dir, *file;          /* where the fallback export is written (dir/ID.json),
					  * read and removed */
	bool allow_export;               /* false: no export is created (read-only) */
	void (*changed)(void *ud);       /* each step change; may be NULL */
	void *ud;
};

/* Ownership: transcript_fetch_start allocates, transcript_fetch_free cancels what is in
 * flight and frees. */
struct transcript_fetch {
	enum tfetch_step step;
	int job;                         /* TFETCH_EXPORTING: the export job's id */
	char note[240];                  /* how the content came (e.g. the fallback), or "" */
	struct steno_error error;        /* TFETCH_FAILED */
	struct tfetch_opts o;            /* strings copied below */
	char id[160], dir[1100], file[1200];
	/* TFETCH_DONE: the content, and the updatedAt it belongs to (content_version_of);
	 * the caller may take the transcript (copy it and zero it) */
	struct steno_transcript transcript;
	char version[64];
};

/* Starts (0) or fails at once (-1, err; nothing is left running). */
int transcript_fetch_start(struct transcript_fetch **out, const struct tfetch_opts *o,
			   struct steno_error *err);
/* Follows the fallback export job (call from the loop); a no-op otherwise. */
void transcript_fetch_sync(struct transcript_fetch *f);
void transcript_fetch_free(struct transcript_fetch *f);

#endif
