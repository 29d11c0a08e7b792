#ifndef STENO_CORE_SYNC_H
#define STENO_CORE_SYNC_H

/* The sync engine: everything steno reads from the server to keep the store fresh. It owns
 * the poll scheduler and the reads in flight, decides what to fetch and when (list pages,
 * one transcription, the watched orders / exports / tasks, the live re-read of the list on
 * screen), within the scheduler's request budget and the rate gate, calls the api/ GET
 * endpoints and puts their answers in the store, whose listeners hear about them. The ui
 * and the headless commands drive it alike: sync_timeout_ms says how long the caller may
 * sleep, sync_run does what is due. It never sleeps and never draws.
 *
 * Ownership: sync_new returns a malloc'd engine (NULL with err set on failure) that borrows
 * the http engine, the store and the state given in its config (they must outlive it);
 * sync_free frees it and drops its reads in flight (free the http engine first, or expect
 * their callbacks to be cancelled with it). Ids and view parameters are copied. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/error.h"
#include "core/scheduler.h"
#include "core/store.h"

struct steno_http;
struct steno_state;
struct steno_sync;

enum sync_health { SYNC_UNKNOWN, SYNC_ONLINE, SYNC_SLOW, SYNC_OFFLINE };

/* A watched item moved to another state (told once per change; not on its first read). */
struct sync_news {
	const char *kind;          /* "transcription", "order", "export", "translation" */
	const char *id;
	const char *name;          /* a transcription's name; NULL otherwise or unknown */
	const char *old_state, *state;
	bool settled;              /* final, or waiting for a person (locked, to confirm) */
	bool failure;              /* a failed final state */
};

/* What the engine tells its user (any callback may be NULL). Called from sync_run and from
 * the http engine's completions, never from inside another sync_* call's caller frame. */
struct sync_listener {
	void (*log)(void *ud, const char *line);        /* a trace line, a failed read, a retry */
	void (*error)(void *ud, const struct steno_error *err);   /* a read failed */
	/* the server's health changed; rate_wait_s > 0 while a 429 holds the requests back */
	void (*health)(void *ud, enum sync_health health, double rate_wait_s);
	void (*news)(void *ud, const struct sync_news *news);
	void *ud;
};

struct sync_config {
	struct steno_http *http;     /* required */
	struct steno_store *store;   /* required */
	/* watched items are remembered here (NULL: not remembered), per origin + organization */
	struct steno_state *state;
	const char *base_url;        /* for the state file's origin */
	const char *org_id;          /* the organization steno started with (may be NULL) */
	struct sched_policy policy;
	/* page 1 of the live view is read again this often (0: never); never below
	 * SYNC_LIVE_FLOOR_MS. It doubles while the user is idle for long and after a 429. */
	int64_t live_ms;
	int max_flight;              /* reads of the engine at once; 0: 4 */
	int64_t (*clock_ms)(void *ud);   /* monotonic ms; NULL: CLOCK_MONOTONIC */
	void *clock_ud;
	int64_t (*wall_ms)(void *ud);    /* ms since the epoch (state file); NULL: real time */
	/* the caller keeps the engine's retry and trace listeners (a command that reports its
	 * own retries, and uses the engine after sync_free); otherwise the sync engine takes
	 * them for good (the browser frees the http engine first, see above) */
	bool keep_http_listeners;
	struct sync_listener listener;
};

#define SYNC_LIVE_FLOOR_MS 5000
#define SYNC_LIVE_DEFAULT_MS 20000

struct steno_sync *sync_new(const struct sync_config *cfg, struct steno_error *err);
void sync_free(struct steno_sync *s);

struct scheduler *sync_scheduler(struct steno_sync *s);
int64_t sync_now_ms(struct steno_sync *s);
enum sync_health sync_health(const struct steno_sync *s);

/* ---- the loop ---- */

/* Milliseconds until the engine has something to do (0: now), -1 when nothing is due. */
long sync_timeout_ms(struct steno_sync *s);
/* Does what is due: a list read tried again, the live re-read, the scheduler's polls. */
void sync_run(struct steno_sync *s);
/* Reads of the engine in flight. */
size_t sync_in_flight(const struct steno_sync *s);

/* ---- lists ---- */

/* The view of an organization / folder / tag (the store's, created when absent). */
struct store_view *sync_view(struct steno_sync *s, const char *org_id, const char *folder_id,
			     const char *tag);
/* Reads page 1 of the view again (first) or its next page. load_all: keeps reading next
 * pages until the end. Returns 0 (also when already loading), -1 when it could not start. */
int sync_load_view(struct steno_sync *s, const char *org_id, const char *folder_id,
		   const char *tag, bool first, bool load_all);
/* The view on screen: re-read on the live interval and merged (new rows in, gone rows out,
 * later pages kept). NULL org: none. */
int sync_set_live_view(struct steno_sync *s, const char *org_id, const char *folder_id,
		       const char *tag);
/* The user pressed a key: the live interval comes back from its idle slowdown. */
void sync_user_active(struct steno_sync *s);
/* The live interval now in force (0: off), for the status bar and tests. */
int64_t sync_live_interval(struct steno_sync *s);

/* ---- single resources ---- */

/* Reads a transcription (unless already detailed and not forced). */
void sync_fetch_transcription(struct steno_sync *s, const char *id, bool force);
/* The transcription whose details are shown (NULL: none): read unless detailed, and read
 * again whenever a list item telling of a new state makes its details stale (so a failed
 * one says why). */
void sync_show_transcription(struct steno_sync *s, const char *id);
/* Watches an order / export / translation task: in the store (watched), polled until its
 * state settles, remembered in the state file. Returns 0, or -1 (bad id, no memory). */
int sync_watch(struct steno_sync *s, enum store_activity_kind kind, const char *id);
/* Stops watching an order / export / translation task: no longer polled, gone from the store
 * (the activity pane) and from the state file (state_watch_forget). An item the server
 * answers 404 or 410 for is unwatched this way by the sync engine itself, which tells it
 * once through the listener's error ("order bogus1: HTTP 404 ...: no longer watched"). */
void sync_unwatch(struct steno_sync *s, enum store_activity_kind kind, const char *id);
/* Watches a transcription (e.g. one the user just created): polled until settled, its state
 * changes told as news. Returns 0, or -1 (bad id, no memory). */
int sync_watch_transcription(struct steno_sync *s, const char *id);
bool sync_watches_transcription(const struct steno_sync *s, const char *id);
/* The watched items of the state file for this origin and organization: back in the store,
 * read once, then polled until settled. */
void sync_restore_watched(struct steno_sync *s);
/* Every tracked item due now. */
void sync_force_all(struct steno_sync *s);
/* The rate gate's remaining wait (ms, 0 when none) and, in *asked_s if not NULL, what the
 * server asked for; sync_force_all also lifts that wait: the user asks for a retry now. */
long sync_rate_wait_ms(struct steno_sync *s, double *asked_s);

#endif
