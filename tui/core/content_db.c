/* Transcript content in the local store: schema, what the lists say, the content kept with
 * its updatedAt, and what waits. Search and the reader's reads are in content_search.c. */
#include "config.h"
#include "core/content_db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/content_internal.h"
#include "core/localdb.h"

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS content_items("
	" n INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, org TEXT, name TEXT, state TEXT,"
	" language TEXT, tags TEXT, updated_at TEXT, cost_cents INTEGER,"
	" version TEXT, fetched_s INTEGER, failed_version TEXT, failed_why TEXT);"
	"CREATE INDEX IF NOT EXISTS content_items_org ON content_items(org, state);"
	/* seg = the item's n * 2^24 + the segment's rank: an item's segments are a range of
	 * the primary key (no column or index for the item); times in ms */
	"CREATE TABLE IF NOT EXISTS content_segs("
	" seg INTEGER PRIMARY KEY, para INTEGER NOT NULL, speaker TEXT,"
	" start_ms INTEGER, end_ms INTEGER, text TEXT NOT NULL);"
	/* external content: the text is stored once, in content_segs / content_items */
	"CREATE VIRTUAL TABLE IF NOT EXISTS content_fts USING fts5(text,"
	" content='content_segs', content_rowid='seg',"
	" tokenize='" CONTENT_TOKENIZE "');"
	"CREATE VIRTUAL TABLE IF NOT EXISTS content_names USING fts5(name, tags,"
	" content='content_items', content_rowid='n',"
	" tokenize='" CONTENT_TOKENIZE "');"
	"CREATE TRIGGER IF NOT EXISTS content_segs_ai AFTER INSERT ON content_segs BEGIN"
	" INSERT INTO content_fts(rowid, text) VALUES (new.seg, new.text); END;"
	"CREATE TRIGGER IF NOT EXISTS content_segs_ad AFTER DELETE ON content_segs BEGIN"
	" INSERT INTO content_fts(content_fts, rowid, text) VALUES ('delete', old.seg, old.text);"
	" END;"
	"CREATE TRIGGER IF NOT EXISTS content_items_ai AFTER INSERT ON content_items BEGIN"
	" INSERT INTO content_names(rowid, name, tags) VALUES (new.n, new.name, new.tags); END;"
	"CREATE TRIGGER IF NOT EXISTS content_items_ad AFTER DELETE ON content_items BEGIN"
	" INSERT INTO content_names(content_names, rowid, name, tags)"
	" VALUES ('delete', old.n, old.name, old.tags);"
	" DELETE FROM content_segs WHERE seg BETWEEN old.n * 16777216"
	" AND old.n * 16777216 + 16777215; END;"
	"CREATE TRIGGER IF NOT EXISTS content_items_au AFTER UPDATE OF name, tags ON content_items"
	" BEGIN"
	" INSERT INTO content_names(content_names, rowid, name, tags)"
	" VALUES ('delete', old.n, old.name, old.tags);"
	" INSERT INTO content_names(rowid, name, tags) VALUES (new.n, new.name, new.tags); END;";

int content_sql_fail(sqlite3 *db, struct steno_error *err, const char *what)
{
	return steno_error_set(err, STENO_ERR_IO, "local store: %s: %s", what, sqlite3_errmsg(db));
}

int content_exec(sqlite3 *db, const char *sql, struct steno_error *err)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	steno_error_set(err, STENO_ERR_IO, "local store: %s", msg ? msg : sqlite3_errmsg(db));
	sqlite3_free(msg);
	return -1;
}

int content_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **st, struct steno_error *err)
{
	if (sqlite3_prepare_v2(db, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	*st = NULL;
	return content_sql_fail(db, err, "prepare");
}

int content_has_column(sqlite3 *db, const char *table, const char *column)
{
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, column, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) > 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

/* Begins a write: a transaction, or a savepoint inside the one the store's own write has
 * open on the same connection (its listeners run inside it). *nested says which. */
int content_begin(sqlite3 *db, bool *nested, struct steno_error *err)
{
	*nested = !sqlite3_get_autocommit(db);
	return content_exec(db, *nested ? "SAVEPOINT content" : "BEGIN IMMEDIATE", err);
}

/* Ends what content_begin began: kept when rc is 0, else undone. Returns rc, or -1. */
int content_end(sqlite3 *db, bool nested, int rc, struct steno_error *err)
{
	if (rc == 0)
		return content_exec(db, nested ? "RELEASE content" : "COMMIT", err);
	sqlite3_exec(db, nested ? "ROLLBACK TO content; RELEASE content" : "ROLLBACK", NULL, NULL,
		     NULL);
	return -1;
}

int content_db_migrate_v2(sqlite3 *db, char **err)
{
	if (sqlite3_exec(db, schema, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	*err = localdb_errdup(db, "content v2");
	return -1;
}

/* Made anew from the segments (a store of an older version may be brought up again). */
static const char schema_v3[] =
	"DROP TABLE IF EXISTS content_docs;"
	"CREATE VIRTUAL TABLE content_docs USING fts5(text, content='',"
	" tokenize='" CONTENT_TOKENIZE "');"
	DOCS_FILL_SQL("content_docs") ";"
	/* the segments' index entries are written by content_db_put, a transcription's in
	 * one statement: FTS5 writes what it holds as a new segment at the start of every
	 * statement of a transaction (its savepoint), so a trigger a row made a segment a row */
	"DROP TRIGGER IF EXISTS content_segs_ai;"
	"DROP TRIGGER IF EXISTS content_segs_ad;"
	"DROP TRIGGER IF EXISTS content_items_ad;"
	"CREATE TRIGGER content_items_ad AFTER DELETE ON content_items BEGIN"
	" INSERT INTO content_names(content_names, rowid, name, tags)"
	" VALUES ('delete', old.n, old.name, old.tags);"
	" " DOC_DELETE_SQL("old.n") ";"
	" " SEGS_UNINDEX_SQL("old.n") ";"
	" DELETE FROM content_segs WHERE seg BETWEEN old.n * 16777216"
	" AND old.n * 16777216 + 16777215; END;";

int content_db_migrate_v3(sqlite3 *db, char **err)
{
	if (sqlite3_exec(db, schema_v3, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	*err = localdb_errdup(db, "content v3");
	return -1;
}

/* ---- what the lists say ---- */

void content_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

int content_db_remove(sqlite3 *db, const char *id, struct steno_error *err)
{
	sqlite3_stmt *st;
	if (content_prepare(db, "DELETE FROM content_items WHERE id = ?1", &st, err) < 0)
		return -1;
	content_bind_text(st, 1, id);
	int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : content_sql_fail(db, err, "remove");
	sqlite3_finalize(st);
	return rc;
}

long content_db_keep_only(sqlite3 *db, const char *org, const char *const *ids, size_t n,
			  struct steno_error *err)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;

	bool nested;
	if (content_begin(db, &nested, err) < 0)
		return -1;
	rc = content_exec(db, "CREATE TEMP TABLE IF NOT EXISTS content_keep(id TEXT PRIMARY KEY);"
			  "DELETE FROM content_keep", err);
	if (rc == 0)
		rc = content_prepare(db, "INSERT OR IGNORE INTO content_keep VALUES (?1)", &st, err);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		sqlite3_reset(st);
		content_bind_text(st, 1, ids[i]);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = content_sql_fail(db, err, "keep");
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc == 0)
		rc = content_prepare(db, "DELETE FROM content_items WHERE id IN (SELECT id FROM"
				     " transcriptions WHERE org_id = ?1) AND id NOT IN"
				     " (SELECT id FROM content_keep)", &st, err);
	long gone = 0;
	if (rc == 0) {
		content_bind_text(st, 1, org);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = content_sql_fail(db, err, "remove gone items");
		gone = sqlite3_changes(db);
	}
	sqlite3_finalize(st);
	/* a transcription gone from an earlier complete list and listed again */
	if (rc == 0)
		rc = content_exec(db, "INSERT INTO content_items(id) SELECT k.id FROM content_keep k"
				  " JOIN transcriptions t ON t.id = k.id WHERE NOT EXISTS"
				  " (SELECT 1 FROM content_items c WHERE c.id = k.id)", err);
	if (rc == 0)
		rc = content_exec(db, "DELETE FROM content_keep", err);
	return content_end(db, nested, rc, err) < 0 ? -1 : gone;
}

/* ---- content ---- */

/* Control characters never reach the store (a snippet's marks are control characters). */
static void clean_controls(char *s)
{
	for (unsigned char *p = (unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			*p = ' ';
}

/* A segment ends at the first sentence end after SEG_MIN_WORDS words, or after SEG_MAX_WORDS
 * words: a hit's time code is then within a few sentences, not the paragraph's start, and a
 * segment's own cost (its row, its times) stays small beside its text. */
#define SEG_MIN_WORDS 12
#define SEG_MAX_WORDS 40

static bool ends_sentence(const char *w)
{
	size_t k = strlen(w);
	while (k && (w[k - 1] == ' ' || w[k - 1] == '"' || w[k - 1] == '\''))
		k--;
	return k && (w[k - 1] == '.' || w[k - 1] == '?' || w[k - 1] == '!');
}

static void bind_ms(sqlite3_stmt *st, int i, double s)
{
	if (s >= 0)
		sqlite3_bind_int64(st, i, (sqlite3_int64)(s * 1000 + 0.5));
	else
		sqlite3_bind_null(st, i);
}

static int put_segment(sqlite3 *db, sqlite3_stmt *st, sqlite3_int64 seg, long para,
		       const struct steno_speaker_block *b, size_t from, size_t to,
		       struct steno_error *err)
{
	size_t len = 1;
	double start = -1, end = -1;

	for (size_t i = from; i < to; i++) {
		len += strlen(b->words[i].text);
		if (start < 0 && b->words[i].start.st == STENO_PRESENT)
			start = b->words[i].start.v;
		if (b->words[i].end.st == STENO_PRESENT)
			end = b->words[i].end.v;
	}
	if (start < 0 && from == 0 && b->start.st == STENO_PRESENT)
		start = b->start.v;
	char *text = malloc(len);
	if (!text)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	size_t o = 0;
	for (size_t i = from; i < to; i++) {
		size_t k = strlen(b->words[i].text);
		memcpy(text + o, b->words[i].text, k);
		o += k;
	}
	text[o] = '\0';
	clean_controls(text);
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, seg);
	sqlite3_bind_int64(st, 2, para);
	content_bind_text(st, 3, b->speaker);
	bind_ms(st, 4, start);
	bind_ms(st, 5, end);
	sqlite3_bind_text(st, 6, text, (int)o, free);
	return sqlite3_step(st) == SQLITE_DONE ? 0 : content_sql_fail(db, err, "store a segment");
}

static bool is_spacing(const struct steno_word *w)
{
	return w->type && strcmp(w->type, "word") != 0;
}

static int put_block(sqlite3 *db, sqlite3_stmt *st, sqlite3_int64 *seg, long para,
		     const struct steno_speaker_block *b, struct steno_error *err)
{
	size_t from = 0, words = 0;

	for (size_t i = 0; i < b->n_words; i++) {
		const struct steno_word *w = &b->words[i];
		bool spacing = is_spacing(w);
		if (!spacing)
			words++;
		if ((!spacing && words >= SEG_MIN_WORDS && ends_sentence(w->text)) ||
		    words >= SEG_MAX_WORDS || i + 1 == b->n_words) {
			/* the spacing after the cut ends this segment: the next one (and its
			 * snippets) starts on a word */
			size_t to = i + 1;
			while (to < b->n_words && is_spacing(&b->words[to]))
				to++;
			if (put_segment(db, st, (*seg)++, para, b, from, to, err) < 0)
				return -1;
			from = to;
			i = to - 1;
			words = 0;
		}
	}
	return 0;
}

/* The item's number (its row, made when missing): its segments are n * 2^24 + rank. */
static int item_number(sqlite3 *db, const char *id, sqlite3_int64 *n, struct steno_error *err)
{
	sqlite3_stmt *st;
	int rc = content_prepare(db, "INSERT INTO content_items(id) VALUES (?1)"
				 " ON CONFLICT(id) DO NOTHING", &st, err);
	if (rc == 0) {
		content_bind_text(st, 1, id);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = content_sql_fail(db, err, "note an item");
		sqlite3_finalize(st);
	}
	if (rc == 0 && (rc = content_prepare(db, "SELECT n FROM content_items WHERE id = ?1", &st,
					     err)) == 0) {
		content_bind_text(st, 1, id);
		if (sqlite3_step(st) == SQLITE_ROW)
			*n = sqlite3_column_int64(st, 0);
		else
			rc = content_sql_fail(db, err, "find an item");
		sqlite3_finalize(st);
	}
	return rc;
}

/* Runs one of the *_SQL("?1") statements above for item n. */
static int doc_index(sqlite3 *db, const char *sql, sqlite3_int64 n, struct steno_error *err)
{
	sqlite3_stmt *st;
	if (content_prepare(db, sql, &st, err) < 0)
		return -1;
	sqlite3_bind_int64(st, 1, n);
	int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : content_sql_fail(db, err, "index content");
	sqlite3_finalize(st);
	return rc;
}

int content_db_put(sqlite3 *db, const char *id, const char *version,
		   const struct steno_transcript *t, int64_t fetched_s, struct steno_error *err)
{
	sqlite3_stmt *st = NULL;
	sqlite3_int64 n = 0, seg;
	int rc;

	bool nested;
	if (content_begin(db, &nested, err) < 0)
		return -1;
	rc = item_number(db, id, &n, err);
	if (rc == 0)
		rc = doc_index(db, DOC_DELETE_SQL("?1"), n, err);
	if (rc == 0)
		rc = doc_index(db, WORDS_DELETE_SQL("?1"), n, err);
	if (rc == 0)
		rc = doc_index(db, SEGS_UNINDEX_SQL("?1"), n, err);
	if (rc == 0)
		rc = content_prepare(db, "DELETE FROM content_segs WHERE seg BETWEEN ?1 AND ?2", &st,
				     err);
	if (rc == 0) {
		sqlite3_bind_int64(st, 1, n * CONTENT_SEGS_PER_ITEM);
		sqlite3_bind_int64(st, 2, n * CONTENT_SEGS_PER_ITEM + CONTENT_SEGS_PER_ITEM - 1);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = content_sql_fail(db, err, "replace content");
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc == 0)
		rc = content_prepare(db, "INSERT INTO content_segs(seg, para, speaker, start_ms,"
				     " end_ms, text) VALUES (?1, ?2, ?3, ?4, ?5, ?6)", &st, err);
	seg = n * CONTENT_SEGS_PER_ITEM;
	for (size_t i = 0; rc == 0 && i < t->n_blocks; i++) {
		rc = put_block(db, st, &seg, (long)i, &t->blocks[i], err);
		if (rc == 0 && seg >= (n + 1) * CONTENT_SEGS_PER_ITEM)
			rc = steno_error_set(err, STENO_ERR_INVALID, "a transcript of more than "
					     "16 million passages");
	}
	sqlite3_finalize(st);
	st = NULL;
	if (rc == 0)
		rc = doc_index(db, SEGS_INDEX_SQL("?1"), n, err);
	if (rc == 0)
		rc = doc_index(db, DOC_INSERT_SQL("?1"), n, err);
	if (rc == 0)
		rc = doc_index(db, WORDS_INSERT_SQL("?1"), n, err);
	if (rc == 0)
		rc = content_frequent_put(db, n, err);
	if (rc == 0 && content_define_passages(db) < 0)
		rc = content_sql_fail(db, err, "define steno_seg_starts");
	if (rc == 0)
		rc = content_prepare(db, "UPDATE content_items SET version = ?2, fetched_s = ?3,"
				     " failed_version = NULL, failed_why = NULL,"
				     " seg_starts = " SEG_STARTS_SQL("?1") " WHERE n = ?1", &st, err);
	if (rc == 0) {
		sqlite3_bind_int64(st, 1, n);
		content_bind_text(st, 2, version ? version : "");
		sqlite3_bind_int64(st, 3, fetched_s);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = content_sql_fail(db, err, "store content");
	}
	sqlite3_finalize(st);
	return content_end(db, nested, rc, err);
}

int content_db_put_failed(sqlite3 *db, const char *id, const char *version, const char *why,
			  struct steno_error *err)
{
	sqlite3_stmt *st;
	if (content_prepare(db, "UPDATE content_items SET failed_version = ?2, failed_why = ?3"
			    " WHERE id = ?1", &st, err) < 0)
		return -1;
	content_bind_text(st, 1, id);
	content_bind_text(st, 2, version ? version : "");
	content_bind_text(st, 3, why);
	int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : content_sql_fail(db, err, "note a failure");
	sqlite3_finalize(st);
	return rc;
}

int content_db_optimize(sqlite3 *db, struct steno_error *err)
{
	bool nested;
	if (content_begin(db, &nested, err) < 0)
		return -1;
	int rc = content_exec(db, "INSERT INTO content_fts(content_fts) VALUES('optimize');"
			      "INSERT INTO content_docs(content_docs) VALUES('optimize');"
			      "INSERT INTO content_words(content_words) VALUES('optimize')", err);
	return content_end(db, nested, rc, err);
}

/* ---- statements kept prepared ----
 * Preparing a query's statements cost about 0.1 ms, as much as ranking the transcriptions:
 * they stay prepared on the connection between queries, found again by their SQL
 * (sqlite3_next_stmt); content_db_forget finalizes them (localdb_close calls it). */

sqlite3_stmt *content_kept(sqlite3 *db, const char *sql, bool *fresh, struct steno_error *err)
{
	for (sqlite3_stmt *st = sqlite3_next_stmt(db, NULL); st; st = sqlite3_next_stmt(db, st)) {
		const char *t = sqlite3_sql(st);
		if (t && !strcmp(t, sql)) {
			if (sqlite3_stmt_busy(st)) {
				*fresh = true;
				break;
			}
			return st;
		}
	}
	sqlite3_stmt *st = NULL;
	if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK) {
		sqlite3_finalize(st);
		content_sql_fail(db, err, "prepare");
		return NULL;
	}
	return st;
}

void content_unkeep(sqlite3_stmt *st, bool fresh)
{
	if (!st)
		return;
	if (fresh) {
		sqlite3_finalize(st);
		return;
	}
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

sqlite3_stmt *content_kept_fts(sqlite3 *db, const char *sql, bool *fresh, struct steno_error *err)
{
	sqlite3_stmt *st = content_kept(db, sql, fresh, err);
	if (st || content_define_bm25(db, err) < 0)
		return st;
	/* defined once a connection, when a statement first fails to prepare without them
	 * (defining content_take again would expire every statement kept) */
	if (content_define_take(db) < 0) {
		content_sql_fail(db, err, "define content_take");
		return NULL;
	}
	return content_kept(db, sql, fresh, err);
}
