#ifndef STENO_API_TRANSFER_H
#define STENO_API_TRANSFER_H

/* File transfers on the engine: the PUT of a media file to a signedUrl, and the download of
 * an export's download_link. Neither ever carries the API key (even when the URL is on the
 * API's origin), neither is retried automatically, both use low-speed limits instead of a
 * total timeout, report progress and can be cancelled with steno_http_cancel. */

#include <stdint.h>

#include "api/http.h"

/* Progress: bytes moved so far and the total (0 when not known yet). */
typedef void (*steno_progress_fn)(void *ud, uint64_t now, uint64_t total);

struct steno_upload_request {
	const char *signed_url;   /* from uploads/new */
	const char *path;         /* local file, sent as is with Content-Length */
	const char *content_type; /* NULL: no Content-Type header */
	const void *owner;
	steno_progress_fn progress; /* may be NULL */
	steno_http_done_fn done;  /* err NULL on 2xx (an expired URL gives STENO_ERR_HTTP 403) */
	void *ud;                 /* for done, progress and drop */
	void (*drop)(void *ud);   /* instead of done when cancelled/dropped; may be NULL */
};

int steno_http_upload(struct steno_http *http, const struct steno_upload_request *req,
		      uint64_t *id, struct steno_error *err);

/* `path` is the final file (valid during the callback) on success, NULL on failure. */
typedef void (*steno_download_done_fn)(void *ud, const char *path,
				       const struct steno_http_response *resp,
				       const struct steno_error *err);

struct steno_download_request {
	const char *url;          /* e.g. an export's download_link */
	const char *dir;          /* directory to write into; NULL: "." */
	const char *name;         /* wanted file name (reduced to a safe basename); NULL: the
				   * basename of the URL's path, else "download" */
	int overwrite;            /* replace an existing file; else fail with STENO_ERR_IO */
	const void *owner;
	steno_progress_fn progress;
	steno_download_done_fn done;
	void *ud;                 /* for done, progress and drop */
	void (*drop)(void *ud);   /* instead of done when cancelled/dropped; may be NULL */
};

/* Streams the body to DIR/NAME.part and renames it to DIR/NAME when complete. Fails at once
 * (STENO_ERR_IO, code "exists") when DIR/NAME exists and overwrite is 0; a file that appears
 * meanwhile is not replaced either. The partial file is created exclusively (O_EXCL,
 * O_NOFOLLOW): when NAME.part is there already (a file or symlink steno did not make) it is
 * left alone and NAME.PID-N.part is used. A failed or cancelled download removes the partial
 * file it made, and only that. */
int steno_http_download(struct steno_http *http, const struct steno_download_request *req,
			uint64_t *id, struct steno_error *err);

/* The name steno_http_download would use for `url`/`name` (for callers that show it first). */
int steno_download_name(const char *url, const char *name, char *out, size_t size,
			struct steno_error *err);

#endif
