/* core/content_status.c: what waits and what is held, kept by triggers (schema step 7), is
 * what the store's tables say after every kind of write, in any order; a store of schema 6
 * gets it at its next opening. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content_fixture.h"
#include "core/content_internal.h"

/* What the tables say (the definition content_db_counts and next_waiting read before step 7,
 * from every finished transcription joined to its item) against content_status: rows in one
 * and not in the other. */
static int status_differs(void)
{
	sqlite3_stmt *st;
	struct steno_error err;
	cr_assert_eq(content_prepare(db,
		"WITH truth AS (SELECT n, org, CAST(updated_at AS INTEGER) AS updated_ms,"
		" version IS NOT NULL AND version IS updated_at AS held FROM content_view"
		" WHERE state = 'automatic_done' AND updated_at IS NOT NULL"
		" AND (version IS updated_at OR failed_version IS NOT updated_at))"
		" SELECT (SELECT count(*) FROM (SELECT * FROM truth EXCEPT"
		"  SELECT n, org, updated_ms, held FROM content_status))"
		" + (SELECT count(*) FROM (SELECT n, org, updated_ms, held FROM content_status"
		"  EXCEPT SELECT * FROM truth))", &st, &err), 0, "%s", err.message);
	cr_assert_eq(sqlite3_step(st), SQLITE_ROW, "%s", sqlite3_errmsg(db));
	int d = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return d;
}

static void content_of(const char *id, const char *version)
{
	static const char *const b[] = { "S1|Some words said here." };
	struct steno_transcript t;
	struct steno_error err;
	make_transcript(&t, 0, b, 1);
	cr_assert_eq(content_db_put(db, id, version, &t, 1700000000, &err), 0, "%s", err.message);
	steno_transcript_free(&t);
}

static void run(const char *sql)
{
	struct steno_error err;
	cr_assert_eq(content_exec(db, sql, &err), 0, "%s: %s", sql, err.message);
}

Test(content_status, follows_every_write_of_the_store_and_the_content, .init = setup,
     .fini = teardown)
{
	static const char *const ids[] = { "a", "b", "c", "d", "e", "f", "g", "h" };
	static const char *const states[] = { "automatic_done", "automatic_done", "transcribing",
		"failed", "automatic_done" };
	static const long long updated[] = { 1000, 2000, 3000, -1 };
	static const char *const versions[] = { "1000", "2000", "3000", "999" };
	struct steno_error err;
	char sql[256];
	srand(7);
	for (int step = 0; step < 600; step++) {
		const char *id = ids[rand() % 8];
		switch (rand() % 8) {
		case 0: case 1: case 2:   /* a list's write: new, or of another state or updatedAt */
			listed(id, rand() % 4 ? "o1" : "o2", id, states[rand() % 5], NULL,
			       updated[rand() % 4]);
			break;
		case 3: case 4:   /* content stored */
			content_of(id, versions[rand() % 4]);
			break;
		case 5:   /* a read that failed for a version */
			cr_assert_eq(content_db_put_failed(db, id, versions[rand() % 4], "gone",
							   &err), 0, "%s", err.message);
			break;
		case 6:   /* gone from the store, or its content removed */
			if (rand() % 2) {
				snprintf(sql, sizeof sql, "DELETE FROM transcriptions WHERE id = '%s'",
					 id);
				run(sql);
			} else {
				cr_assert_geq(content_db_remove(db, id, &err), 0, "%s", err.message);
			}
			break;
		default: {   /* the organization's whole list proves the others gone */
			const char *keep[] = { ids[rand() % 8], ids[rand() % 8], ids[rand() % 8] };
			cr_assert_geq(content_db_keep_only(db, "o1", keep, 3, &err), 0, "%s",
				      err.message);
		}
		}
		cr_assert_eq(status_differs(), 0, "after step %d", step);
	}
}

/* What next and the counts, read from content_status, as the tables say. */
Test(content_status, what_next_and_the_counts, .init = setup, .fini = teardown)
{
	struct steno_error err;
	char id[64], version[64];
	long held, waiting;
	listed("old", "o1", "Old", "automatic_done", NULL, 1000);
	listed("new", "o1", "New", "automatic_done", NULL, 5000);
	listed("other", "o2", "Other", "automatic_done", NULL, 9000);
	listed("running", "o1", "Running", "transcribing", NULL, 7000);
	cr_assert_eq(content_db_next_waiting(db, "o1", NULL, id, sizeof id, version,
					     sizeof version, &err), 1, "%s", err.message);
	cr_expect_str_eq(id, "new", "the most recent first");
	cr_expect_str_eq(version, "5000");
	cr_assert_eq(content_db_next_waiting(db, NULL, NULL, id, sizeof id, version,
					     sizeof version, &err), 1);
	cr_expect_str_eq(id, "other");
	cr_assert_eq(content_db_next_waiting(db, "o1", "new", id, sizeof id, version,
					     sizeof version, &err), 1);
	cr_expect_str_eq(id, "old");
	content_of("new", "5000");
	cr_assert_eq(content_db_put_failed(db, "old", "1000", "gone", &err), 0);
	cr_assert_eq(content_db_next_waiting(db, "o1", NULL, id, sizeof id, version,
					     sizeof version, &err), 0, "nothing waits in o1");
	cr_assert_eq(content_db_counts(db, "o1", &held, &waiting, &err), 0, "%s", err.message);
	cr_expect_eq(held, 1);
	cr_expect_eq(waiting, 0);
	cr_assert_eq(content_db_counts(db, NULL, &held, &waiting, &err), 0);
	cr_expect_eq(held, 1);
	cr_expect_eq(waiting, 1);
	listed("old", "o1", "Old", "automatic_done", NULL, 6000);   /* a new updatedAt */
	cr_assert_eq(content_db_next_waiting(db, "o1", NULL, id, sizeof id, version,
					     sizeof version, &err), 1);
	cr_expect_str_eq(id, "old", "a failure waits for a new updatedAt");
}

/* A store of schema 6 gets its status rows at its next opening. */
Test(content_status, a_store_of_schema_6_gets_what_waits, .init = setup, .fini = teardown)
{
	listed("x", "o1", "X", "automatic_done", NULL, 1000);
	listed("y", "o1", "Y", "automatic_done", NULL, 2000);
	content_of("x", "1000");
	run("DROP TRIGGER content_status_transcriptions_ai;"
	    "DROP TRIGGER content_status_transcriptions_au; DROP TRIGGER content_status_items_ai;"
	    "DROP TRIGGER content_status_items_au; DROP TRIGGER content_status_items_ad;"
	    "DROP TABLE content_status;"
	    "DELETE FROM localdb_migrations WHERE version >= 7; PRAGMA user_version = 6");
	reopen();
	cr_expect_eq(status_differs(), 0);
	long held, waiting;
	struct steno_error err;
	cr_assert_eq(content_db_counts(db, "o1", &held, &waiting, &err), 0, "%s", err.message);
	cr_expect_eq(held, 1);
	cr_expect_eq(waiting, 1);
	listed("x", "o1", "X", "automatic_done", NULL, 3000);
	cr_expect_eq(status_differs(), 0, "the triggers were made too");
}
