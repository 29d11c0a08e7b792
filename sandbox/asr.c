/* asr: the decoder pool. Jobs live in the asr table (state 0 queued, 1 decoding, 2 done,
 * 3 failed or dropped), so the queue survives restarts and needs no list of its own. */
#include "config.h"

#include "asr.h"

#include "clock.h"
#include "db.h"
#include "sandbox.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_ASR
#include "asr_decode.h"
#endif

#define ASR_MAX_THREADS 16

static pthread_mutex_t asr_mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t asr_cond = PTHREAD_COND_INITIALIZER;
static unsigned long asr_posted; /* asr_wake calls so far */
static atomic_int asr_stopping;
static pthread_t asr_threads[ASR_MAX_THREADS];
static int asr_nthreads;

int asr_built(void)
{
#ifdef HAVE_ASR
	return 1;
#else
	return 0;
#endif
}

int asr_applies(const struct tr_row *t)
{
	const char *l = t->language ? t->language : "";
	int english = (l[0] == 'e' || l[0] == 'E') && (l[1] == 'n' || l[1] == 'N') && (l[2] == '\0' || l[2] == '-');
	return sb_cfg.asr && english && t->source_rid <= 0 && strcmp(t->service, "alignment") != 0;
}

int asr_queue(int64_t rid, double min_end)
{
	sqlite3_stmt *st = db_prep("INSERT OR REPLACE INTO asr(rid, state, min_end) VALUES(?, 0, ?)");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, rid);
	sqlite3_bind_double(st, 2, min_end);
	return db_step_done(st);
}

void asr_wake(void)
{
	pthread_mutex_lock(&asr_mx);
	asr_posted++;
	pthread_cond_signal(&asr_cond);
	pthread_mutex_unlock(&asr_mx);
}

int asr_transcript(int64_t rid, struct sb_transcript *out)
{
	memset(out, 0, sizeof *out);
	sqlite3_stmt *st = db_prep("SELECT transcript FROM asr WHERE rid=? AND state=2");
	if (!st)
		return -1;
	sqlite3_bind_int64(st, 1, rid);
	int rc = 0;
	if (sqlite3_step(st) == SQLITE_ROW) {
		char err[128];
		const char *json = (const char *)sqlite3_column_text(st, 0);
		rc = json && sb_transcript_from_json(out, json, NULL, err, sizeof err) == 0 ? 1 : -1;
	}
	sqlite3_finalize(st);
	return rc;
}

#ifdef HAVE_ASR
/* The oldest queued job, now marked decoding; 0 when none. */
static int64_t claim(void)
{
	if (db_exec("BEGIN IMMEDIATE") != 0)
		return 0;
	int64_t rid = 0;
	sqlite3_stmt *st = db_prep("SELECT rid FROM asr WHERE state=0 ORDER BY rid LIMIT 1");
	if (st && sqlite3_step(st) == SQLITE_ROW)
		rid = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rid) {
		st = db_prep("UPDATE asr SET state=1 WHERE rid=?");
		if (st)
			sqlite3_bind_int64(st, 1, rid);
		if (!st || db_step_done(st) != 0)
			rid = 0;
	}
	db_exec("COMMIT");
	return rid;
}

/* Ends rid's work: transcript stored (json), or failed with reason and message. */
static void finish(int64_t rid, const char *json, const char *reason, const char *message)
{
	if (db_exec("BEGIN IMMEDIATE") != 0)
		return;
	sqlite3_stmt *st = db_prep("UPDATE asr SET state=?, transcript=? WHERE rid=?");
	if (st) {
		sqlite3_bind_int(st, 1, json ? 2 : 3);
		db_bind_text(st, 2, json);
		sqlite3_bind_int64(st, 3, rid);
		db_step_done(st);
	}
	st = db_prep("UPDATE transcriptions SET work_end=MAX((SELECT min_end FROM asr WHERE rid=?1), ?2),"
		     " final_state=CASE WHEN ?3 IS NULL THEN final_state ELSE 'failed' END,"
		     " failure_reason=COALESCE(?3, failure_reason), failure_message=COALESCE(?4, failure_message)"
		     " WHERE rid=?1");
	if (st) {
		sqlite3_bind_int64(st, 1, rid);
		sqlite3_bind_double(st, 2, clock_now());
		db_bind_text(st, 3, reason);
		db_bind_text(st, 4, message);
		db_step_done(st);
	}
	db_exec("COMMIT");
}

static int should_stop(void)
{
	return atomic_load(&asr_stopping);
}

/* Decodes job rid with *dec (loaded on first use). */
static void run_job(int64_t rid, struct asr_decoder **dec)
{
	struct tr_row t;
	if (tr_load_rid(rid, &t) != 0)
		return;
	char err[256], msg[400];
	struct sb_transcript out;
	double secs = 0;
	if (t.deleted || !t.media_path) {
		finish(rid, NULL, "internal_error", "the media was removed before it was transcribed");
	} else if (!*dec && !(*dec = asr_decoder_new(ASR_MODELDIR "/en-us", err, sizeof err))) {
		snprintf(msg, sizeof msg, "the speech recognizer could not start: %s", err);
		finish(rid, NULL, "internal_error", msg);
	} else {
		int rc = asr_decoder_run(*dec, t.media_path, t.language, should_stop, &out, &secs, err, sizeof err);
		char *json = rc == 0 ? sb_transcript_to_json(&out, SB_JSON_STORAGE) : NULL;
		if (rc == -1) {
			snprintf(msg, sizeof msg, "the media could not be decoded as audio: %s", err);
			finish(rid, NULL, "unsupported_media", msg);
		} else if (rc == 0 && json) {
			finish(rid, json, NULL, NULL);
		} else if (rc == 0) {
			finish(rid, NULL, "internal_error", "out of memory while storing the transcript");
		}
		/* rc == -2: stopping; the job stays "decoding" and is queued again at the next start */
		free(json);
		sb_transcript_free(&out);
	}
	tr_row_free(&t);
}

static void *asr_main(void *arg)
{
	(void)arg;
	struct asr_decoder *dec = NULL;
	while (!atomic_load(&asr_stopping)) {
		pthread_mutex_lock(&asr_mx);
		unsigned long seen = asr_posted;
		pthread_mutex_unlock(&asr_mx);
		int64_t rid = claim();
		if (rid) {
			run_job(rid, &dec);
			continue;
		}
		pthread_mutex_lock(&asr_mx);
		while (!atomic_load(&asr_stopping) && asr_posted == seen)
			pthread_cond_wait(&asr_cond, &asr_mx);
		pthread_mutex_unlock(&asr_mx);
	}
	asr_decoder_free(dec);
	return NULL;
}
#endif

int asr_start(void)
{
	if (!sb_cfg.asr)
		return 0;
	/* Decodes cut short by the last stop start again. */
	if (db_exec("UPDATE asr SET state=0 WHERE state=1") != 0)
		return -1;
	atomic_store(&asr_stopping, 0);
#ifdef HAVE_ASR
	int want = sb_cfg.asr_threads < 1 ? 1 : sb_cfg.asr_threads > ASR_MAX_THREADS ? ASR_MAX_THREADS : sb_cfg.asr_threads;
	for (int i = 0; i < want; i++)
		if (pthread_create(&asr_threads[asr_nthreads], NULL, asr_main, NULL) == 0)
			asr_nthreads++;
#endif
	return asr_nthreads > 0 ? 0 : -1;
}

void asr_stop(void)
{
	pthread_mutex_lock(&asr_mx);
	atomic_store(&asr_stopping, 1);
	pthread_cond_broadcast(&asr_cond);
	pthread_mutex_unlock(&asr_mx);
	for (int i = 0; i < asr_nthreads; i++)
		pthread_join(asr_threads[i], NULL);
	asr_nthreads = 0;
}
