/* What a request body must be before a route reads it: declared JSON (else 415), and text in
 * every string (else 422), as the service answers. */
#include "config.h"

#include "req_check.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "api/utf8.h"

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

/* NULL when s[0..len) is text, else what is wrong with it. */
static const char *text_problem(const char *s, size_t len)
{
	if (memchr(s, '\0', len))
		return "holds a NUL character (\\u0000)";
	return steno_utf8_valid(s, len) ? NULL : "is not valid UTF-8";
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
