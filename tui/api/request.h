#ifndef STENO_API_REQUEST_H
#define STENO_API_REQUEST_H

/* Request bodies, validated before anything is sent.
 *
 * Each builder checks its request against the spec (required fields, the language sets
 * of spec 2.8, service rules, verbatim/SDH, export options per format, timestamps
 * frequency), then writes the JSON body. On a rule break it returns -1 with
 * steno_error_invalid(err, "<request field>", "<what is allowed>") and sends nothing; on
 * success *json_out is a malloc'd NUL-terminated JSON text the caller frees.
 * Strings must be valid UTF-8 (else the field is invalid). Optional strings are NULL
 * when not given; optional booleans are only sent when true (their default is false).
 * Ownership: requests only borrow their strings and arrays. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/error.h"
#include "api/model.h"

/* POST /transcriptions: {"transcription":{...}} */
struct steno_transcription_create_req {
	const char *name;             /* required */
	const char *language;         /* required, a transcription code of spec 2.8 */
	const char *tmp_url;          /* required, http(s) URL */
	const char *organization_id;  /* required */
	const char *service;          /* NULL = auto; auto / pro / alignment */
	bool is_subtitle;
	const char *folder;           /* path "a/b"; current form only */
	const char *folder_id;        /* required in the legacy form */
	const char *document_url;     /* required for alignment, refused otherwise */
	bool sharing_enabled;
	const char *const *tags;      /* current form only */
	size_t n_tags;
	enum steno_api_form form;     /* LEGACY: spec 9 rules; otherwise the current form */
	bool use_vocabulary;          /* legacy form only */
	bool any_language;            /* a well-formed code outside spec 2.8 goes to the server */
};

/* POST /exports: {"export":{...}} */
struct steno_export_create_req {
	const char *format;           /* required, spec 2.3 */
	const char *const *transcription_ids; /* required, at least one */
	size_t n_transcription_ids;
	bool show_timestamps;         /* txt, docx, pdf */
	bool show_speakers;           /* txt, docx, pdf */
	bool show_comments;           /* txt, docx, pdf */
	bool show_highlights;         /* docx, pdf */
	bool show_highlights_only;    /* docx, pdf; not in the legacy form */
	const char *timestamps_frequency; /* NULL or 5s..60s; txt, docx, pdf; not legacy */
	enum steno_api_form form;
};

/* POST /task/transcription_translation: flat body */
struct steno_translation_task_req {
	const char *source_transcription_id;  /* required */
	const char *target_language;          /* required, a target language of spec 2.8 */
	/* The source transcription's language when the caller knows it (NULL: not checked):
	 * it must map to a supported source translation language (spec_translation_source_for). */
	const char *source_language;
};

/* POST /orders: {"order":{...}} */
struct steno_order_create_req {
	const char *url;              /* required, http(s) */
	const char *language;         /* required, transcription code; pro needs a pro code */
	bool any_language;            /* a well-formed code outside spec 2.8 goes to the server,
	                               * which judges it (and pro, verbatim, SDH with it) */
	const char *organization_id;  /* required */
	const char *service;          /* NULL = auto; auto / pro */
	bool confirm;
	const char *folder_id;
	const char *folder;
	const char *name;
	bool boost;
	bool is_subtitle;
	const char *const *tags;
	size_t n_tags;
	const char *webhook_url;      /* http(s) */
	const int64_t *glossary_ids;
	size_t n_glossary_ids;
	bool has_style_guide;
	int64_t style_guide_id;
	/* The chosen style guide's settings (from steno_style_guide): verbatim needs the pro
	 * service and an en/es/fr/de language; sdh needs pro and en/es/fr. */
	bool style_verbatim;
	bool style_sdh;
	bool style_subtitles;         /* the guide's operation is "subtitles": needs is_subtitle */
};

/* POST /orders/translation: {"order":{...}} */
struct steno_translation_order_req {
	const char *source_transcription_id;  /* required */
	const char *const *target_languages;  /* required, at least one, no duplicates */
	size_t n_target_languages;
	const char *service;                  /* NULL = auto; auto / pro */
	bool confirm;
	bool boost;
	const char *webhook_url;
	const char *const *tags;
	size_t n_tags;
	const char *source_language;          /* as in steno_translation_task_req */
};

/* Validation alone (the builders call these first). Return 0 or -1 with err filled. */
int steno_validate_transcription_create(const struct steno_transcription_create_req *req,
					struct steno_error *err);
int steno_validate_export_create(const struct steno_export_create_req *req,
				 struct steno_error *err);
int steno_validate_translation_task(const struct steno_translation_task_req *req,
				    struct steno_error *err);
int steno_validate_order_create(const struct steno_order_create_req *req, struct steno_error *err);
int steno_validate_translation_order(const struct steno_translation_order_req *req,
				     struct steno_error *err);

int steno_build_transcription_create(const struct steno_transcription_create_req *req,
				     char **json_out, struct steno_error *err);
int steno_build_export_create(const struct steno_export_create_req *req, char **json_out,
			      struct steno_error *err);
int steno_build_translation_task(const struct steno_translation_task_req *req, char **json_out,
				 struct steno_error *err);
int steno_build_order_create(const struct steno_order_create_req *req, char **json_out,
			     struct steno_error *err);
int steno_build_translation_order(const struct steno_translation_order_req *req, char **json_out,
				  struct steno_error *err);

#endif
