#ifndef STENO_API_ENDPOINTS_H
#define STENO_API_ENDPOINTS_H

/* One call per endpoint of the spec, on the HTTP engine (api/http.h) and the model's
 * builders and parsers. Every call returns at once: 0 when the request is queued, -1 with
 * err filled when it cannot be (an invalid request is refused here and nothing is sent).
 * The result arrives later, from steno_http_perform, in the typed callback:
 *   - on success `err` is NULL and the result points to a parsed struct that the engine frees
 *     after the callback returns; to keep it, move it out (`*mine = *res;
 *     memset(res, 0, sizeof(*res));`) or copy it;
 *   - on failure the result is NULL and `err` says why: STENO_ERR_HTTP with the server's
 *     code/message/field (every error body form), STENO_ERR_PARSE for a malformed body,
 *     STENO_ERR_NETWORK / STENO_ERR_TIMEOUT (POSTs: "may or may not have reached the server").
 * `ud` is also the request's owner tag: steno_http_cancel_owner(http, ud) cancels every call
 * made with it (cancelled calls never call back). */

#include <stdint.h>

#include "api/error.h"
#include "api/export.h"
#include "api/glossary.h"
#include "api/http.h"
#include "api/order.h"
#include "api/request.h"
#include "api/transcription.h"
#include "api/transcript.h"
#include "api/transfer.h"
#include "api/translation.h"
#include "api/upload.h"

typedef void (*steno_api_done_cb)(void *ud, const struct steno_error *err);
typedef void (*steno_api_upload_cb)(void *ud, struct steno_upload *res, const struct steno_error *err);
typedef void (*steno_api_transcription_cb)(void *ud, struct steno_transcription *res,
					   const struct steno_error *err);
typedef void (*steno_api_page_cb)(void *ud, struct steno_transcription_page *res,
				  const struct steno_error *err);
typedef void (*steno_api_export_cb)(void *ud, struct steno_export *res, const struct steno_error *err);
typedef void (*steno_api_task_cb)(void *ud, struct steno_translation_task *res,
				  const struct steno_error *err);
typedef void (*steno_api_order_cb)(void *ud, struct steno_order *res, const struct steno_error *err);
typedef void (*steno_api_organizations_cb)(void *ud, struct steno_organization_list *res,
					   const struct steno_error *err);
typedef void (*steno_api_glossaries_cb)(void *ud, struct steno_glossary_list *res,
					const struct steno_error *err);
typedef void (*steno_api_style_guides_cb)(void *ud, struct steno_style_guide_list *res,
					  const struct steno_error *err);

/* A transcript's content, parsed (once: the caller does not read the JSON again).
 * Ownership: the engine frees it after the callback; a callback that keeps the transcript
 * takes it (copies it and zeroes `transcript`). */
struct steno_api_content {
	struct steno_transcript transcript;
};
typedef void (*steno_api_content_cb)(void *ud, struct steno_api_content *res,
				     const struct steno_error *err);

/* How a call is tied to its caller, for the *_call variants: `ud` goes to the callback,
 * `owner` is the tag of steno_http_cancel_owner (may differ from ud, e.g. a context that
 * rides in ud belongs to the caller's owner), and drop(ud) (may be NULL) runs instead of the
 * callback when the call is cancelled or dropped by steno_http_free, so a context passed as
 * ud is freed on every path. Exactly one of callback and drop runs. Plain value. */
struct steno_api_call {
	void *ud;
	const void *owner;
	void (*drop)(void *ud);
};

/* GET /uploads/new?filename=NAME */
int steno_api_uploads_new(struct steno_http *http, const char *filename, steno_api_upload_cb cb,
			  void *ud, struct steno_error *err);
/* PUT the file at `path` to `signed_url` (never with the key; see api/transfer.h). */
int steno_api_upload_put(struct steno_http *http, const char *signed_url, const char *path,
			 steno_progress_fn progress, steno_api_done_cb cb, void *ud,
			 struct steno_error *err);

/* Query of GET /transcriptions. Strings NULL when not given; page < 0: not sent. */
struct steno_api_list_query {
	const char *organization_id;  /* required by the current form */
	const char *folder_id;
	long page;
	const char *const *tags;      /* sent as tags=a,b */
	size_t n_tags;
};

int steno_api_transcriptions_list(struct steno_http *http, const struct steno_api_list_query *q,
				  steno_api_page_cb cb, void *ud, struct steno_error *err);
/* GET a page's _links.next.url (the key goes along only if it is on the base URL's origin). */
int steno_api_transcriptions_list_url(struct steno_http *http, const char *url,
				      steno_api_page_cb cb, void *ud, struct steno_error *err);
int steno_api_transcription_create(struct steno_http *http,
				   const struct steno_transcription_create_req *req,
				   steno_api_transcription_cb cb, void *ud, struct steno_error *err);
int steno_api_transcription_retrieve(struct steno_http *http, const char *id,
				     steno_api_transcription_cb cb, void *ud, struct steno_error *err);
/* GET a retrieve response's _links.self.downloadUrl: the transcription's content in JSON
 * (spec 2.1). A plain GET through the engine, so the key goes along only when the URL is on
 * the base URL's origin (redirects follow the engine's cross-origin rules). A body that is
 * not a transcript is STENO_ERR_PARSE. */
int steno_api_transcription_content(struct steno_http *http, const char *url,
				    steno_api_content_cb cb, void *ud, struct steno_error *err);
/* DELETE /transcriptions/ID[?permanent=true]; 204, or 200 with any JSON body. */
int steno_api_transcription_delete(struct steno_http *http, const char *id, int permanent,
				   steno_api_done_cb cb, void *ud, struct steno_error *err);
int steno_api_transcription_delete_call(struct steno_http *http, const char *id, int permanent,
					steno_api_done_cb cb, const struct steno_api_call *call,
					struct steno_error *err);

int steno_api_export_create(struct steno_http *http, const struct steno_export_create_req *req,
			    steno_api_export_cb cb, void *ud, struct steno_error *err);
int steno_api_export_retrieve(struct steno_http *http, const char *id, steno_api_export_cb cb,
			      void *ud, struct steno_error *err);
/* Downloads a ready export's download_link into `dir` (see steno_http_download; name NULL:
 * the link's basename). STENO_ERR_INVALID when the export has no download_link. */
int steno_api_export_download(struct steno_http *http, const struct steno_export *exp,
			      const char *dir, const char *name, int overwrite,
			      steno_progress_fn progress, steno_download_done_fn cb, void *ud,
			      struct steno_error *err);

int steno_api_translation_task_create(struct steno_http *http,
				      const struct steno_translation_task_req *req,
				      steno_api_task_cb cb, void *ud, struct steno_error *err);
int steno_api_translation_task_retrieve(struct steno_http *http, const char *id,
					steno_api_task_cb cb, void *ud, struct steno_error *err);

int steno_api_order_create(struct steno_http *http, const struct steno_order_create_req *req,
			   steno_api_order_cb cb, void *ud, struct steno_error *err);
int steno_api_order_translation_create(struct steno_http *http,
				       const struct steno_translation_order_req *req,
				       steno_api_order_cb cb, void *ud, struct steno_error *err);
int steno_api_order_retrieve(struct steno_http *http, const char *id, steno_api_order_cb cb,
			     void *ud, struct steno_error *err);
/* POST /orders/ID/confirm (no body). When the answer is empty or `{}`, the order is read
 * again with GET /orders/ID and that result is delivered. */
int steno_api_order_confirm(struct steno_http *http, const char *id, steno_api_order_cb cb,
			    void *ud, struct steno_error *err);

int steno_api_glossaries_list(struct steno_http *http, const char *organization_id,
			      steno_api_glossaries_cb cb, void *ud, struct steno_error *err);
/* GET /organizations: every organization the key can access. */
int steno_api_organizations_list(struct steno_http *http, steno_api_organizations_cb cb,
				 void *ud, struct steno_error *err);
int steno_api_style_guides_list(struct steno_http *http, const char *organization_id,
				steno_api_style_guides_cb cb, void *ud, struct steno_error *err);

#endif
