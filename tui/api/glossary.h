#ifndef STENO_API_GLOSSARY_H
#define STENO_API_GLOSSARY_H

/* Glossary and style-guide lists (spec 2.6, 2.7): { glossaries: [...] } and
 * { style_guides: [...] }, and the organizations of the key (GET /organizations, the real
 * service's extension in open-points): { organizations: [...] }. All are lists of organization
 * settings read the same way, so they share this module. */

#include <stddef.h>

#include "api/error.h"
#include "api/model.h"

/* Ownership: strings and arrays malloc'd, freed by the list's _free. */
struct steno_glossary {
	struct steno_int id;          /* integer; a numeric string is accepted too */
	char *name;
	char *source_language;
	struct steno_strings target_languages;
	struct steno_bool organization_default;
	struct steno_bool imported;
	struct steno_time created_at;
	struct steno_time updated_at;
};

struct steno_style_guide {
	struct steno_int id;
	char *name;
	char *operation;              /* "transcription" / "subtitles", verbatim */
	struct steno_bool organization_default;
	struct steno_bool verbatim;
	struct steno_bool fix_grammar;
	struct steno_bool sdh;
	char *speaker_id;             /* default / full_name / gender / description */
	char *notation_tags;          /* no / standard / custom */
	struct steno_time created_at;
	struct steno_time updated_at;
};

struct steno_glossary_list {
	struct steno_glossary *items;
	size_t n;
	size_t skipped;               /* elements that were not objects */
};

struct steno_style_guide_list {
	struct steno_style_guide *items;
	size_t n;
	size_t skipped;
};

struct steno_organization {
	struct steno_int id;          /* integer; a numeric string is accepted too */
	char *name;
	char *role;
};

struct steno_organization_list {
	struct steno_organization *items;
	size_t n;
	size_t skipped;               /* elements that were not objects or had no id */
};

/* The wrapper key is required (STENO_ERR_PARSE without it). */
int steno_glossary_list_parse(const char *body, size_t len, struct steno_glossary_list *out,
			      struct steno_error *err);
int steno_style_guide_list_parse(const char *body, size_t len, struct steno_style_guide_list *out,
				 struct steno_error *err);
int steno_organization_list_parse(const char *body, size_t len,
				  struct steno_organization_list *out, struct steno_error *err);
void steno_glossary_list_free(struct steno_glossary_list *l);
void steno_organization_list_free(struct steno_organization_list *l);
void steno_style_guide_list_free(struct steno_style_guide_list *l);

#endif
