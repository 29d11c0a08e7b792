#ifndef STENO_CORE_STORE_H
#define STENO_CORE_STORE_H

/* The store: the single source of truth of what steno knows about the server (k9s
 * model/table.go). api/ completions hand it parsed structs; it merges them, remembers when
 * states changed, and tells listeners what changed so panes mark themselves dirty.
 *
 * It holds: per view (organization + folder + tag filter) the transcription list pages loaded
 * so far with the next-page link and whether the end was reached; every transcription known,
 * by id (list items and retrieve details merged into one record); and the activity items steno
 * watches (orders, exports, translation tasks) with their last state and when it changed.
 *
 * Ownership: *_put functions TAKE OWNERSHIP of the struct they are given, on success and on
 * failure alike: its contents move into the store and the caller's struct is zeroed (only
 * the struct's contents; the struct itself stays the caller's). Pointers returned by getters
 * stay valid until the next call that changes the store (store_trim and the page calls that
 * trim included); never free them. With a local store attached the records of listed rows
 * are the db's, held in memory as a bounded cache (STORE_RECS_MAX below). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/error.h"
#include "api/export.h"
#include "api/order.h"
#include "api/paging.h"
#include "api/transcription.h"
#include "api/translation.h"
#include "core/scheduler.h"

struct steno_store;

/* ---- listeners ---- */

enum store_what {
	STORE_WHAT_LIST = 1u << 0,          /* a view's list (items, paging, loading, error) */
	STORE_WHAT_TRANSCRIPTION = 1u << 1, /* one transcription record (ev->id) */
	STORE_WHAT_ACTIVITY = 1u << 2,      /* one activity item (ev->kind, ev->id) */
};

enum store_activity_kind {
	STORE_ACT_ORDER,
	STORE_ACT_EXPORT,
	STORE_ACT_TRANSLATION_TASK,
};

/* What a listener is told. Pointers valid during the callback only. */
struct store_event {
	unsigned what;                       /* enum store_what bits */
	const char *view;                    /* view key for STORE_WHAT_LIST, else NULL */
	const char *id;                      /* transcription or activity id, else NULL */
	enum store_activity_kind kind;       /* for STORE_WHAT_ACTIVITY */
	bool state_changed;                  /* the item's state differs from before */
	const char *old_state;               /* ... and was this (NULL: not known before) */
	bool finished;                       /* the state became final (a watched job ended) */
	bool failure;                        /* ... and that final state is a failure */
	bool keys_changed;                   /* STORE_WHAT_TRANSCRIPTION: a field lists sort or
					      * filter on changed, or the record is new or gone
					      * (false: the rows of a list stay where they are) */
	const struct steno_error *error;     /* failed events only */
};

typedef void (*store_listener_fn)(void *user, const struct store_event *ev);

/* Registers changed/failed callbacks (either may be NULL). Returns an id > 0, or -1 on no
 * memory. Listeners must not add or remove listeners from inside a callback. */
int store_listen(struct steno_store *st, store_listener_fn changed, store_listener_fn failed,
		 void *user);
void store_unlisten(struct steno_store *st, int id);

/* ---- the store ---- */

/* malloc'd; NULL on no memory. store_free frees everything it holds. */
struct steno_store *store_new(void);
void store_free(struct steno_store *st);
/* How many pages a view follows at most (config page_limit); <= 0: the pager's default. */
void store_set_page_limit(struct steno_store *st, long pages);

/* A transcription as the store keeps it. */
struct store_transcription {
	struct steno_transcription t;   /* merged from list items and retrieve responses */
	bool detailed;                  /* a retrieve response was merged at least once */
	bool changing;                  /* state not final: still moving (the ui marks it) */
	int64_t state_changed_ms;       /* when the store saw the state change (caller's clock) */
	int64_t updated_ms;             /* when any field last changed */
	int64_t fetched_ms;             /* when the last response about it arrived */
	int64_t live_ms;                /* a live re-read listed it anew or changed it (0: never) */
	bool cached;                    /* from the local store, not read by this process yet */
	uint64_t used;                  /* when last asked for (the store's count): the least
					 * recently used go first when the store trims */
};

/* With a local store attached (store_attach_db), the records of listed rows are owned by the
 * db: the store holds a bounded cache of them (at most STORE_RECS_MAX once trimmed, the
 * least recently read first out), and reads a listed record that is not held back from the
 * db when it is asked for (store_transcription_get, store_view_item, store_list_item).
 * Without a db (`cache = off`), or after a write to it failed, every record stays held. */
#define STORE_RECS_MAX 1024
/* Records in memory now. */
size_t store_records_held(const struct steno_store *st);
/* Lets go of the least recently read records over STORE_RECS_MAX (kept: those a live read
 * marked within STORE_LIVE_KEEP_MS of now, those no view lists). The store trims itself at
 * the start of every page it takes (store_view_add_page, store_view_merge_head,
 * store_views_load_more); a pointer returned before is then invalid. */
#define STORE_LIVE_KEEP_MS 60000
void store_trim(struct steno_store *st, int64_t now);

/* Merges a transcription (list item, create or retrieve response: `detailed` for retrieve).
 * Fields the response does not carry keep their known values. Takes ownership of *t.
 * Returns 1 when something changed (listeners told), 0 when nothing did, -1 on error. */
int store_transcription_put(struct steno_store *st, struct steno_transcription *t, bool detailed,
			    int64_t now, struct steno_error *err);
const struct store_transcription *store_transcription_get(const struct steno_store *st,
							  const char *id);
/* A transcription that was deleted (or answered 410): it leaves every view. */
void store_transcription_remove(struct steno_store *st, const char *id);
/* A refresh of it failed: failed listeners are told; the record is kept. */
void store_transcription_failed(struct steno_store *st, const char *id,
				const struct steno_error *e);

/* ---- views: the list of one organization / folder / tag filter ---- */

/* A view. Ownership: the store's. */
struct store_view {
	char *key;                 /* "ORG/FOLDER?tags" (org or folder may be empty) */
	char *org_id, *folder_id, *tags;  /* NULL when not set */
	char **ids;                /* transcription ids in server order, malloc'd */
	size_t n, cap;
	size_t pages;              /* pages loaded */
	char *next_url;            /* next page, NULL when none */
	struct steno_pager pager;  /* page limit, repeated links, kept parameters (api/paging.h) */
	bool end;                  /* no next link, an empty page came, or the pager stopped */
	bool has_error;
	struct steno_error error;  /* of the last failed load */
	int64_t loaded_ms;
	/* Rows filled from the local store (store_view_load_cached), not yet proven by a read of
	 * every page: page 1 drops only the rows within its own range, a read to the end drops
	 * the rest (and puts the rows in the server's order). */
	bool cached;
	int64_t cached_wall_ms;    /* when those rows were read (ms since 1970), 0: never */
	struct store_walk *walk;   /* ids listed since page 1 while cached (store's) */
	long cache_next;           /* > 0: the db holds more rows from this position on, read by
				    * store_views_load_more; 0: none left. Meanwhile the view's
				    * rows are not written back (that would cut the db's list short):
				    * cache_dirty, and they are once all are in */
	bool cache_dirty;
	struct store_idx *idx;     /* which ids are listed (over ids' strings; store's), built
				    * for long lists, dropped when ids change otherwise than by
				    * an append */
	/* The ids listed before page 1 started the list again (a fresh read, or a live
	 * re-read while it merges): their records are still known (read back from the db
	 * when not held) until the read reaches the end. Store's. */
	char **prev_ids;
	size_t prev_n;
	struct store_idx *prev_idx;
};

/* Finds (or with create, makes) the view. NULL when absent or on no memory. */
struct store_view *store_view_get(struct steno_store *st, const char *org_id,
				  const char *folder_id, const char *tags, bool create);
/* The walk of the list was stopped by page_limit or a next link seen before (not a failure a
 * retry mends): v->error says why. */
bool store_view_stopped(const struct store_view *v);
/* Adds a page. `first` restarts the list (page 1 of a fresh load or refresh); otherwise the
 * page is appended, skipping ids already listed. Every item is merged into its record.
 * Takes ownership of *page. Returns 1 when the list changed, 0 when not, -1 on error. */
int store_view_add_page(struct steno_store *st, struct store_view *v,
			struct steno_transcription_page *page, bool first, int64_t now,
			struct steno_error *err);
/* Merges a fresh page 1 into a view already loaded (a live re-read): its items come first in
 * server order, newly listed or changed ones get live_ms = now; items it no longer lists that
 * stood above its lowest known item are gone, those below stay (pushed down, or on later
 * pages already loaded); an empty page 1 empties the view. Later pages and their next link are
 * kept. Takes ownership of *page. Returns 1 when the view or a record changed, 0, or -1. */
int store_view_merge_head(struct steno_store *st, struct store_view *v,
			  struct steno_transcription_page *page, int64_t now,
			  struct steno_error *err);
void store_view_failed(struct steno_store *st, struct store_view *v, const struct steno_error *e);
/* Item i of a view (NULL when out of range); read back from the db when not held. */
const struct store_transcription *store_view_item(const struct steno_store *st,
						  const struct store_view *v, size_t i);
/* Item i of a view if its record is held now, else NULL (nothing is read): the records a
 * change touched are held until the next trim. */
const struct store_transcription *store_view_item_held(const struct steno_store *st,
						       const struct store_view *v, size_t i);

/* ---- the local store on disk (core/localdb.h, core/store_db.c) ---- */

struct localdb;
/* The store writes every answer it takes through to `db` and can be fed from it. Takes
 * ownership of db (closed by store_free), also on failure. wall_ms: ms since 1970 (NULL:
 * the real time). 0, or -1 with err. */
int store_attach_db(struct steno_store *st, struct localdb *db, int64_t (*wall_ms)(void *ud),
		    void *ud, struct steno_error *err);
/* Opens the local store of base_url (config `cache`, paths->cache_dir) and attaches it.
 * 0 attached; 1 `cache = off` (memory only); -1 with err when no store could be had (memory
 * only too: the caller says so and goes on). *notice: as localdb_open's (caller frees). */
struct steno_config;
struct steno_paths;
int store_open_local(struct steno_store *st, const struct steno_config *cfg,
		     const struct steno_paths *paths, const char *base_url,
		     int64_t (*wall_ms)(void *ud), void *ud, char **notice,
		     struct steno_error *err);
/* The attached db (NULL: memory only). */
struct localdb *store_localdb(const struct steno_store *st);
/* The first write to the db that failed ("local store: ..."), NULL when none. */
const char *store_db_error(const struct steno_store *st);
int64_t store_db_wall_ms(const struct steno_store *st);
/* Fills an empty, never read view with the rows last read into the db (their records too,
 * unless already known), marked cached: the first STORE_CACHE_FIRST rows at once (what a
 * screen shows, in a few ms whatever the size), the rest later by store_views_load_more.
 * Returns the rows filled (0: none known), -1 on error. `now`: the caller's clock (the
 * records' times are turned into it). */
#define STORE_CACHE_FIRST 500
#define STORE_CACHE_CHUNK 5000
long store_view_load_cached(struct steno_store *st, struct store_view *v, int64_t now);
/* The next rows (at most `max`) of every view whose db rows are not all in memory yet, after
 * what is listed (rows a read listed meanwhile are not listed twice). Returns the rows
 * added; store_views_cache_pending says whether some remain. */
long store_views_load_more(struct steno_store *st, int64_t now, long max);
bool store_views_cache_pending(const struct steno_store *st);
/* Other answers kept whole in the db by a key naming the request ("organizations"):
 * put returns 0 or -1 (noted in store_db_error); get a malloc'd body (NULL: none) and, in
 * *read_ms if not NULL, when it was read (ms since 1970). */
int store_answer_put(struct steno_store *st, const char *key, const char *body);
char *store_answer_get(struct steno_store *st, const char *key, int64_t *read_ms);
/* `steno cache info` (core/store_admin.c): the file's size (with -wal, -shm) and per
 * organization the transcriptions listed in it and the last read of its lists (ms since
 * 1970, 0: never). Ownership: store_cache_info_free. */
struct store_cache_org {
	char *org_id;
	long long items;
	int64_t last_read_ms;
};
struct store_cache_info {
	long long bytes, items;
	struct store_cache_org *orgs;
	size_t n;
};
int store_cache_info(struct localdb *db, struct store_cache_info *out, struct steno_error *err);
void store_cache_info_free(struct store_cache_info *info);
/* Forgets everything (org_id NULL) or one organization's lists and transcriptions, in one
 * transaction; *removed: the transcriptions forgotten. 0 or -1 with err. */
int store_cache_clear(struct localdb *db, const char *org_id, long *removed,
		      struct steno_error *err);
/* One transcription / activity item not in memory, from the db. 1 filled, 0 not there. */
int store_transcription_load_cached(struct steno_store *st, const char *id, int64_t now);
int store_activity_load_cached(struct steno_store *st, enum store_activity_kind kind,
			       const char *id, int64_t now);

/* ---- filtering and sorting (k9s-like): index arrays into a view ---- */

enum store_sort {
	STORE_SORT_SERVER,    /* the order pages came in */
	STORE_SORT_NAME,      /* natural order (core/natsort.h): n°2 before n°10 */
	STORE_SORT_CREATED,
	STORE_SORT_STATE,
	STORE_SORT_LANGUAGE,
	STORE_SORT_LENGTH,
	STORE_SORT_COST,      /* costInCents */
	STORE_SORT_TAGS,      /* the tags in their order, each in natural order; none: unknown */
};
#define STORE_SORT_COUNT (STORE_SORT_TAGS + 1)

struct query;

struct store_query {
	const struct query *where;  /* the filter (core/query.h, query_parse); NULL: every item */
	enum store_sort sort;
	bool descending;      /* unknown values sort last either way */
};

/* What a query (core/query.h) looks at in a transcription; the strings are t's. */
struct query_item;
void store_query_item(const struct steno_transcription *t, struct query_item *out);

/* Indices (into the view) of the items matching q, sorted; ties keep server order.
 * *out is malloc'd (free it); returns the count, -1 on no memory. q may be NULL. */
long store_view_select(const struct steno_store *st, const struct store_view *v,
		       const struct store_query *q, size_t **out);
const char *store_sort_name(enum store_sort s);

/* ---- activity: orders, exports, translation tasks ---- */

/* Ownership: the store's. Exactly one of order / export / task is set, by kind. */
struct store_activity {
	enum store_activity_kind kind;
	const char *id;                       /* points into the struct below */
	const char *state;                    /* idem; NULL when unknown */
	struct steno_order order;
	struct steno_export export_;
	struct steno_translation_task task;
	bool watched;
	bool finished;                        /* state final */
	int64_t added_ms, state_changed_ms, fetched_ms;
	bool has_error;
	struct steno_error error;             /* last refresh failure */
	char *job_end;                        /* how the last job on it ended ("downloaded to
					       * PATH", "download cancelled"); NULL: none, or
					       * its state moved on since */
	bool job_end_failed;                  /* ... that job failed */
	char *job_end_state;                  /* its state when that job ended; NULL: unknown */
};

/* Takes ownership; returns 1 when new or changed, 0 when the same, -1 on error (no id). */
int store_order_put(struct steno_store *st, struct steno_order *o, bool watch, int64_t now,
		    struct steno_error *err);
int store_export_put(struct steno_store *st, struct steno_export *e, bool watch, int64_t now,
		     struct steno_error *err);
int store_task_put(struct steno_store *st, struct steno_translation_task *t, bool watch,
		   int64_t now, struct steno_error *err);
size_t store_activity_count(const struct steno_store *st);
const struct store_activity *store_activity_at(const struct steno_store *st, size_t i);
const struct store_activity *store_activity_find(const struct steno_store *st,
						 enum store_activity_kind kind, const char *id);
void store_activity_watch(struct steno_store *st, enum store_activity_kind kind, const char *id,
			  bool on);
void store_activity_remove(struct steno_store *st, enum store_activity_kind kind, const char *id);
void store_activity_failed(struct steno_store *st, enum store_activity_kind kind, const char *id,
			   const struct steno_error *e);
/* Records how a job on the item ended (core/jobs.h jobs_end_text; NULL clears it): kept
 * until another job ends on it or its state changes. An item not in the store is left alone. */
#define STORE_JOB_END_MAX 600
void store_activity_job_end(struct steno_store *st, enum store_activity_kind kind, const char *id,
			    const char *text, bool failed);
/* Puts back an end recorded before a restart (core/state.h), with the item's state when it
 * ended (NULL: unknown): kept through the item's first read when that read finds the same
 * state, cleared by any other. Left alone when the item already has an end, or its known
 * state is another. */
void store_activity_job_end_restore(struct steno_store *st, enum store_activity_kind kind,
				    const char *id, const char *text, bool failed,
				    const char *state);
/* The scheduler's kind of an activity kind (core/scheduler.h; its state table is
 * scheduler_spec_kind(store_activity_sched_kind(k))). */
enum sched_kind store_activity_sched_kind(enum store_activity_kind k);

/* ---- refreshes in flight: at most one per resource ---- */

/* `key` names a resource: a view key, a transcription id, "order:ID" ... Returns true and
 * marks it when it was not in flight; false when a refresh already runs (or no memory). */
bool store_refresh_begin(struct steno_store *st, const char *key);
void store_refresh_end(struct steno_store *st, const char *key);
bool store_refresh_running(const struct steno_store *st, const char *key);
size_t store_refresh_count(const struct steno_store *st);

#endif
