/* The in-memory store written through to the local store on disk (core/localdb.h), and fed
 * from it: every answer the store takes is written in the same call (a page in one
 * transaction), and a view, a transcription or an activity item not yet read in this process
 * can be filled from what an earlier run (or another steno process) read. The store in memory
 * stays the window the ui reads; the file is what outlives the process. A write that fails
 * is told once (store_db_error) and the store goes on in memory. */
#include "config.h"
#include "core/store.h"
#include "core/store_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "core/conf.h"
#include "core/localdb.h"
#include "core/store_list.h"
#include "core/store_codec.h"

enum { S_REC, S_REC_DEL, S_VIEW, S_VITEMS_DEL, S_VITEM, S_ACT, S_REC_GET, S_COUNT };

static const char *const sql[S_COUNT] = {
	[S_REC] = ("INSERT INTO transcriptions(id, org_id, name, state, language, created_ms,"
		  " audio_s, cost_cents, tags, data, detailed, state_changed_ms, listed_ms,"
		  " detail_ms, updated_ms)"
		  " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"
		  " ON CONFLICT(id) DO UPDATE SET org_id = coalesce(excluded.org_id, org_id),"
		  " name = excluded.name, state = excluded.state, language = excluded.language,"
		  " created_ms = excluded.created_ms, audio_s = excluded.audio_s,"
		  " cost_cents = excluded.cost_cents, tags = excluded.tags, data = excluded.data,"
		  " detailed = excluded.detailed, state_changed_ms = excluded.state_changed_ms,"
		  " listed_ms = coalesce(excluded.listed_ms, listed_ms),"
		  " detail_ms = coalesce(excluded.detail_ms, detail_ms),"
		  " updated_ms = excluded.updated_ms"),
	[S_REC_DEL] = ("DELETE FROM transcriptions WHERE id = ?1"),
	[S_VIEW] = ("INSERT INTO views(key, org_id, folder_id, tags, read_ms, full_ms, pages,"
		   " next_url, complete) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
		   " ON CONFLICT(key) DO UPDATE SET read_ms = excluded.read_ms,"
		   " full_ms = coalesce(excluded.full_ms, full_ms), pages = excluded.pages,"
		   " next_url = excluded.next_url, complete = excluded.complete"),
	[S_VITEMS_DEL] = ("DELETE FROM view_items WHERE view = ?1 AND pos >= ?2"),
	[S_VITEM] = ("INSERT OR REPLACE INTO view_items(view, pos, id) VALUES(?1, ?2, ?3)"),
	[S_ACT] = ("INSERT OR REPLACE INTO activity(kind, id, org_id, state, data, watched,"
		  " state_changed_ms, read_ms) VALUES(?1, ?2, NULL, ?3, ?4, ?5, ?6, ?7)"),
	[S_REC_GET] = ("SELECT data, detailed, state_changed_ms,"
		      " max(coalesce(listed_ms, 0), coalesce(detail_ms, 0))"
		      " FROM transcriptions WHERE id = ?1"),
};

/* Ownership: the store's; closes the localdb. */
struct store_db {
	struct localdb *ldb;
	sqlite3_stmt *st[S_COUNT];
	int64_t (*wall)(void *ud);
	void *wall_ud;
	char error[600];      /* the first write that failed ("" none) */
	int64_t attach_wall;  /* when attached: a record read before was read by another run */
	int depth;            /* nested store_db_begin */
	bool in_tx;
};

static int64_t real_wall(void *ud)
{
	(void)ud;
	struct timeval tv;
	gettimeofday(&tv, NULL);
	return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

void store_db_free(struct store_db *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < S_COUNT; i++)
		sqlite3_finalize(d->st[i]);
	localdb_close(d->ldb);
	free(d);
}

int store_attach_db(struct steno_store *st, struct localdb *ldb,
		    int64_t (*wall_ms)(void *ud), void *ud, struct steno_error *err)
{
	struct store_db *d = calloc(1, sizeof *d);
	if (!d) {
		localdb_close(ldb);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	d->ldb = ldb;
	d->wall = wall_ms ? wall_ms : real_wall;
	d->wall_ud = ud;
	d->attach_wall = d->wall(ud);
	for (size_t i = 0; i < S_COUNT; i++)
		if (sqlite3_prepare_v3(localdb_handle(ldb), sql[i], -1, SQLITE_PREPARE_PERSISTENT,
				       &d->st[i], NULL) != SQLITE_OK) {
			localdb_fail(ldb, err, "prepare");
			store_db_free(d);
			return -1;
		}
	if (store_list_register_sql(localdb_handle(ldb)) != 0) {
		localdb_fail(ldb, err, "register the list's SQL functions");
		store_db_free(d);
		return -1;
	}
	store_db_free(st->db);
	st->db = d;
	return 0;
}

int store_open_local(struct steno_store *st, const struct steno_config *cfg,
		     const struct steno_paths *paths, const char *base_url,
		     int64_t (*wall_ms)(void *ud), void *ud, char **notice,
		     struct steno_error *err)
{
	struct localdb_options o = { .cache_dir = paths ? paths->cache_dir : NULL,
				     .base_url = base_url, .off = cfg && cfg->cache_off,
				     .defer_check = true };   /* the browser checks after its first rows */
	struct localdb *db = NULL;
	int rc = localdb_open(&o, &db, notice, err);
	if (rc != 0)
		return rc;
	return store_attach_db(st, db, wall_ms, ud, err);
}

struct localdb *store_localdb(const struct steno_store *st)
{
	return st->db ? st->db->ldb : NULL;
}

const char *store_db_error(const struct steno_store *st)
{
	return st->db && st->db->error[0] ? st->db->error : NULL;
}

int64_t store_db_wall_ms(const struct steno_store *st)
{
	return st->db ? st->db->wall(st->db->wall_ud) : real_wall(NULL);
}

static void note(struct store_db *d, const char *what)
{
	if (!d->error[0])
		snprintf(d->error, sizeof d->error, "local store: %s: %s", what,
			 sqlite3_errmsg(localdb_handle(d->ldb)));
}

/* Steps a bound statement to its end and resets it; false (noted) on failure. */
static bool run(struct store_db *d, sqlite3_stmt *s, const char *what)
{
	int rc = sqlite3_step(s);
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	if (rc == SQLITE_DONE || rc == SQLITE_ROW)
		return true;
	note(d, what);
	return false;
}

void store_db_begin(struct steno_store *st)
{
	struct store_db *d = st->db;
	if (!d || d->depth++ > 0)
		return;
	d->in_tx = sqlite3_exec(localdb_handle(d->ldb), "BEGIN IMMEDIATE", NULL, NULL, NULL) ==
		   SQLITE_OK;
	if (!d->in_tx)
		note(d, "begin");
}

void store_db_commit(struct steno_store *st)
{
	struct store_db *d = st->db;
	if (!d || --d->depth > 0 || !d->in_tx)
		return;
	d->in_tx = false;
	if (sqlite3_exec(localdb_handle(d->ldb), "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		note(d, "commit");
		sqlite3_exec(localdb_handle(d->ldb), "ROLLBACK", NULL, NULL, NULL);
	}
}

static void bind_text(sqlite3_stmt *s, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(s, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(s, i);
}

static void bind_known(sqlite3_stmt *s, int i, bool known, int64_t v)
{
	if (known)
		sqlite3_bind_int64(s, i, v);
	else
		sqlite3_bind_null(s, i);
}

/* Milliseconds of the caller's clock -> wall time, for times kept in memory as the former. */
static int64_t to_wall(const struct store_db *d, int64_t when, int64_t now)
{
	return d->wall(d->wall_ud) - (now - when);
}

void store_db_rec(struct steno_store *st, const struct store_transcription *r, bool listed,
		  int64_t now)
{
	struct store_db *d = st->db;
	if (!d || st->db_loading)
		return;
	char *data = store_codec_transcription(&r->t);
	if (!data) {
		note(d, "out of memory");
		return;
	}
	const struct steno_transcription *t = &r->t;
	char *tags = NULL;
	size_t len = 0;
	for (size_t i = 0; i < t->tags.n; i++)
		len += strlen(t->tags.v[i]) + 1;
	if (len && (tags = malloc(len))) {
		tags[0] = '\0';
		for (size_t i = 0; i < t->tags.n; i++) {
			strcat(tags, t->tags.v[i]);
			if (i + 1 < t->tags.n)
				strcat(tags, ",");
		}
	}
	int64_t wall = d->wall(d->wall_ud);
	sqlite3_stmt *s = d->st[S_REC];
	bind_text(s, 1, t->id);
	bind_text(s, 2, listed ? st->db_org : NULL);
	bind_text(s, 3, t->name);
	bind_text(s, 4, t->state);
	bind_text(s, 5, t->language);
	bind_known(s, 6, steno_known(t->created_at.st), t->created_at.ms);
	bind_known(s, 7, steno_known(t->audio_length_s.st), t->audio_length_s.v);
	bind_known(s, 8, steno_known(t->cost_cents.st), t->cost_cents.v);
	bind_text(s, 9, tags);
	sqlite3_bind_text(s, 10, data, -1, free);
	sqlite3_bind_int(s, 11, r->detailed);
	sqlite3_bind_int64(s, 12, to_wall(d, r->state_changed_ms, now));
	bind_known(s, 13, listed, wall);
	bind_known(s, 14, !listed && r->detailed, wall);
	/* the version the transcript index compares its content with (content_db.h) */
	bind_known(s, 15, t->updated_at.st == STENO_PRESENT, t->updated_at.ms);
	run(d, s, "write a transcription");
	free(tags);
}

void store_db_rec_remove(struct steno_store *st, const char *id)
{
	struct store_db *d = st->db;
	if (!d)
		return;
	bind_text(d->st[S_REC_DEL], 1, id);
	run(d, d->st[S_REC_DEL], "remove a transcription");
}

/* A view's row, and its items from position `from` on (0: all of them again). */
void store_db_view(struct steno_store *st, struct store_view *v, size_t from, bool full)
{
	struct store_db *d = st->db;
	if (!d || st->db_loading)
		return;
	if (v->cache_next > 0) {   /* rows still to come from the db: they are written after */
		v->cache_dirty = true;
		from = v->n;
	}
	store_db_begin(st);
	sqlite3_stmt *s = d->st[S_VIEW];
	int64_t wall = d->wall(d->wall_ud);
	bind_text(s, 1, v->key);
	bind_text(s, 2, v->org_id);
	bind_text(s, 3, v->folder_id);
	bind_text(s, 4, v->tags);
	sqlite3_bind_int64(s, 5, wall);
	bind_known(s, 6, full, wall);
	sqlite3_bind_int64(s, 7, (sqlite3_int64)v->pages);
	bind_text(s, 8, v->next_url);
	sqlite3_bind_int(s, 9, v->end);
	bool ok = run(d, s, "write a view");
	s = d->st[S_VITEMS_DEL];
	bind_text(s, 1, v->key);
	sqlite3_bind_int64(s, 2, (sqlite3_int64)from);
	ok = ok && v->cache_next == 0 && run(d, s, "write a view");
	s = d->st[S_VITEM];
	for (size_t i = from; ok && i < v->n; i++) {
		bind_text(s, 1, v->key);
		sqlite3_bind_int64(s, 2, (sqlite3_int64)i);
		bind_text(s, 3, v->ids[i]);
		ok = run(d, s, "write a view's items");
	}
	store_db_commit(st);
}

bool store_db_trimmable(const struct steno_store *st)
{
	return st->db && !st->db->error[0] && st->db->depth == 0 && !st->db_loading;
}

struct store_transcription *store_db_rec_load(struct steno_store *st, const char *id)
{
	struct store_db *d = st->db;
	struct store_transcription *r = NULL;
	if (!d)
		return NULL;
	sqlite3_stmt *s = d->st[S_REC_GET];
	bind_text(s, 1, id);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0)) {
		int64_t read_wall = sqlite3_column_int64(s, 3);
		int64_t wall = st->clock_wall ? st->clock_wall : d->wall(d->wall_ud);
		r = store_fill_record(st, (const char *)sqlite3_column_text(s, 0),
				      sqlite3_column_int(s, 1), sqlite3_column_int64(s, 2),
				      read_wall, st->clock_now, wall);
		if (r)   /* read by this process already, or only by an earlier run */
			r->cached = read_wall < d->attach_wall;
	}
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	return r;
}

void store_db_act(struct steno_store *st, const struct store_activity *a, int64_t now)
{
	struct store_db *d = st->db;
	if (!d || st->db_loading || !a->state)   /* a row with its id alone tells nothing */
		return;
	char *data = a->kind == STORE_ACT_ORDER ? store_codec_order(&a->order)
		     : a->kind == STORE_ACT_EXPORT ? store_codec_export(&a->export_)
		     : store_codec_task(&a->task);
	if (!data) {
		note(d, "out of memory");
		return;
	}
	sqlite3_stmt *s = d->st[S_ACT];
	sqlite3_bind_int(s, 1, (int)a->kind);
	bind_text(s, 2, a->id);
	bind_text(s, 3, a->state);
	sqlite3_bind_text(s, 4, data, -1, free);
	sqlite3_bind_int(s, 5, a->watched);
	sqlite3_bind_int64(s, 6, to_wall(d, a->state_changed_ms, now));
	sqlite3_bind_int64(s, 7, d->wall(d->wall_ud));
	run(d, s, "write an activity item");
}

int store_answer_put(struct steno_store *st, const char *key, const char *body)
{
	struct store_db *d = st->db;
	sqlite3_stmt *s = NULL;
	if (!d || !body)
		return -1;
	if (sqlite3_prepare_v2(localdb_handle(d->ldb),
			       "INSERT OR REPLACE INTO answers(key, body, read_ms) VALUES(?1, ?2, ?3)",
			       -1, &s, NULL) != SQLITE_OK) {
		note(d, "write an answer");
		return -1;
	}
	bind_text(s, 1, key);
	bind_text(s, 2, body);
	sqlite3_bind_int64(s, 3, d->wall(d->wall_ud));
	bool ok = run(d, s, "write an answer");
	sqlite3_finalize(s);
	return ok ? 0 : -1;
}

char *store_answer_get(struct steno_store *st, const char *key, int64_t *read_ms)
{
	struct store_db *d = st->db;
	sqlite3_stmt *s = NULL;
	char *body = NULL;
	if (!d || sqlite3_prepare_v2(localdb_handle(d->ldb),
				     "SELECT body, read_ms FROM answers WHERE key = ?1", -1, &s,
				     NULL) != SQLITE_OK)
		return NULL;
	bind_text(s, 1, key);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0)) {
		body = strdup((const char *)sqlite3_column_text(s, 0));
		if (read_ms)
			*read_ms = sqlite3_column_int64(s, 1);
	}
	sqlite3_finalize(s);
	return body;
}
