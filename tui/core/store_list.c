/* The list a screen shows, read a row at a time (core/store_list.h): the view as it is, the
 * filter and the sort run in SQLite over the local store for a long list, or the in-memory
 * selection for a short one. */
#include "config.h"
#include "core/store_list.h"
#include "core/store_internal.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/localdb.h"
#include "core/query.h"

enum list_how { L_EMPTY, L_VIEW, L_MEM, L_SQL };

struct store_list {
	enum list_how how;
	const struct store_view *v;   /* the store's; views live as long as the store */
	bool desc;                    /* L_VIEW: row i is item n-1-i */
	long n;
	size_t *rows;                 /* L_MEM: indices into v */
	char table[40];               /* L_SQL: temp.steno_list_N (rank INTEGER PRIMARY KEY, id) */
	bool made;                    /* ... exists in the connection */
	char **win;                   /* L_SQL: ids of rows [win_off, win_off + win_n) */
	long win_off, win_n;
};

static long sql_min = 2000;

long store_list_sql_min(void)
{
	return sql_min;
}

void store_list_set_sql_min(long rows)
{
	sql_min = rows < 0 ? 0 : rows;
}

struct store_list *store_list_new(void)
{
	static unsigned serial;
	struct store_list *l = calloc(1, sizeof *l);
	if (l)
		snprintf(l->table, sizeof l->table, "steno_list_%u", ++serial);
	return l;
}

static void win_drop(struct store_list *l)
{
	for (long i = 0; i < l->win_n; i++)
		free(l->win[i]);
	free(l->win);
	l->win = NULL;
	l->win_off = l->win_n = 0;
}

static sqlite3 *handle(struct steno_store *st)
{
	return localdb_handle(store_localdb(st));
}

static void clear(struct store_list *l)
{
	win_drop(l);
	free(l->rows);
	l->rows = NULL;
	l->n = 0;
	l->how = L_EMPTY;
	l->v = NULL;
}

void store_list_free(struct steno_store *st, struct store_list *l)
{
	if (!l)
		return;
	clear(l);
	if (l->made && st && handle(st)) {
		char sql[80];
		snprintf(sql, sizeof sql, "DROP TABLE IF EXISTS temp.%s", l->table);
		sqlite3_exec(handle(st), sql, NULL, NULL, NULL);
	}
	free(l);
}

long store_list_count(const struct store_list *l)
{
	return l->n;
}

bool store_list_in_sql(const struct store_list *l)
{
	return l->how == L_SQL;
}

/* ---- SQL: the functions the selection calls ---- */

/* Splits "a,b,c" (the tags column) into v (pointers into buf, a copy); the count. */
static size_t split_tags(const char *s, int len, char *buf, size_t size, const char **v,
			 size_t max)
{
	size_t n = 0;
	if (!s || len < 0 || (size_t)len >= size)
		return 0;
	memcpy(buf, s, (size_t)len);
	buf[len] = '\0';
	for (char *p = buf; n < max;) {
		v[n++] = p;
		char *c = strchr(p, ',');
		if (!c)
			break;
		*c = '\0';
		p = c + 1;
	}
	return n;
}

#define TAGS_MAX 64
#define TEXT_MAX 4096

/* steno_match(QUERY, id, name, state, language, tags, cost_cents): query_match over the
 * columns (QUERY a pointer bound as "steno_query"). */
static void fn_match(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
	(void)argc;
	const struct query *q = sqlite3_value_pointer(argv[0], "steno_query");
	static char buf[TEXT_MAX];
	const char *tags[TAGS_MAX];
	if (!q) {
		sqlite3_result_int(cx, 1);
		return;
	}
	struct query_item it = {
		.id = (const char *)sqlite3_value_text(argv[1]),
		.name = (const char *)sqlite3_value_text(argv[2]),
		.state = (const char *)sqlite3_value_text(argv[3]),
		.language = (const char *)sqlite3_value_text(argv[4]),
		.tags = tags,
		.has_cost = sqlite3_value_type(argv[6]) != SQLITE_NULL,
		.cost_cents = sqlite3_value_int64(argv[6]),
	};
	const char *t = (const char *)sqlite3_value_text(argv[5]);
	it.n_tags = t ? split_tags(t, sqlite3_value_bytes(argv[5]), buf, sizeof buf, tags,
				   TAGS_MAX) : 0;
	sqlite3_result_int(cx, query_match(q, &it));
}

int store_list_register_sql(sqlite3 *db)
{
	return sqlite3_create_function(db, "steno_match", 7, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
				       NULL, fn_match, NULL, NULL) ? -1 : 0;
}

/* ---- SQL: the selection ---- */

/* What a sort orders by (the expressions of the indexes of core/localdb_schema.c, v4, for
 * name and created), and what breaks natural order's ties (its bytes); NULL: server order. */
static const char *key_of(enum store_sort s, const char **tie)
{
	*tie = NULL;
	switch (s) {
	case STORE_SORT_NAME: *tie = "t.name"; return "natsort_key(t.name)";
	case STORE_SORT_STATE: *tie = "t.state"; return "natsort_key(t.state)";
	case STORE_SORT_LANGUAGE: *tie = "t.language"; return "natsort_key(t.language)";
	case STORE_SORT_TAGS: return "tags_key(t.tags)";
	case STORE_SORT_CREATED: return "t.created_ms";
	case STORE_SORT_LENGTH: return "t.audio_s";
	case STORE_SORT_COST: return "t.cost_cents";
	case STORE_SORT_SERVER: break;
	}
	return NULL;
}

static bool run_sql(sqlite3 *h, const char *sql)
{
	return sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK;
}

/* The rows of the view written in the db, -1 on error. */
static long db_rows(sqlite3 *h, const struct store_view *v)
{
	sqlite3_stmt *s = NULL;
	long n = -1;
	if (sqlite3_prepare_v2(h, "SELECT count(*) FROM view_items WHERE view = ?1", -1, &s,
			       NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(s, 1, v->key, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = (long)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* Appends the rows of one SELECT to the temp table; the rows added, -1 on error. */
static long sql_append(sqlite3 *h, struct store_list *l, const char *select,
		       const struct store_view *v, const struct store_query *q)
{
	char sql[900];
	sqlite3_stmt *s = NULL;
	long n = -1;
	snprintf(sql, sizeof sql, "INSERT INTO temp.%s(id) %s", l->table, select);
	if (sqlite3_prepare_v2(h, sql, -1, &s, NULL) == SQLITE_OK) {
		sqlite3_bind_text(s, 1, v->key, -1, SQLITE_STATIC);
		if (q->where)
			sqlite3_bind_pointer(s, 2, (void *)(uintptr_t)q->where, "steno_query", NULL);
		sqlite3_bind_text(s, 3, v->org_id ? v->org_id : "", -1, SQLITE_STATIC);
		if (sqlite3_step(s) == SQLITE_DONE)
			n = sqlite3_changes(h);
	}
	sqlite3_finalize(s);
	return n;
}

/* Fills the temp table with the ranked ids; the count, -1 on error. A sort key reads the
 * organization's transcriptions in the order of its index, those without a value after,
 * in server order; ties in server order. */
static long sql_select(sqlite3 *h, struct store_list *l, const struct store_view *v,
		       const struct store_query *q)
{
	static const char match[] = " AND steno_match(?2, t.id, t.name, t.state, t.language,"
				    " t.tags, t.cost_cents)";
	const char *tie, *where = q->where ? match : "", *key = key_of(q->sort, &tie);
	const char *desc = q->descending ? " DESC" : "";
	char ties[40] = "";
	if (tie)
		snprintf(ties, sizeof ties, ", %s%s", tie, desc);
	char sql[900];
	snprintf(sql, sizeof sql, "CREATE TEMP TABLE IF NOT EXISTS %s(rank INTEGER PRIMARY KEY,"
		 " id TEXT NOT NULL)", l->table);
	if (!run_sql(h, sql))
		return -1;
	l->made = true;
	if (!run_sql(h, "SAVEPOINT steno_list"))
		return -1;
	snprintf(sql, sizeof sql, "DELETE FROM temp.%s", l->table);
	long n = run_sql(h, sql) ? 0 : -1, m = 0;
	if (n == 0 && key) {
		snprintf(sql, sizeof sql, "SELECT vi.id FROM main.transcriptions t CROSS JOIN"
			 " main.view_items vi ON vi.id = t.id AND vi.view = ?1 WHERE t.org_id = ?3"
			 " AND %s IS NOT NULL%s ORDER BY %s%s%s, vi.pos", key, where, key, desc, ties);
		n = sql_append(h, l, sql, v, q);
	}
	if (n >= 0) {
		char nulls[120] = "";
		if (key)
			snprintf(nulls, sizeof nulls, " AND %s IS NULL", key);
		snprintf(sql, sizeof sql, "SELECT vi.id FROM main.view_items vi JOIN"
			 " main.transcriptions t ON t.id = vi.id WHERE vi.view = ?1%s%s"
			 " ORDER BY vi.pos%s", nulls, where, key ? "" : desc);
		m = sql_append(h, l, sql, v, q);
		n = m < 0 ? -1 : n + m;
	}
	run_sql(h, n >= 0 ? "RELEASE steno_list" : "ROLLBACK TO steno_list");
	if (n < 0)
		run_sql(h, "RELEASE steno_list");
	return n;
}

/* Whether v's selection runs in SQL: long enough, every row written in the db as it is in
 * memory (no write failed, no rows still coming from the db, the same count). */
static bool sql_fits(struct steno_store *st, const struct store_view *v)
{
	sqlite3 *h = handle(st);
	return h && !store_db_error(st) && (long)v->n >= sql_min && v->cache_next == 0 &&
	       !v->cache_dirty && db_rows(h, v) == (long)v->n;
}

long store_list_update(struct steno_store *st, struct store_list *l, const struct store_view *v,
		       const struct store_query *q)
{
	static const struct store_query all = { 0 };
	if (!q)
		q = &all;
	clear(l);
	if (!v)
		return 0;
	l->v = v;
	if (!q->where && q->sort == STORE_SORT_SERVER) {
		l->how = L_VIEW;
		l->desc = q->descending;
		l->n = (long)v->n;
		return l->n;
	}
	if (sql_fits(st, v)) {
		long n = sql_select(handle(st), l, v, q);
		/* every row, unless a row's organization is not the view's in the db */
		if (n >= 0 && (q->where || n == (long)v->n)) {
			l->how = L_SQL;
			l->n = n;
			return n;
		}
	}
	long n = store_view_select(st, v, q, &l->rows);
	if (n < 0) {
		l->rows = NULL;
		return -1;
	}
	l->how = L_MEM;
	l->n = n;
	return n;
}

/* Reads the window of ids around row i; false on error. */
static bool win_read(struct steno_store *st, struct store_list *l, long i)
{
	char sql[160];
	sqlite3_stmt *s = NULL;
	long off = i - STORE_LIST_WINDOW / 4;
	if (off < 0)
		off = 0;
	win_drop(l);
	if (!(l->win = calloc(STORE_LIST_WINDOW, sizeof *l->win)))
		return false;
	snprintf(sql, sizeof sql, "SELECT id FROM temp.%s WHERE rank > ?1 ORDER BY rank LIMIT ?2",
		 l->table);
	if (sqlite3_prepare_v2(handle(st), sql, -1, &s, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_int64(s, 1, off);
	sqlite3_bind_int(s, 2, STORE_LIST_WINDOW);
	l->win_off = off;
	while (l->win_n < STORE_LIST_WINDOW && sqlite3_step(s) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(s, 0);
		if (!(l->win[l->win_n] = strdup(id ? id : "")))
			break;
		l->win_n++;
	}
	sqlite3_finalize(s);
	return true;
}

const struct store_transcription *store_list_item(struct steno_store *st, struct store_list *l,
						  long i)
{
	if (i < 0 || i >= l->n)
		return NULL;
	switch (l->how) {
	case L_VIEW:
		return store_view_item(st, l->v, (size_t)(l->desc ? l->n - 1 - i : i));
	case L_MEM:
		return store_view_item(st, l->v, l->rows[i]);
	case L_SQL:
		if ((i < l->win_off || i >= l->win_off + l->win_n) && !win_read(st, l, i))
			return NULL;
		if (i >= l->win_off + l->win_n)
			return NULL;
		return store_rec_get(st, l->win[i - l->win_off]);
	case L_EMPTY:
		break;
	}
	return NULL;
}

const char *store_list_id(struct steno_store *st, struct store_list *l, long i)
{
	if (i < 0 || i >= l->n)
		return NULL;
	size_t k = 0;
	switch (l->how) {
	case L_VIEW:
		k = (size_t)(l->desc ? l->n - 1 - i : i);
		break;
	case L_MEM:
		k = l->rows[i];
		break;
	case L_SQL:
		if ((i < l->win_off || i >= l->win_off + l->win_n) && !win_read(st, l, i))
			return NULL;
		return i < l->win_off + l->win_n ? l->win[i - l->win_off] : NULL;
	case L_EMPTY:
		return NULL;
	}
	return k < l->v->n ? l->v->ids[k] : NULL;
}

long store_list_find(struct steno_store *st, struct store_list *l, const char *id)
{
	if (!id)
		return -1;
	if (l->how == L_SQL) {
		char sql[120];
		sqlite3_stmt *s = NULL;
		long r = -1;
		snprintf(sql, sizeof sql, "SELECT rank FROM temp.%s WHERE id = ?1", l->table);
		if (sqlite3_prepare_v2(handle(st), sql, -1, &s, NULL) != SQLITE_OK)
			return -1;
		sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC);
		if (sqlite3_step(s) == SQLITE_ROW)
			r = (long)sqlite3_column_int64(s, 0) - 1;
		sqlite3_finalize(s);
		return r;
	}
	/* by the ids alone: no record is read */
	for (long i = 0; i < l->n; i++) {
		size_t k = l->how == L_MEM ? l->rows[i] : (size_t)(l->desc ? l->n - 1 - i : i);
		if (l->how != L_EMPTY && k < l->v->n && !strcmp(l->v->ids[k], id))
			return i;
	}
	return -1;
}
