/* The live list: page 1 of the view on screen read again on an adaptive interval and merged
 * into what is listed (core/store_view.c: store_view_merge_head). */
#include "config.h"

#include "core/sync_internal.h"

#include <stdlib.h>
#include <string.h>

/* The interval doubles after 5 idle minutes and again after 30 (nobody is looking), and a 429
 * adds a backoff that doubles up to 8 intervals and ends with the next good answer. */
#define IDLE_SLOW_MS (5 * 60 * 1000)
#define IDLE_SLOWER_MS (30 * 60 * 1000)

static int64_t interval_at(struct steno_sync *s, int64_t now)
{
	int64_t base = s->cfg.live_ms;
	int64_t idle = now - s->live.active_ms;

	if (idle > IDLE_SLOWER_MS)
		base *= 4;
	else if (idle > IDLE_SLOW_MS)
		base *= 2;
	return base + s->live.backoff_ms;
}

int64_t sync_live_interval(struct steno_sync *s)
{
	return s->cfg.live_ms > 0 ? interval_at(s, sync_now_ms(s)) : 0;
}

static void schedule(struct steno_sync *s, int64_t now)
{
	s->live.due_ms = s->live.org && s->cfg.live_ms > 0 ? now + interval_at(s, now) : 0;
}

void sync_live_free(struct steno_sync *s)
{
	free(s->live.org);
	free(s->live.folder);
	free(s->live.tag);
	s->live.org = s->live.folder = s->live.tag = NULL;
}

int sync_set_live_view(struct steno_sync *s, const char *org_id, const char *folder_id,
		       const char *tag)
{
	sync_live_free(s);
	s->live.due_ms = 0;
	if (!org_id)
		return 0;
	s->live.org = strdup(org_id);
	s->live.folder = sync_strdup0(folder_id);
	s->live.tag = tag && *tag ? strdup(tag) : NULL;
	if (!s->live.org || (folder_id && !s->live.folder) || (tag && *tag && !s->live.tag)) {
		sync_live_free(s);
		return -1;
	}
	schedule(s, sync_now_ms(s));
	return 0;
}

void sync_user_active(struct steno_sync *s)
{
	int64_t now = sync_now_ms(s);
	bool was_idle = now - s->live.active_ms > IDLE_SLOW_MS;

	s->live.active_ms = now;
	/* back from a long absence: the slowed-down re-read comes at the normal pace */
	if (was_idle && s->live.due_ms && s->live.due_ms > now + interval_at(s, now))
		schedule(s, now);
}

void sync_live_done(struct steno_sync *s, int answer)
{
	int64_t base = s->cfg.live_ms;

	s->live.answer = LIVE_NONE;
	if (answer == LIVE_429) {
		s->live.backoff_ms = s->live.backoff_ms ? s->live.backoff_ms * 2 : base;
		if (s->live.backoff_ms > 8 * base)
			s->live.backoff_ms = 8 * base;
	} else if (answer == LIVE_OK) {
		s->live.backoff_ms = 0;
	}
	schedule(s, sync_now_ms(s));
}

void sync_live_run(struct steno_sync *s)
{
	int64_t now = sync_now_ms(s);

	if (s->live.answer != LIVE_NONE)
		sync_live_done(s, s->live.answer);
	if (!s->live.due_ms || now < s->live.due_ms)
		return;
	struct store_view *v = sync_view(s, s->live.org, s->live.folder, s->live.tag);
	/* a view never loaded (or loading now) is the list loader's: come back later */
	if (!v || !v->pages || store_refresh_running(s->cfg.store, v->key) ||
	    sync_load_live(s, v) <= 0) {
		schedule(s, now);
		return;
	}
	s->live.due_ms = 0;   /* the answer schedules the next */
}
