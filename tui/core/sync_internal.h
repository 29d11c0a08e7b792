#ifndef STENO_CORE_SYNC_INTERNAL_H
#define STENO_CORE_SYNC_INTERNAL_H

/* struct steno_sync, shared by core/sync*.c only. The files call one way: sync.c ->
 * sync_live.c -> sync_fetch.c -> sync_base.c. */

#include "core/sync.h"

#include <stdio.h>

enum sync_req_kind { SYNC_REQ_PAGE, SYNC_REQ_TRANSCRIPTION, SYNC_REQ_ORDER, SYNC_REQ_EXPORT,
	SYNC_REQ_TASK };

/* A read in flight. Ownership: the engine's list; freed on completion or by sync_free. */
struct sync_req {
	struct steno_sync *s;
	struct sync_req *prev, *next;
	enum sync_req_kind kind;
	char *key;                 /* the store's refresh key (view key, id, "order:ID") */
	char *id;
	char *org, *folder, *tags; /* list reads: the view (looked up again on completion) */
	bool first, load_all, live;
	int64_t started_ms;
	char what[160];            /* for the log */
};

/* The view kept live. */
struct sync_live {
	char *org, *folder, *tag;  /* org NULL: none */
	int64_t due_ms;            /* next re-read (0: not scheduled) */
	int64_t active_ms;         /* last sync_user_active */
	int64_t backoff_ms;        /* extra after 429s (0: none) */
	enum { LIVE_NONE, LIVE_OK, LIVE_FAILED, LIVE_429 } answer;   /* of the last read, not
				    * yet taken into account (set by sync_fetch.c) */
};

struct steno_sync {
	struct sync_config cfg;
	char *base_url, *org_id;
	struct scheduler *sched;
	struct sync_req *reqs;
	size_t n_reqs;
	int64_t list_retry_at;     /* a failed list read is tried again then (0: no) */
	int64_t list_retry_ms;     /* its backoff */
	bool list_retry_first;
	char *retry_org, *retry_folder, *retry_tag;
	char *reread_key;          /* a view whose page 1 was asked while another read of it ran:
	                            * read when that read ends (NULL: none) */
	bool reread_load_all;
	struct sync_live live;
	enum sync_health health;
	double rate_wait_s;
	int listener;              /* on the store: settled watched items, news */
	char **watched_tr;         /* watched transcription ids, malloc'd */
	size_t n_watched_tr;
	char *shown_tr;            /* the transcription whose details are shown (NULL: none) */
};

/* sync_base.c */
void sync_log(struct steno_sync *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sync_note_ok(struct steno_sync *s);
void sync_note_error(struct steno_sync *s, const struct steno_error *err);
char *sync_strdup0(const char *s);   /* NULL stays NULL */
void sync_tell_error(struct steno_sync *s, const struct steno_error *err);   /* to the listener */
void sync_listen_http(struct steno_sync *s);   /* the http engine's trace and retries */

/* sync_fetch.c */
struct sync_req *sync_req_new(struct steno_sync *s, enum sync_req_kind kind, const char *key,
			      const char *id);
void sync_req_done(struct sync_req *r);
void sync_poll_due(struct steno_sync *s);
void sync_retry_list(struct steno_sync *s);
/* Starts a live read of page 1 of v: 1 started, 0 already running, -1 failed. */
int sync_load_live(struct steno_sync *s, struct store_view *v);

/* sync_live.c */
void sync_live_run(struct steno_sync *s);
void sync_live_free(struct steno_sync *s);
/* A live read ended (answer: LIVE_OK ...): schedules the next (after a 429, slower). */
void sync_live_done(struct steno_sync *s, int answer);

#endif
