#ifndef STENO_TEST_CONTENT_FIXTURE_H
#define STENO_TEST_CONTENT_FIXTURE_H

/* The fixture of the core/content_db unit tests (test_core_content*.c): a local store in a
 * temp cache dir, transcripts put in it, searches. */

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "api/transcript.h"
#include "core/content_db.h"
#include "core/localdb.h"

extern char *fixture_dir;
extern struct localdb *ldb;
extern sqlite3 *db;

/* The local store of a server in a temp cache dir: its migrations made the tables. */
void setup(void);
/* (Re)opens that store: its migrations run. */
void reopen(void);
void teardown(void);
/* A transcript of one block per text given ("S1|words ..."), word times 1 s apart from
 * start_s. */
void make_transcript(struct steno_transcript *t, double start_s, const char *const *blocks,
		     size_t n);
/* What a list said of a transcription, written as the store writes it (core/store_db.c:
 * its transcriptions table, which owns names, tags, states and updatedAt): tags "a,b";
 * updated_ms < 0: unknown. */
void listed(const char *id, const char *org, const char *name, const char *state,
	    const char *tags, long long updated_ms);
/* Lists transcription id (org o1, finished) and puts its content of version (ms). */
void put(const char *id, const char *name, const char *version, double start,
	 const char *const *blocks, size_t n);
/* content_db_search of q (marks [ and ]): the number of hits. */
size_t search(const char *q, bool names, struct content_hit **hits);
/* How many times the statements kept on the handle whose SQL holds part have run. */
long statement_runs(const char *part);
/* Expects the hits a[0..na) of query q to be b[0..nb), field by field. */
void same_hits(const char *q, const struct content_hit *a, size_t na,
	       const struct content_hit *b, size_t nb);

#endif
