/* What a request body must be before a route reads it: declared JSON (else 415), and text in
 * every string (else 422), as the service answers. */
#include "config.h"

#include "req_check.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

int req_content_type_json(const char *ct)
{
	if (!ct)
		return 0;
	while (*ct == ' ' || *ct == '\t')
		ct++;
	size_t n = strcspn(ct, "; \t");
	if (n == 16 && !strncasecmp(ct, "application/json", 16))
		return 1;
	/* application/problem+json and the like */
	return n > 17 && !strncasecmp(ct, "application/", 12) && !strncasecmp(ct + n - 5, "+json", 5);
}

/* Length of the valid UTF-8 sequence at s (at most n bytes); 0 when invalid or NUL. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned c = s[0], min, cp;
	size_t len;
	if (c == 0)
		return 0;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2; min = 0x80; cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3; min = 0x800; cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4; min = 0x10000; cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	return cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? 0 : len;
}

/* NULL when s[0..len) is text, else what is wrong with it. */
static const char *text_problem(const char *s, size_t len)
{
	if (memchr(s, '\0', len))
		return "holds a NUL character (\\u0000)";
	for (size_t i = 0, k; i < len; i += k)
		if (!(k = utf8_seq((const unsigned char *)s + i, len - i)))
			return "is not valid UTF-8";
	return NULL;
}

/* Walks v; `name` is the member that holds it (for the field of the error). */
static const char *walk(json_object *v, const char *name, char *field, size_t n, int depth)
{
	const char *bad = NULL;
	if (!v || depth > 64)
		return NULL;
	switch (json_object_get_type(v)) {
	case json_type_string:
		bad = text_problem(json_object_get_string(v), (size_t)json_object_get_string_len(v));
		if (bad)
			snprintf(field, n, "%s", name);
		return bad;
	case json_type_array:
		for (size_t i = 0; !bad && i < json_object_array_length(v); i++)
			bad = walk(json_object_array_get_idx(v, i), name, field, n, depth + 1);
		return bad;
	case json_type_object: {
		json_object_object_foreach(v, key, member) {
			/* a key that is not text is named by the member that holds it */
			if ((bad = text_problem(key, strlen(key)))) {
				snprintf(field, n, "%s", name);
				return bad;
			}
			if ((bad = walk(member, key, field, n, depth + 1)))
				return bad;
		}
		return NULL;
	}
	default:
		return NULL;
	}
}

const char *req_json_text_problem(json_object *obj, char *field, size_t n)
{
	return walk(obj, "body", field, n, 0);
}
