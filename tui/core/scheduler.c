#include "config.h"
#include "core/scheduler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/spec_tables.h"

/* One tracked item, inside the scheduler's array; its id malloc'd (an account of 100,000
 * rows tracks tens of thousands: SCHED_ID_MAX bytes each would be most of the item). */
struct sched_item {
	enum sched_kind kind;
	char *id;
	char state[48];
	bool state_known;
	bool visible, watched, forced, in_flight;
	int errors;
	int64_t interval;       /* current base interval */
	int64_t due;            /* when it should be refreshed next */
	int64_t taken_at;
};

struct scheduler {
	struct sched_policy p;
	struct sched_item *items;
	size_t n, cap;
	size_t *slots;        /* open addressing over (kind, id): index + 1 into items, 0 empty;
			       * every page of 100,000 rows asks for each of its items */
	size_t n_slots;
	double tokens;
	int64_t refilled_at;
	int64_t gate_until;
};

void scheduler_policy_default(struct sched_policy *p)
{
	p->min_ms = 2000;
	p->max_ms = 60000;
	p->needs_action_ms = 300000;
	p->error_max_ms = 300000;
	p->lost_ms = 120000;
	p->background_factor = 4;
	p->requests_per_second = 5;
}

struct scheduler *scheduler_new(const struct sched_policy *policy, int64_t now)
{
	struct scheduler *s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	if (policy)
		s->p = *policy;
	else
		scheduler_policy_default(&s->p);
	if (s->p.min_ms < 1)
		s->p.min_ms = 1;
	if (s->p.max_ms < s->p.min_ms)
		s->p.max_ms = s->p.min_ms;
	if (s->p.requests_per_second <= 0)
		s->p.requests_per_second = 1;
	if (s->p.background_factor < 1)
		s->p.background_factor = 1;
	s->tokens = s->p.requests_per_second < 1 ? 1 : s->p.requests_per_second;
	s->refilled_at = now;
	return s;
}

void scheduler_free(struct scheduler *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->items[i].id);
	free(s->items);
	free(s->slots);
	free(s);
}

enum spec_state_kind scheduler_spec_kind(enum sched_kind k)
{
	switch (k) {
	case SCHED_ORDER: return SPEC_STATE_ORDER;
	case SCHED_EXPORT: return SPEC_STATE_EXPORT;
	case SCHED_TRANSLATION_TASK: return SPEC_STATE_TRANSLATION_TASK;
	case SCHED_TRANSCRIPTION: break;
	}
	return SPEC_STATE_TRANSCRIPTION;
}

/* Typical durations (spec section 8): an export takes ~10 s per file, a translation task
 * 10 s to 2 min; transcriptions and orders take seconds to days. */
/* States that wait for a person, and states unknown to the spec tables: polled slowly. */
static bool slow_state(const struct sched_item *it)
{
	enum spec_state_kind k = scheduler_spec_kind(it->kind);

	return it->state_known && (spec_state_needs_action(k, it->state) ||
				   !spec_state_is_known(k, it->state));
}

static int64_t kind_cap(const struct scheduler *s, const struct sched_item *it)
{
	int64_t cap = s->p.max_ms;
	if (it->kind == SCHED_EXPORT && cap > 10000)
		cap = 10000;
	else if (it->kind == SCHED_TRANSLATION_TASK && cap > 15000)
		cap = 15000;
	if (slow_state(it))
		cap = s->p.needs_action_ms > cap ? s->p.needs_action_ms : cap;
	return cap < s->p.min_ms ? s->p.min_ms : cap;
}

/* The first interval in a new state: a state this steno does not know is polled at the slow
 * pace at once (it may never move); others start at min_ms. */
static int64_t first_interval(const struct scheduler *s, const struct sched_item *it)
{
	if (it->state_known && !spec_state_is_known(scheduler_spec_kind(it->kind), it->state))
		return kind_cap(s, it);
	return s->p.min_ms;
}

static size_t ref_hash(enum sched_kind kind, const char *id)
{
	size_t h = 1469598103934665603u ^ (size_t)kind;
	for (; *id; id++)
		h = (h ^ (unsigned char)*id) * 1099511628211u;
	return h;
}

static void slot_put(size_t *slots, size_t n_slots, const struct sched_item *items, size_t i)
{
	size_t mask = n_slots - 1, j = ref_hash(items[i].kind, items[i].id) & mask;
	while (slots[j])
		j = (j + 1) & mask;
	slots[j] = i + 1;
}

/* The slot holding item i (it is there). */
static size_t slot_of(const struct scheduler *s, size_t i)
{
	size_t mask = s->n_slots - 1;
	size_t j = ref_hash(s->items[i].kind, s->items[i].id) & mask;
	while (s->slots[j] != i + 1)
		j = (j + 1) & mask;
	return j;
}

static struct sched_item *find(const struct scheduler *s, enum sched_kind kind, const char *id)
{
	if (!s->n_slots)
		return NULL;
	size_t mask = s->n_slots - 1;
	for (size_t j = ref_hash(kind, id) & mask; s->slots[j]; j = (j + 1) & mask) {
		struct sched_item *it = &s->items[s->slots[j] - 1];
		if (it->kind == kind && strcmp(it->id, id) == 0)
			return it;
	}
	return NULL;
}

/* Removes with backward shift (no tombstones); the last item moves into the hole. */
static void drop(struct scheduler *s, struct sched_item *it)
{
	size_t i = (size_t)(it - s->items), mask = s->n_slots - 1, j = slot_of(s, i);
	s->slots[j] = 0;
	for (size_t k = (j + 1) & mask; s->slots[k]; k = (k + 1) & mask) {
		size_t m = s->slots[k] - 1;
		s->slots[k] = 0;
		slot_put(s->slots, s->n_slots, s->items, m);
	}
	free(it->id);
	size_t last = --s->n;
	if (i != last) {
		s->slots[slot_of(s, last)] = i + 1;
		s->items[i] = s->items[last];
	}
}

static bool id_ok(const char *id)
{
	return id && id[0] && strlen(id) < SCHED_ID_MAX;
}

/* Room for one more item in the table (rebuilt at 3/4 full). */
static bool slots_grow(struct scheduler *s)
{
	if ((s->n + 1) * 4 < s->n_slots * 3)
		return true;
	size_t n = s->n_slots ? s->n_slots * 2 : 64;
	size_t *sl = calloc(n, sizeof *sl);
	if (!sl)
		return false;
	for (size_t i = 0; i < s->n; i++)
		slot_put(sl, n, s->items, i);
	free(s->slots);
	s->slots = sl;
	s->n_slots = n;
	return true;
}

static struct sched_item *add(struct scheduler *s, enum sched_kind kind, const char *id,
			      int64_t now)
{
	if (!slots_grow(s))
		return NULL;
	if (s->n == s->cap) {
		size_t nc = s->cap ? s->cap * 2 : 16;
		struct sched_item *ni = realloc(s->items, nc * sizeof(*ni));
		if (!ni)
			return NULL;
		s->items = ni;
		s->cap = nc;
	}
	char *copy = strdup(id);
	if (!copy)
		return NULL;
	struct sched_item *it = &s->items[s->n++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	it->id = copy;
	it->interval = s->p.min_ms;
	it->due = now + s->p.min_ms;
	slot_put(s->slots, s->n_slots, s->items, s->n - 1);
	return it;
}

/* Records a state; returns true when it differs from the one known. */
static bool set_state(struct sched_item *it, const char *state)
{
	if (!state) {
		bool changed = it->state_known;
		it->state_known = false;
		it->state[0] = '\0';
		return changed;
	}
	bool changed = !it->state_known || strncmp(it->state, state, sizeof(it->state) - 1) != 0;
	it->state_known = true;
	strncpy(it->state, state, sizeof(it->state) - 1);
	it->state[sizeof(it->state) - 1] = '\0';
	return changed;
}

static bool is_final(enum sched_kind kind, const char *state)
{
	return state && spec_state_is_final(scheduler_spec_kind(kind), state);
}

int scheduler_track(struct scheduler *s, enum sched_kind kind, const char *id, const char *state,
		    int64_t now)
{
	if (!id_ok(id))
		return 0;
	struct sched_item *it = find(s, kind, id);
	if (is_final(kind, state)) {
		if (it)
			drop(s, it);
		return 0;
	}
	if (!it) {
		it = add(s, kind, id, now);
		if (!it)
			return -1;
		set_state(it, state);
		it->interval = first_interval(s, it);
		it->due = now + it->interval;
		return 1;
	}
	if (set_state(it, state) && !it->in_flight) {
		it->interval = first_interval(s, it);
		it->errors = 0;
		if (it->due > now + it->interval)
			it->due = now + it->interval;
	}
	return 1;
}

void scheduler_untrack(struct scheduler *s, enum sched_kind kind, const char *id)
{
	struct sched_item *it = id ? find(s, kind, id) : NULL;
	if (it)
		drop(s, it);
}

void scheduler_clear_visible(struct scheduler *s)
{
	for (size_t i = 0; i < s->n; i++)
		s->items[i].visible = false;
}

void scheduler_set_visible(struct scheduler *s, enum sched_kind kind, const char *id, bool on)
{
	struct sched_item *it = id ? find(s, kind, id) : NULL;
	if (it)
		it->visible = on;
}

void scheduler_set_watched(struct scheduler *s, enum sched_kind kind, const char *id, bool on)
{
	struct sched_item *it = id ? find(s, kind, id) : NULL;
	if (it)
		it->watched = on;
}

static int64_t effective_interval(const struct scheduler *s, const struct sched_item *it)
{
	if (it->visible || it->watched)
		return it->interval;
	return it->interval * s->p.background_factor;
}

void scheduler_report_ok(struct scheduler *s, enum sched_kind kind, const char *id,
			 const char *state, int64_t now)
{
	struct sched_item *it = id ? find(s, kind, id) : NULL;
	if (!it)
		return;
	it->in_flight = false;
	it->forced = false;
	it->errors = 0;
	if (is_final(kind, state)) {
		drop(s, it);
		return;
	}
	if (set_state(it, state)) {
		it->interval = first_interval(s, it);
	} else {
		int64_t cap = kind_cap(s, it);
		it->interval = it->interval >= cap / 2 ? cap : it->interval * 2;
	}
	it->due = now + effective_interval(s, it);
}

void scheduler_report_error(struct scheduler *s, enum sched_kind kind, const char *id,
			    int64_t retry_after_ms, int64_t now)
{
	struct sched_item *it = id ? find(s, kind, id) : NULL;
	if (!it)
		return;
	it->in_flight = false;
	it->forced = false;
	if (it->errors < 30)
		it->errors++;
	int64_t wait = s->p.min_ms;
	for (int i = 0; i < it->errors && wait < s->p.error_max_ms; i++)
		wait *= 2;
	if (wait > s->p.error_max_ms)
		wait = s->p.error_max_ms;
	if (retry_after_ms > wait)
		wait = retry_after_ms;
	it->due = now + wait;
}

int scheduler_force(struct scheduler *s, enum sched_kind kind, const char *id, int64_t now)
{
	if (!id_ok(id))
		return 0;
	struct sched_item *it = find(s, kind, id);
	if (!it && !(it = add(s, kind, id, now)))
		return -1;
	it->forced = true;
	it->interval = s->p.min_ms;
	it->errors = 0;
	it->due = now;
	return 0;
}

void scheduler_force_all(struct scheduler *s, int64_t now)
{
	s->gate_until = 0; /* a forced refresh goes past a rate limit's wait too */
	for (size_t i = 0; i < s->n; i++) {
		s->items[i].interval = s->p.min_ms;
		s->items[i].due = now;
	}
}

void scheduler_rate_gate(struct scheduler *s, int64_t until)
{
	if (until > s->gate_until)
		s->gate_until = until;
}

static double bucket_cap(const struct scheduler *s)
{
	return s->p.requests_per_second < 1 ? 1 : s->p.requests_per_second;
}

static double tokens_at(const struct scheduler *s, int64_t now)
{
	double t = s->tokens;
	if (now > s->refilled_at)
		t += (double)(now - s->refilled_at) * s->p.requests_per_second / 1000.0;
	return t > bucket_cap(s) ? bucket_cap(s) : t;
}

static int64_t item_due(const struct scheduler *s, const struct sched_item *it)
{
	return it->in_flight ? it->taken_at + s->p.lost_ms : it->due;
}

int64_t scheduler_next_due(const struct scheduler *s, int64_t now)
{
	if (s->n == 0)
		return -1;
	int64_t due = INT64_MAX;
	for (size_t i = 0; i < s->n; i++) {
		int64_t d = item_due(s, &s->items[i]);
		if (d < due)
			due = d;
	}
	if (due < s->gate_until)
		due = s->gate_until;
	double tok = tokens_at(s, now);
	if (tok < 1) {
		int64_t refill = now + (int64_t)ceil((1 - tok) * 1000.0 / s->p.requests_per_second);
		if (due < refill)
			due = refill;
	}
	return due <= now ? 0 : due - now;
}

static int rank(const struct sched_item *it)
{
	return (it->forced ? 8 : 0) + (it->visible ? 4 : 0) + (it->watched ? 2 : 0);
}

/* Better first: higher rank, then the longest overdue. */
static bool better(const struct sched_item *a, const struct sched_item *b)
{
	if (rank(a) != rank(b))
		return rank(a) > rank(b);
	return a->due < b->due;
}

size_t scheduler_take_due(struct scheduler *s, int64_t now, size_t budget, struct sched_ref *out,
			  size_t max)
{
	if (now < s->gate_until)
		return 0;
	s->tokens = tokens_at(s, now);
	s->refilled_at = now;
	size_t limit = budget < max ? budget : max;
	if ((double)limit > s->tokens)
		limit = (size_t)s->tokens;
	size_t taken = 0;
	while (taken < limit) {
		struct sched_item *best = NULL;
		for (size_t i = 0; i < s->n; i++) {
			struct sched_item *it = &s->items[i];
			if (item_due(s, it) > now)
				continue;
			if (!best || better(it, best))
				best = it;
		}
		if (!best)
			break;
		best->in_flight = true;
		best->taken_at = now;
		out[taken].kind = best->kind;
		snprintf(out[taken].id, sizeof out[taken].id, "%s", best->id);
		taken++;
		s->tokens -= 1;
	}
	return taken;
}

size_t scheduler_count(const struct scheduler *s)
{
	return s->n;
}

int64_t scheduler_interval(const struct scheduler *s, enum sched_kind kind, const char *id)
{
	const struct sched_item *it = id ? find(s, kind, id) : NULL;
	return it ? it->interval : -1;
}
