/* The store fed from the local store on disk (core/store_db.c writes it): a view's last known
 * rows at start, a transcription's details, an activity item; and the walk through the
 * pages that proves which of a view's cached rows the server still lists. */
#include "config.h"
#include "core/store.h"
#include "core/store_internal.h"

#include <stdlib.h>
#include <string.h>

#include "core/localdb.h"
#include "core/store_codec.h"

/* ---- the walk: ids listed since page 1, in order, with a set to skip repeats ---- */

struct store_walk {
	char **ids;
	size_t n, cap;
	struct store_idx set;   /* over ids' strings */
};

void store_walk_free(struct store_walk *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n; i++)
		free(w->ids[i]);
	free(w->ids);
	store_idx_clear(&w->set);
	free(w);
}

/* Adds id unless already walked; false on no memory. */
static bool walk_add(struct store_walk *w, const char *id)
{
	if (store_idx_has(&w->set, id))
		return true;
	if (w->n == w->cap) {
		size_t nc = w->cap ? w->cap * 2 : 128;
		char **ni = realloc(w->ids, nc * sizeof *ni);
		if (!ni)
			return false;
		w->ids = ni;
		w->cap = nc;
	}
	if (!(w->ids[w->n] = strdup(id)))
		return false;
	if (!store_idx_put(&w->set, w->ids[w->n])) {
		free(w->ids[w->n]);
		return false;
	}
	w->n++;
	return true;
}

bool store_walk_page(struct store_view *v, const struct steno_transcription_page *page,
		     bool first)
{
	if (first) {
		store_walk_free(v->walk);
		v->walk = calloc(1, sizeof *v->walk);
	}
	if (!v->walk)
		return false;
	for (size_t i = 0; i < page->n; i++)
		if (page->items[i].id && !walk_add(v->walk, page->items[i].id)) {
			store_walk_free(v->walk);
			v->walk = NULL;
			return false;
		}
	return true;
}

bool store_walk_finish(struct steno_store *st, struct store_view *v)
{
	(void)st;
	struct store_walk *w = v->walk;
	if (!w)
		return false;
	store_view_index_drop(v);
	for (size_t i = 0; i < v->n; i++)
		free(v->ids[i]);
	free(v->ids);
	v->ids = w->ids;
	v->n = w->n;
	v->cap = w->cap;
	w->ids = NULL;
	w->n = 0;
	store_walk_free(w);
	v->walk = NULL;
	v->cached = false;
	v->cache_next = 0;   /* every row is proven: the db's rest is stale */
	v->cache_dirty = false;
	return true;
}

/* ---- filling from the db ---- */

static sqlite3 *db_of(struct steno_store *st)
{
	return localdb_handle(store_localdb(st));
}

/* A record from its stored JSON, unless one is in memory. Times: ms since 1970 -> the
 * caller's clock. */
struct store_transcription *store_fill_record(struct steno_store *st, const char *data,
					      bool detailed, int64_t changed_wall,
					      int64_t read_wall, int64_t now, int64_t wall)
{
	struct steno_transcription t;
	if (store_codec_transcription_read(data, &t, NULL) != 0)
		return NULL;
	struct store_transcription *r = store_rec_find(st, t.id);
	if (r) {
		steno_transcription_free(&t);
		return r;
	}
	char *id = t.id ? strdup(t.id) : NULL;
	bool sc;
	char *old = NULL;
	st->db_loading = true;
	int rc = id ? store_rec_merge(st, &t, detailed, now, &sc, &old, NULL) : -1;
	st->db_loading = false;
	if (!id)
		steno_transcription_free(&t);
	r = rc >= 0 ? store_rec_find(st, id) : NULL;
	if (r) {
		if (changed_wall > 0)
			r->state_changed_ms = now - (wall - changed_wall);
		if (read_wall > 0)
			r->fetched_ms = r->updated_ms = now - (wall - read_wall);
	}
	free(old);
	free(id);
	return r;
}

/* Rows of v's db list from position `from`, at most `max`, appended unless listed (`listed`:
 * a set of v's ids, NULL when v was empty); `fill`: their records read too (what a screen
 * shows first), else the ids alone (the records are read when asked for). Returns the rows
 * added, -1 on error; *next: the position after the last row read, 0 when the list ended. */
static long load_rows(struct steno_store *st, struct store_view *v, long from, long max,
		      const struct store_idx *listed, bool fill, int64_t now, long *next)
{
	sqlite3 *h = db_of(st);
	sqlite3_stmt *s = NULL;
	int64_t wall = store_db_wall_ms(st);
	long n = 0, seen = 0;
	*next = 0;
	if (sqlite3_prepare_v2(h, fill ?
			       "SELECT t.id, t.data, t.detailed, t.state_changed_ms,"
			       " max(coalesce(t.listed_ms, 0), coalesce(t.detail_ms, 0)), vi.pos"
			       " FROM view_items vi JOIN transcriptions t ON t.id = vi.id"
			       " WHERE vi.view = ?1 AND vi.pos >= ?2 ORDER BY vi.pos LIMIT ?3" :
			       "SELECT vi.id, NULL, 0, 0, 0, vi.pos FROM view_items vi"
			       " WHERE vi.view = ?1 AND vi.pos >= ?2 AND EXISTS (SELECT 1 FROM"
			       " transcriptions t WHERE t.id = vi.id) ORDER BY vi.pos LIMIT ?3",
			       -1, &s, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(s, 1, v->key, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, from);
	sqlite3_bind_int64(s, 3, max + 1);   /* one more: whether rows remain */
	store_note_clock(st, now);
	while (sqlite3_step(s) == SQLITE_ROW) {
		if (seen++ == max) {
			*next = (long)sqlite3_column_int64(s, 5);
			break;
		}
		const char *id = (const char *)sqlite3_column_text(s, 0);
		const char *data = (const char *)sqlite3_column_text(s, 1);
		if (!id || (fill && !data) || (listed && store_idx_has(listed, id)))
			continue;
		if (fill)
			store_fill_record(st, data, sqlite3_column_int(s, 2),
					  sqlite3_column_int64(s, 3), sqlite3_column_int64(s, 4),
					  now, wall);
		if ((!fill || store_rec_find(st, id)) && store_view_append(v, id) == 0)
			n++;
	}
	sqlite3_finalize(s);
	return n;
}

long store_view_load_cached(struct steno_store *st, struct store_view *v, int64_t now)
{
	sqlite3 *h = db_of(st);
	if (!h || v->n > 0 || v->pages > 0)
		return 0;
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(h, "SELECT read_ms FROM views WHERE key = ?1", -1, &s, NULL) !=
	    SQLITE_OK)
		return -1;
	sqlite3_bind_text(s, 1, v->key, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_ROW) {
		sqlite3_finalize(s);
		return 0;
	}
	int64_t read_ms = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	long next = 0;
	long n = load_rows(st, v, 0, STORE_CACHE_FIRST, NULL, true, now, &next);
	if (n > 0) {
		v->cached = true;
		v->cached_wall_ms = read_ms;
		v->cache_next = next;
		struct store_event ev = { .what = STORE_WHAT_LIST, .view = v->key };
		store_emit(st, false, &ev);
	}
	return n;
}

bool store_views_cache_pending(const struct steno_store *st)
{
	for (size_t i = 0; i < st->n_views; i++)
		if (st->views[i]->cache_next > 0)
			return true;
	return false;
}

long store_views_load_more(struct steno_store *st, int64_t now, long max)
{
	long total = 0;
	store_trim(st, now);
	for (size_t i = 0; i < st->n_views && total < max; i++) {
		struct store_view *v = st->views[i];
		if (v->cache_next <= 0)
			continue;
		if (!v->cached) {   /* a read of every page replaced the rows: the rest is stale */
			v->cache_next = 0;
			continue;
		}
		/* what is listed now: the rows read so far and what reads listed meanwhile */
		struct store_idx listed = {0};   /* points into v->ids' strings, which stay */
		bool ok = true;
		for (size_t k = 0; ok && k < v->n; k++)
			ok = store_idx_put(&listed, v->ids[k]);
		long next = 0;
		long n = ok ? load_rows(st, v, v->cache_next, max - total, &listed, false, now,
					&next) : -1;
		store_idx_clear(&listed);
		v->cache_next = n < 0 ? 0 : next;
		if (v->cache_next == 0 && v->cache_dirty) {
			v->cache_dirty = false;
			store_db_view(st, v, 0, false);   /* what reads changed meanwhile */
		}
		if (n > 0) {
			total += n;
			struct store_event ev = { .what = STORE_WHAT_LIST, .view = v->key };
			store_emit(st, false, &ev);
		}
	}
	return total;
}

int store_transcription_load_cached(struct steno_store *st, const char *id, int64_t now)
{
	sqlite3 *h = db_of(st);
	sqlite3_stmt *s = NULL;
	if (!h || !id || store_rec_find(st, id) ||
	    sqlite3_prepare_v2(h, "SELECT data, detailed, state_changed_ms,"
			       " max(coalesce(listed_ms, 0), coalesce(detail_ms, 0))"
			       " FROM transcriptions WHERE id = ?1", -1, &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
	int rc = 0;
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0)) {
		store_fill_record(st, (const char *)sqlite3_column_text(s, 0), sqlite3_column_int(s, 1),
			    sqlite3_column_int64(s, 2), sqlite3_column_int64(s, 3), now,
			    store_db_wall_ms(st));
		rc = store_rec_find(st, id) ? 1 : 0;
	}
	sqlite3_finalize(s);
	if (rc) {
		struct store_event ev = { .what = STORE_WHAT_TRANSCRIPTION, .id = id,
					  .keys_changed = true };
		store_emit(st, false, &ev);
	}
	return rc;
}

int store_activity_load_cached(struct steno_store *st, enum store_activity_kind kind,
			       const char *id, int64_t now)
{
	sqlite3 *h = db_of(st);
	sqlite3_stmt *s = NULL;
	const struct store_activity *known = store_activity_find(st, kind, id);
	if (!h || !id || (known && known->state) ||
	    sqlite3_prepare_v2(h, "SELECT data, watched FROM activity WHERE kind = ?1 AND id = ?2",
			       -1, &s, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int(s, 1, (int)kind);
	sqlite3_bind_text(s, 2, id, -1, SQLITE_STATIC);
	int rc = 0;
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0)) {
		const char *data = (const char *)sqlite3_column_text(s, 0);
		size_t len = strlen(data);
		bool watched = sqlite3_column_int(s, 1) || (known && known->watched);
		st->db_loading = true;
		if (kind == STORE_ACT_ORDER) {
			struct steno_order o;
			if (steno_order_parse(data, len, &o, NULL) == 0)
				rc = store_order_put(st, &o, watched, now, NULL) >= 0;
		} else if (kind == STORE_ACT_EXPORT) {
			struct steno_export e;
			if (steno_export_parse(data, len, &e, NULL) == 0)
				rc = store_export_put(st, &e, watched, now, NULL) >= 0;
		} else {
			struct steno_translation_task t;
			if (steno_translation_task_parse(data, len, &t, NULL) == 0)
				rc = store_task_put(st, &t, watched, now, NULL) >= 0;
		}
		st->db_loading = false;
	}
	sqlite3_finalize(s);
	return rc;
}
