#include "config.h"
#include "core/store.h"
#include "core/store_internal.h"

#include <stdlib.h>
#include <string.h>

#include "api/spec_tables.h"
#include "core/scheduler.h"

static void act_free(struct store_activity *a)
{
	if (!a)
		return;
	steno_order_free(&a->order);
	steno_export_free(&a->export_);
	steno_translation_task_free(&a->task);
	free(a->job_end);
	free(a->job_end_state);
	free(a);
}

void store_acts_free(struct steno_store *st)
{
	for (size_t i = 0; i < st->n_acts; i++)
		act_free(st->acts[i]);
	free(st->acts);
	st->acts = NULL;
	st->n_acts = 0;
}

enum sched_kind store_activity_sched_kind(enum store_activity_kind k)
{
	switch (k) {
	case STORE_ACT_EXPORT: return SCHED_EXPORT;
	case STORE_ACT_TRANSLATION_TASK: return SCHED_TRANSLATION_TASK;
	case STORE_ACT_ORDER: break;
	}
	return SCHED_ORDER;
}

/* The state table of a kind: the scheduler's, so store and scheduler agree on what is final. */
static enum spec_state_kind spec_kind(enum store_activity_kind k)
{
	return scheduler_spec_kind(store_activity_sched_kind(k));
}

static const char *act_id(const struct store_activity *a)
{
	switch (a->kind) {
	case STORE_ACT_EXPORT: return a->export_.id;
	case STORE_ACT_TRANSLATION_TASK: return a->task.id;
	case STORE_ACT_ORDER: break;
	}
	return a->order.id;
}

static const char *act_state(const struct store_activity *a)
{
	switch (a->kind) {
	case STORE_ACT_EXPORT: return a->export_.state;
	case STORE_ACT_TRANSLATION_TASK: return a->task.state;
	case STORE_ACT_ORDER: break;
	}
	return a->order.state;
}

static struct store_activity *act_find(const struct steno_store *st, enum store_activity_kind k,
				       const char *id)
{
	for (size_t i = 0; id && i < st->n_acts; i++)
		if (st->acts[i]->kind == k && strcmp(st->acts[i]->id, id) == 0)
			return st->acts[i];
	return NULL;
}

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* What a person watching the activity pane would see move. */
static bool order_differs(const struct steno_order *a, const struct steno_order *b)
{
	if (!str_eq(a->state, b->state) || a->n_transcriptions != b->n_transcriptions ||
	    a->n_ingestions != b->n_ingestions || a->outputs_ids.n != b->outputs_ids.n ||
	    a->details.present != b->details.present ||
	    a->can_be_submitted.st != b->can_be_submitted.st ||
	    a->can_be_submitted.v != b->can_be_submitted.v)
		return true;
	for (size_t i = 0; i < a->n_transcriptions; i++)
		if (!str_eq(a->transcriptions[i].state, b->transcriptions[i].state))
			return true;
	for (size_t i = 0; i < a->n_ingestions; i++)
		if (!str_eq(a->ingestions[i].state, b->ingestions[i].state))
			return true;
	return false;
}

static bool export_differs(const struct steno_export *a, const struct steno_export *b)
{
	return !str_eq(a->state, b->state) || !str_eq(a->download_link, b->download_link);
}

static bool task_differs(const struct steno_translation_task *a,
			 const struct steno_translation_task *b)
{
	return !str_eq(a->state, b->state) || a->progress_percent.st != b->progress_percent.st ||
	       a->progress_percent.v != b->progress_percent.v ||
	       !str_eq(a->translated_transcription_id, b->translated_transcription_id) ||
	       !str_eq(a->failure_reason, b->failure_reason);
}

/* The incoming resource, one of three, as a store_activity skeleton. */
struct incoming {
	enum store_activity_kind kind;
	struct steno_order *o;
	struct steno_export *e;
	struct steno_translation_task *t;
};

static const char *in_id(const struct incoming *in)
{
	return in->o ? in->o->id : in->e ? in->e->id : in->t->id;
}

static void in_free(struct incoming *in)
{
	if (in->o)
		steno_order_free(in->o);
	if (in->e)
		steno_export_free(in->e);
	if (in->t)
		steno_translation_task_free(in->t);
}

/* Moves the incoming struct into `a` (freeing the old one); true when it differs. */
static bool act_replace(struct store_activity *a, struct incoming *in, bool fresh)
{
	bool d = fresh;
	if (in->o) {
		d = d || order_differs(&a->order, in->o);
		steno_order_free(&a->order);
		a->order = *in->o;
		memset(in->o, 0, sizeof(*in->o));
	} else if (in->e) {
		d = d || export_differs(&a->export_, in->e);
		steno_export_free(&a->export_);
		a->export_ = *in->e;
		memset(in->e, 0, sizeof(*in->e));
	} else {
		d = d || task_differs(&a->task, in->t);
		steno_translation_task_free(&a->task);
		a->task = *in->t;
		memset(in->t, 0, sizeof(*in->t));
	}
	a->id = act_id(a);
	return d;
}

static struct store_activity *act_new(struct steno_store *st, enum store_activity_kind kind,
				      int64_t now)
{
	struct store_activity *a = calloc(1, sizeof(*a));
	struct store_activity **as = a ? realloc(st->acts, (st->n_acts + 1) * sizeof(*as)) : NULL;
	if (!as) {
		free(a);
		return NULL;
	}
	st->acts = as;
	as[st->n_acts++] = a;
	a->kind = kind;
	a->added_ms = a->state_changed_ms = now;
	return a;
}

static void act_clear_job_end(struct store_activity *a)
{
	free(a->job_end);
	free(a->job_end_state);
	a->job_end = a->job_end_state = NULL;
	a->job_end_failed = false;
}

/* Whether a's recorded job end still speaks of its state, now that a read found it in state
 * (not its state before: old_state). A change of state clears the end (what the user did
 * last spoke of the state before), but for one: an item put back after a restart
 * (store_activity_job_end_restore) is in the store with no state until its first read, and
 * that read is no change when it finds the state the item had when its job ended. Any other
 * state (an export expired meanwhile), or an end whose state was not known, goes. */
static bool act_job_end_holds(const struct store_activity *a, const char *old_state,
			      const char *state)
{
	return !old_state && a->job_end_state && state && !strcmp(a->job_end_state, state);
}

static int act_put(struct steno_store *st, struct incoming *in, bool watch, int64_t now,
		   struct steno_error *err)
{
	const char *id = in_id(in);
	if (!id || !id[0]) {
		in_free(in);
		return steno_error_set(err, STENO_ERR_PARSE, "a resource without an id");
	}
	struct store_activity *a = act_find(st, in->kind, id);
	bool fresh = !a;
	if (!a && !(a = act_new(st, in->kind, now))) {
		in_free(in);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	char *old_state = act_state(a) ? strdup(act_state(a)) : NULL;
	bool changed = act_replace(a, in, fresh);
	a->state = act_state(a);
	bool state_changed = fresh || !str_eq(old_state, a->state);
	a->watched |= watch;
	a->fetched_ms = now;
	a->has_error = false;
	bool was_finished = a->finished;
	a->finished = a->state && spec_state_is_final(spec_kind(a->kind), a->state);
	if (state_changed) {
		a->state_changed_ms = now;
		if (!fresh && !act_job_end_holds(a, old_state, a->state))
			act_clear_job_end(a);   /* it spoke of the state before */
	}
	if (changed || fresh)
		store_db_act(st, a, now);
	if (!changed) {
		free(old_state);
		return 0;
	}
	struct store_event ev = { .what = STORE_WHAT_ACTIVITY, .id = a->id, .kind = a->kind,
				  .state_changed = state_changed, .old_state = old_state,
				  .finished = a->finished && !was_finished && !fresh,
				  .failure = a->finished &&
					     spec_state_is_failure(spec_kind(a->kind), a->state) };
	store_emit(st, false, &ev);
	free(old_state);
	return 1;
}

int store_order_put(struct steno_store *st, struct steno_order *o, bool watch, int64_t now,
		    struct steno_error *err)
{
	struct incoming in = { STORE_ACT_ORDER, o, NULL, NULL };
	return act_put(st, &in, watch, now, err);
}

int store_export_put(struct steno_store *st, struct steno_export *e, bool watch, int64_t now,
		     struct steno_error *err)
{
	struct incoming in = { STORE_ACT_EXPORT, NULL, e, NULL };
	return act_put(st, &in, watch, now, err);
}

int store_task_put(struct steno_store *st, struct steno_translation_task *t, bool watch,
		   int64_t now, struct steno_error *err)
{
	struct incoming in = { STORE_ACT_TRANSLATION_TASK, NULL, NULL, t };
	return act_put(st, &in, watch, now, err);
}

size_t store_activity_count(const struct steno_store *st)
{
	return st->n_acts;
}

const struct store_activity *store_activity_at(const struct steno_store *st, size_t i)
{
	return i < st->n_acts ? st->acts[i] : NULL;
}

const struct store_activity *store_activity_find(const struct steno_store *st,
						 enum store_activity_kind kind, const char *id)
{
	return act_find(st, kind, id);
}

void store_activity_watch(struct steno_store *st, enum store_activity_kind kind, const char *id,
			  bool on)
{
	struct store_activity *a = act_find(st, kind, id);
	if (!a || a->watched == on)
		return;
	a->watched = on;
	struct store_event ev = { .what = STORE_WHAT_ACTIVITY, .id = a->id, .kind = kind };
	store_emit(st, false, &ev);
}

void store_activity_remove(struct steno_store *st, enum store_activity_kind kind, const char *id)
{
	struct store_activity *a = act_find(st, kind, id);
	if (!a)
		return;
	size_t i = 0;
	while (st->acts[i] != a)
		i++;
	memmove(&st->acts[i], &st->acts[i + 1], (st->n_acts - i - 1) * sizeof(*st->acts));
	st->n_acts--;
	char *copy = strdup(id);
	act_free(a);
	struct store_event ev = { .what = STORE_WHAT_ACTIVITY, .id = copy ? copy : "", .kind = kind };
	store_emit(st, false, &ev);
	free(copy);
}

void store_activity_failed(struct steno_store *st, enum store_activity_kind kind, const char *id,
			   const struct steno_error *e)
{
	struct store_activity *a = act_find(st, kind, id);
	if (a) {
		a->has_error = true;
		if (e)
			a->error = *e;
	}
	struct store_event ev = { .what = STORE_WHAT_ACTIVITY, .id = id, .kind = kind, .error = e };
	store_emit(st, true, &ev);
}

/* Sets a's job end (text NULL clears it) and the state it speaks of, and tells listeners. */
static void act_set_job_end(struct steno_store *st, struct store_activity *a, const char *text,
			    bool failed, const char *state)
{
	char *copy = text ? strdup(text) : NULL;
	char *state_copy = text && state ? strdup(state) : NULL;   /* no end: no state */
	if ((text && !copy) || (copy && state && !state_copy)) {
		free(copy);
		free(state_copy);
		return;
	}
	act_clear_job_end(a);
	a->job_end = copy;
	a->job_end_failed = copy && failed;
	a->job_end_state = state_copy;
	struct store_event ev = { .what = STORE_WHAT_ACTIVITY, .id = a->id, .kind = a->kind };
	store_emit(st, false, &ev);
}

void store_activity_job_end(struct steno_store *st, enum store_activity_kind kind, const char *id,
			    const char *text, bool failed)
{
	struct store_activity *a = act_find(st, kind, id);
	if (a && (text || a->job_end))
		act_set_job_end(st, a, text, failed, a->state);
}

void store_activity_job_end_restore(struct steno_store *st, enum store_activity_kind kind,
				    const char *id, const char *text, bool failed,
				    const char *state)
{
	struct store_activity *a = act_find(st, kind, id);
	if (a && text && !a->job_end && (!a->state || (state && !strcmp(a->state, state))))
		act_set_job_end(st, a, text, failed, state);
}
