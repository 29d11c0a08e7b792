#ifndef STENO_API_MODEL_H
#define STENO_API_MODEL_H

/* Value types shared by every resource struct of tui/api.
 *
 * The client is tolerant (open-points.md): a field can be missing, null, of the wrong type
 * or present, and those are told apart, so "unknown" is never shown as 0. Strings are
 * plain `char *`: NULL when the field was missing, null or not a string; otherwise a
 * malloc'd NUL-terminated copy (valid UTF-8, see api/jget.h) owned by the struct holding
 * it and freed by that struct's _free function. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum steno_presence {
	STENO_MISSING = 0,  /* field absent (also: the whole struct was zeroed) */
	STENO_NULL,         /* field present with JSON null */
	STENO_BAD_TYPE,     /* present with the wrong type, out of range, or unparseable */
	STENO_PRESENT,      /* present and valid: .v holds it */
};

struct steno_int {
	enum steno_presence st;
	int64_t v;           /* 0 unless st == STENO_PRESENT */
};

struct steno_num {
	enum steno_presence st;
	double v;            /* int and double JSON numbers both accepted */
};

struct steno_bool {
	enum steno_presence st;
	bool v;
};

/* An ISO 8601 timestamp converted to UTC. A string that is not a valid timestamp gives
 * st == STENO_BAD_TYPE ("unknown"), never an error of the whole parse. */
struct steno_time {
	enum steno_presence st;
	int64_t ms;          /* milliseconds since 1970-01-01T00:00:00Z */
};

/* An array of strings. Non-string elements are skipped (counted in .skipped). */
struct steno_strings {
	enum steno_presence st;
	char **v;            /* malloc'd array of malloc'd strings, owned by the container */
	size_t n;
	size_t skipped;
};

struct steno_ints {
	enum steno_presence st;
	int64_t *v;          /* malloc'd, owned by the container */
	size_t n;
	size_t skipped;
};

/* Which response form a transcription came in (spec section 9). */
enum steno_api_form {
	STENO_FORM_UNKNOWN = 0,  /* no _links to tell */
	STENO_FORM_CURRENT,      /* _links.self.editorUrl */
	STENO_FORM_LEGACY,       /* _links.self.url / _links.editor.url */
};

static inline bool steno_known(enum steno_presence st)
{
	return st == STENO_PRESENT;
}

void steno_strings_free(struct steno_strings *s);   /* frees the contents, zeroes *s */
void steno_ints_free(struct steno_ints *s);
/* Deep copy; returns 0, or -1 on allocation failure (dst is then zeroed). */
int steno_strings_copy(struct steno_strings *dst, const struct steno_strings *src);
bool steno_strings_contains(const struct steno_strings *s, const char *value);

#endif
