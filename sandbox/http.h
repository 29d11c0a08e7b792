/* http: the request/response helpers every route uses (implemented in server.c). */
#ifndef SB_HTTP_H
#define SB_HTTP_H

#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>

struct sb_route;

#define SB_MAX_PARAMS 4
#define SB_MAX_HDRS 4

/* One request; lives from the first MHD callback to request completion (owned by server.c). */
struct sb_req {
	void *conn;                 /* struct MHD_Connection * */
	const char *method;
	const char *path;
	const struct sb_route *route;
	char params[SB_MAX_PARAMS][160];
	int nparams;
	/* body: buffered, or streamed into sink when a route's begin() set it */
	char *body;
	size_t body_len, body_cap, body_limit;
	int too_big;
	FILE *sink;
	char *sink_ctx;             /* malloc'ed temp path of a streamed body; unlinked unless the
	                             * handler closed sink (set it NULL); freed by server.c */
	size_t sink_len;
	int sink_error;             /* errno of the first failed write to sink, else 0 */
	/* auth */
	int64_t org_id;             /* organization of the key; 0 for the admin key */
	int is_admin;
	char key[96];
	/* response */
	int status;
	char *resp;
	size_t resp_len;
	const char *ctype;
	char hdr_name[SB_MAX_HDRS][32];
	char hdr_value[SB_MAX_HDRS][256];
	int nhdrs;
	int is_json;
};

/* Query parameter or NULL. */
const char *req_query(struct sb_req *r, const char *name);
/* Request header or NULL. */
const char *req_header(struct sb_req *r, const char *name);
/* Parses the body as a JSON object. On failure replies 400 and returns NULL. Caller puts. */
json_object *req_json_object(struct sb_req *r);
/* 1 when the key may access organization org (admin: all). */
int req_org_ok(const struct sb_req *r, int64_t org);

/* Replies; each takes ownership of what it is given. */
void reply_json(struct sb_req *r, int status, json_object *obj);
void reply_error(struct sb_req *r, int status, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* 422 with "errors":{field:[problem]}. */
void reply_invalid(struct sb_req *r, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* 507 insufficient_storage: the disk is full (ENOSPC, SQLITE_FULL). */
void reply_storage_full(struct sb_req *r);
void reply_bytes(struct sb_req *r, int status, const char *ctype, char *data, size_t len);
void reply_status(struct sb_req *r, int status);
void reply_header(struct sb_req *r, const char *name, const char *value);

/* JSON helpers for handlers. */
json_object *json_str_or_null(const char *s);
/* Member of obj; *out NULL when absent or null. Returns -1 when present with another type. */
int json_get_typed(json_object *obj, const char *key, json_type type, json_object **out);

#endif
