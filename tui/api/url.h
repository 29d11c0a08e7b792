#ifndef STENO_API_URL_H
#define STENO_API_URL_H

/* URL policy of the engine: building request URLs, deciding which origin may receive the API
 * key, removing secrets before a URL is written anywhere, and reducing server-supplied file
 * names to a safe basename. Pure functions (no network), unit-tested on their own. */

#include <stddef.h>

#include "api/error.h"

/* True (1) when `a` and `b` are absolute http(s) URLs with the same origin: scheme, host and
 * port (default ports made explicit) compared case-insensitively. Any URL that does not parse,
 * carries a non-ASCII host, or uses another scheme gives 0: the check fails closed. */
int steno_url_same_origin(const char *a, const char *b);
/* True (1) when url lies under base: the same origin, and its path base's path or below it
 * (a whole segment: /api/v1 holds /api/v1/x, not /api/v10). 0 otherwise, or when either does
 * not parse. */
int steno_url_under(const char *base, const char *url);

/* Writes `url` to `out` with user:password removed, the fragment dropped and the value of every
 * query parameter that looks secret (signature, credential, token, key, secret, password, auth,
 * sig, policy) replaced by REDACTED. Always NUL-terminates; truncates to `size`.
 * Returns 0, or -1 when `url` does not parse (then `out` holds "<unparsable url>"). */
int steno_url_redact(const char *url, char *out, size_t size);

/* Reduces a file name from the server (or a URL path) to a safe basename in `out`: the text after
 * the last '/' or '\\'; C0/C1 controls, DEL, bidi and invisible format characters
 * (steno_cp_is_hidden), malformed UTF-8 and the characters unsafe in a file name (: * ? " < > |)
 * replaced by '_'; a leading '.', '-' or space replaced by '_' (no hidden file, no name that reads
 * as an option), trailing dots and spaces dropped; at most 200 bytes (extension kept, UTF-8 not
 * cut inside a character). An empty result gives `fallback` (itself reduced the same way).
 * Returns 0, or -1 with err set when even the fallback is empty. */
int steno_url_safe_basename(const char *name, const char *fallback, char *out, size_t size,
			    struct steno_error *err);

/* Percent-encodes `s` (everything but unreserved characters) into a new string.
 * Caller frees. NULL on allocation failure. */
char *steno_url_escape(const char *s);

/* A growing URL: base + path + query parameters. Ownership: the caller owns the struct and
 * calls steno_url_builder_free (or takes `buf` with steno_url_builder_take). */
struct steno_url_builder {
	char *buf;
	size_t len;
	size_t cap;
	int nparams;
	int failed;    /* an allocation failed; steno_url_builder_take then returns NULL */
};

/* Starts with `base` (trailing '/' dropped) followed by `path` (which should start with '/'). */
void steno_url_builder_init(struct steno_url_builder *b, const char *base, const char *path);
/* Appends one escaped path segment: "/" + escape(seg). */
void steno_url_builder_segment(struct steno_url_builder *b, const char *seg);
/* Appends ?name=value or &name=value, both escaped. A NULL value skips the parameter. */
void steno_url_builder_param(struct steno_url_builder *b, const char *name, const char *value);
/* Returns the URL (caller frees) and resets the builder; NULL when something failed. */
char *steno_url_builder_take(struct steno_url_builder *b);
void steno_url_builder_free(struct steno_url_builder *b);

#endif
