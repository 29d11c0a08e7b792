/* sandbox_fixture: start a real steno-sandbox ($STENO_SANDBOX_BIN) on port 0 with its own temp
 * data dir, talk to it with libcurl, and stop it. Reusable by every integration test.
 * Also a tiny loopback HTTP receiver (libmicrohttpd) serving media and recording webhooks. */
#ifndef STENO_TESTS_SANDBOX_FIXTURE_H
#define STENO_TESTS_SANDBOX_FIXTURE_H

#include <json-c/json.h>
#include <stddef.h>
#include <sys/types.h>

/* A running sandbox. Fill with sbx_start; release with sbx_stop. */
struct sbx {
	pid_t pid;
	char dir[512];       /* data dir */
	int own_dir;         /* 1: created by sbx_start, removed by sbx_stop */
	char base_url[256];  /* STENO_BASE_URL (ends in /api/v1) */
	char origin[256];    /* http://127.0.0.1:PORT */
	char api_key[128];   /* STENO_API_KEY */
	char admin_key[128]; /* STENO_ADMIN_KEY */
	char org_id[32];     /* STENO_ORG_ID */
};

/* Starts with --port 0 --data <fresh temp dir> --rate-limit off --asr off, then extra args
 * (NULL-terminated array, may be NULL; a later --rate-limit or --asr overrides). Waits for the 4 ready lines. 0 or -1. */
int sbx_start(struct sbx *s, const char *const *extra);
/* Same on an existing data dir (restart); the dir is not removed by sbx_stop. */
int sbx_start_dir(struct sbx *s, const char *dir, const char *const *extra);
/* SIGTERM, wait; returns the exit status (or -1). Removes the dir when owned. */
int sbx_stop(struct sbx *s);
/* SIGTERM, wait, keep the data dir (for a restart). Returns the exit status. */
int sbx_stop_keep(struct sbx *s);
/* SIGKILL, wait, keep the data dir. */
void sbx_kill9(struct sbx *s);

/* One HTTP exchange. body and headers are malloc'ed; sbx_resp_free. */
struct sbx_resp {
	long status;
	char *body;
	size_t len;
	char *headers; /* raw header block */
	int curl_code; /* CURLcode; 0 on success */
};

/* target: "http..." as is; "/..." appended to origin; else appended to base_url + "/".
 * key NULL: no Authorization. body NULL: no body (a PUT/POST with "" sends an empty body).
 * extra_header may be NULL (e.g. "Accept: text/html"). 0 when an HTTP answer arrived. */
int sbx_request(const struct sbx *s, const char *method, const char *target, const char *key, const char *body,
		const char *extra_header, struct sbx_resp *out);
void sbx_resp_free(struct sbx_resp *r);
/* Case-insensitive header value (copied into buf) or NULL. */
const char *sbx_resp_header(const struct sbx_resp *r, const char *name, char *buf, size_t n);
/* Parsed body (caller puts) or NULL. */
json_object *sbx_json(const struct sbx_resp *r);
/* GET/POST/... with the demo key; returns parsed JSON (caller puts) and the status in *status. */
json_object *sbx_call(const struct sbx *s, const char *method, const char *target, const char *body, long *status);
/* Member lookup by dotted path ("_links.next.url"); NULL when absent. Borrowed. */
json_object *sbx_get(json_object *o, const char *path);
const char *sbx_str(json_object *o, const char *path);

/* Admin: advance the sandbox clock by seconds. 0 or -1. */
int sbx_advance(const struct sbx *s, double seconds);
/* Admin: replace the fault spec (--faults syntax; "none" clears). 0 or -1. */
int sbx_set_faults(const struct sbx *s, const char *spec);
/* Admin: GET requests the sandbox counted on route (a pattern: "/files/exports/:id") since it
 * started, what being "received" or "refused" (its counters' reads); 0 for a route never
 * read, -1 when the counters cannot be read. */
long sbx_reads(const struct sbx *s, const char *route, const char *what);
/* Every request of clients the sandbox received (reads and the rest, admin routes not
 * counted), or -1. */
long sbx_received_total(const struct sbx *s);
/* Admin: set the credit of an organization. 0 or -1. */
int sbx_set_credit(const struct sbx *s, const char *org, long long cents);
/* Uploads data via /uploads/new + PUT; signed URL into url (size n). 0 or -1. */
int sbx_upload(const struct sbx *s, const char *filename, const void *data, size_t len, char *url, size_t n);
/* A mono 8 kHz 16-bit WAV of the given length (malloc'ed). */
void *sbx_make_wav(double seconds, size_t *len);

/* A loopback receiver: GET /media.wav (a WAV of media_seconds), GET /doc.txt (doc_text),
 * GET /slow.wav (the same WAV after 1.5 s), anything else GET -> 404; POST records the body and answers
 * with statuses[i] for the i-th POST (200 after the list). */
struct sbx_receiver;
struct sbx_receiver *sbx_receiver_start(double media_seconds, const char *doc_text, const int *statuses,
					 size_t nstatuses);
/* http://127.0.0.1:PORT */
const char *sbx_receiver_origin(const struct sbx_receiver *r);
/* Number of POSTs received; copy of the i-th body (caller frees) or NULL. */
size_t sbx_receiver_posts(struct sbx_receiver *r);
char *sbx_receiver_post_body(struct sbx_receiver *r, size_t i);
void sbx_receiver_stop(struct sbx_receiver *r);

/* In a child about to exec steno: the environment every test gives it, so that nothing of
 * the user's leaks in: xterm-256color in UTF-8, colours on, its own XDG state, config and
 * cache dirs under `dir`, no STENO_CONFIG/STENO_PROFILE, and the account of `s` (NULL: no
 * account variables at all). */
void sbx_child_env(const struct sbx *s, const char *dir);

#endif
