#ifndef STENO_CORE_CONTENT_DB_H
#define STENO_CORE_CONTENT_DB_H

/* Transcripts as content, in the local SQLite store: of each transcription the store holds
 * (its transcriptions table, which owns the name, tags, state and updatedAt), its content
 * kept with the updatedAt it belongs to (paragraphs = the transcript's speaker blocks, cut into segments at sentence
 * ends, each with its speaker and start/end times), and two FTS5 indexes
 * (`unicode61 remove_diacritics 2`: "Zoe" finds "Zoë"): one over the segments' text, one
 * over names and tags, and a third over each transcription's whole text (content_docs), which
 * ranks transcriptions; with the words each transcription says (content_words, an index
 * without their places: what a prefix stands for) and those it says often, counted
 * (content_frequent: a one-word query's transcriptions, best first). Queries use FTS5's
 * syntax: words (ANDed), "a phrase", prefix gard*, AND / OR / NOT, parentheses. A hit is a
 * passage that matches the query; transcriptions come in bm25 order over their whole text,
 * and the hits of one in the order they were said (at most per_item of them): the cost of a query grows with the transcriptions that match,
 * not with the passages (a frequent word is in most passages of most transcriptions).
 *
 * What waits to be fetched is derived from the tables (a finished transcription whose
 * stored content is missing or of another updatedAt), never from memory, so fetching
 * resumes after a restart. Works on the local store's handle (core/localdb.h: localdb_handle),
 * whose migrations made the tables. No curses, no network. Every function returns 0 (or a count) on
 * success, -1 with err filled on failure. */

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/error.h"
#include "api/transcript.h"

/* The local store's migration steps for transcript content (core/localdb_schema.c), run
 * inside the migration's transaction; -1 with *err malloc'd on failure. v2 creates its
 * tables; v3 adds the index of each transcription's whole text (content_docs), which ranks
 * transcriptions, and fills it from what is held. */
int content_db_migrate_v2(sqlite3 *db, char **err);
int content_db_migrate_v3(sqlite3 *db, char **err);
/* v5: what the lists say of a transcription (organization, name, tags, state, language,
 * cost, updatedAt) is read from the store's transcriptions table (core/store_db.c: its
 * updated_ms column is added here), no longer copied: every transcription the store writes
 * gets its item row and its names indexed by triggers, a rename is re-indexed, a row deleted
 * takes its content with it. */
int content_db_migrate_v5(sqlite3 *db, char **err);
/* v6: where each passage starts in its transcription's whole text (content_items.seg_starts),
 * so a query of words or phrases joined by OR reads a transcription's matching passages from
 * the ranking's walk of its whole text (core/content_passages.c). */
int content_db_migrate_v6(sqlite3 *db, char **err);
/* v7: what waits to be read and what is held, kept by triggers in content_status
 * (core/content_status.c): what next and the counts read it, not every finished
 * transcription joined to its item. */
int content_db_migrate_v7(sqlite3 *db, char **err);
/* v8: the words each transcription says often, with their counts (content_frequent), so that
 * a query of one word ranks the transcriptions that say it most without walking each of its
 * matches (core/content_frequent.c). */
int content_db_migrate_v8(sqlite3 *db, char **err);
/* How many of the store's writes so far may have changed what waits (a transcription
 * written new, deleted, or with another state or updatedAt; counted by the triggers of v5):
 * a list event that leaves it as it was changed nothing here. -1 on error. */
long long content_db_news(sqlite3 *db);

/* A transcription the server no longer has: its row, content and index entries go. */
int content_db_remove(sqlite3 *db, const char *id, struct steno_error *err);
/* After a complete walk of an organization's list: every transcription of org not among
 * ids[] goes (as content_db_remove); one among them that went before and that the store
 * holds comes back (its item row, its names indexed). Returns how many went, or -1. */
long content_db_keep_only(sqlite3 *db, const char *org, const char *const *ids, size_t n,
			  struct steno_error *err);

/* Stores the content of id for version (its updatedAt), replacing what was stored before
 * (its segments leave the index in the same transaction). fetched_s: when (epoch s). */
int content_db_put(sqlite3 *db, const char *id, const char *version,
		   const struct steno_transcript *t, int64_t fetched_s, struct steno_error *err);
/* The content of id could not be read for version (not retried until its updatedAt
 * changes): why is kept for `steno index`. */
int content_db_put_failed(sqlite3 *db, const char *id, const char *version, const char *why,
			  struct steno_error *err);

/* Merges each full-text index into one segment (FTS5 'optimize'): a store filled one
 * transaction a transcription keeps a dozen segments, which every query reads each; merged,
 * a query on one transcription costs a quarter. About 0.3 s for 1,000 transcriptions of
 * 10 minutes; content_sync runs it once nothing waits after it stored 32 or more. */
int content_db_optimize(sqlite3 *db, struct steno_error *err);

/* The next transcription of org (NULL: any) whose content waits: 1 with its id and
 * updatedAt copied (cut to the sizes), 0 when none waits, -1 on error. skip: ids not to
 * hand out now (e.g. one that failed a moment ago), may be NULL. */
int content_db_next_waiting(sqlite3 *db, const char *org, const char *skip, char *id,
			    size_t idn, char *version, size_t vn, struct steno_error *err);
/* The same, none of skip[0..n) (n <= 8) handed out. */
int content_db_next_waiting_except(sqlite3 *db, const char *org, const char *const *skip,
				   size_t n, char *id, size_t idn, char *version, size_t vn,
				   struct steno_error *err);
/* Finished transcriptions of org (NULL: all) whose content is held (current), and those
 * that wait (missing or outdated, not failed for their version). */
int content_db_counts(sqlite3 *db, const char *org, long *held, long *waiting,
		      struct steno_error *err);

/* ---- search ---- */

struct content_hit;

struct content_query {
	const char *text;         /* FTS5 syntax; words with characters FTS5 refuses are quoted */
	const char *org;          /* NULL: every organization */
	bool names;               /* also names and tags (name hits come first) */
	long limit;               /* <= 0: 50 */
	long per_item;            /* hits of one transcription at most (the first said); <= 0: 5 */
	const char *mark_open, *mark_close;   /* around each matched word in snippets */
	int snippet_words;        /* words around the match; <= 0: 12 */
	/* only hits this keeps count (e.g. --where); NULL: all */
	bool (*keep)(void *ud, const struct content_hit *hit);
	void *keep_ud;
};

/* Ownership: content_hits_free frees the array and its strings. */
struct content_hit {
	char *id, *name;          /* name NULL when unknown */
	char *speaker;            /* NULL for a name hit or when unknown */
	double start, end;        /* seconds; -1 for a name or tag hit */
	long para;                /* the paragraph (0-based), -1 for a name hit */
	char *snippet;            /* the words around the match, marked */
	double rank;              /* the transcription's bm25 (names: the name's): lower is better */
	long item_hits;           /* passages of this transcription that match (all, not only
				   * those returned); 0 for a name hit */
	char *state, *language, *tags;   /* for --where: tags joined by '\t' */
	bool has_cost;
	long long cost_cents;
};

/* Statements stay prepared on db between searches (a query's preparing cost as much as its
 * ranking); content_db_forget finalizes them (localdb_close calls it). q->keep must not
 * search the same db. */
int content_db_search(sqlite3 *db, const struct content_query *q, struct content_hit **hits,
		      size_t *n, struct steno_error *err);
void content_db_forget(sqlite3 *db);
void content_hits_free(struct content_hit *hits, size_t n);

/* ---- the reader ---- */

/* Ownership: content_doc_free. */
struct content_para {
	char *speaker;            /* NULL when unknown */
	double start, end;        /* seconds, -1 when unknown */
	char *text;
};

struct content_doc {
	char *id, *name, *version;
	int64_t fetched_s;
	struct content_para *paras;
	size_t n;
};

/* 1 with the stored content of id, 0 when none is stored, -1 on error. */
int content_db_load(sqlite3 *db, const char *id, struct content_doc *out,
		    struct steno_error *err);
void content_doc_free(struct content_doc *d);

/* "12:30" or "1:02:03" (seconds < 0: "--:--"). */
void content_timecode(double seconds, char *buf, size_t n);
/* "12:30", "1:02:03", "750" or "12m30s" as seconds: 0, or -1 when not a time. */
int content_parse_timecode(const char *s, double *seconds);

#endif
