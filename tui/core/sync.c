/* The sync engine: set-up, the loop's two calls, watching. The live list is in
 * sync_live.c, reads in flight in sync_fetch.c, clock, log and health in sync_base.c
 * (each file uses only those after it). */
#include "config.h"

#include "core/sync_internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/http.h"
#include "core/state.h"

#define SYNC_MAX_FLIGHT_DEFAULT 4

static int64_t sync_wall_ms(struct steno_sync *s)
{
	struct timespec ts;

	if (s->cfg.wall_ms)
		return s->cfg.wall_ms(s->cfg.clock_ud);
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct scheduler *sync_scheduler(struct steno_sync *s) { return s->sched; }
enum sync_health sync_health(const struct steno_sync *s) { return s->health; }
size_t sync_in_flight(const struct steno_sync *s) { return s->n_reqs; }

/* ---- watching ---- */

static enum state_watch_kind watch_kind(enum store_activity_kind kind)
{
	switch (kind) {
	case STORE_ACT_EXPORT: return STATE_WATCH_EXPORT;
	case STORE_ACT_TRANSLATION_TASK: return STATE_WATCH_TASK;
	case STORE_ACT_ORDER: break;
	}
	return STATE_WATCH_ORDER;
}

static enum store_activity_kind store_kind(enum state_watch_kind kind)
{
	switch (kind) {
	case STATE_WATCH_EXPORT: return STORE_ACT_EXPORT;
	case STATE_WATCH_TASK: return STORE_ACT_TRANSLATION_TASK;
	case STATE_WATCH_ORDER: break;
	}
	return STORE_ACT_ORDER;
}

/* An activity record with only its id, so the activity pane lists it before its first read. */
static int sync_put_empty(struct steno_sync *s, enum store_activity_kind kind, const char *id,
			  int64_t now)
{
	struct steno_error err;

	if (kind == STORE_ACT_ORDER) {
		struct steno_order o = { .id = strdup(id) };
		return o.id ? store_order_put(s->cfg.store, &o, true, now, &err) : -1;
	}
	if (kind == STORE_ACT_EXPORT) {
		struct steno_export e = { .id = strdup(id) };
		return e.id ? store_export_put(s->cfg.store, &e, true, now, &err) : -1;
	}
	struct steno_translation_task t = { .id = strdup(id) };
	return t.id ? store_task_put(s->cfg.store, &t, true, now, &err) : -1;
}

/* In the store (watched), read now, then polled until settled. */
static int sync_track(struct steno_sync *s, enum store_activity_kind kind, const char *id)
{
	enum sched_kind sk = store_activity_sched_kind(kind);
	int64_t now = sync_now_ms(s);

	if (!id || !*id)
		return -1;
	if (!store_activity_find(s->cfg.store, kind, id) && sync_put_empty(s, kind, id, now) < 0)
		return -1;
	store_activity_watch(s->cfg.store, kind, id, true);
	if (scheduler_track(s->sched, sk, id, NULL, now) < 0 ||
	    scheduler_force(s->sched, sk, id, now) < 0)
		return -1;
	scheduler_set_watched(s->sched, sk, id, true);
	return 0;
}

int sync_watch(struct steno_sync *s, enum store_activity_kind kind, const char *id)
{
	char origin[512];
	struct steno_error err;

	if (sync_track(s, kind, id) < 0)
		return -1;
	if (s->cfg.state && state_origin(s->base_url, origin, sizeof origin))
		state_watch_add(s->cfg.state, origin, s->org_id, watch_kind(kind), id,
				sync_wall_ms(s), &err);
	return 0;
}

void sync_unwatch(struct steno_sync *s, enum store_activity_kind kind, const char *id)
{
	char origin[512], *copy = id ? strdup(id) : NULL;   /* id may be the store's own */

	if (!copy)
		return;
	scheduler_untrack(s->sched, store_activity_sched_kind(kind), copy);
	if (s->cfg.state && state_origin(s->base_url, origin, sizeof origin))
		state_watch_forget(s->cfg.state, origin, s->org_id, watch_kind(kind), copy);
	store_activity_remove(s->cfg.store, kind, copy);
	free(copy);
}

void sync_restore_watched(struct steno_sync *s)
{
	char origin[512];
	size_t *idx;

	if (!s->cfg.state || !state_origin(s->base_url, origin, sizeof origin))
		return;
	state_watch_prune(s->cfg.state, sync_wall_ms(s));
	long n = state_watched_of(s->cfg.state, origin, s->org_id, &idx);
	for (long i = 0; i < n; i++) {
		const struct state_watch *w = &s->cfg.state->watched[idx[i]];
		/* with how its last job ended, until a read finds it in another state */
		if (sync_track(s, store_kind(w->kind), w->id) == 0 && w->job_end)
			store_activity_job_end_restore(s->cfg.store, store_kind(w->kind), w->id,
						       w->job_end, w->job_end_failed, w->job_end_state);
	}
	free(idx);
}

bool sync_watches_transcription(const struct steno_sync *s, const char *id)
{
	for (size_t i = 0; id && i < s->n_watched_tr; i++)
		if (!strcmp(s->watched_tr[i], id))
			return true;
	return false;
}

int sync_watch_transcription(struct steno_sync *s, const char *id)
{
	int64_t now = sync_now_ms(s);

	if (!id || !*id)
		return -1;
	if (!sync_watches_transcription(s, id)) {
		char **w = realloc(s->watched_tr, (s->n_watched_tr + 1) * sizeof *w);
		if (!w)
			return -1;
		s->watched_tr = w;
		if (!(w[s->n_watched_tr] = strdup(id)))
			return -1;
		s->n_watched_tr++;
	}
	/* read now (its state is what later changes are told against), then polled */
	const struct store_transcription *t = store_transcription_get(s->cfg.store, id);
	if (scheduler_track(s->sched, SCHED_TRANSCRIPTION, id, t ? t->t.state : NULL, now) < 0 ||
	    scheduler_force(s->sched, SCHED_TRANSCRIPTION, id, now) < 0)
		return -1;
	scheduler_set_watched(s->sched, SCHED_TRANSCRIPTION, id, true);
	return 0;
}

static void sync_tell_news(struct steno_sync *s, const char *kind, enum spec_state_kind sk,
			   const struct store_event *ev, const char *name, const char *state)
{
	struct sync_news n = { .kind = kind, .id = ev->id, .name = name,
		.old_state = ev->old_state, .state = state };

	if (!s->cfg.listener.news || !ev->state_changed || !ev->old_state || !state)
		return;   /* a first read is no news */
	n.settled = spec_state_is_final(sk, state) || spec_state_needs_action(sk, state);
	n.failure = spec_state_is_failure(sk, state);
	s->cfg.listener.news(s->cfg.listener.ud, &n);
}

/* News of watched items; a watched item that settled is noted in the state file (kept a
 * while, then pruned). */
static void sync_store_changed(void *ud, const struct store_event *ev)
{
	static const char *const act_names[] = { "order", "export", "translation" };
	struct steno_sync *s = ud;
	char origin[512];

	if ((ev->what & STORE_WHAT_TRANSCRIPTION) && ev->id && s->shown_tr &&
	    !strcmp(ev->id, s->shown_tr))
		sync_fetch_transcription(s, ev->id, false);   /* no-op while detailed */
	if ((ev->what & STORE_WHAT_TRANSCRIPTION) && sync_watches_transcription(s, ev->id)) {
		const struct store_transcription *t = store_transcription_get(s->cfg.store, ev->id);
		if (t)
			sync_tell_news(s, "transcription", SPEC_STATE_TRANSCRIPTION, ev, t->t.name,
				       t->t.state);
	}
	if (!(ev->what & STORE_WHAT_ACTIVITY) || !ev->id)
		return;
	const struct store_activity *a = store_activity_find(s->cfg.store, ev->kind, ev->id);
	if (!a)
		return;
	if (a->watched)
		sync_tell_news(s, act_names[ev->kind],
			       scheduler_spec_kind(store_activity_sched_kind(ev->kind)), ev, NULL,
			       a->state);
	if (a->finished && s->cfg.state && state_origin(s->base_url, origin, sizeof origin))
		state_watch_final(s->cfg.state, origin, s->org_id, watch_kind(ev->kind), ev->id,
				  sync_wall_ms(s));
}

void sync_force_all(struct steno_sync *s)
{
	steno_http_retry_now(s->cfg.http);
	scheduler_force_all(s->sched, sync_now_ms(s));
}

long sync_rate_wait_ms(struct steno_sync *s, double *asked_s)
{
	return steno_http_rate_wait_ms(s->cfg.http, asked_s);
}

/* ---- the loop ---- */

static long min_due(long t, int64_t at, int64_t now)
{
	if (!at)
		return t;
	long r = at > now ? (long)(at - now) : 0;
	return t < 0 || r < t ? r : t;
}

long sync_timeout_ms(struct steno_sync *s)
{
	int64_t now = sync_now_ms(s);
	/* with every slot taken, a completion (an engine event) wakes us, not a timer */
	long t = s->n_reqs >= (size_t)s->cfg.max_flight ? -1 :
		(long)scheduler_next_due(s->sched, now);

	t = min_due(t, s->list_retry_at, now);
	return min_due(t, s->live.due_ms, now);
}

void sync_run(struct steno_sync *s)
{
	sync_retry_list(s);
	sync_live_run(s);
	sync_poll_due(s);
}

/* ---- set-up ---- */

struct steno_sync *sync_new(const struct sync_config *cfg, struct steno_error *err)
{
	struct steno_sync *s = calloc(1, sizeof *s);

	if (!s) {
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		return NULL;
	}
	s->cfg = *cfg;
	if (s->cfg.max_flight <= 0)
		s->cfg.max_flight = SYNC_MAX_FLIGHT_DEFAULT;
	if (s->cfg.live_ms > 0 && s->cfg.live_ms < SYNC_LIVE_FLOOR_MS)
		s->cfg.live_ms = SYNC_LIVE_FLOOR_MS;
	s->base_url = sync_strdup0(cfg->base_url);
	s->org_id = sync_strdup0(cfg->org_id);
	s->sched = scheduler_new(&cfg->policy, sync_now_ms(s));
	s->listener = store_listen(cfg->store, sync_store_changed, NULL, s);
	if (!s->sched || s->listener < 0 || (cfg->base_url && !s->base_url) ||
	    (cfg->org_id && !s->org_id)) {
		sync_free(s);
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		return NULL;
	}
	s->live.active_ms = sync_now_ms(s);
	if (!cfg->keep_http_listeners)
		sync_listen_http(s);
	return s;
}

void sync_free(struct steno_sync *s)
{
	if (!s)
		return;
	while (s->reqs)
		sync_req_done(s->reqs);
	if (s->listener > 0)
		store_unlisten(s->cfg.store, s->listener);
	scheduler_free(s->sched);
	sync_live_free(s);
	free(s->retry_org);
	free(s->retry_folder);
	free(s->retry_tag);
	free(s->reread_key);
	free(s->shown_tr);
	for (size_t i = 0; i < s->n_watched_tr; i++)
		free(s->watched_tr[i]);
	free(s->watched_tr);
	free(s->base_url);
	free(s->org_id);
	free(s);
}
