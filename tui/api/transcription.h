#ifndef STENO_API_TRANSCRIPTION_H
#define STENO_API_TRANSCRIPTION_H

/* Transcription resource (spec 2.1) in both forms (spec 9): list item, create response,
 * retrieve response; and the list envelope { results: [...], _links: { next: { url } } }.
 * Fields a response form does not carry are STENO_MISSING / NULL ("unknown"), never 0.
 * `state` is kept verbatim, also when it is a state this client has never seen. */

#include <stddef.h>

#include "api/error.h"
#include "api/model.h"

struct json_object;

/* Ownership: every char * and array is malloc'd and freed by steno_transcription_free. */
struct steno_transcription {
	char *id;
	char *name;
	char *state;                 /* verbatim; NULL when missing or not a string */
	char *language;
	struct steno_time created_at;
	struct steno_time updated_at;
	struct steno_time delivery_estimated_at;
	struct steno_bool sharing_enabled;
	struct steno_bool is_subtitle;       /* not in the spec's tables; read when sent */
	struct steno_int audio_length_s;     /* audioLengthInSeconds (double accepted if whole) */
	struct steno_int cost_cents;         /* costInCents: missing in the legacy form */
	struct steno_bool refunded;          /* missing in the legacy form */
	struct steno_strings tags;           /* missing in the legacy form */
	char *failure_reason;                /* NULL for null (no failure) or missing ... */
	enum steno_presence failure_reason_st; /* ... told apart here */
	char *failure_message;
	char *soundwave_url;
	/* _links.self.editorUrl (current form); in the earlier form _links.editor.url, else
	 * _links.self.url, which spec 9 says replaces editorUrl there. */
	char *editor_url;
	char *self_url;      /* _links.self.url as given (earlier form only) */
	char *download_url;  /* _links.self.downloadUrl (current retrieve only) */
	enum steno_api_form form;
};

/* A page of the list. next_url is NULL when there is no next page; the caller must also
 * stop on a page with no results (open-points.md). Items that are not objects are skipped
 * (counted in skipped). Ownership: freed by steno_transcription_page_free. */
struct steno_transcription_page {
	struct steno_transcription *items;
	size_t n;
	size_t skipped;
	char *next_url;
	enum steno_api_form form;    /* of the first item that tells, else UNKNOWN */
};

/* Parse a create or retrieve response (a Transcription object). Returns 0, or -1 with err
 * filled (STENO_ERR_PARSE when the body is not a JSON object, STENO_ERR_NOMEM). On error
 * *out is left zeroed; on success the caller frees it with steno_transcription_free. */
int steno_transcription_parse(const char *body, size_t len, struct steno_transcription *out,
			      struct steno_error *err);
int steno_transcription_page_parse(const char *body, size_t len,
				   struct steno_transcription_page *out, struct steno_error *err);

/* From an already parsed object (used by other parsers of tui/api). */
int steno_transcription_from_json(const struct json_object *obj, struct steno_transcription *out,
				  struct steno_error *err);

void steno_transcription_free(struct steno_transcription *t);           /* zeroes *t */
void steno_transcription_page_free(struct steno_transcription_page *p); /* zeroes *p */

/* Deep copy (for the store). Returns 0, or -1 with err filled (dst zeroed). */
int steno_transcription_copy(struct steno_transcription *dst, const struct steno_transcription *src,
			     struct steno_error *err);

#endif
