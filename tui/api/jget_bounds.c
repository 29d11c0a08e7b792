/* A bound on what one answer may hold, checked by a scan of the bytes before json-c builds
 * anything: json-c makes an object of about 1 KB for each `{}` (20 million of them, 60 MB
 * under the 64 MiB body cap, took 20 GB). The scan keeps a count per open container and
 * nothing else; it does not validate (json-c does that afterwards). */
#include "config.h"
#include "api/jget.h"

#include <stdio.h>

static int refuse(struct steno_error *err, const char *what, size_t max)
{
	steno_error_set(err, STENO_ERR_PARSE, "the answer holds more than %zu %s: refused (a page "
			"is far smaller)", max, what);
	if (err)
		snprintf(err->code, sizeof err->code, "%s", JGET_CODE_BOUNDS);
	return -1;
}

int jget_check_bounds(const char *body, size_t len, const struct jget_bounds *b,
		      struct steno_error *err)
{
	size_t count[JGET_MAX_DEPTH + 2];
	bool open_empty[JGET_MAX_DEPTH + 2];
	size_t depth = 0, containers = 0, values = 0;
	bool in_str = false;

	for (size_t i = 0; i < len; i++) {
		char c = body[i];
		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = false;
			continue;
		}
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
			continue;
		if (depth && depth <= JGET_MAX_DEPTH + 1 && open_empty[depth] && c != ']' && c != '}') {
			open_empty[depth] = false;   /* the container's first element */
			count[depth] = 1;
			values++;
		}
		switch (c) {
		case '"':
			in_str = true;
			break;
		case '{':
		case '[':
			if (++containers > b->max_containers)
				return refuse(err, "objects and arrays", b->max_containers);
			if (++depth <= JGET_MAX_DEPTH + 1) {
				open_empty[depth] = true;
				count[depth] = 0;
			}
			break;
		case '}':
		case ']':
			if (depth)
				depth--;
			break;
		case ',':
			values++;
			if (depth && depth <= JGET_MAX_DEPTH + 1 && ++count[depth] > b->max_items)
				return refuse(err, "items in one list", b->max_items);
			break;
		default:
			break;
		}
		if (values > b->max_values)
			return refuse(err, "values", b->max_values);
	}
	return 0;
}

int jget_parse_bounded(const char *body, size_t len, const struct jget_bounds *b,
		       struct json_object **out, struct steno_error *err)
{
	*out = NULL;
	if (body && jget_check_bounds(body, len, b, err) != 0)
		return -1;
	return jget_parse(body, len, out, err);
}
