#ifndef STENO_CORE_STORE_INTERNAL_H
#define STENO_CORE_STORE_INTERNAL_H

/* Shared by store.c, store_view.c and store_activity.c. Not for others. */

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
};

void store_emit(struct steno_store *st, bool failed, const struct store_event *ev);
struct store_transcription *store_rec_find(const struct steno_store *st, const char *id);
/* Merges or inserts (taking ownership of *t). 1 changed, 0 same, -1 error; *state_changed. */
int store_rec_merge(struct steno_store *st, struct steno_transcription *t, bool detailed,
		    int64_t now, bool *state_changed, struct steno_error *err);
void store_views_free(struct steno_store *st);
void store_views_forget(struct steno_store *st, const char *id);
void store_acts_free(struct steno_store *st);

#endif
