/* routes: the routing table and every handler (one file per resource). */
#ifndef SB_ROUTES_H
#define SB_ROUTES_H

#include <stddef.h>

#include "http.h"

typedef void (*sb_handler)(struct sb_req *r);

enum {
	R_API = 1,   /* Bearer key, Accept, rate limit and faults apply */
	R_ADMIN = 2, /* Bearer admin key; no faults, no rate limit */
	R_OPEN = 4,  /* no key: signed URLs, editor, teapot */
	R_LATENCY = 8, /* with R_OPEN: the latency fault applies (the other kinds do not) */
};

struct sb_route {
	const char *method;
	const char *pattern; /* segments; ":x" captures one into params */
	int flags;
	sb_handler handler;  /* called once the body is complete */
	sb_handler begin;    /* optional: called before the body arrives (may reply, may set sink) */
	long body_limit;     /* 0: SB_JSON_MAX */
};

extern const struct sb_route sb_routes[];
extern const size_t sb_nroutes;

/* routes_uploads.c */
void uploads_new(struct sb_req *r);
void uploads_put_begin(struct sb_req *r);
void uploads_put(struct sb_req *r);
void uploads_get(struct sb_req *r);
/* routes_transcriptions.c */
void transcriptions_list(struct sb_req *r);
void transcriptions_create(struct sb_req *r);
void transcriptions_get(struct sb_req *r);
void transcriptions_delete(struct sb_req *r);
/* routes_exports.c */
void exports_create(struct sb_req *r);
void exports_get(struct sb_req *r);
void files_export(struct sb_req *r);
void files_transcript(struct sb_req *r);
void files_soundwave(struct sb_req *r);
/* routes_tasks.c */
void tasks_create(struct sb_req *r);
void tasks_get(struct sb_req *r);
/* routes_orders.c */
void orders_create(struct sb_req *r);
void orders_create_translation(struct sb_req *r);
void orders_get(struct sb_req *r);
void orders_confirm(struct sb_req *r);
/* routes_lists.c */
void organizations_list(struct sb_req *r);
void glossaries_list(struct sb_req *r);
void style_guides_list(struct sb_req *r);
void teapot(struct sb_req *r);
void editor_page(struct sb_req *r);
/* routes_admin.c */
void admin_clock(struct sb_req *r);
void admin_faults(struct sb_req *r);
void admin_counters(struct sb_req *r);
void admin_credit(struct sb_req *r);
void admin_webhooks(struct sb_req *r);
void admin_org_create(struct sb_req *r);
void admin_key_create(struct sb_req *r);
void admin_seed(struct sb_req *r);
void admin_state(struct sb_req *r);

#endif
