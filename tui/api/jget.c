#include "config.h"
#include "api/jget.h"

#include <json-c/json.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/timestamp.h"
#include "api/utf8.h"

/* json-c's getters take non-const objects although they do not modify them. */
#define MUT(o) ((struct json_object *)(uintptr_t)(o))

static bool is_json_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int parse_fail(struct steno_error *err, const char *what, size_t at)
{
	return steno_error_set(err, STENO_ERR_PARSE, "invalid JSON: %s at byte %zu", what, at);
}

/* Feeds the tokener and, when it waits for more (a top-level number or literal can only
 * end at the end of input), one space to finish it. */
static struct json_object *tokenize(struct json_tokener *tok, const char *body, size_t len,
				    enum json_tokener_error *jerr, size_t *end)
{
	struct json_object *obj = json_tokener_parse_ex(tok, body, (int)len);
	*jerr = json_tokener_get_error(tok);
	*end = json_tokener_get_parse_end(tok);
	if (!obj && *jerr == json_tokener_continue && *end == len) {
		obj = json_tokener_parse_ex(tok, " ", 1);
		*jerr = json_tokener_get_error(tok);
		if (*jerr == json_tokener_success)
			return obj;   /* NULL here is a top-level `null` */
		if (*jerr == json_tokener_continue)
			*jerr = json_tokener_error_parse_eof;
	}
	return obj;
}

int jget_parse(const char *body, size_t len, struct json_object **out, struct steno_error *err)
{
	*out = NULL;
	if (!body || len == 0)
		return steno_error_set(err, STENO_ERR_PARSE, "invalid JSON: empty body");
	if (len > JGET_MAX_BODY)
		return steno_error_set(err, STENO_ERR_PARSE, "invalid JSON: body of %zu bytes is too large",
				       len);
	struct json_tokener *tok = json_tokener_new_ex(JGET_MAX_DEPTH);
	if (!tok)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory parsing JSON");
	enum json_tokener_error jerr;
	size_t end;
	struct json_object *obj = tokenize(tok, body, len, &jerr, &end);
	json_tokener_free(tok);
	if (jerr != json_tokener_success) {
		json_object_put(obj);
		if (jerr == json_tokener_error_depth)
			return steno_error_set(err, STENO_ERR_PARSE,
					       "invalid JSON: nested deeper than %d levels", JGET_MAX_DEPTH);
		return parse_fail(err, json_tokener_error_desc(jerr), end);
	}
	for (size_t i = end; i < len; i++) {
		if (!is_json_space(body[i])) {
			json_object_put(obj);
			return parse_fail(err, "trailing data after the value", i);
		}
	}
	*out = obj;
	return 0;
}

enum jget_status jget_member(const struct json_object *obj, const char *key,
			     struct json_object **out)
{
	*out = NULL;
	if (!obj || !json_object_is_type(MUT(obj), json_type_object))
		return JGET_MISSING;
	if (!json_object_object_get_ex(MUT(obj), key, out))
		return JGET_MISSING;
	return *out ? JGET_OK : JGET_NULL;
}

/* ---- UTF-8 ---- */

bool jget_utf8_valid(const char *s, size_t len)
{
	return steno_utf8_valid(s, len);
}

long jget_utf8_next(const char *s, size_t avail, size_t *len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k = steno_utf8_seq(p, avail);
	*len = k ? k : 1;
	if (!k)
		return -1;
	static const unsigned char lead_mask[] = {0, 0x7f, 0x1f, 0x0f, 0x07};
	long cp = p[0] & lead_mask[k];
	for (size_t i = 1; i < k; i++)
		cp = (cp << 6) | (p[i] & 0x3f);
	return cp;
}

bool jget_char_unsafe(long cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == 0x061c || cp == 0x200e ||
	       cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x2028 || cp == 0x2029;
}

char *jget_utf8_repair(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	if (len > (SIZE_MAX - 1) / 3)
		return NULL;
	char *out = malloc(len * 3 + 1);   /* each bad byte grows to 3 bytes at most */
	if (!out)
		return NULL;
	size_t o = 0, i = 0;
	while (i < len) {
		size_t k = steno_utf8_seq(p + i, len - i);
		if (k == 0) {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		} else {
			memcpy(out + o, p + i, k);
			o += k;
			i += k;
		}
	}
	out[o] = '\0';
	char *fit = realloc(out, o + 1);
	return fit ? fit : out;
}

/* ---- values ---- */

enum jget_status jget_value_string(const struct json_object *v, char **out)
{
	*out = NULL;
	if (!v)
		return JGET_NULL;
	if (!json_object_is_type(MUT(v), json_type_string))
		return JGET_WRONG_TYPE;
	*out = jget_utf8_repair(json_object_get_string(MUT(v)),
				(size_t)json_object_get_string_len(MUT(v)));
	return *out ? JGET_OK : JGET_NOMEM;
}

enum jget_status jget_value_int(const struct json_object *v, int64_t *out)
{
	if (!v)
		return JGET_NULL;
	if (json_object_is_type(MUT(v), json_type_int)) {
		int64_t i = json_object_get_int64(MUT(v));
		/* json-c clamps overflow to the limits: the limits themselves are suspect. */
		if (i == INT64_MAX || i == INT64_MIN)
			return JGET_WRONG_TYPE;
		*out = i;
		return JGET_OK;
	}
	if (json_object_is_type(MUT(v), json_type_double)) {
		double d = json_object_get_double(MUT(v));
		/* Range first: converting an out-of-range double is undefined. */
		if (!isfinite(d) || d < -9223372036854775808.0 || d >= 9223372036854775808.0)
			return JGET_WRONG_TYPE;
		if ((double)(int64_t)d != d)
			return JGET_WRONG_TYPE;   /* has a fraction */
		*out = (int64_t)d;
		return JGET_OK;
	}
	return JGET_WRONG_TYPE;
}

enum jget_status jget_value_double(const struct json_object *v, double *out)
{
	if (!v)
		return JGET_NULL;
	if (json_object_is_type(MUT(v), json_type_int)) {
		int64_t i;
		enum jget_status st = jget_value_int(v, &i);
		if (st == JGET_OK)
			*out = (double)i;
		return st;
	}
	if (json_object_is_type(MUT(v), json_type_double)) {
		double d = json_object_get_double(MUT(v));
		if (!isfinite(d))
			return JGET_WRONG_TYPE;
		*out = d;
		return JGET_OK;
	}
	return JGET_WRONG_TYPE;
}

enum jget_status jget_string(const struct json_object *obj, const char *key, char **out)
{
	struct json_object *v;
	enum jget_status st = jget_member(obj, key, &v);
	*out = NULL;
	return st == JGET_OK ? jget_value_string(v, out) : st;
}

enum jget_status jget_id(const struct json_object *obj, const char *key, char **out)
{
	struct json_object *v;
	enum jget_status st = jget_member(obj, key, &v);
	*out = NULL;
	if (st != JGET_OK)
		return st;
	if (json_object_is_type(v, json_type_int)) {
		int64_t i;
		char buf[32];
		st = jget_value_int(v, &i);
		if (st != JGET_OK)
			return st;
		snprintf(buf, sizeof(buf), "%" PRId64, i);
		*out = strdup(buf);
		return *out ? JGET_OK : JGET_NOMEM;
	}
	return jget_value_string(v, out);
}

enum jget_status jget_int(const struct json_object *obj, const char *key, int64_t *out)
{
	struct json_object *v;
	enum jget_status st = jget_member(obj, key, &v);
	return st == JGET_OK ? jget_value_int(v, out) : st;
}

enum jget_status jget_double(const struct json_object *obj, const char *key, double *out)
{
	struct json_object *v;
	enum jget_status st = jget_member(obj, key, &v);
	return st == JGET_OK ? jget_value_double(v, out) : st;
}

enum jget_status jget_bool(const struct json_object *obj, const char *key, bool *out)
{
	struct json_object *v;
	enum jget_status st = jget_member(obj, key, &v);
	if (st != JGET_OK)
		return st;
	if (!json_object_is_type(v, json_type_boolean))
		return JGET_WRONG_TYPE;
	*out = json_object_get_boolean(v);
	return JGET_OK;
}

/* ---- model value types ---- */

static enum steno_presence presence_of(enum jget_status st)
{
	switch (st) {
	case JGET_OK: return STENO_PRESENT;
	case JGET_NULL: return STENO_NULL;
	case JGET_MISSING: return STENO_MISSING;
	case JGET_WRONG_TYPE:
	case JGET_NOMEM: break;
	}
	return STENO_BAD_TYPE;
}

static int nomem(struct steno_error *err)
{
	return steno_error_set(err, STENO_ERR_NOMEM, "out of memory reading a response");
}

int jget_opt_string(const struct json_object *obj, const char *key, char **out,
		    struct steno_error *err)
{
	return jget_string(obj, key, out) == JGET_NOMEM ? nomem(err) : 0;
}

int jget_opt_id(const struct json_object *obj, const char *key, char **out,
		struct steno_error *err)
{
	return jget_id(obj, key, out) == JGET_NOMEM ? nomem(err) : 0;
}

void jget_opt_int(const struct json_object *obj, const char *key, struct steno_int *out)
{
	int64_t v = 0;
	enum jget_status st = jget_int(obj, key, &v);
	out->st = presence_of(st);
	out->v = st == JGET_OK ? v : 0;
}

void jget_opt_int_id(const struct json_object *obj, const char *key, struct steno_int *out)
{
	struct json_object *m;
	jget_opt_int(obj, key, out);
	if (out->st != STENO_BAD_TYPE || jget_member(obj, key, &m) != JGET_OK ||
	    !json_object_is_type(m, json_type_string))
		return;
	/* Identifiers typed integer sometimes arrive as numeric strings: only plain digits. */
	const char *s = json_object_get_string(m);
	size_t n = (size_t)json_object_get_string_len(m);
	if (n == 0 || n > 18 || strspn(s, "0123456789") != n)
		return;
	out->v = strtoll(s, NULL, 10);
	out->st = STENO_PRESENT;
}

void jget_opt_num(const struct json_object *obj, const char *key, struct steno_num *out)
{
	double v = 0;
	enum jget_status st = jget_double(obj, key, &v);
	out->st = presence_of(st);
	out->v = st == JGET_OK ? v : 0;
}

void jget_opt_bool(const struct json_object *obj, const char *key, struct steno_bool *out)
{
	bool v = false;
	enum jget_status st = jget_bool(obj, key, &v);
	out->st = presence_of(st);
	out->v = st == JGET_OK ? v : false;
}

void jget_opt_time(const struct json_object *obj, const char *key, struct steno_time *out)
{
	struct json_object *v;
	enum jget_status st = jget_member(obj, key, &v);
	out->ms = 0;
	out->st = presence_of(st);
	if (st != JGET_OK)
		return;
	if (!json_object_is_type(v, json_type_string) ||
	    steno_timestamp_parse_n(json_object_get_string(v),
				    (size_t)json_object_get_string_len(v), &out->ms) < 0) {
		out->st = STENO_BAD_TYPE;
		out->ms = 0;
	}
}

int jget_alloc_array(size_t n, size_t sz, void **out, struct steno_error *err)
{
	*out = NULL;
	if (n == 0)
		return 0;
	*out = calloc(n, sz);   /* calloc checks n * sz for overflow */
	return *out ? 0 : nomem(err);
}

int jget_opt_strings(const struct json_object *obj, const char *key, struct steno_strings *out,
		     struct steno_error *err)
{
	struct json_object *arr;
	enum jget_status st = jget_member(obj, key, &arr);
	memset(out, 0, sizeof(*out));
	out->st = presence_of(st);
	if (st != JGET_OK)
		return 0;
	if (!json_object_is_type(arr, json_type_array)) {
		out->st = STENO_BAD_TYPE;
		return 0;
	}
	size_t n = json_object_array_length(arr);
	if (jget_alloc_array(n, sizeof(char *), (void **)&out->v, err) < 0) {
		out->st = STENO_MISSING;
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		char *s;
		enum jget_status es = jget_value_string(json_object_array_get_idx(arr, i), &s);
		if (es == JGET_NOMEM) {
			steno_strings_free(out);
			return nomem(err);
		}
		if (es == JGET_OK)
			out->v[out->n++] = s;
		else
			out->skipped++;
	}
	return 0;
}

void jget_opt_ints(const struct json_object *obj, const char *key, struct steno_ints *out)
{
	struct json_object *arr;
	enum jget_status st = jget_member(obj, key, &arr);
	memset(out, 0, sizeof(*out));
	out->st = presence_of(st);
	if (st != JGET_OK)
		return;
	if (!json_object_is_type(arr, json_type_array)) {
		out->st = STENO_BAD_TYPE;
		return;
	}
	size_t n = json_object_array_length(arr);
	if (n && !(out->v = calloc(n, sizeof(int64_t)))) {
		/* No err parameter here: report the list as unreadable rather than fail. */
		out->st = STENO_BAD_TYPE;
		return;
	}
	for (size_t i = 0; i < n; i++) {
		int64_t v;
		if (jget_value_int(json_object_array_get_idx(arr, i), &v) == JGET_OK)
			out->v[out->n++] = v;
		else
			out->skipped++;
	}
}

struct json_object *jget_array(const struct json_object *obj, const char *key, size_t *n)
{
	struct json_object *arr;
	*n = 0;
	if (jget_member(obj, key, &arr) != JGET_OK || !json_object_is_type(arr, json_type_array))
		return NULL;
	*n = json_object_array_length(arr);
	return arr;
}

struct json_object *jget_path(const struct json_object *obj, ...)
{
	va_list ap;
	const char *key;
	struct json_object *cur = MUT(obj);

	va_start(ap, obj);
	while (cur && (key = va_arg(ap, const char *)) != NULL)
		if (jget_member(cur, key, &cur) != JGET_OK)
			cur = NULL;
	va_end(ap);
	return cur;
}

/* ---- api/model.h helpers ---- */

void steno_strings_free(struct steno_strings *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

void steno_ints_free(struct steno_ints *s)
{
	if (!s)
		return;
	free(s->v);
	memset(s, 0, sizeof(*s));
}

int steno_strings_copy(struct steno_strings *dst, const struct steno_strings *src)
{
	memset(dst, 0, sizeof(*dst));
	if (src->n && !(dst->v = calloc(src->n, sizeof(char *))))
		return -1;
	for (size_t i = 0; i < src->n; i++) {
		if (!(dst->v[i] = strdup(src->v[i]))) {
			steno_strings_free(dst);
			return -1;
		}
		dst->n++;
	}
	dst->st = src->st;
	dst->skipped = src->skipped;
	return 0;
}

bool steno_strings_contains(const struct steno_strings *s, const char *value)
{
	for (size_t i = 0; s && value && i < s->n; i++)
		if (strcmp(s->v[i], value) == 0)
			return true;
	return false;
}
