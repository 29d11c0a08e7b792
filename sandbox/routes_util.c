/* routes_util: validation helpers. */
#include "config.h"

#include "routes_util.h"

#include "auth.h"

#include <stdlib.h>
#include <string.h>

int body_wrapper(struct sb_req *r, const char *name, json_object **root, json_object **inner)
{
	*root = req_json_object(r);
	if (!*root)
		return -1;
	if (!name) {
		*inner = *root;
		return 0;
	}
	json_object *w = NULL;
	if (!json_object_object_get_ex(*root, name, &w) || !json_object_is_type(w, json_type_object)) {
		reply_error(r, 400, "bad_request", "the body must be {\"%s\": {...}}", name);
		json_object_put(*root);
		*root = NULL;
		return -1;
	}
	*inner = w;
	return 0;
}

int field_string(struct sb_req *r, json_object *o, const char *key, int required, const char **out)
{
	json_object *v;
	*out = NULL;
	if (json_get_typed(o, key, json_type_string, &v) != 0) {
		reply_error(r, 400, "bad_request", "%s must be a string", key);
		return -1;
	}
	if (!v && required) {
		reply_invalid(r, key, "is required");
		return -1;
	}
	*out = v ? json_object_get_string(v) : NULL;
	return 0;
}

int field_bool(struct sb_req *r, json_object *o, const char *key, int *out)
{
	json_object *v;
	if (json_get_typed(o, key, json_type_boolean, &v) != 0) {
		reply_error(r, 400, "bad_request", "%s must be a boolean", key);
		return -1;
	}
	if (v)
		*out = json_object_get_boolean(v);
	return 0;
}

int64_t parse_digits(const char *s)
{
	if (!s || !*s || strlen(s) > 18)
		return -1;
	for (const char *p = s; *p; p++)
		if (*p < '0' || *p > '9')
			return -1;
	return strtoll(s, NULL, 10);
}

int field_id(struct sb_req *r, json_object *o, const char *key, int required, int64_t *out, int *present)
{
	json_object *v = NULL;
	*present = 0;
	if (!json_object_object_get_ex(o, key, &v) || !v) {
		if (required) {
			reply_invalid(r, key, "is required");
			return -1;
		}
		return 0;
	}
	if (json_object_is_type(v, json_type_int) && json_object_get_int64(v) > 0) {
		*out = json_object_get_int64(v);
	} else if (json_object_is_type(v, json_type_string) && parse_digits(json_object_get_string(v)) > 0) {
		*out = parse_digits(json_object_get_string(v));
	} else {
		reply_error(r, 400, "bad_request", "%s must be a numeric identifier", key);
		return -1;
	}
	*present = 1;
	return 0;
}

int field_string_array(struct sb_req *r, json_object *o, const char *key, int required, json_object **out)
{
	json_object *v;
	*out = NULL;
	if (json_get_typed(o, key, json_type_array, &v) != 0) {
		reply_error(r, 400, "bad_request", "%s must be an array of strings", key);
		return -1;
	}
	if (!v) {
		if (required) {
			reply_invalid(r, key, "is required");
			return -1;
		}
		return 0;
	}
	for (size_t i = 0; i < json_object_array_length(v); i++) {
		if (!json_object_is_type(json_object_array_get_idx(v, i), json_type_string)) {
			reply_error(r, 400, "bad_request", "%s must be an array of strings", key);
			return -1;
		}
	}
	*out = v;
	return 0;
}

int org_access(struct sb_req *r, int64_t org)
{
	if (!req_org_ok(r, org) || !auth_org_exists(org)) {
		reply_error(r, 401, "unauthorized", "the API key has no access to organization %lld", (long long)org);
		return -1;
	}
	return 0;
}

int query_org(struct sb_req *r, int64_t *org)
{
	const char *s = req_query(r, "organization_id");
	if (!s) {
		reply_invalid(r, "organization_id", "is required");
		return -1;
	}
	*org = parse_digits(s);
	if (*org <= 0) {
		reply_error(r, 400, "bad_request", "organization_id must be numeric");
		return -1;
	}
	return org_access(r, *org);
}

int is_http_url(const char *s)
{
	return s && ((strncmp(s, "http://", 7) == 0 && s[7]) || (strncmp(s, "https://", 8) == 0 && s[8]));
}
