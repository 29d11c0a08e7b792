#include "config.h"
#include "core/store.h"
#include "core/store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void view_free(struct store_view *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++)
		free(v->ids[i]);
	free(v->ids);
	free(v->key);
	free(v->org_id);
	free(v->folder_id);
	free(v->tags);
	free(v->next_url);
	steno_pager_free(&v->pager);
	store_walk_free(v->walk);
	store_view_index_drop(v);
	store_view_prev_drop(v);
	free(v);
}

void store_set_page_limit(struct steno_store *st, long pages)
{
	st->page_limit = pages;
}

void store_views_free(struct steno_store *st)
{
	for (size_t i = 0; i < st->n_views; i++)
		view_free(st->views[i]);
	free(st->views);
	st->views = NULL;
	st->n_views = 0;
}

static char *view_key(const char *org, const char *folder, const char *tags)
{
	size_t n = strlen(org ? org : "") + strlen(folder ? folder : "") + strlen(tags ? tags : "") + 3;
	char *k = malloc(n);
	if (k)
		snprintf(k, n, "%s/%s?%s", org ? org : "", folder ? folder : "", tags ? tags : "");
	return k;
}

static char *dup_opt(const char *s, bool *fail)
{
	if (!s || !s[0])
		return NULL;
	char *d = strdup(s);
	if (!d)
		*fail = true;
	return d;
}

static int view_reset(const struct steno_store *st, struct store_view *v);

struct store_view *store_view_get(struct steno_store *st, const char *org_id,
				  const char *folder_id, const char *tags, bool create)
{
	char *key = view_key(org_id, folder_id, tags);
	if (!key)
		return NULL;
	for (size_t i = 0; i < st->n_views; i++)
		if (strcmp(st->views[i]->key, key) == 0) {
			free(key);
			return st->views[i];
		}
	struct store_view *v = create ? calloc(1, sizeof(*v)) : NULL;
	struct store_view **vs = v ? realloc(st->views, (st->n_views + 1) * sizeof(*vs)) : NULL;
	bool fail = !vs;
	if (vs)
		st->views = vs;
	if (v) {
		v->key = key;
		key = NULL;
		v->org_id = dup_opt(org_id, &fail);
		v->folder_id = dup_opt(folder_id, &fail);
		v->tags = dup_opt(tags, &fail);
		fail = fail || view_reset(st, v) != 0;
	}
	free(key);
	if (fail) {
		view_free(v);
		return NULL;
	}
	if (v)
		st->views[st->n_views++] = v;
	return v;
}

void store_views_forget(struct steno_store *st, const char *id)
{
	for (size_t i = 0; i < st->n_views; i++) {
		struct store_view *v = st->views[i];
		for (size_t j = 0; j < v->n; j++)
			if (strcmp(v->ids[j], id) == 0) {
				store_view_index_drop(v);
				free(v->ids[j]);
				memmove(&v->ids[j], &v->ids[j + 1], (v->n - j - 1) * sizeof(char *));
				v->n--;
				store_db_view(st, v, j, false);
				struct store_event ev = { .what = STORE_WHAT_LIST, .view = v->key };
				store_emit(st, false, &ev);
				break;
			}
	}
}

static bool ids_have(char *const *ids, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(ids[i], id) == 0)
			return true;
	return false;
}

/* ---- the index of a long list's ids: a page of 100 checked against 100,000 rows in
 * constant time each, not by a scan (which made reading every page quadratic) ---- */

#define IDX_MIN_ROWS 64

void store_idx_clear(struct store_idx *x)
{
	free(x->set);
	memset(x, 0, sizeof *x);
}

void store_view_index_drop(struct store_view *v)
{
	if (v->idx) {
		store_idx_clear(v->idx);
		free(v->idx);
		v->idx = NULL;
	}
}

bool store_idx_put(struct store_idx *x, const char *id)
{
	if ((x->n + 1) * 2 >= x->cap) {
		size_t nc = x->cap ? x->cap * 2 : 256;
		const char **ns = calloc(nc, sizeof *ns);
		if (!ns)
			return false;
		for (size_t i = 0; i < x->cap; i++)
			if (x->set[i]) {
				size_t j = store_hash_id(x->set[i]) & (nc - 1);
				while (ns[j])
					j = (j + 1) & (nc - 1);
				ns[j] = x->set[i];
			}
		free(x->set);
		x->set = ns;
		x->cap = nc;
	}
	size_t j = store_hash_id(id) & (x->cap - 1);
	while (x->set[j])
		j = (j + 1) & (x->cap - 1);
	x->set[j] = id;
	x->n++;
	return true;
}

bool store_idx_has(const struct store_idx *x, const char *id)
{
	if (!x->cap)
		return false;
	size_t mask = x->cap - 1;
	for (size_t j = store_hash_id(id) & mask; x->set[j]; j = (j + 1) & mask)
		if (strcmp(x->set[j], id) == 0)
			return true;
	return false;
}

static bool idx_build(struct store_view *v)
{
	if (!(v->idx = calloc(1, sizeof *v->idx)))
		return false;
	for (size_t i = 0; i < v->n; i++)
		if (!store_idx_put(v->idx, v->ids[i])) {
			store_view_index_drop(v);
			return false;
		}
	return true;
}

static bool view_has(struct store_view *v, const char *id)
{
	if (!v->idx && (v->n < IDX_MIN_ROWS || !idx_build(v)))
		return ids_have(v->ids, v->n, id);
	return store_idx_has(v->idx, id);
}

static bool idx_has_or_scan(struct store_idx **x, char *const *ids, size_t n, const char *id)
{
	if (!*x && n >= IDX_MIN_ROWS && (*x = calloc(1, sizeof **x))) {
		for (size_t i = 0; i < n; i++)
			if (!store_idx_put(*x, ids[i])) {
				store_idx_clear(*x);
				free(*x);
				*x = NULL;
				break;
			}
	}
	return *x ? store_idx_has(*x, id) : ids_have(ids, n, id);
}

void store_view_prev_drop(struct store_view *v)
{
	for (size_t i = 0; i < v->prev_n; i++)
		free(v->prev_ids[i]);
	free(v->prev_ids);
	v->prev_ids = NULL;
	v->prev_n = 0;
	if (v->prev_idx) {
		store_idx_clear(v->prev_idx);
		free(v->prev_idx);
		v->prev_idx = NULL;
	}
}

/* The ids listed become prev_ids (with their index); the list is empty. */
static void view_to_prev(struct store_view *v)
{
	store_view_prev_drop(v);
	v->prev_ids = v->ids;
	v->prev_n = v->n;
	v->prev_idx = v->idx;
	v->ids = NULL;
	v->idx = NULL;
	v->n = v->cap = 0;
}

bool store_listed(const struct steno_store *st, const char *id)
{
	for (size_t i = 0; i < st->n_views; i++) {
		struct store_view *v = st->views[i];
		if (view_has(v, id) ||
		    (v->prev_n && idx_has_or_scan(&v->prev_idx, v->prev_ids, v->prev_n, id)))
			return true;
	}
	return false;
}

int store_view_append(struct store_view *v, const char *id)
{
	if (v->n == v->cap) {
		size_t nc = v->cap ? v->cap * 2 : 32;
		char **ni = realloc(v->ids, nc * sizeof(*ni));
		if (!ni)
			return -1;
		v->ids = ni;
		v->cap = nc;
	}
	if (!(v->ids[v->n] = strdup(id)))
		return -1;
	v->n++;
	if (v->idx && !store_idx_put(v->idx, v->ids[v->n - 1]))
		store_view_index_drop(v);
	return 0;
}

/* A fresh walk: the view's org, folder and tags are what every next link must keep. */
static int view_reset(const struct steno_store *st, struct store_view *v)
{
	view_to_prev(v);   /* their records stay known until the read reaches the end */
	v->pages = 0;
	v->end = false;
	free(v->next_url);
	v->next_url = NULL;
	steno_pager_free(&v->pager);
	steno_pager_init(&v->pager, st->page_limit);
	return steno_pager_keep(&v->pager, "organization_id", v->org_id) ||
	       steno_pager_keep(&v->pager, "folder_id", v->folder_id) ||
	       steno_pager_keep(&v->pager, "tags", v->tags) ? -1 : 0;
}

/* Merges one list item and lists it; 1 when the list or the record changed. */
static int page_item(struct steno_store *st, struct store_view *v, struct steno_transcription *t,
		     int64_t now, bool *listed_new, struct steno_error *err)
{
	char *id = t->id ? strdup(t->id) : NULL;
	if (!id) {
		steno_transcription_free(t);
		return 0; /* an item without id cannot be shown or refreshed: skipped */
	}
	bool state_changed;
	char *old_state;
	int rc = store_rec_merge(st, t, false, now, &state_changed, &old_state, err);
	if (rc >= 0 && !view_has(v, id)) {
		if (store_view_append(v, id) != 0)
			rc = steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		else
			*listed_new = true;
	}
	if (rc == 1) {
		struct store_event ev = { .what = STORE_WHAT_TRANSCRIPTION, .id = id,
					  .state_changed = state_changed, .old_state = old_state,
					  .keys_changed = st->merge_keyed };
		store_emit(st, false, &ev);
	}
	free(old_state);
	free(id);
	return rc;
}

bool store_view_stopped(const struct store_view *v)
{
	return v->has_error && (!strcmp(v->error.code, STENO_CODE_PAGE_LIMIT) ||
				!strcmp(v->error.code, STENO_CODE_PAGE_LOOP));
}

static int cached_first_page(struct steno_store *st, struct store_view *v,
			     struct steno_transcription_page *page, int64_t now,
			     struct steno_error *err);

static int add_page(struct steno_store *st, struct store_view *v,
		    struct steno_transcription_page *page, bool first, int64_t now,
		    struct steno_error *err)
{
	if (first && v->cached)
		return cached_first_page(st, v, page, now, err);
	bool walking = !first && v->walk && store_walk_page(v, page, false);
	size_t old_n = v->n;
	bool changed = first ? (v->n > 0 || v->has_error) : false;
	int rc = 0;
	if (first) {
		if (view_reset(st, v) != 0)
			rc = steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		old_n = 0;
	}
	bool listed_new = false;
	for (size_t i = 0; i < page->n && rc >= 0; i++)
		rc = page_item(st, v, &page->items[i], now, &listed_new, err);
	bool was_end = v->end;
	free(v->next_url);
	v->next_url = NULL;
	v->has_error = false;
	struct steno_error perr;
	steno_error_clear(&perr);
	if (rc >= 0 && page->n > 0 &&
	    steno_pager_next(&v->pager, page->next_url, &v->next_url, &perr) < 0) {
		/* endless or looping next links: the list ends here and says why */
		v->has_error = true;
		v->error = perr;
		if (err)
			*err = perr;
		rc = -1;
	}
	v->end = !v->next_url;
	v->pages++;
	v->loaded_ms = now;
	steno_transcription_page_free(page);
	bool proven = walking && v->end && rc >= 0 && store_walk_finish(st, v);
	if (v->end)   /* the read reached the end: what it did not list is not known by it */
		store_view_prev_drop(v);
	changed = changed || listed_new || v->n != old_n || v->end != was_end || first || proven;
	store_db_view(st, v, first || proven ? 0 : old_n, v->end && rc >= 0);
	struct store_event ev = { .what = STORE_WHAT_LIST, .view = v->key };
	if (changed)
		store_emit(st, false, &ev);
	return rc < 0 ? -1 : (changed ? 1 : 0);
}

int store_view_add_page(struct steno_store *st, struct store_view *v,
			struct steno_transcription_page *page, bool first, int64_t now,
			struct steno_error *err)
{
	store_trim(st, now);
	store_db_begin(st);
	st->db_org = v->org_id ? v->org_id : "";
	int rc = add_page(st, v, page, first, now, err);
	st->db_org = NULL;
	store_db_commit(st);
	return rc;
}

/* The ids of `old` that stay after a fresh page 1 whose items are already in v: those below
 * the lowest-placed old item the page still lists (pushed down by newer ones); those above it
 * that the page no longer lists are gone. An empty page 1 leaves nothing. */
static int merge_tail(struct store_view *v, char **old, size_t n_old, size_t page_n)
{
	size_t last = 0;
	bool seen = false;

	for (size_t i = 0; i < n_old; i++)
		if (view_has(v, old[i])) {
			last = i;
			seen = true;
		}
	for (size_t i = seen ? last + 1 : 0; page_n > 0 && i < n_old; i++)
		if (!view_has(v, old[i]) && store_view_append(v, old[i]) != 0)
			return -1;
	return 0;
}

static int merge_head(struct steno_store *st, struct store_view *v,
		      struct steno_transcription_page *page, int64_t now, struct steno_error *err)
{
	/* the ids listed so far stay known (prev_ids) while the page merges into a new list */
	view_to_prev(v);
	char **old = v->prev_ids;
	size_t n_old = v->prev_n;
	int rc = 0;
	bool listed_new = false, changed = false;

	for (size_t i = 0; i < page->n && rc >= 0; i++) {
		struct steno_transcription *t = &page->items[i];
		bool fresh = t->id && !idx_has_or_scan(&v->prev_idx, old, n_old, t->id);
		char *id = t->id ? strdup(t->id) : NULL;
		int m = page_item(st, v, t, now, &listed_new, err);
		if (m < 0)
			rc = -1;
		struct store_transcription *r = id ? store_rec_find(st, id) : NULL;
		if (r && (fresh || m == 1)) {
			r->live_ms = now;   /* the ui marks it for a moment */
			changed = true;
		}
		free(id);
	}
	if (rc >= 0 && merge_tail(v, old, n_old, page->n) < 0)
		rc = steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	changed = changed || v->n != n_old;
	for (size_t i = 0; !changed && i < n_old; i++)
		changed = i >= v->n || strcmp(old[i], v->ids[i]) != 0;
	store_view_prev_drop(v);
	if (page->n == 0) {
		/* nothing left at all */
		free(v->next_url);
		v->next_url = NULL;
		v->end = true;
	} else if (v->pages <= 1) {
		free(v->next_url);
		v->next_url = page->next_url;
		page->next_url = NULL;
		v->end = !v->next_url;
	}
	if (!v->pages)
		v->pages = 1;
	/* a walk stopped at page_limit or by a looping link stays stopped (and says so) */
	if (!store_view_stopped(v)) {
		changed = changed || v->has_error;
		v->has_error = false;
	}
	v->loaded_ms = now;
	steno_transcription_page_free(page);
	store_db_view(st, v, changed ? 0 : v->n, v->end && v->pages <= 1);
	struct store_event ev = { .what = STORE_WHAT_LIST, .view = v->key };
	if (changed)
		store_emit(st, false, &ev);
	return rc < 0 ? -1 : (changed ? 1 : 0);
}

int store_view_merge_head(struct steno_store *st, struct store_view *v,
			  struct steno_transcription_page *page, int64_t now,
			  struct steno_error *err)
{
	store_trim(st, now);
	store_db_begin(st);
	st->db_org = v->org_id ? v->org_id : "";
	int rc = merge_head(st, v, page, now, err);
	st->db_org = NULL;
	store_db_commit(st);
	return rc;
}

/* Page 1 of a view filled from the db: merged like a live re-read (its rows first, the rows
 * it no longer lists within its own range gone, the rest kept), and the walk that will prove
 * the rest begins. A page 1 with no next link is the whole list. */
static int cached_first_page(struct steno_store *st, struct store_view *v,
			     struct steno_transcription_page *page, int64_t now,
			     struct steno_error *err)
{
	v->pages = 0;
	if (!store_walk_page(v, page, true)) {
		steno_transcription_page_free(page);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	int rc = merge_head(st, v, page, now, err);
	if (rc >= 0 && v->end && store_walk_finish(st, v)) {
		store_db_view(st, v, 0, true);
		struct store_event ev = { .what = STORE_WHAT_LIST, .view = v->key };
		store_emit(st, false, &ev);
		rc = 1;
	}
	return rc;
}

void store_view_failed(struct steno_store *st, struct store_view *v, const struct steno_error *e)
{
	v->has_error = true;
	if (e)
		v->error = *e;
	struct store_event ev = { .what = STORE_WHAT_LIST, .view = v->key, .error = e };
	store_emit(st, true, &ev);
}

const struct store_transcription *store_view_item(const struct steno_store *st,
						  const struct store_view *v, size_t i)
{
	return i < v->n ? store_rec_get(st, v->ids[i]) : NULL;
}

const struct store_transcription *store_view_item_held(const struct steno_store *st,
						       const struct store_view *v, size_t i)
{
	return i < v->n ? store_rec_find(st, v->ids[i]) : NULL;
}
