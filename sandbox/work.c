/* work: ingestion workers and the transcription scheduler. */
#include "config.h"

#include "work.h"

#include "asr.h"
#include "clock.h"
#include "content.h"
#include "db.h"
#include "fetch.h"
#include "formats/media.h"
#include "model.h"
#include "model_order.h"
#include "sandbox.h"
#include "signed_url.h"
#include "stopping.h"
#include "util.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define WORK_THREADS 2
#define WORK_QUEUE 4096

static pthread_mutex_t work_lock_mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work_cond = PTHREAD_COND_INITIALIZER;
static int64_t work_queue[WORK_QUEUE];
static size_t work_head, work_count;
static int work_stopping;
static pthread_t work_threads[WORK_THREADS];
static int work_nthreads;

int work_url_is_local(const char *url)
{
	size_t n = strlen(sb_cfg.origin);
	return url && strncmp(url, sb_cfg.origin, n) == 0 && strncmp(url + n, "/storage/", 9) == 0;
}

/* Path of the stored upload behind a local signedUrl, or NULL (caller frees). */
static char *local_upload_path(const char *url)
{
	const char *p = url + strlen(sb_cfg.origin) + 9;
	char token[40];
	size_t i = 0;
	while (p[i] && p[i] != '/' && i < sizeof token - 1) {
		token[i] = p[i];
		i++;
	}
	token[i] = '\0';
	sqlite3_stmt *st = db_prep("SELECT stored FROM uploads WHERE token=?");
	int stored = 0;
	if (!st)
		return NULL;
	sqlite3_bind_text(st, 1, token, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		stored = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return stored ? util_printf("%s/uploads/%s", sb_cfg.data_dir, token) : NULL;
}

/* The value of query parameter `name` in q ("a=1&b=2"), copied into out; NULL when absent. */
static const char *query_param(const char *q, const char *name, char *out, size_t n)
{
	size_t len = strlen(name);
	while (q && *q) {
		const char *amp = strchr(q, '&');
		size_t seg = amp ? (size_t)(amp - q) : strlen(q);
		if (seg > len && strncmp(q, name, len) == 0 && q[len] == '=') {
			snprintf(out, n, "%.*s", (int)(seg - len - 1), q + len + 1);
			return out;
		}
		q = amp ? amp + 1 : NULL;
	}
	return NULL;
}

/* A signedUrl of our own storage must be signed by us; its expiry does not matter, since the
 * service reads its own storage for the life of the object. Returns 0, or -1 with why in msg. */
static int local_url_check(const char *url, char *msg, size_t n)
{
	const char *rest = url + strlen(sb_cfg.origin);
	const char *q = strchr(rest, '?');
	char path[512], expires[32], sig[80];
	if (!q || (size_t)(q - rest) >= sizeof path) {
		snprintf(msg, n, "the signedUrl is not signed (HTTP 403)");
		return -1;
	}
	snprintf(path, sizeof path, "%.*s", (int)(q - rest), rest);
	int rc = signed_url_check_stored(path, query_param(q + 1, "expires", expires, sizeof expires),
					 query_param(q + 1, "signature", sig, sizeof sig));
	if (rc != 0)
		snprintf(msg, n, "the signedUrl's signature is not valid (HTTP 403)");
	return rc == 0 ? 0 : -1;
}

static int64_t media_seed(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint64_t h = 1469598103934665603ULL;
	if (!f)
		return 1;
	unsigned char buf[8192];
	size_t n, total = 0;
	while (total < 65536 && (n = fread(buf, 1, sizeof buf, f)) > 0) {
		for (size_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 1099511628211ULL;
		total += n;
	}
	fclose(f);
	struct stat sb;
	if (stat(path, &sb) == 0)
		h ^= (uint64_t)sb.st_size;
	return (int64_t)(h & 0x7fffffffffffffffULL);
}

static void ingest_fail(int64_t rid, const char *reason, const char *message)
{
	sqlite3_stmt *st = db_prep("UPDATE transcriptions SET fetch=2, final_state='failed', failure_reason=?,"
				   " failure_message=? WHERE rid=?");
	if (!st)
		return;
	sqlite3_bind_text(st, 1, reason, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, message, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, rid);
	db_step_done(st);
}

/* Media to a local path: the stored upload, or a download. NULL after ingest_fail. */
static char *ingest_media(const struct tr_row *t)
{
	char err[256];
	if (work_url_is_local(t->tmp_url)) {
		char msg[320];
		if (local_url_check(t->tmp_url, err, sizeof err) != 0) {
			snprintf(msg, sizeof msg, "tmp_url could not be downloaded: %s", err);
			ingest_fail(t->rid, "download_failed", msg);
			return NULL;
		}
		char *p = local_upload_path(t->tmp_url);
		if (!p)
			ingest_fail(t->rid, "download_failed", "tmp_url: nothing was uploaded to this signedUrl");
		return p;
	}
	char *path = util_printf("%s/media/%s", sb_cfg.data_dir, t->id);
	if (!path)
		return NULL;
	if (fetch_to_file(t->tmp_url, path, SB_MEDIA_MAX, err, sizeof err) != 0) {
		free(path);
		if (stopping_now())
			return NULL; /* cut by the stop: still to download, queued again at the next start */
		char msg[320];
		snprintf(msg, sizeof msg, "tmp_url could not be downloaded: %s", err);
		ingest_fail(t->rid, "download_failed", msg);
		return NULL;
	}
	return path;
}

static char *ingest_document(const struct tr_row *t)
{
	char err[256];
	char *doc = NULL;
	if (work_url_is_local(t->document_url)) {
		if (local_url_check(t->document_url, err, sizeof err) == 0) {
			char *p = local_upload_path(t->document_url);
			doc = p ? util_read_file(p, NULL) : NULL;
			free(p);
			if (!doc)
				snprintf(err, sizeof err, "nothing was uploaded to this signedUrl");
		}
	} else {
		doc = fetch_to_mem(t->document_url, SB_DOC_MAX, NULL, err, sizeof err);
	}
	if (!doc && !stopping_now()) { /* cut by the stop: queued again at the next start */
		char msg[320];
		snprintf(msg, sizeof msg, "document_url could not be downloaded: %s", err);
		ingest_fail(t->rid, "document_unreachable", msg);
	}
	return doc;
}

void work_ingest(int64_t rid)
{
	struct tr_row t;
	if (tr_load_rid(rid, &t) != 0)
		return;
	if (t.fetch != 0) {
		tr_row_free(&t);
		return;
	}
	char *path = ingest_media(&t);
	char *doc = NULL;
	if (path && t.document_url)
		doc = ingest_document(&t);
	if (path && (!t.document_url || doc)) {
		double secs = 0;
		int how = sb_media_duration(path, &secs);
		if (how == 1 && asr_applies(&t)) {
			ingest_fail(rid, "unsupported_media", "the media could not be decoded as audio (the sandbox reads"
				    " WAV, FLAC, OGG/Vorbis and MP3 files)");
		} else if (how < 0 || secs < 1.0) {
			ingest_fail(rid, "unsupported_media", "no audio could be recognized in the media file");
		} else {
			sqlite3_stmt *st = db_prep("UPDATE transcriptions SET fetch=1, media_path=?, audio_seconds=?,"
						   " seed=?, document=? WHERE rid=?");
			if (st) {
				sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
				sqlite3_bind_int64(st, 2, (int64_t)ceil(secs));
				sqlite3_bind_int64(st, 3, media_seed(path));
				db_bind_text(st, 4, doc);
				sqlite3_bind_int64(st, 5, rid);
				db_step_done(st);
			}
		}
	}
	free(path);
	free(doc);
	tr_row_free(&t);
	work_try_schedule(rid);
}

int work_lock(int64_t rid, double now)
{
	sqlite3_stmt *st = db_prep("UPDATE transcriptions SET fixed_state=NULL, ingest_end=?, work_end=?,"
				   " final_state='locked', failure_reason='insufficient_credits', failure_message="
				   "'the organization does not have enough credit' WHERE rid=?");
	if (!st)
		return -1;
	sqlite3_bind_double(st, 1, now);
	sqlite3_bind_double(st, 2, now);
	sqlite3_bind_int64(st, 3, rid);
	return db_step_done(st);
}

/* Direct (not order) transcriptions pay per minute when their work starts. 0 paid, 1 no credit. */
static int charge_direct(const struct tr_row *t, int64_t *cost)
{
	*cost = media_minutes(t->audio_seconds) * price_cents_per_minute(t->service, 0);
	sqlite3_stmt *st = db_prep("UPDATE orgs SET credit_cents=credit_cents-?1 WHERE id=?2 AND credit_cents>=?1");
	if (!st)
		return 1;
	sqlite3_bind_int64(st, 1, *cost);
	sqlite3_bind_int64(st, 2, t->org_id);
	db_step_done(st);
	return sqlite3_changes(db_conn()) == 1 ? 0 : 1;
}

/* Returns 1 when the work was queued for speech recognition (asr_wake after the commit). */
static int schedule_row(const struct tr_row *t, double now)
{
	double ingest_end = fmax(t->has_started ? t->started_at + 2.0 : t->created_at + 2.0, now);
	double work_end = ingest_end;
	int64_t cost = t->cost_cents;
	if (t->fetch == 1) {
		int locked = t->order_id ? order_charge(t->order_id, now) == 1 : charge_direct(t, &cost);
		if (locked) {
			work_lock(t->rid, now);
			return 0;
		}
		work_end = ingest_end + work_seconds(t->service, t->boost, (double)t->audio_seconds);
	}
	/* Recognised media: work_end stays NULL (automatic_transcribing) until the decode is done. */
	int recognise = t->fetch == 1 && asr_applies(t) && asr_queue(t->rid, work_end) == 0;
	sqlite3_stmt *st = db_prep("UPDATE transcriptions SET ingest_end=?, work_end=?,"
				   " final_state=COALESCE(final_state,'automatic_done'), cost_cents=? WHERE rid=?"
				   " AND ingest_end IS NULL");
	if (!st)
		return 0;
	sqlite3_bind_double(st, 1, ingest_end);
	if (recognise)
		sqlite3_bind_null(st, 2);
	else
		sqlite3_bind_double(st, 2, work_end);
	sqlite3_bind_int64(st, 3, cost);
	sqlite3_bind_int64(st, 4, t->rid);
	db_step_done(st);
	return recognise;
}

void work_try_schedule(int64_t rid)
{
	/* One writer at a time: charging and scheduling must not run twice for a row. */
	if (db_exec("BEGIN IMMEDIATE") != 0)
		return;
	struct tr_row t;
	int recognise = 0;
	if (tr_load_rid(rid, &t) == 0) {
		if (!t.has_ingest_end && !t.fixed_state && t.fetch != 0)
			recognise = schedule_row(&t, clock_now());
		tr_row_free(&t);
	}
	db_exec("COMMIT");
	if (recognise)
		asr_wake();
}

int work_schedule_translation(int64_t rid, double start, double dur)
{
	sqlite3_stmt *st = db_prep("UPDATE transcriptions SET fixed_state=NULL, fetch=1, started_at=?1, ingest_end=?1,"
				   " work_end=?2, final_state='automatic_done' WHERE rid=?3");
	if (!st)
		return -1;
	sqlite3_bind_double(st, 1, start);
	sqlite3_bind_double(st, 2, start + dur);
	sqlite3_bind_int64(st, 3, rid);
	return db_step_done(st);
}

void work_enqueue(int64_t rid)
{
	pthread_mutex_lock(&work_lock_mx);
	if (work_count < WORK_QUEUE) {
		work_queue[(work_head + work_count) % WORK_QUEUE] = rid;
		work_count++;
		pthread_cond_signal(&work_cond);
	}
	pthread_mutex_unlock(&work_lock_mx);
}

static void *work_main(void *arg)
{
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&work_lock_mx);
		while (!work_stopping && work_count == 0)
			pthread_cond_wait(&work_cond, &work_lock_mx);
		if (work_stopping) {
			pthread_mutex_unlock(&work_lock_mx);
			break;
		}
		int64_t rid = work_queue[work_head];
		work_head = (work_head + 1) % WORK_QUEUE;
		work_count--;
		pthread_mutex_unlock(&work_lock_mx);
		work_ingest(rid);
	}
	return NULL;
}

int work_start(void)
{
	char *dir = util_printf("%s/media", sb_cfg.data_dir);
	if (!dir || util_mkdir_p(dir) != 0) {
		free(dir);
		return -1;
	}
	free(dir);
	sqlite3_stmt *st = db_prep("SELECT rid FROM transcriptions WHERE fetch=0 AND tmp_url IS NOT NULL AND deleted=0");
	if (st) {
		while (sqlite3_step(st) == SQLITE_ROW)
			work_enqueue(sqlite3_column_int64(st, 0));
		sqlite3_finalize(st);
	}
	for (int i = 0; i < WORK_THREADS; i++)
		if (pthread_create(&work_threads[i], NULL, work_main, NULL) == 0)
			work_nthreads++;
	return work_nthreads > 0 ? 0 : -1;
}

void work_stop(void)
{
	pthread_mutex_lock(&work_lock_mx);
	work_stopping = 1;
	pthread_cond_broadcast(&work_cond);
	pthread_mutex_unlock(&work_lock_mx);
	for (int i = 0; i < work_nthreads; i++)
		pthread_join(work_threads[i], NULL);
	work_nthreads = 0;
}

int64_t work_translation_create(const struct tr_row *src, const char *target, const char *order_id, int initial,
				double start, double dur, char id_out[33])
{
	sqlite3_stmt *st = db_prep("INSERT INTO transcriptions(id, org_id, folder_id, name, language, service,"
				   " is_subtitle, sharing, tags, created_at, updated_at, started_at, fetch, ingest_end,"
				   " work_end, final_state, fixed_state, audio_seconds, seed, order_id, source_rid,"
				   " cost_cents) VALUES(?1,?2,?3,?4,?5,'auto',?6,0,'[]',?7,?7,?7,1,?8,?9,'automatic_done',"
				   "?10,?11,?12,?13,?14,?15)");
	char *name = util_printf("%s (%s)", src->name ? src->name : "", target);
	if (!st || !name) {
		sqlite3_finalize(st);
		free(name);
		return -1;
	}
	util_random_hex(id_out, 16);
	sqlite3_bind_text(st, 1, id_out, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, src->org_id);
	sqlite3_bind_int64(st, 3, src->folder_id);
	sqlite3_bind_text(st, 4, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, target, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 6, src->is_subtitle);
	sqlite3_bind_double(st, 7, start);
	if (initial) {
		sqlite3_bind_null(st, 8);
		sqlite3_bind_null(st, 9);
		sqlite3_bind_text(st, 10, "initial", -1, SQLITE_STATIC);
	} else {
		sqlite3_bind_double(st, 8, start);
		sqlite3_bind_double(st, 9, start + dur);
		sqlite3_bind_null(st, 10);
	}
	sqlite3_bind_int64(st, 11, src->audio_seconds);
	sqlite3_bind_int64(st, 12, src->seed);
	db_bind_text(st, 13, order_id);
	sqlite3_bind_int64(st, 14, src->rid);
	sqlite3_bind_int64(st, 15, order_id ? 0 : media_minutes(src->audio_seconds) * price_cents_per_minute("auto", 1));
	int rc = db_step_done(st);
	free(name);
	return rc == 0 ? sqlite3_last_insert_rowid(db_conn()) : -1;
}

double work_task_seconds(const struct tr_row *src)
{
	struct sb_transcript s;
	double words = 0;
	if (content_build(src, &s) == 0)
		words = (double)sb_transcript_word_count(&s);
	sb_transcript_free(&s);
	return fmin(120.0, 10.0 + floor(words / 100.0));
}
