#ifndef STENO_CORE_SCHEDULER_H
#define STENO_CORE_SCHEDULER_H

/* The poll scheduler: pure policy, no I/O and no clock of its own (every call takes `now`
 * in milliseconds of a monotonic clock), so tests drive time by hand.
 *
 * Items in non-final states are refreshed at adaptive intervals: `min_ms` after a change,
 * doubling while the state stays the same up to a cap that depends on the kind (exports and
 * translation tasks finish in seconds, orders and transcriptions may take hours), much slower
 * in states that wait for a person (incomplete, locked), and slower again for items neither
 * visible nor watched. Due items are handed out forced first, then visible, then watched,
 * then most overdue, inside a token bucket of `requests_per_second` and never before a rate
 * gate reported by the engine. Errors back off exponentially. Items whose state is final
 * (api/spec_tables.h) are dropped and never polled again unless forced. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/spec_tables.h"

enum sched_kind {
	SCHED_TRANSCRIPTION,
	SCHED_ORDER,
	SCHED_EXPORT,
	SCHED_TRANSLATION_TASK,
};

#define SCHED_ID_MAX 80

/* The spec's state table of a kind (to ask whether a state is final, a failure or waits
 * on a person). */
enum spec_state_kind scheduler_spec_kind(enum sched_kind k);

/* What to refresh. Plain value; nothing to free. */
struct sched_ref {
	enum sched_kind kind;
	char id[SCHED_ID_MAX];
};

struct sched_policy {
	int64_t min_ms;            /* first interval after a change (config refresh_interval) */
	int64_t max_ms;            /* cap for orders and transcriptions (config refresh_max) */
	int64_t needs_action_ms;   /* interval in states that wait for a person */
	int64_t error_max_ms;      /* cap of the error backoff */
	int64_t lost_ms;           /* a taken item never reported is due again after this */
	int background_factor;     /* interval multiplier for items neither visible nor watched */
	double requests_per_second;
};

/* min 2 s, max 60 s, needs-action 300 s, error cap 300 s, lost 120 s, background x4, 5 req/s */
void scheduler_policy_default(struct sched_policy *p);

/* Ownership: scheduler_new returns a malloc'd scheduler (NULL on no memory), freed by
 * scheduler_free. It copies ids; callers keep their strings. */
struct scheduler;
struct scheduler *scheduler_new(const struct sched_policy *policy, int64_t now);
void scheduler_free(struct scheduler *s);

/* Tells the scheduler the current state of an item (from a list page, a create response ...).
 * A final state drops it. A new or changed state makes it due `min_ms` from now.
 * Returns 1 when the item is (still) polled, 0 when it was dropped or ignored (final state,
 * id empty or too long), -1 on no memory. NULL state = unknown (polled). */
int scheduler_track(struct scheduler *s, enum sched_kind kind, const char *id, const char *state,
		    int64_t now);
void scheduler_untrack(struct scheduler *s, enum sched_kind kind, const char *id);

/* Visible: on screen now (panes clear and re-mark on each draw). Watched: the user waits for it
 * (activity pane, a job). Unknown ids are ignored. */
void scheduler_clear_visible(struct scheduler *s);
void scheduler_set_visible(struct scheduler *s, enum sched_kind kind, const char *id, bool on);
void scheduler_set_watched(struct scheduler *s, enum sched_kind kind, const char *id, bool on);

/* Results of a refresh that scheduler_take_due handed out. ok: the new state (final drops
 * it); error: backoff, at least retry_after_ms when >= 0 (e.g. a 429's Retry-After). */
void scheduler_report_ok(struct scheduler *s, enum sched_kind kind, const char *id,
			 const char *state, int64_t now);
void scheduler_report_error(struct scheduler *s, enum sched_kind kind, const char *id,
			    int64_t retry_after_ms, int64_t now);

/* A key forced a refresh: due now, ahead of everything, interval back to min (also for an
 * item that is not tracked or final: it is refreshed once). Returns -1 on no memory. */
int scheduler_force(struct scheduler *s, enum sched_kind kind, const char *id, int64_t now);
/* Every tracked item due now, past a rate gate too (the user asked). */
void scheduler_force_all(struct scheduler *s, int64_t now);

/* The engine saw a 429 (or its rate gate closed): nothing is handed out before `until`. */
void scheduler_rate_gate(struct scheduler *s, int64_t until);

/* Milliseconds until something is due (0 = now), -1 when nothing needs polling. */
int64_t scheduler_next_due(const struct scheduler *s, int64_t now);

/* Hands out at most min(budget, max) due items (in priority order, within the request budget
 * and the rate gate) into out[], marks them in flight and returns how many. */
size_t scheduler_take_due(struct scheduler *s, int64_t now, size_t budget, struct sched_ref *out,
			  size_t max);

/* Number of tracked items (for the status bar and tests). */
size_t scheduler_count(const struct scheduler *s);
/* The current interval of an item in ms (without background factor), -1 when not tracked. */
int64_t scheduler_interval(const struct scheduler *s, enum sched_kind kind, const char *id);

#endif
