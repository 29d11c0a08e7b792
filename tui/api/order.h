#ifndef STENO_API_ORDER_H
#define STENO_API_ORDER_H

/* Order resource (spec 2.5): create / translation create / retrieve / confirm responses.
 * Every sub-array may be missing (n == 0); elements that are not objects are skipped. */

#include <stddef.h>

#include "api/error.h"
#include "api/model.h"

struct json_object;

/* Ownership of everything below: malloc'd, freed by steno_order_free. */
struct steno_operation {
	char *name;                   /* "transcription_translation", "subtitles" ... */
	char *type;                   /* service level "auto" / "pro" */
	char *language;
	char *target_language;
	struct steno_ints glossary_ids;
	struct steno_int style_guide_id;
	struct steno_bool use_vocab;
};

struct steno_order_item {
	struct steno_int input_id;
	char *filename;
	char *pricing_unit_name;
	struct steno_num pricing_unit_count;
	bool has_service;
	struct steno_operation service;
	struct steno_int addon_id;    /* STENO_NULL for a service item */
	char *addon_name;
	struct steno_int turnaround_minutes;
	struct steno_int cents_per_unit;
	struct steno_int cents;
	struct steno_num credits;     /* nullable */
};

struct steno_addon_total {
	char *name;                   /* rush, verbatim, light_human, sdh, or unknown */
	struct steno_int cents;
};

struct steno_order_details {
	bool present;
	struct steno_order_item *items;
	size_t n_items;
	char *pricing_unit_name;
	struct steno_num pricing_unit_total_count;
	struct steno_int total_cents;
	struct steno_num total_credits;      /* nullable */
	char *currency;
	char *currency_symbol;
	struct steno_addon_total *addons_total; /* addons_total_cents map, in JSON order */
	size_t n_addons_total;
	struct steno_num minimum_charge;
};

struct steno_order_transcription {
	struct steno_int id;
	char *uuid;
	char *name;
	char *state;                  /* transcription state, verbatim */
	char *language;
	struct steno_time estimated_at;
};

struct steno_ingestion {
	struct steno_int id;
	char *name;                   /* the source URL */
	char *state;                  /* transferring / done / failed / unknown, verbatim */
};

struct steno_order {
	char *id;
	struct steno_int folder_id;   /* integer; a numeric string is accepted too */
	char *state;                  /* verbatim */
	struct steno_operation *operations;
	size_t n_operations;
	struct steno_order_details details;
	char **addons;                /* addon names */
	size_t n_addons;
	char **inputs;                /* inputs[].transcription_id (integer ids as decimal) */
	size_t n_inputs;
	struct steno_bool can_be_submitted;
	struct steno_strings outputs_ids;
	struct steno_order_transcription *transcriptions;
	size_t n_transcriptions;
	struct steno_ingestion *ingestions;
	size_t n_ingestions;
};

/* Returns 0, or -1 with err filled (*out zeroed). An empty body is an error here: confirm's
 * caller checks for an empty / `{}` body itself (open-points.md) before calling this. */
int steno_order_parse(const char *body, size_t len, struct steno_order *out,
		      struct steno_error *err);
int steno_order_from_json(const struct json_object *obj, struct steno_order *out,
			  struct steno_error *err);
void steno_order_free(struct steno_order *o);

#endif
