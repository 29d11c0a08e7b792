#ifndef STENO_API_ERROR_BODY_H
#define STENO_API_ERROR_BODY_H

/* Error responses (4xx/5xx) into struct steno_error, for every body variant
 * open-points.md lists:
 *   {"error":"code","message":"..","errors":{"field":["problem", ..]}}
 *   {"errors":["..", ..]}     {"error":{"message":"..","code":".."}}
 *   {"message":".."}          {"detail":".."}       {"error":"text"}
 *   non-JSON / empty body -> the body as sanitized text, first 200 characters.
 *   a body that starts as JSON ({ or [) and does not parse -> "the answer's body is not valid
 *   JSON" (never the raw text).
 * The message is free of control characters (steno_error_set) and of invalid UTF-8. */

#include <stddef.h>

#include "api/error.h"
#include "api/http.h"

/* The longest wait a server's retry_in_seconds / Retry-After may put into an error (1 day). */
#define STENO_RETRY_AFTER_MAX_S 86400.0

/* Fills err: kind STENO_ERR_HTTP, http_status, code (the "error" string, else ""),
 * field (the first key of an "errors" map, else ""), message (never empty: falls back to
 * "HTTP <status>"), retry_after_s (429's body retry_in_seconds, else the Retry-After
 * header in seconds or as an HTTP date relative to now, else -1; the larger of the two
 * when both are given). retry_after_header may be NULL. Always returns -1. */
int steno_error_from_response(long status, const char *body, size_t len,
			      const char *retry_after_header, struct steno_error *err);

/* The same from an engine response (body, status, and the Retry-After the engine read):
 * err->retry_after_s is the wait the engine honours (capped at retry_max_wait); a 429's
 * message says what the server asked. */
int steno_error_from_http(const struct steno_http_response *resp, struct steno_error *err);

/* A transfer the storage refused (a signed URL's PUT or GET): err as the engine gave it
 * (kind STENO_ERR_HTTP, the status) becomes "WHO: MESSAGE" with the storage's own words
 * (an S3-style XML error, JSON, or text), keeping http_status, code and retry_after_s.
 * Other errors, or no response, are copied as they are. Returns out. */
const struct steno_error *steno_error_refused(const char *who,
					      const struct steno_http_response *resp,
					      const struct steno_error *err, struct steno_error *out);

/* Retry-After header value in seconds ("120", "1.5", or an IMF-fixdate): >= 0, or -1 when
 * missing or unparseable. now is the current time (time(NULL)) for the date form. */
double steno_retry_after_parse(const char *value, long long now);

#endif
