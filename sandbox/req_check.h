#ifndef SB_REQ_CHECK_H
#define SB_REQ_CHECK_H

#include <json-c/json.h>
#include <stddef.h>

/* 1 when a Content-Type header value declares JSON (application/json or application/...+json,
 * parameters such as charset allowed). */
int req_content_type_json(const char *ct);
/* NULL when every string (and key) of obj is valid UTF-8 without NUL; else what is wrong, with
 * the member that holds it in field ("body" at the top). json-c keeps "\u0000" as a NUL
 * inside the string and passes raw bytes through: both are refused, as the service does. */
const char *req_json_text_problem(json_object *obj, char *field, size_t n);

#endif
