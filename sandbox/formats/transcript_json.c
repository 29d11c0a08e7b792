#include "config.h"

#include "transcript.h"
#include "transcript_build.h"

#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Times as short decimals ("1.25", "2.5", "3.0"): values are whole ms. */
static json_object *json_time(double x)
{
	char s[64];
	if (!isfinite(x))
		x = 0; /* JSON has no NaN; readers never produce one */
	snprintf(s, sizeof s, "%.3f", x);
	size_t n = strlen(s);
	while (n > 1 && s[n - 1] == '0' && s[n - 2] != '.')
		s[--n] = 0;
	return json_object_new_double_s(x, s);
}

static int json_add(json_object *o, const char *key, json_object *v)
{
	if (!v)
		return -1;
	if (json_object_object_add(o, key, v) < 0) {
		json_object_put(v);
		return -1;
	}
	return 0;
}

static json_object *json_word(const struct sb_word *w, unsigned flags)
{
	json_object *o = json_object_new_object();
	if (!o)
		return NULL;
	int rc = json_add(o, "text", json_object_new_string(w->text));
	rc |= json_add(o, "type", json_object_new_string(w->type));
	rc |= json_add(o, "data_start", json_time(w->start));
	rc |= json_add(o, "data_end", json_time(w->end));
	rc |= json_add(o, "confidence", json_time(w->confidence));
	if ((flags & SB_JSON_ANNOTATIONS) && w->highlighted)
		rc |= json_add(o, "highlighted", json_object_new_boolean(1));
	if (rc) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *json_block(const struct sb_block *b, unsigned flags)
{
	json_object *o = json_object_new_object(), *words = json_object_new_array();
	if (!o || !words) {
		json_object_put(o);
		json_object_put(words);
		return NULL;
	}
	int rc = json_add(o, "speaker", json_object_new_string(b->speaker));
	rc |= json_add(o, "speaker_number", json_object_new_int(b->speaker_number));
	rc |= json_add(o, "data_start", json_time(b->start));
	rc |= json_add(o, "data_end", json_time(b->end));
	if ((flags & SB_JSON_ANNOTATIONS) && b->comment)
		rc |= json_add(o, "comment", json_object_new_string(b->comment));
	rc |= json_add(o, "words", words);
	for (size_t i = 0; rc == 0 && i < b->n_words; i++) {
		json_object *w = json_word(&b->words[i], flags);
		if (!w || json_object_array_add(words, w) < 0) {
			json_object_put(w);
			rc = -1;
		}
	}
	if (rc) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static json_object *json_root(const struct sb_transcript *t, unsigned flags)
{
	json_object *arr = json_object_new_array();
	for (size_t i = 0; arr && i < t->n_blocks; i++) {
		json_object *b = json_block(&t->blocks[i], flags);
		if (!b || json_object_array_add(arr, b) < 0) {
			json_object_put(b);
			json_object_put(arr);
			return NULL;
		}
	}
	if (!arr || !(flags & SB_JSON_LANGUAGE))
		return arr;
	json_object *o = json_object_new_object();
	if (!o || json_add(o, "language", json_object_new_string(t->language ? t->language : "en")) ||
	    json_add(o, "blocks", arr)) {
		json_object_put(o);
		json_object_put(arr);
		return NULL;
	}
	return o;
}

char *sb_transcript_to_json(const struct sb_transcript *t, unsigned flags)
{
	json_object *root = json_root(t, flags);
	if (!root)
		return NULL;
	const char *s = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN |
	                                                         JSON_C_TO_STRING_NOSLASHESCAPE);
	char *copy = s ? strdup(s) : NULL;
	json_object_put(root);
	return copy;
}

static void json_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void json_err(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Times beyond this (115 days) are rejected: they only come from broken input
 * and would overflow the timecode arithmetic of the writers. */
#define JSON_MAX_SECONDS 1e7

/* Number field: int or double; absent -> def. -1 when present with another
 * type, or not a finite number in [0, JSON_MAX_SECONDS] (json-c accepts NaN). */
static int json_num(json_object *o, const char *key, double def, double *out)
{
	json_object *v;
	*out = def;
	if (!json_object_object_get_ex(o, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return -1;
	*out = json_object_get_double(v);
	return isfinite(*out) && *out >= 0 && *out <= JSON_MAX_SECONDS ? 0 : -1;
}

static const char *json_str(json_object *o, const char *key, const char *def)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return def;
	return json_object_get_string(v);
}

static int json_read_word(struct sb_block *b, json_object *w, char *err, size_t errlen)
{
	double s, e, c;
	json_object *v;
	if (!json_object_is_type(w, json_type_object) || !json_object_object_get_ex(w, "text", &v) ||
	    !json_object_is_type(v, json_type_string)) {
		json_err(err, errlen, "word without text");
		return -1;
	}
	if (json_num(w, "data_start", 0, &s) || json_num(w, "data_end", s, &e) ||
	    json_num(w, "confidence", 1.0, &c)) {
		json_err(err, errlen, "word with an invalid time or confidence");
		return -1;
	}
	if (sb_tr_word_add(b, json_object_get_string(v), json_str(w, "type", "word"), s, e, c) < 0) {
		json_err(err, errlen, "out of memory");
		return -1;
	}
	b->words[b->n_words - 1].highlighted =
		json_object_object_get_ex(w, "highlighted", &v) && json_object_get_boolean(v);
	return 0;
}

static int json_read_block(struct sb_transcript *t, json_object *o, char *err, size_t errlen)
{
	json_object *words, *v;
	if (!json_object_is_type(o, json_type_object)) {
		json_err(err, errlen, "block is not an object");
		return -1;
	}
	int num = (int)t->n_blocks + 1;
	if (json_object_object_get_ex(o, "speaker_number", &v) && json_object_is_type(v, json_type_int))
		num = json_object_get_int(v);
	struct sb_block *b = sb_tr_block_add(t, json_str(o, "speaker", NULL), num);
	const char *comment = json_str(o, "comment", NULL);
	if (!b || (comment && !(b->comment = strdup(comment)))) {
		json_err(err, errlen, "out of memory");
		return -1;
	}
	if (json_num(o, "data_start", 0, &b->start) || json_num(o, "data_end", b->start, &b->end)) {
		json_err(err, errlen, "block with an invalid time");
		return -1;
	}
	if (!json_object_object_get_ex(o, "words", &words) || !words)
		return 0;
	if (!json_object_is_type(words, json_type_array)) {
		json_err(err, errlen, "words is not an array");
		return -1;
	}
	for (size_t i = 0; i < json_object_array_length(words); i++)
		if (json_read_word(b, json_object_array_get_idx(words, i), err, errlen) < 0)
			return -1;
	/* a block without its own times spans its words */
	if (b->n_words && !json_object_object_get_ex(o, "data_start", &v))
		b->start = b->words[0].start;
	if (b->n_words && !json_object_object_get_ex(o, "data_end", &v))
		b->end = b->words[b->n_words - 1].end;
	return 0;
}

static int json_read_root(struct sb_transcript *out, json_object *root, const char *language,
                          char *err, size_t errlen)
{
	json_object *blocks = root, *v;
	if (json_object_is_type(root, json_type_object)) {
		if (json_object_object_get_ex(root, "language", &v) && json_object_is_type(v, json_type_string))
			language = json_object_get_string(v);
		if (!json_object_object_get_ex(root, "blocks", &blocks))
			blocks = NULL;
	}
	if (!json_object_is_type(blocks, json_type_array)) {
		json_err(err, errlen, "transcript JSON is not an array of blocks");
		return -1;
	}
	if (sb_transcript_set_language(out, language) < 0) {
		json_err(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < json_object_array_length(blocks); i++)
		if (json_read_block(out, json_object_array_get_idx(blocks, i), err, errlen) < 0)
			return -1;
	return 0;
}

int sb_transcript_from_json(struct sb_transcript *out, const char *json, const char *language,
                            char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	if (!json) {
		json_err(err, errlen, "no JSON");
		return -1;
	}
	if (strncmp(json, "\xEF\xBB\xBF", 3) == 0)
		json += 3;
	json_tokener *tok = json_tokener_new();
	if (!tok) {
		json_err(err, errlen, "out of memory");
		return -1;
	}
	json_object *root = json_tokener_parse_ex(tok, json, (int)strlen(json));
	enum json_tokener_error jerr = json_tokener_get_error(tok);
	json_tokener_free(tok);
	if (!root || jerr != json_tokener_success) {
		json_err(err, errlen, "invalid JSON: %s", json_tokener_error_desc(jerr));
		json_object_put(root);
		return -1;
	}
	int rc = json_read_root(out, root, language, err, errlen);
	json_object_put(root);
	if (rc < 0)
		sb_transcript_free(out);
	return rc;
}
