/* routes_util: request-field validation shared by the routes. Each returns 0, or -1 after
 * replying (400 wrong type / malformed, 422 missing or breaking a rule, 401 no access). */
#ifndef SB_ROUTES_UTIL_H
#define SB_ROUTES_UTIL_H

#include <json-c/json.h>
#include <stdint.h>

#include "http.h"
#include "model.h"

/* Parses the body and takes the wrapper object `name` (NULL: the body itself). *root to put. */
int body_wrapper(struct sb_req *r, const char *name, json_object **root, json_object **inner);
/* *out NULL when absent and not required. */
int field_string(struct sb_req *r, json_object *o, const char *key, int required, const char **out);
/* *out unchanged when absent. */
int field_bool(struct sb_req *r, json_object *o, const char *key, int *out);
/* Numeric id given as a JSON integer or a string of digits; *present 0 when absent. */
int field_id(struct sb_req *r, json_object *o, const char *key, int required, int64_t *out, int *present);
/* Array of strings (NULL when absent). Borrowed. */
int field_string_array(struct sb_req *r, json_object *o, const char *key, int required, json_object **out);
/* 401 unless the key may use organization org (which must exist). */
int org_access(struct sb_req *r, int64_t org);
/* organization_id from the query: required, digits, accessible. */
int query_org(struct sb_req *r, int64_t *org);
/* Digits-only string to int64; -1 when not. */
int64_t parse_digits(const char *s);
/* 1 when s is an absolute http(s) URL. */
int is_http_url(const char *s);

/* routes_tasks.c: the source of a translation: exists (404), accessible (401), not deleted
 * (410), translatable and done (422). Fills src (tr_row_free) on success. */
int task_source(struct sb_req *r, const char *id, struct tr_row *src);

#endif
