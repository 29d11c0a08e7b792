#include "config.h"

#include "transcript.h"
#include "transcript_build.h"
#include "buf.h"

#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The JSON is written straight into a buffer, byte for byte what json-c writes with
 * JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE (keys in this order, strings escaped as
 * json_escape_str does): building a json-c tree of a 10-minute transcript (an object, its hash
 * table and five values a word) and printing it cost most of a GET of its content. */

/* Times as short decimals ("1.25", "2.5", "3.0"): values are whole ms. */
static void put_time(struct sb_buf *b, double x)
{
	char s[64];
	int n;
	if (!isfinite(x))
		x = 0; /* JSON has no NaN; readers never produce one */
	double ms = x * 1000, r = nearbyint(ms);
	if (x >= 0 && x < 1e12 && fabs(ms - r) < 1e-6) {   /* what %.3f prints, without printf */
		long long v = (long long)r, w = v / 1000;
		char d[24];
		size_t m = 0;
		do
			d[m++] = (char)('0' + w % 10);
		while ((w /= 10) > 0);
		for (n = 0; m; )
			s[n++] = d[--m];
		s[n++] = '.';
		s[n++] = (char)('0' + v % 1000 / 100);
		s[n++] = (char)('0' + v % 100 / 10);
		s[n++] = (char)('0' + v % 10);
	} else {
		n = snprintf(s, sizeof s, "%.3f", x);
	}
	size_t k = n > 0 ? (size_t)n : 0;
	while (k > 1 && s[k - 1] == '0' && s[k - 2] != '.')
		k--;
	sb_buf_append(b, s, k);
}

static void put_str(struct sb_buf *b, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	if (!s) {
		sb_buf_append(b, "null", 4);
		return;
	}
	const char *from = s;
	sb_buf_append(b, "\"", 1);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p >= ' ' && *p != '"' && *p != '\\')
			continue;
		sb_buf_append(b, from, (size_t)((const char *)p - from));
		from = (const char *)p + 1;
		char e[7] = { '\\', 0 };
		switch (*p) {
		case '\b': e[1] = 'b'; break;
		case '\n': e[1] = 'n'; break;
		case '\r': e[1] = 'r'; break;
		case '\t': e[1] = 't'; break;
		case '\f': e[1] = 'f'; break;
		case '"': e[1] = '"'; break;
		case '\\': e[1] = '\\'; break;
		default:
			memcpy(e + 1, "u00", 3);
			e[4] = hex[*p >> 4];
			e[5] = hex[*p & 0xf];
		}
		sb_buf_append(b, e, strlen(e));
	}
	sb_buf_puts(b, from);
	sb_buf_append(b, "\"", 1);
}

static void put_word(struct sb_buf *b, const struct sb_word *w, unsigned flags)
{
	sb_buf_puts(b, "{\"text\":");
	put_str(b, w->text);
	sb_buf_puts(b, ",\"type\":");
	put_str(b, w->type);
	sb_buf_puts(b, ",\"data_start\":");
	put_time(b, w->start);
	sb_buf_puts(b, ",\"data_end\":");
	put_time(b, w->end);
	sb_buf_puts(b, ",\"confidence\":");
	put_time(b, w->confidence);
	if ((flags & SB_JSON_ANNOTATIONS) && w->highlighted)
		sb_buf_puts(b, ",\"highlighted\":true");
	sb_buf_append(b, "}", 1);
}

static void put_block(struct sb_buf *b, const struct sb_block *k, unsigned flags)
{
	sb_buf_puts(b, "{\"speaker\":");
	put_str(b, k->speaker);
	sb_buf_printf(b, ",\"speaker_number\":%d,\"data_start\":", k->speaker_number);
	put_time(b, k->start);
	sb_buf_puts(b, ",\"data_end\":");
	put_time(b, k->end);
	if ((flags & SB_JSON_ANNOTATIONS) && k->comment) {
		sb_buf_puts(b, ",\"comment\":");
		put_str(b, k->comment);
	}
	sb_buf_puts(b, ",\"words\":[");
	for (size_t i = 0; i < k->n_words; i++) {
		if (i)
			sb_buf_append(b, ",", 1);
		put_word(b, &k->words[i], flags);
	}
	sb_buf_append(b, "]}", 2);
}

char *sb_transcript_to_json(const struct sb_transcript *t, unsigned flags)
{
	struct sb_buf b = { 0 };
	if (flags & SB_JSON_LANGUAGE) {
		sb_buf_puts(&b, "{\"language\":");
		put_str(&b, t->language ? t->language : "en");
		sb_buf_puts(&b, ",\"blocks\":");
	}
	sb_buf_append(&b, "[", 1);
	for (size_t i = 0; i < t->n_blocks; i++) {
		if (i)
			sb_buf_append(&b, ",", 1);
		put_block(&b, &t->blocks[i], flags);
	}
	sb_buf_append(&b, "]", 1);
	if (flags & SB_JSON_LANGUAGE)
		sb_buf_append(&b, "}", 1);
	size_t len;
	return (char *)sb_buf_take(&b, &len);
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
