/* routes_table: every route of the sandbox, matched in order by server.c. */
#include "config.h"

#include "routes.h"

#include "sandbox.h"

#define API "/api/v1"

const struct sb_route sb_routes[] = {
	{"GET", API "/uploads/new", R_API, uploads_new, NULL, 0},
	{"PUT", "/storage/:token/:name", R_OPEN | R_LATENCY, uploads_put, uploads_put_begin, SB_MEDIA_MAX},
	{"GET", "/storage/:token/:name", R_OPEN | R_LATENCY, uploads_get, NULL, 0},
	{"GET", API "/transcriptions", R_API, transcriptions_list, NULL, 0},
	{"POST", API "/transcriptions", R_API, transcriptions_create, NULL, 0},
	{"GET", API "/transcriptions/:id", R_API, transcriptions_get, NULL, 0},
	{"DELETE", API "/transcriptions/:id", R_API, transcriptions_delete, NULL, 0},
	{"POST", API "/exports", R_API, exports_create, NULL, 0},
	{"GET", API "/exports/:id", R_API, exports_get, NULL, 0},
	{"POST", API "/task/transcription_translation", R_API, tasks_create, NULL, 0},
	{"GET", API "/task/transcription_translation/:id", R_API, tasks_get, NULL, 0},
	{"POST", API "/orders", R_API, orders_create, NULL, 0},
	{"POST", API "/orders/translation", R_API, orders_create_translation, NULL, 0},
	{"GET", API "/orders/:id", R_API, orders_get, NULL, 0},
	{"POST", API "/orders/:id/confirm", R_API, orders_confirm, NULL, 0},
	{"GET", API "/organizations", R_API, organizations_list, NULL, 0},
	{"GET", API "/glossaries", R_API, glossaries_list, NULL, 0},
	{"GET", API "/style_guides", R_API, style_guides_list, NULL, 0},
	{"GET", API "/teapot", R_OPEN, teapot, NULL, 0},
	{"GET", "/teapot", R_OPEN, teapot, NULL, 0},
	{"GET", "/files/exports/:id", R_OPEN | R_LATENCY, files_export, NULL, 0},
	{"GET", "/files/transcripts/:id", R_OPEN | R_LATENCY, files_transcript, NULL, 0},
	{"GET", "/files/soundwaves/:id", R_OPEN | R_LATENCY, files_soundwave, NULL, 0},
	{"GET", "/editor/:id", R_OPEN, editor_page, NULL, 0},
	{"POST", "/_sandbox/clock/advance", R_ADMIN, admin_clock, NULL, 0},
	{"GET", "/_sandbox/clock", R_ADMIN, admin_clock, NULL, 0},
	{"PUT", "/_sandbox/faults", R_ADMIN, admin_faults, NULL, 0},
	{"GET", "/_sandbox/faults", R_ADMIN, admin_faults, NULL, 0},
	{"PUT", "/_sandbox/organizations/:id/credit", R_ADMIN, admin_credit, NULL, 0},
	{"GET", "/_sandbox/webhooks", R_ADMIN, admin_webhooks, NULL, 0},
	{"POST", "/_sandbox/organizations", R_ADMIN, admin_org_create, NULL, 0},
	{"POST", "/_sandbox/organizations/:id/keys", R_ADMIN, admin_key_create, NULL, 0},
	{"POST", "/_sandbox/organizations/:id/seed", R_ADMIN, admin_seed, NULL, 0},
	{"GET", "/_sandbox/state", R_ADMIN, admin_state, NULL, 0},
	{"GET", "/_sandbox/counters", R_ADMIN, admin_counters, NULL, 0},
};

const size_t sb_nroutes = sizeof sb_routes / sizeof sb_routes[0];
