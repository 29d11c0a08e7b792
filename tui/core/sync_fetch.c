/* The sync engine's reads: list pages, one transcription, the scheduler's polls of orders,
 * exports and translation tasks; their answers go to the store. */
#include "config.h"

#include "core/sync_internal.h"

#include <stdlib.h>
#include <string.h>

#include "api/endpoints.h"

/* ---- reads in flight ---- */

struct sync_req *sync_req_new(struct steno_sync *s, enum sync_req_kind kind, const char *key,
			      const char *id)
{
	struct sync_req *r = calloc(1, sizeof *r);

	if (!r)
		return NULL;
	r->s = s;
	r->kind = kind;
	r->key = strdup(key);
	r->id = sync_strdup0(id);
	if (!r->key || (id && !r->id) || !store_refresh_begin(s->cfg.store, key)) {
		free(r->key);
		free(r->id);
		free(r);
		return NULL;
	}
	r->started_ms = sync_now_ms(s);
	r->next = s->reqs;
	if (s->reqs)
		s->reqs->prev = r;
	s->reqs = r;
	s->n_reqs++;
	return r;
}

/* Unlinks and frees; ends the resource's refresh. */
void sync_req_done(struct sync_req *r)
{
	struct steno_sync *s = r->s;

	if (r->prev)
		r->prev->next = r->next;
	else
		s->reqs = r->next;
	if (r->next)
		r->next->prev = r->prev;
	s->n_reqs--;
	store_refresh_end(s->cfg.store, r->key);
	free(r->key);
	free(r->id);
	free(r->org);
	free(r->folder);
	free(r->tags);
	free(r);
}

/* A success is already in the log as the engine's trace line; an error also gets a line
 * that says what the read was for. */
/* The error as the listener hears it: an answer that could not be read names the request
 * ("GET transcriptions/ID: invalid JSON ..."); the server's own words (HTTP) and a network
 * failure (about the server, not one request) stay as they are. */
static void req_named_error(const struct sync_req *r, const struct steno_error *err,
			    struct steno_error *named)
{
	*named = *err;
	if (err->kind != STENO_ERR_HTTP && err->kind != STENO_ERR_NETWORK &&
	    err->kind != STENO_ERR_TIMEOUT && r->what[0]) {
		steno_error_set(named, err->kind, "%s: %s", r->what, err->message);
		named->http_status = err->http_status;
	}
}

static void req_log_error(struct sync_req *r, const struct steno_error *err)
{
	long ms = (long)(sync_now_ms(r->s) - r->started_ms);

	if (err->kind == STENO_ERR_HTTP)
		sync_log(r->s, "%s -> %ld %s (%ldms)", r->what, err->http_status, err->message, ms);
	else
		sync_log(r->s, "%s -> %s: %s (%ldms)", r->what, steno_error_kind_name(err->kind),
			 err->message, ms);
}

/* ---- list pages ---- */

static bool transient(const struct steno_error *err)
{
	return err->kind == STENO_ERR_NETWORK || err->kind == STENO_ERR_TIMEOUT ||
		(err->kind == STENO_ERR_HTTP && (err->http_status >= 500 || err->http_status == 429));
}

static void replace(char **dst, const char *src)
{
	free(*dst);
	*dst = sync_strdup0(src);
}

/* Lost connections and overloaded servers heal: the list is tried again, backing off from
 * 2 s to a minute. A refused key or a bad request is not retried. */
static void schedule_list_retry(struct sync_req *r, const struct steno_error *err)
{
	struct steno_sync *s = r->s;

	if (!transient(err))
		return;
	s->list_retry_ms = s->list_retry_ms ? s->list_retry_ms * 2 : 2000;
	if (s->list_retry_ms > 60000)
		s->list_retry_ms = 60000;
	if (err->retry_after_s > 0 && err->retry_after_s * 1000 > (double)s->list_retry_ms)
		s->list_retry_ms = (int64_t)(err->retry_after_s * 1000);
	s->list_retry_at = sync_now_ms(s) + s->list_retry_ms;
	s->list_retry_first = r->first;
	replace(&s->retry_org, r->org);
	replace(&s->retry_folder, r->folder);
	replace(&s->retry_tag, r->tags);
	sync_log(s, "list: trying again in %llds", (long long)(s->list_retry_ms / 1000));
}

void sync_retry_list(struct steno_sync *s)
{
	if (!s->list_retry_at || sync_now_ms(s) < s->list_retry_at)
		return;
	s->list_retry_at = 0;
	sync_load_view(s, s->retry_org, s->retry_folder, s->retry_tag, s->list_retry_first, false);
}

static int load_page(struct steno_sync *s, struct store_view *v, bool first, bool load_all,
		     bool live);

/* The read of v ended: page 1 asked meanwhile (sync_load_view, e.g. R) is read now. True when
 * it was. */
static bool reread_asked(struct steno_sync *s, struct store_view *v)
{
	if (!s->reread_key || strcmp(s->reread_key, v->key) != 0)
		return false;
	free(s->reread_key);
	s->reread_key = NULL;
	load_page(s, v, true, s->reread_load_all, false);
	return true;
}

static void page_done(void *ud, struct steno_transcription_page *res, const struct steno_error *err)
{
	struct sync_req *r = ud;
	struct steno_sync *s = r->s;
	int64_t now = sync_now_ms(s);
	struct store_view *v = store_view_get(s->cfg.store, r->org, r->folder, r->tags, true);
	struct steno_error e2, named;

	if (err)
		req_named_error(r, err, &named);
	if (r->live)   /* sync_live.c takes it into account on its next run */
		s->live.answer = !err ? LIVE_OK : err->kind == STENO_ERR_HTTP &&
			err->http_status == 429 ? LIVE_429 : LIVE_FAILED;
	if (err)
		req_log_error(r, err);
	if (!v) {
		sync_req_done(r);
		return;
	}
	if (err) {
		store_view_failed(s->cfg.store, v, err);
		sync_note_error(s, &named);
		if (!r->live)
			schedule_list_retry(r, err);
		sync_req_done(r);
		reread_asked(s, v);
		return;
	}
	s->list_retry_ms = 0;
	sync_note_ok(s);
	for (size_t i = 0; i < res->n; i++)
		if (res->items[i].id)
			scheduler_track(s->sched, SCHED_TRANSCRIPTION, res->items[i].id,
					res->items[i].state, now);
	bool first = r->first, live = r->live, load_all = r->load_all;
	char *org = r->org, *folder = r->folder, *tags = r->tags;
	r->org = r->folder = r->tags = NULL;
	sync_req_done(r);
	int rc = live ? store_view_merge_head(s->cfg.store, v, res, now, &e2)
		      : store_view_add_page(s->cfg.store, v, res, first, now, &e2);
	if (rc < 0)
		sync_tell_error(s, &e2);
	if (!reread_asked(s, v) && load_all && !v->end && v->next_url)
		sync_load_view(s, org, folder, tags, false, true);
	free(org);
	free(folder);
	free(tags);
}

static struct sync_req *page_req(struct steno_sync *s, struct store_view *v, bool first)
{
	struct sync_req *r = sync_req_new(s, SYNC_REQ_PAGE, v->key, NULL);

	if (!r)
		return NULL;
	r->first = first;
	r->org = sync_strdup0(v->org_id);
	r->folder = sync_strdup0(v->folder_id);
	r->tags = sync_strdup0(v->tags);
	if ((v->org_id && !r->org) || (v->folder_id && !r->folder) || (v->tags && !r->tags)) {
		sync_req_done(r);
		return NULL;
	}
	snprintf(r->what, sizeof r->what, "GET transcriptions %s page %zu", v->key,
		 first ? (size_t)1 : v->pages + 1);
	return r;
}

struct store_view *sync_view(struct steno_sync *s, const char *org_id, const char *folder_id,
			     const char *tag)
{
	if (!org_id)
		return NULL;
	return store_view_get(s->cfg.store, org_id, folder_id, tag && *tag ? tag : NULL, true);
}

/* Starts a read of page 1 (first) or of the next page; live: merged into what is listed. */
static int load_page(struct steno_sync *s, struct store_view *v, bool first, bool load_all,
		     bool live)
{
	struct steno_error err;
	const char *tag = v->tags;
	int rc;

	if (!first && (v->end || !v->next_url))
		return 0;
	if (first && !live && store_refresh_running(s->cfg.store, v->key)) {
		/* another read of this view runs (a next page, the live re-read): page 1 is read
		 * again when it ends, so what changed meanwhile is not missed */
		char *key = strdup(v->key);
		if (!key)
			return -1;
		free(s->reread_key);
		s->reread_key = key;
		s->reread_load_all = load_all;
		return 0;
	}
	struct sync_req *r = page_req(s, v, first);
	if (!r)
		return 0;   /* already loading */
	r->load_all = load_all;
	r->live = live;
	if (first) {
		struct steno_api_list_query q = { .organization_id = v->org_id,
			.folder_id = v->folder_id, .page = -1,
			.tags = tag ? &tag : NULL, .n_tags = tag ? 1 : 0 };
		rc = steno_api_transcriptions_list(s->cfg.http, &q, page_done, r, &err);
	} else {
		rc = steno_api_transcriptions_list_url(s->cfg.http, v->next_url, page_done, r, &err);
	}
	if (rc < 0) {
		sync_req_done(r);
		sync_tell_error(s, &err);
		return -1;
	}
	return 1;
}

int sync_load_view(struct steno_sync *s, const char *org_id, const char *folder_id,
		   const char *tag, bool first, bool load_all)
{
	struct store_view *v = sync_view(s, org_id, folder_id, tag);

	if (!v)
		return -1;
	return load_page(s, v, first, load_all, false) < 0 ? -1 : 0;
}

int sync_load_live(struct steno_sync *s, struct store_view *v)
{
	return load_page(s, v, true, false, true);
}

/* ---- one transcription ---- */

static void transcription_done(void *ud, struct steno_transcription *res,
			       const struct steno_error *err)
{
	struct sync_req *r = ud;
	struct steno_sync *s = r->s;
	int64_t now = sync_now_ms(s);
	struct steno_error e2, named;
	char *id = r->id;

	r->id = NULL;
	if (err) {
		req_log_error(r, err);
		req_named_error(r, err, &named);
	}
	sync_req_done(r);
	if (err && err->kind == STENO_ERR_HTTP &&
	    (err->http_status == 404 || err->http_status == 410)) {
		scheduler_untrack(s->sched, SCHED_TRANSCRIPTION, id);
		store_transcription_remove(s->cfg.store, id);
	} else if (err) {
		scheduler_report_error(s->sched, SCHED_TRANSCRIPTION, id,
				       (int64_t)(err->retry_after_s * 1000), now);
		store_transcription_failed(s->cfg.store, id, err);
		sync_note_error(s, &named);
	} else {
		sync_note_ok(s);
		scheduler_report_ok(s->sched, SCHED_TRANSCRIPTION, id, res->state, now);
		if (store_transcription_put(s->cfg.store, res, true, now, &e2) < 0)
			sync_tell_error(s, &e2);
	}
	free(id);
}

void sync_fetch_transcription(struct steno_sync *s, const char *id, bool force)
{
	const struct store_transcription *t = store_transcription_get(s->cfg.store, id);
	struct steno_error err;

	if (!force && t && t->detailed)
		return;
	struct sync_req *r = sync_req_new(s, SYNC_REQ_TRANSCRIPTION, id, id);
	if (!r)
		return;
	snprintf(r->what, sizeof r->what, "GET transcriptions/%s", id);
	if (steno_api_transcription_retrieve(s->cfg.http, id, transcription_done, r, &err) < 0) {
		sync_req_done(r);
		sync_tell_error(s, &err);
	}
}

void sync_show_transcription(struct steno_sync *s, const char *id)
{
	char *copy = id ? strdup(id) : NULL;

	free(s->shown_tr);
	s->shown_tr = copy;   /* NULL on no memory too: then only this read is made */
	if (id)
		sync_fetch_transcription(s, id, false);
}

/* ---- activity ---- */

/* Ends the read; on error reports it and returns true (the caller stops there). */
static bool act_end(struct sync_req *r, enum store_activity_kind kind, const char *state,
		    const struct steno_error *err)
{
	struct steno_sync *s = r->s;
	enum sched_kind sk = store_activity_sched_kind(kind);
	int64_t now = sync_now_ms(s);

	if (err && err->kind == STENO_ERR_HTTP &&
	    (err->http_status == 404 || err->http_status == 410)) {
		/* gone, or never was (`:order bogus1`): not watched, not saved, said once */
		char *id = r->id;
		struct steno_error gone = *err;
		r->id = NULL;
		req_log_error(r, err);
		sync_req_done(r);
		sync_unwatch(s, kind, id);
		sync_note_ok(s);   /* the server answered */
		static const char *const names[] = { "order", "export", "translation" };
		steno_error_set(&gone, STENO_ERR_HTTP, "%s %s is not on the server: no longer watched",
				names[kind], id);
		gone.http_status = err->http_status;
		sync_tell_error(s, &gone);
		free(id);
		return true;
	}
	if (err) {
		char *id = r->id;
		struct steno_error named;
		r->id = NULL;
		req_log_error(r, err);
		req_named_error(r, err, &named);
		sync_req_done(r);
		scheduler_report_error(s->sched, sk, id, (int64_t)(err->retry_after_s * 1000), now);
		store_activity_failed(s->cfg.store, kind, id, err);
		sync_note_error(s, &named);
		free(id);
		return true;
	}
	sync_note_ok(s);
	scheduler_report_ok(s->sched, sk, r->id, state, now);
	sync_req_done(r);
	return false;
}

static void put_failed(struct steno_sync *s, int rc, const struct steno_error *e2)
{
	if (rc < 0)
		sync_tell_error(s, e2);
}

static void order_done(void *ud, struct steno_order *res, const struct steno_error *err)
{
	struct sync_req *r = ud;
	struct steno_sync *s = r->s;
	struct steno_error e2;

	if (!act_end(r, STORE_ACT_ORDER, err ? NULL : res->state, err))
		put_failed(s, store_order_put(s->cfg.store, res, false, sync_now_ms(s), &e2), &e2);
}

static void export_done(void *ud, struct steno_export *res, const struct steno_error *err)
{
	struct sync_req *r = ud;
	struct steno_sync *s = r->s;
	struct steno_error e2;

	if (!act_end(r, STORE_ACT_EXPORT, err ? NULL : res->state, err))
		put_failed(s, store_export_put(s->cfg.store, res, false, sync_now_ms(s), &e2), &e2);
}

static void task_done(void *ud, struct steno_translation_task *res, const struct steno_error *err)
{
	struct sync_req *r = ud;
	struct steno_sync *s = r->s;
	struct steno_error e2;

	if (!act_end(r, STORE_ACT_TRANSLATION_TASK, err ? NULL : res->state, err))
		put_failed(s, store_task_put(s->cfg.store, res, false, sync_now_ms(s), &e2), &e2);
}

static void poll_one(struct steno_sync *s, const struct sched_ref *ref)
{
	static const char *const prefix[] = { "", "order:", "export:", "task:" };
	static const char *const path[] = { "transcriptions", "orders", "exports",
		"task/transcription_translation" };
	char key[SCHED_ID_MAX + 16];
	struct steno_error err;
	int rc;

	if (ref->kind == SCHED_TRANSCRIPTION) {
		sync_fetch_transcription(s, ref->id, true);
		return;
	}
	snprintf(key, sizeof key, "%s%s", prefix[ref->kind], ref->id);
	struct sync_req *r = sync_req_new(s, (enum sync_req_kind)((int)ref->kind +
					  SYNC_REQ_TRANSCRIPTION), key, ref->id);
	if (!r)
		return;
	snprintf(r->what, sizeof r->what, "GET %s/%s", path[ref->kind], ref->id);
	if (ref->kind == SCHED_ORDER)
		rc = steno_api_order_retrieve(s->cfg.http, ref->id, order_done, r, &err);
	else if (ref->kind == SCHED_EXPORT)
		rc = steno_api_export_retrieve(s->cfg.http, ref->id, export_done, r, &err);
	else
		rc = steno_api_translation_task_retrieve(s->cfg.http, ref->id, task_done, r, &err);
	if (rc < 0) {
		sync_req_done(r);
		scheduler_report_error(s->sched, ref->kind, ref->id, -1, sync_now_ms(s));
		sync_tell_error(s, &err);
	}
}

void sync_poll_due(struct steno_sync *s)
{
	struct sched_ref refs[16];
	size_t max = (size_t)s->cfg.max_flight;

	if (s->n_reqs >= max)
		return;
	if (max - s->n_reqs < 16)
		max = max - s->n_reqs;
	else
		max = 16;
	size_t n = scheduler_take_due(s->sched, sync_now_ms(s), max, refs, 16);
	for (size_t i = 0; i < n; i++)
		poll_one(s, &refs[i]);
}
