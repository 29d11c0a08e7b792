#ifndef STENO_API_SPEC_TABLES_H
#define STENO_API_SPEC_TABLES_H

/* The fixed sets of the API contract (spec/transcription-api.md): language codes (2.8),
 * export formats and their options (2.3, 4.3), timestamps_frequency values, state names
 * (section 3) and service names. Pure C with no dependencies: steno-sandbox links this
 * same unit, so client and sandbox can never disagree about a set.
 * Ownership: every pointer returned points into static tables; nothing to free.
 * All lookups are exact and case-sensitive, as the API is. NULL arguments are allowed
 * and are simply "not found". */

#include <stdbool.h>
#include <stddef.h>

/* ---- Transcription languages (BCP-47, spec 2.8) ---- */

struct spec_language {
	const char *code;   /* "en-US" */
	bool pro;           /* human (`pro`) service available */
};

size_t spec_language_count(void);
const struct spec_language *spec_language_at(size_t i);   /* NULL when out of range */
const struct spec_language *spec_language_find(const char *code);
bool spec_language_is_valid(const char *code);
/* True for a code shaped like a BCP-47 tag (a primary of 2 or 3 letters, then subtags of 1 to 8
 * letters or digits, '-' between, 35 characters at most): "en", "fr-CA", "sr-Latn-RS". The
 * real service takes codes outside the spec's list (open-points); such a code is sent for the
 * server to judge. */
bool spec_language_is_well_formed(const char *code);
bool spec_language_is_pro(const char *code);

/* Verbatim: pro service in English, Spanish, French and German; SDH: English, Spanish and
 * French (spec 2.7, 8). Decided by the primary subtag (en/es/fr/de) of a known transcription
 * code, so "en-GB" and "es-MX" qualify; an unknown code never does. These say nothing about
 * the service: the caller checks that the service is `pro` as well. */
bool spec_language_verbatim_ok(const char *code);
bool spec_language_sdh_ok(const char *code);

/* ---- Translation languages (spec 2.8) ---- */

size_t spec_target_language_count(void);
const char *spec_target_language_at(size_t i);
bool spec_target_language_is_valid(const char *code);    /* "fr", "pt-BR", "zh" ... */

size_t spec_source_language_count(void);
const char *spec_source_language_at(size_t i);
bool spec_source_language_is_valid(const char *code);    /* "fr", "pt", "cmn-Hans-CN" ... */

/* The source translation language of a transcription language, or NULL when a transcription
 * in that language cannot be translated. Rule (spec 2.8): the source list is the target list
 * with zh replaced by cmn-Hans-CN, cmn-Hans-HK, cmn-Hant-TW (kept whole) and pt-PT/pt-BR by
 * pt. A transcription code maps to its primary subtag ("en-US" -> "en", "pt-BR" -> "pt",
 * "pa-Guru-IN" -> "pa"); Chinese codes map to themselves; "nb-NO" maps to "no" (Norwegian
 * Bokmål is what the list calls Norwegian); "yue-Hant-HK" has no source entry -> NULL.
 * A code that is already a source language maps to itself. */
const char *spec_translation_source_for(const char *transcription_language);

/* ---- Export formats (spec 2.3, 4.3) ---- */

enum spec_export_option {
	SPEC_EXPORT_OPT_SHOW_TIMESTAMPS = 1u << 0,
	SPEC_EXPORT_OPT_SHOW_SPEAKERS = 1u << 1,
	SPEC_EXPORT_OPT_SHOW_COMMENTS = 1u << 2,
	SPEC_EXPORT_OPT_SHOW_HIGHLIGHTS = 1u << 3,
	SPEC_EXPORT_OPT_SHOW_HIGHLIGHTS_ONLY = 1u << 4,
	/* Our decision (the spec does not say): timestamps_frequency goes with show_timestamps,
	 * so it is allowed for txt, docx and pdf only. It does not require show_timestamps. */
	SPEC_EXPORT_OPT_TIMESTAMPS_FREQUENCY = 1u << 5,
};

struct spec_export_format {
	const char *name;          /* request value: "txt" */
	const char *extension;     /* without the dot: "txt" ("avid" and "maxqda" are .txt too) */
	const char *content_type;  /* what the sandbox serves it as */
	const char *description;   /* "Text document" */
	unsigned options;          /* bitmask of enum spec_export_option */
};

size_t spec_export_format_count(void);
const struct spec_export_format *spec_export_format_at(size_t i);
const struct spec_export_format *spec_export_format_find(const char *name);

/* option is the request field name ("show_timestamps", "timestamps_frequency" ...).
 * False for an unknown format or an unknown option name. */
bool spec_export_option_allowed(const char *format, const char *option);
/* The bit of an option field name, 0 when unknown; and the field name of a bit. */
unsigned spec_export_option_bit(const char *option);
const char *spec_export_option_name(unsigned bit);

/* ---- timestamps_frequency: "5s", "10s", "15s", "20s", "30s", "60s" ---- */

size_t spec_timestamps_frequency_count(void);
const char *spec_timestamps_frequency_at(size_t i);
bool spec_timestamps_frequency_is_valid(const char *value);
/* Seconds of a valid value, else 0. */
int spec_timestamps_frequency_seconds(const char *value);

/* ---- States (spec section 3; ingestion states from open-points.md) ---- */

enum spec_state_kind {
	SPEC_STATE_TRANSCRIPTION,
	SPEC_STATE_ORDER,
	SPEC_STATE_EXPORT,
	SPEC_STATE_TRANSLATION_TASK,
	SPEC_STATE_INGESTION,
};

struct spec_state {
	const char *name;
	bool final;         /* the work is over (done or failed): polling can stop */
	bool failure;       /* a final state that means it did not succeed */
	bool needs_action;  /* waits for the user (incomplete, locked): nothing moves by itself */
};

size_t spec_state_count(enum spec_state_kind kind);
const struct spec_state *spec_state_at(enum spec_state_kind kind, size_t i);
const struct spec_state *spec_state_find(enum spec_state_kind kind, const char *name);
bool spec_state_is_known(enum spec_state_kind kind, const char *name);
/* Unknown states are non-final, non-failure and need no action: keep polling them. */
bool spec_state_is_final(enum spec_state_kind kind, const char *name);
bool spec_state_is_failure(enum spec_state_kind kind, const char *name);
bool spec_state_needs_action(enum spec_state_kind kind, const char *name);

/* ---- Services ---- */

struct spec_service {
	const char *name;        /* "auto", "pro", "alignment" */
	bool transcription;      /* valid for POST /transcriptions */
	bool order;              /* valid for POST /orders and /orders/translation */
};

size_t spec_service_count(void);
const struct spec_service *spec_service_at(size_t i);
const struct spec_service *spec_service_find(const char *name);

#endif
