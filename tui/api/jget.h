#ifndef STENO_API_JGET_H
#define STENO_API_JGET_H

/* Small helpers over json-c used by every parser of tui/api.
 *
 * Parsing: jget_parse() runs json_tokener with a depth limit (JGET_MAX_DEPTH), rejects
 * trailing garbage (anything but whitespace after the value), an empty body and bodies
 * over JGET_MAX_BODY. The caller owns the returned object and must json_object_put() it
 * before returning: json-c objects never outlive a parse function.
 *
 * Strings: json-c decodes \u0000 into an embedded NUL and passes invalid UTF-8 through.
 * Decision: every string copied out of a document is repaired, not rejected: each byte
 * that does not start a valid UTF-8 sequence (overlong forms, surrogates and code points
 * past U+10FFFF count as invalid) and each embedded NUL becomes U+FFFD. So a name with one
 * bad byte is still shown, and "ab\u0000cd" can never be mistaken for the id "ab".
 *
 * Getters tell apart missing / null / wrong type / present; numbers accept JSON int and
 * double; integers out of int64 range are JGET_WRONG_TYPE, never wrapped. json-c clamps
 * them to INT64_MAX / INT64_MIN, so those two exact values count as out of range too.
 * Doubles read as integers must be whole and in range; NaN and infinities are never valid. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/error.h"
#include "api/model.h"

struct json_object;

#define JGET_MAX_DEPTH 64
#define JGET_MAX_BODY (256u * 1024u * 1024u)

/* What one list page may hold at most: far above any real page (20 to 100 transcriptions of
 * a few dozen values each), far below what would cost gigabytes. */
struct jget_bounds {
	size_t max_items;       /* elements (or members) of any one array (or object) */
	size_t max_containers;  /* objects and arrays in all */
	size_t max_values;      /* values in all */
};
#define JGET_CODE_BOUNDS "too_many_values"   /* err->code of a refusal */
#define JGET_PAGE_BOUNDS { .max_items = 10000, .max_containers = 100000, .max_values = 1000000 }

/* jget_bounds.c: 0 when `body` holds no more than `b` allows, else -1 with err (STENO_ERR_PARSE,
 * saying which bound) — from a scan of the bytes, before anything is built. */
int jget_check_bounds(const char *body, size_t len, const struct jget_bounds *b,
		      struct steno_error *err);
/* jget_parse after jget_check_bounds. */
int jget_parse_bounded(const char *body, size_t len, const struct jget_bounds *b,
		       struct json_object **out, struct steno_error *err);

enum jget_status {
	JGET_OK = 0,
	JGET_MISSING,
	JGET_NULL,
	JGET_WRONG_TYPE,
	JGET_NOMEM,
};

/* Parses body[0..len) into *out. On failure fills err (STENO_ERR_PARSE) and returns -1.
 * A top-level `null` is returned as *out == NULL with 0: callers decide if that is allowed. */
int jget_parse(const char *body, size_t len, struct json_object **out, struct steno_error *err);

/* Member lookup: JGET_MISSING when obj is not an object or lacks key, JGET_NULL for null. */
enum jget_status jget_member(const struct json_object *obj, const char *key,
			     struct json_object **out);

/* *out is a malloc'd copy; NULL unless JGET_OK. */
enum jget_status jget_string(const struct json_object *obj, const char *key, char **out);
/* Like jget_string, also accepting an integer (converted to decimal): for identifiers the
 * spec types as integer in one place and string in another. */
enum jget_status jget_id(const struct json_object *obj, const char *key, char **out);
enum jget_status jget_int(const struct json_object *obj, const char *key, int64_t *out);
enum jget_status jget_double(const struct json_object *obj, const char *key, double *out);
enum jget_status jget_bool(const struct json_object *obj, const char *key, bool *out);

/* The same for a value in hand (an array element); NULL value means JSON null. */
enum jget_status jget_value_string(const struct json_object *v, char **out);
enum jget_status jget_value_int(const struct json_object *v, int64_t *out);
enum jget_status jget_value_double(const struct json_object *v, double *out);

/* Fill the model value types (api/model.h). They return -1 only on allocation failure
 * (with err filled, STENO_ERR_NOMEM); every other outcome is recorded in .st. */
int jget_opt_string(const struct json_object *obj, const char *key, char **out,
		    struct steno_error *err);
int jget_opt_id(const struct json_object *obj, const char *key, char **out,
		struct steno_error *err);
void jget_opt_int(const struct json_object *obj, const char *key, struct steno_int *out);
/* Like jget_opt_int, also accepting a string of 1..18 plain digits: for identifiers typed
 * integer that some responses send as numeric strings. */
void jget_opt_int_id(const struct json_object *obj, const char *key, struct steno_int *out);
void jget_opt_num(const struct json_object *obj, const char *key, struct steno_num *out);
void jget_opt_bool(const struct json_object *obj, const char *key, struct steno_bool *out);
void jget_opt_time(const struct json_object *obj, const char *key, struct steno_time *out);
int jget_opt_strings(const struct json_object *obj, const char *key, struct steno_strings *out,
		     struct steno_error *err);
void jget_opt_ints(const struct json_object *obj, const char *key, struct steno_ints *out);

/* The array at key (NULL and 0 when missing, null or not an array), and a nested object
 * by a dotted-free path of keys ("_links", "self", NULL). */
struct json_object *jget_array(const struct json_object *obj, const char *key, size_t *n);
struct json_object *jget_path(const struct json_object *obj, ...);

/* True when s[0..len) is valid UTF-8 (no overlongs, no surrogates, <= U+10FFFF). */
bool jget_utf8_valid(const char *s, size_t len);
/* The code point of the UTF-8 sequence at s (at most `avail` bytes), its length in *len;
 * -1 (length 1) for an invalid byte or a NUL. */
long jget_utf8_next(const char *s, size_t avail, size_t *len);
/* Characters no terminal, log line or JSON output may carry raw: C0 controls, DEL, C1
 * controls, bidi embeddings, overrides, isolates and marks, line/paragraph separators. */
bool jget_char_unsafe(long cp);
/* A malloc'd NUL-terminated copy of s[0..len) repaired as described above; NULL on
 * allocation failure. */
char *jget_utf8_repair(const char *s, size_t len);

/* Allocation helper for arrays of n elements of size sz (n may be 0: returns NULL and 0).
 * Returns -1 with err filled on overflow or allocation failure. */
int jget_alloc_array(size_t n, size_t sz, void **out, struct steno_error *err);

#endif
