/* The background reader of transcript content: one transcription at a time, after the
 * engine's own reads, within its rate gate. See content_sync.h. */
#include "config.h"
#include "core/content_sync.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api/endpoints.h"
#include "api/http.h"
#include "api/transcript.h"
#include "core/content_db.h"
#include "core/content_internal.h"
#include "core/jobs.h"
#include "core/paths.h"
#include "core/store.h"

#define CONTENT_ID_MAX 160
#define CONTENT_MAX_BYTES (256u << 20)

enum cs_step { CS_IDLE, CS_RETRIEVING, CS_READING, CS_EXPORTING };

#define CS_MAX_READS 4

/* One read in flight (or a free slot: CS_IDLE); the engine's calls carry it as their ud. */
struct cs_read {
	struct content_sync *cs;
	enum cs_step step;
	char id[CONTENT_ID_MAX];
	char version[64];
	int job;                      /* CS_EXPORTING */
};

struct content_sync {
	struct content_sync_config cfg;
	char *org, *export_dir;
	int listener;                 /* on the store, 0: none */
	struct cs_read reads[CS_MAX_READS];
	int parallel;                 /* slots used: cfg.parallel within 1..CS_MAX_READS */
	bool direct;                  /* a retrieve gave a downloadUrl: reads may run side by
				       * side (on the earlier form each is an export: one) */
	char skip[CONTENT_ID_MAX];    /* failed a moment ago: not before skip_until */
	int64_t skip_until;
	/* what the store's list events were already noted for: items changed after noted_ms
	 * (the store's clock), the complete list of one view as (key, n, pages) */
	int64_t noted_ms;
	char kept_key[CONTENT_ID_MAX + 4];
	size_t kept_n, kept_pages;
	long fetched, failed;
	long unmerged;                /* stored since the indexes were last merged */
	int64_t started_ms;           /* the last read's start (pacing) */
	bool halted;                  /* the server needs exports, which may not be made: no
				       * more reads this run (nothing is noted as failed) */
	/* what the tables said last, kept until they change (the loop asks every pass):
	 * 1 something waits, -1 nothing (but a failure in its pause), 0 ask again */
	int waits;
	long generation;              /* bumped on every change of what is held or waits */
};

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void cs_log(struct content_sync *cs, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void cs_log(struct content_sync *cs, const char *fmt, ...)
{
	va_list ap, again;
	if (!cs->cfg.log)
		return;
	va_start(ap, fmt);
	va_copy(again, ap);
	/* whole, never cut inside a character: the line holds server names */
	int n = vsnprintf(NULL, 0, fmt, ap);
	char *line = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (line) {
		vsnprintf(line, (size_t)n + 1, fmt, again);
		cs->cfg.log(cs->cfg.ud, line);
		free(line);
	}
	va_end(again);
	va_end(ap);
}

static void cs_changed(struct content_sync *cs, const char *id)
{
	cs->waits = 0;
	cs->generation++;
	if (cs->cfg.changed)
		cs->cfg.changed(cs->cfg.ud, id);
}

void content_version_of(const struct steno_transcription *t, char *buf, size_t n)
{
	if (t->updated_at.st == STENO_PRESENT)
		snprintf(buf, n, "%" PRId64, t->updated_at.ms);
	else
		snprintf(buf, n, "%s", "");
}

static void item_of(const struct steno_transcription *t, const char *org, char *ver, size_t vn,
		    struct content_item *it)
{
	content_version_of(t, ver, vn);
	*it = (struct content_item){ .id = t->id, .org = org, .name = t->name, .state = t->state,
		.language = t->language, .updated_at = *ver ? ver : NULL,
		.has_cost = t->cost_cents.st == STENO_PRESENT, .cost_cents = t->cost_cents.v };
	if (t->tags.st == STENO_PRESENT) {
		it->tags = (const char *const *)t->tags.v;
		it->n_tags = t->tags.n;
	}
}

static int content_sync_keep(sqlite3 *db, const char *org,
			     const struct steno_transcription *const *items, size_t n,
			     struct steno_error *err);

int content_sync_note_list(sqlite3 *db, const char *org,
			   const struct steno_transcription *const *items, size_t n, bool complete,
			   struct steno_error *err)
{
	char ver[64];
	struct content_item it;
	int rc = 0;

	bool nested;
	if (content_begin(db, &nested, err) < 0)
		return -1;
	sqlite3_stmt *st = NULL;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (!items[i]->id)
			continue;
		item_of(items[i], org, ver, sizeof ver, &it);
		rc = content_db_note_item(db, &it, &st, err);
	}
	sqlite3_finalize(st);
	if (content_end(db, nested, rc, err) < 0)
		return -1;
	if (!complete || !org)
		return 0;
	return content_sync_keep(db, org, items, n, err);
}

static int content_sync_keep(sqlite3 *db, const char *org,
			     const struct steno_transcription *const *items, size_t n,
			     struct steno_error *err)
{
	const char **ids = malloc((n ? n : 1) * sizeof *ids);
	size_t k = 0;
	if (!ids)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (items[i]->id)
			ids[k++] = items[i]->id;
	long gone = content_db_keep_only(db, org, ids, k, err);
	free(ids);
	return gone < 0 ? -1 : 0;
}

/* ---- the store's news ---- */

static void on_list(struct content_sync *cs, const char *key)
{
	struct store_view *v = NULL;
	struct steno_error err;

	/* the key is "ORG/FOLDER?TAGS": every view's items are noted (with their organization),
	 * only an organization's whole list ("ORG/?") proves absence */
	const char *slash = strchr(key, '/'), *q = slash ? strchr(slash, '?') : NULL;
	if (!slash || !q || slash == key)
		return;
	char org[CONTENT_ID_MAX], folder[CONTENT_ID_MAX];
	snprintf(org, sizeof org, "%.*s", (int)(slash - key), key);
	snprintf(folder, sizeof folder, "%.*s", (int)(q - slash - 1), slash + 1);
	bool whole = !folder[0] && !q[1];
	if (cs->org && strcmp(cs->org, org) != 0)
		return;
	v = store_view_get(cs->cfg.store, org, folder[0] ? folder : NULL, q[1] ? q + 1 : NULL,
			   false);
	if (!v || !v->n)
		return;
	const struct steno_transcription **items = malloc(v->n * sizeof *items);
	size_t n = 0;
	int64_t newest = cs->noted_ms;
	if (!items)
		return;
	/* only what changed since the last event is noted: a live re-read of a long list
	 * costs what it changed, not the list; what changed is held by the store (records not
	 * held are in its db as they were noted) */
	for (size_t i = 0; i < v->n; i++) {
		const struct store_transcription *t = store_view_item_held(cs->cfg.store, v, i);
		if (!t)
			continue;
		if (t->updated_ms > cs->noted_ms || !cs->noted_ms)
			items[n++] = &t->t;
		if (t->updated_ms > newest)
			newest = t->updated_ms;
	}
	if (n && content_sync_note_list(cs->cfg.db, org, items, n, false, &err) < 0)
		cs_log(cs, "content: %s", err.message);
	if (n) {
		cs->waits = 0;
		cs->generation++;
	}
	cs->noted_ms = newest;
	/* the organization's list read to its end proves what is gone, once per new state */
	bool complete = whole && v->end && !v->has_error && !v->next_url;
	if (complete && (strcmp(cs->kept_key, key) || cs->kept_n != v->n ||
			 cs->kept_pages != v->pages)) {
		/* the ids alone: the records of a long list are not all held */
		if (content_db_keep_only(cs->cfg.db, org, (const char *const *)v->ids, v->n,
					 &err) < 0)
			cs_log(cs, "content: %s", err.message);
		cs->waits = 0;
		cs->generation++;
		snprintf(cs->kept_key, sizeof cs->kept_key, "%s", key);
		cs->kept_n = v->n;
		cs->kept_pages = v->pages;
	}
	free(items);
}

static void store_changed(void *ud, const struct store_event *ev)
{
	struct content_sync *cs = ud;
	struct steno_error err;

	if ((ev->what & STORE_WHAT_LIST) && ev->view)
		on_list(cs, ev->view);
	if ((ev->what & STORE_WHAT_TRANSCRIPTION) && ev->id &&
	    !store_transcription_get(cs->cfg.store, ev->id)) {
		if (content_db_remove(cs->cfg.db, ev->id, &err) < 0)
			cs_log(cs, "content: %s", err.message);
		else
			cs_changed(cs, ev->id);
	}
}

/* ---- one transcription ---- */

static void end_read(struct cs_read *r)
{
	r->step = CS_IDLE;
	r->id[0] = '\0';
	r->cs->waits = 0;
	r->cs->generation++;
}

static bool transient(const struct steno_error *e)
{
	return e->kind == STENO_ERR_NETWORK || e->kind == STENO_ERR_TIMEOUT ||
		e->kind == STENO_ERR_NOMEM || e->kind == STENO_ERR_IO ||
		(e->kind == STENO_ERR_HTTP && (e->http_status >= 500 || e->http_status == 429 ||
					       e->http_status == 401 || e->http_status == 403));
}

/* The read of r->id failed: gone, failed for its version, or tried again later. */
static void read_failed(struct cs_read *r, const struct steno_error *e)
{
	struct content_sync *cs = r->cs;
	struct steno_error e2;
	char id[CONTENT_ID_MAX], version[64];

	snprintf(id, sizeof id, "%s", r->id);
	snprintf(version, sizeof version, "%s", r->version);
	end_read(r);
	cs->failed++;
	cs_log(cs, "content of %s: %s", id, e->message);
	if (e->kind == STENO_ERR_HTTP && (e->http_status == 404 || e->http_status == 410)) {
		if (content_db_remove(cs->cfg.db, id, &e2) < 0)
			cs_log(cs, "content: %s", e2.message);
	} else if (transient(e)) {
		snprintf(cs->skip, sizeof cs->skip, "%s", id);
		cs->skip_until = now_ms() + (cs->cfg.retry_ms > 0 ? cs->cfg.retry_ms : 5000);
	} else if (content_db_put_failed(cs->cfg.db, id, version, e->message, &e2) < 0) {
		cs_log(cs, "content: %s", e2.message);
	}
	cs_changed(cs, id);
}

/* Stores t (borrowed). */
static void store_transcript(struct cs_read *r, const struct steno_transcript *t)
{
	struct content_sync *cs = r->cs;
	struct steno_error e;
	int rc = content_db_put(cs->cfg.db, r->id, r->version, t, (int64_t)time(NULL), &e);
	if (rc < 0) {
		read_failed(r, &e);
		return;
	}
	char id[CONTENT_ID_MAX];
	snprintf(id, sizeof id, "%s", r->id);
	end_read(r);
	cs->fetched++;
	cs->unmerged++;
	cs_changed(cs, id);
}

static void store_body(struct cs_read *r, const char *body, size_t len)
{
	struct steno_transcript t;
	struct steno_error e;

	if (steno_transcript_parse(body, len, &t, &e) < 0) {
		read_failed(r, &e);
		return;
	}
	store_transcript(r, &t);
	steno_transcript_free(&t);
}

static void on_content(void *ud, struct steno_api_content *res, const struct steno_error *err)
{
	struct cs_read *r = ud;
	if (err)
		read_failed(r, err);
	else   /* parsed once, by the engine */
		store_transcript(r, &res->transcript);
}

static void export_path(struct cs_read *r, char *buf, size_t n)
{
	snprintf(buf, n, "%s/%s.json", r->cs->export_dir, r->id);
}

static void start_export(struct cs_read *r)
{
	struct content_sync *cs = r->cs;
	struct steno_error e;
	char name[CONTENT_ID_MAX + 8];

	if (!cs->cfg.allow_export || !cs->cfg.jobs || !cs->export_dir) {
		/* every transcript of this server would need one: none is read this run, and
		 * none is noted as failed (a run that may make exports reads them) */
		cs_log(cs, "transcripts not read: this server gives no downloadUrl (earlier API "
		       "form), and reading them through JSON exports %s",
		       cs->cfg.allow_export ? "is not possible here" :
		       "would create exports on the server (read-only, or in the background)");
		cs->halted = true;
		end_read(r);
		return;
	}
	const char *ids[1] = { r->id };
	struct steno_export_create_req req = { .format = "json", .transcription_ids = ids,
					       .n_transcription_ids = 1 };
	snprintf(name, sizeof name, "%s.json", r->id);
	if (paths_mkdir_private(cs->export_dir, &e) != 0 ||
	    (r->job = jobs_export(cs->cfg.jobs, &req, cs->export_dir, name, true, &e)) < 0) {
		read_failed(r, &e);
		return;
	}
	r->step = CS_EXPORTING;
}

static void on_retrieved(void *ud, struct steno_transcription *t, const struct steno_error *err)
{
	struct cs_read *r = ud;
	struct content_sync *cs = r->cs;
	struct steno_error e;
	struct content_item it;
	char ver[64];

	if (err) {
		read_failed(r, err);
		return;
	}
	item_of(t, NULL, ver, sizeof ver, &it);
	if (content_db_note_item(cs->cfg.db, &it, NULL, &e) < 0) {
		read_failed(r, &e);
		return;
	}
	snprintf(r->version, sizeof r->version, "%s", ver);
	if (!t->state || strcmp(t->state, "automatic_done") != 0) {
		end_read(r);   /* no longer finished: noted, no longer waits */
		return;
	}
	if (t->download_url && t->download_url[0]) {
		cs->direct = true;
		if (steno_api_transcription_content(cs->cfg.http, t->download_url, on_content, r,
						    &e) < 0)
			read_failed(r, &e);
		else
			r->step = CS_READING;
		return;
	}
	start_export(r);
}

static void follow_export(struct cs_read *r)
{
	const struct steno_job *j = jobs_get(r->cs->cfg.jobs, r->job);
	struct steno_error e;
	char path[1400];
	char *body = NULL;
	size_t len = 0;

	if (!j || (j->step != JOB_STEP_DONE && j->step != JOB_STEP_FAILED &&
		   j->step != JOB_STEP_CANCELLED))
		return;
	if (j->step != JOB_STEP_DONE) {
		steno_error_set(&e, j->error.kind ? j->error.kind : STENO_ERR_INVALID,
				"the JSON export failed: %s", j->error.message);
		read_failed(r, &e);
		return;
	}
	export_path(r, path, sizeof path);
	if (paths_read_file(path, CONTENT_MAX_BYTES, &body, &len, &e) < 0) {
		read_failed(r, &e);
		return;
	}
	unlink(path);
	store_body(r, body, len);
	free(body);
}

/* ---- the loop ---- */

/* Milliseconds before the pacing lets the next read start (0: now). */
static long pace_wait(const struct content_sync *cs)
{
	if (cs->cfg.per_second <= 0 || !cs->started_ms)
		return 0;
	int64_t next = cs->started_ms + (int64_t)(1000.0 / cs->cfg.per_second);
	int64_t now = now_ms();
	return next > now ? (long)(next - now) : 0;
}

/* A free slot, or NULL when `parallel` reads are in flight. */
static struct cs_read *free_read(struct content_sync *cs)
{
	for (int i = 0; i < cs->parallel; i++)
		if (cs->reads[i].step == CS_IDLE)
			return &cs->reads[i];
	return NULL;
}

bool content_sync_active(const struct content_sync *cs)
{
	for (int i = 0; i < CS_MAX_READS; i++)
		if (cs->reads[i].step != CS_IDLE)
			return true;
	return false;
}

static bool exporting(const struct content_sync *cs)
{
	for (int i = 0; i < CS_MAX_READS; i++)
		if (cs->reads[i].step == CS_EXPORTING)
			return true;
	return false;
}

static bool may_start(struct content_sync *cs)
{
	if (!free_read(cs) || cs->halted || pace_wait(cs) > 0)
		return false;
	if (!cs->direct && content_sync_active(cs))
		return false;   /* one read until the server's form is known */
	if (cs->cfg.busy && cs->cfg.busy(cs->cfg.ud))
		return false;
	return steno_http_rate_wait_ms(cs->cfg.http, NULL) == 0;
}

/* The skip of a failure in its pause, or NULL once the pause is over. */
static const char *skipped(struct content_sync *cs)
{
	if (!cs->skip[0])
		return NULL;
	if (now_ms() < cs->skip_until)
		return cs->skip;
	cs->skip[0] = '\0';
	cs->waits = 0;   /* it may be handed out again */
	return NULL;
}

/* A fill of fewer transcriptions leaves its segments to FTS5's own merging (a few a
 * transcription, merged as they add up); a merge of the whole index costs some 0.3 s a
 * thousand transcriptions, not to be paid for each new one in the browser. */
#define MERGE_AFTER 32

/* Nothing waits: the indexes of what it stored are merged, once a fill (once its last
 * read is in) of at least MERGE_AFTER transcriptions. */
static void fill_over(struct content_sync *cs)
{
	struct steno_error e;
	if (content_sync_active(cs) || cs->unmerged < MERGE_AFTER)
		return;
	if (content_db_optimize(cs->cfg.db, &e) < 0)
		cs_log(cs, "content: %s", e.message);
	cs->unmerged = 0;
}

/* The next transcription that waits and is not in flight nor in a failure's pause:
 * 1 with it in r, 0 none, -1 error (logged). */
static int next_waiting(struct content_sync *cs, struct cs_read *r)
{
	struct steno_error e;
	const char *skip[CS_MAX_READS + 1];
	size_t n = 0;
	const char *failed = skipped(cs);
	if (failed)
		skip[n++] = failed;
	for (int i = 0; i < CS_MAX_READS; i++)
		if (cs->reads[i].step != CS_IDLE)
			skip[n++] = cs->reads[i].id;
	char id[CONTENT_ID_MAX], version[64];
	int rc = content_db_next_waiting_except(cs->cfg.db, cs->org, skip, n, id, sizeof id,
						version, sizeof version, &e);
	if (rc < 0)
		cs_log(cs, "content: %s", e.message);
	if (rc > 0 && r) {
		snprintf(r->id, sizeof r->id, "%s", id);
		snprintf(r->version, sizeof r->version, "%s", version);
	}
	return rc;
}

void content_sync_run(struct content_sync *cs)
{
	struct steno_error e;

	for (int i = 0; i < CS_MAX_READS; i++)
		if (cs->reads[i].step == CS_EXPORTING)
			follow_export(&cs->reads[i]);
	/* at most one start a free slot a pass: a retrieve that fails at once is not tried
	 * again and again in this loop */
	for (int k = 0; k < cs->parallel && cs->waits >= 0 && may_start(cs); k++) {
		struct cs_read *r = free_read(cs);
		int rc = next_waiting(cs, r);
		if (rc <= 0) {
			r->id[0] = '\0';
			cs->waits = rc == 0 ? -1 : 0;
			if (rc == 0)
				fill_over(cs);
			return;
		}
		cs->waits = 1;
		cs->started_ms = now_ms();
		r->step = CS_RETRIEVING;
		if (steno_api_transcription_retrieve(cs->cfg.http, r->id, on_retrieved, r, &e) < 0)
			read_failed(r, &e);
	}
}

long content_sync_timeout_ms(struct content_sync *cs)
{
	if (exporting(cs))
		return 500;   /* the export job moves through the engine; its end is read here */
	if (!free_read(cs) || cs->halted || (cs->cfg.busy && cs->cfg.busy(cs->cfg.ud)))
		return -1;
	const char *skip = skipped(cs);
	if (!cs->waits) {
		int rc = next_waiting(cs, NULL);
		cs->waits = rc > 0 ? 1 : rc == 0 ? -1 : 0;
		if (rc == 0)
			fill_over(cs);
	}
	if (cs->waits > 0) {
		long gate = steno_http_rate_wait_ms(cs->cfg.http, NULL), pace = pace_wait(cs);
		return pace > gate ? pace : gate;
	}
	if (skip)   /* only the one that failed waits: at the end of its pause */
		return (long)(cs->skip_until - now_ms());
	return -1;
}

long content_sync_generation(const struct content_sync *cs) { return cs->generation; }
long content_sync_fetched(const struct content_sync *cs) { return cs->fetched; }
long content_sync_failed(const struct content_sync *cs) { return cs->failed; }

void content_sync_progress(struct content_sync *cs, long *held, long *waiting)
{
	struct steno_error e;
	if (content_db_counts(cs->cfg.db, cs->org, held, waiting, &e) < 0)
		*held = *waiting = -1;
}

struct content_sync *content_sync_new(const struct content_sync_config *cfg,
				      struct steno_error *err)
{
	struct content_sync *cs;

	if (!cfg->http || !cfg->db) {
		steno_error_invalid(err, "content", "no engine or no local store");
		return NULL;
	}
	if (!(cs = calloc(1, sizeof *cs))) {
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		return NULL;
	}
	cs->cfg = *cfg;
	cs->parallel = cfg->parallel < 1 ? 1 : cfg->parallel > CS_MAX_READS ? CS_MAX_READS :
		cfg->parallel;
	for (int i = 0; i < CS_MAX_READS; i++)
		cs->reads[i].cs = cs;
	cs->org = cfg->org ? strdup(cfg->org) : NULL;
	cs->export_dir = cfg->export_dir ? strdup(cfg->export_dir) : NULL;
	if ((cfg->org && !cs->org) || (cfg->export_dir && !cs->export_dir) ||
	    (cfg->store && (cs->listener = store_listen(cfg->store, store_changed, NULL, cs)) < 0)) {
		cs->listener = 0;
		content_sync_free(cs);
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		return NULL;
	}
	return cs;
}

void content_sync_free(struct content_sync *cs)
{
	if (!cs)
		return;
	if (cs->listener > 0)
		store_unlisten(cs->cfg.store, cs->listener);
	for (int i = 0; i < CS_MAX_READS; i++)
		steno_http_cancel_owner(cs->cfg.http, &cs->reads[i]);
	free(cs->org);
	free(cs->export_dir);
	free(cs);
}
