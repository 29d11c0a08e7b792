#ifndef STENO_CORE_STORE_INTERNAL_H
#define STENO_CORE_STORE_INTERNAL_H

/* Shared by the store's files (store*.c). Not for others. */

#include "core/store.h"

struct store_listener {
	int id;
	store_listener_fn changed, failed;
	void *user;
};

/* Ownership: everything malloc'd, freed by store_free. */
struct steno_store {
	struct store_transcription **slots;  /* open addressing by id, linear probing */
	size_t n_slots, n_recs;
	struct store_view **views;
	size_t n_views;
	struct store_activity **acts;
	size_t n_acts;
	struct store_listener *listeners;
	size_t n_listeners;
	int next_listener;
	char **inflight;
	size_t n_inflight;
	long page_limit;   /* of every view's pager; 0: its default */
	struct store_db *db;      /* the local store written through (NULL: memory only) */
	const char *db_org;       /* the organization of the page being merged, else NULL */
	bool db_loading;          /* filling from the db: nothing is written back */
	uint64_t use_clock;       /* struct store_transcription.used */
	int64_t clock_now, clock_wall;   /* the caller's clock and the wall time at the last
					  * page or put (records read back use them) */
	bool merge_keyed;         /* the last store_rec_merge changed a field lists sort or filter
				   * on, or made a record (store_event.keys_changed) */
};

void store_emit(struct steno_store *st, bool failed, const struct store_event *ev);
/* FNV-1a of an id (the record table's, the walk's). */
size_t store_hash_id(const char *s);
/* The record held in memory, NULL when not held. */
struct store_transcription *store_rec_find(const struct steno_store *st, const char *id);
/* The record, read back from the db when not held but listed in a view (or in a view's
 * prev_ids): NULL when unknown. Marks it used. */
struct store_transcription *store_rec_get(const struct steno_store *st, const char *id);
/* Some view lists id (or listed it before its page 1 came again). */
bool store_listed(const struct steno_store *st, const char *id);
/* Notes the caller's clock against the wall's (struct steno_store.clock_now). */
void store_note_clock(struct steno_store *st, int64_t now);
/* Merges or inserts (taking ownership of *t). 1 changed, 0 same, -1 error; *state_changed,
 * and *old_state: a malloc'd copy of the state it had before a change (NULL when none; the
 * caller frees it). */
int store_rec_merge(struct steno_store *st, struct steno_transcription *t, bool detailed,
		    int64_t now, bool *state_changed, char **old_state, struct steno_error *err);
void store_views_free(struct steno_store *st);
void store_views_forget(struct steno_store *st, const char *id);
void store_acts_free(struct steno_store *st);
/* A set of ids: open addressing over pointers to strings someone else owns (a view's ids,
 * a walk's). Ownership: set freed by store_idx_clear. */
struct store_idx {
	const char **set;
	size_t cap, n;
};
bool store_idx_put(struct store_idx *x, const char *id);   /* false: no memory */
bool store_idx_has(const struct store_idx *x, const char *id);
void store_idx_clear(struct store_idx *x);
int store_view_append(struct store_view *v, const char *id);
/* Forgets v's prev_ids (core/store.h). */
void store_view_prev_drop(struct store_view *v);
/* Forgets v's index of its ids (they are about to change). */
void store_view_index_drop(struct store_view *v);
/* core/store_cache.c: the walk that proves a cached view (struct store_view.walk).
 * store_walk_page adds a page's ids (first: a new walk); false on no memory (the walk is
 * dropped). store_walk_finish, once the walk reached the end: the view's ids become the
 * walk's (server order, unlisted rows gone), not cached any more; true when it did. */
bool store_walk_page(struct store_view *v, const struct steno_transcription_page *page,
		     bool first);
bool store_walk_finish(struct steno_store *st, struct store_view *v);
void store_walk_free(struct store_walk *w);
/* A record from its stored JSON (unless one is held), times since 1970 turned into the
 * caller's clock `now` taken at `wall`; the record, NULL when none. */
struct store_transcription *store_fill_record(struct steno_store *st, const char *data,
					      bool detailed, int64_t changed_wall,
					      int64_t read_wall, int64_t now, int64_t wall);

/* core/store_db.c: the write-through (no-ops without a db or while loading from it) */
struct store_db;
void store_db_free(struct store_db *d);
void store_db_begin(struct steno_store *st);
void store_db_commit(struct steno_store *st);
void store_db_rec(struct steno_store *st, const struct store_transcription *r, bool listed,
		  int64_t now);
void store_db_rec_remove(struct steno_store *st, const char *id);
/* the view's row and its items from position `from` on; full: a read of every page ended */
void store_db_view(struct steno_store *st, struct store_view *v, size_t from, bool full);
void store_db_act(struct steno_store *st, const struct store_activity *a, int64_t now);
/* Reads the record of id back from the db (held from then on); NULL when not there. */
struct store_transcription *store_db_rec_load(struct steno_store *st, const char *id);
/* Records may be let go of: a db, no write failed, no transaction open, not filling. */
bool store_db_trimmable(const struct steno_store *st);

#endif
