#include "config.h"
#include "core/store.h"
#include "core/store_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/spec_tables.h"

struct steno_store *store_new(void)
{
	return calloc(1, sizeof(struct steno_store));
}

static void rec_free(struct store_transcription *r)
{
	if (!r)
		return;
	steno_transcription_free(&r->t);
	free(r);
}

void store_free(struct steno_store *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->n_slots; i++)
		rec_free(st->slots[i]);
	free(st->slots);
	store_views_free(st);
	store_acts_free(st);
	store_db_free(st->db);
	free(st->listeners);
	for (size_t i = 0; i < st->n_inflight; i++)
		free(st->inflight[i]);
	free(st->inflight);
	free(st);
}

/* ---- listeners ---- */

int store_listen(struct steno_store *st, store_listener_fn changed, store_listener_fn failed,
		 void *user)
{
	struct store_listener *l = realloc(st->listeners, (st->n_listeners + 1) * sizeof(*l));
	if (!l)
		return -1;
	st->listeners = l;
	int id = ++st->next_listener;
	l[st->n_listeners++] = (struct store_listener){ id, changed, failed, user };
	return id;
}

void store_unlisten(struct steno_store *st, int id)
{
	for (size_t i = 0; i < st->n_listeners; i++)
		if (st->listeners[i].id == id) {
			memmove(&st->listeners[i], &st->listeners[i + 1],
				(st->n_listeners - i - 1) * sizeof(*st->listeners));
			st->n_listeners--;
			return;
		}
}

void store_emit(struct steno_store *st, bool failed, const struct store_event *ev)
{
	for (size_t i = 0; i < st->n_listeners; i++) {
		store_listener_fn fn = failed ? st->listeners[i].failed : st->listeners[i].changed;
		if (fn)
			fn(st->listeners[i].user, ev);
	}
}

/* ---- the id -> record table ---- */

size_t store_hash_id(const char *s)
{
	size_t h = 1469598103934665603u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

struct store_transcription *store_rec_find(const struct steno_store *st, const char *id)
{
	if (!id || st->n_slots == 0)
		return NULL;
	size_t mask = st->n_slots - 1;
	for (size_t i = store_hash_id(id) & mask; st->slots[i]; i = (i + 1) & mask)
		if (strcmp(st->slots[i]->t.id, id) == 0)
			return st->slots[i];
	return NULL;
}

static void slot_put(struct store_transcription **slots, size_t n, struct store_transcription *r)
{
	size_t mask = n - 1, i = store_hash_id(r->t.id) & mask;
	while (slots[i])
		i = (i + 1) & mask;
	slots[i] = r;
}

static int table_grow(struct steno_store *st)
{
	if ((st->n_recs + 1) * 4 < st->n_slots * 3)
		return 0;
	size_t n = st->n_slots ? st->n_slots * 2 : 64;
	struct store_transcription **s = calloc(n, sizeof(*s));
	if (!s)
		return -1;
	for (size_t i = 0; i < st->n_slots; i++)
		if (st->slots[i])
			slot_put(s, n, st->slots[i]);
	free(st->slots);
	st->slots = s;
	st->n_slots = n;
	return 0;
}

/* Removes with backward shift, so that probing never needs tombstones. */
static void table_remove(struct steno_store *st, struct store_transcription *r)
{
	size_t mask = st->n_slots - 1, i = store_hash_id(r->t.id) & mask;
	while (st->slots[i] != r)
		i = (i + 1) & mask;
	st->slots[i] = NULL;
	st->n_recs--;
	for (size_t j = (i + 1) & mask; st->slots[j]; j = (j + 1) & mask) {
		struct store_transcription *m = st->slots[j];
		st->slots[j] = NULL;
		slot_put(st->slots, st->n_slots, m);
	}
}

struct store_transcription *store_rec_get(const struct steno_store *cst, const char *id)
{
	/* the store is the caller's (never const itself): reading a record back from the db
	 * fills the cache, not the facts */
	struct steno_store *st = (struct steno_store *)(uintptr_t)cst;
	struct store_transcription *r = store_rec_find(st, id);
	if (!r && id && st->db && !st->db_loading && store_listed(st, id))
		r = store_db_rec_load(st, id);
	if (r)
		r->used = ++st->use_clock;
	return r;
}

void store_note_clock(struct steno_store *st, int64_t now)
{
	st->clock_now = now;
	st->clock_wall = store_db_wall_ms(st);
}

/* ---- merging ---- */

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* Moves a string field when the response carries it. */
static bool take_str(char **dst, char **src)
{
	if (!*src)
		return false;
	bool changed = !str_eq(*dst, *src);
	free(*dst);
	*dst = *src;
	*src = NULL;
	return changed;
}

/* Values are taken when the response carries them (missing = keep what is known). */
static bool take_time(struct steno_time *d, const struct steno_time *s)
{
	if (s->st == STENO_MISSING)
		return false;
	bool ch = d->st != s->st || d->ms != s->ms;
	*d = *s;
	return ch;
}

static bool take_int(struct steno_int *d, const struct steno_int *s)
{
	if (s->st == STENO_MISSING)
		return false;
	bool ch = d->st != s->st || d->v != s->v;
	*d = *s;
	return ch;
}

static bool take_bool(struct steno_bool *d, const struct steno_bool *s)
{
	if (s->st == STENO_MISSING)
		return false;
	bool ch = d->st != s->st || d->v != s->v;
	*d = *s;
	return ch;
}

static bool strings_eq(const struct steno_strings *a, const struct steno_strings *b)
{
	if (a->st != b->st || a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]) != 0)
			return false;
	return true;
}

static bool take_strings(struct steno_strings *dst, struct steno_strings *src)
{
	if (src->st == STENO_MISSING)
		return false;
	bool changed = !strings_eq(dst, src);
	steno_strings_free(dst);
	*dst = *src;
	memset(src, 0, sizeof(*src));
	return changed;
}

/* Moves every field `s` carries into `d`; true when a value differs. */
static bool merge_fields(struct steno_transcription *d, struct steno_transcription *s,
			 bool *keyed)
{
	bool ch = false;
	ch |= take_str(&d->name, &s->name);
	ch |= take_str(&d->state, &s->state);
	ch |= take_str(&d->language, &s->language);
	ch |= take_time(&d->created_at, &s->created_at);
	ch |= take_int(&d->audio_length_s, &s->audio_length_s);
	ch |= take_int(&d->cost_cents, &s->cost_cents);
	ch |= take_strings(&d->tags, &s->tags);
	*keyed = ch;   /* what the lists sort and filter on (core/store_list.h) */
	ch |= take_time(&d->updated_at, &s->updated_at);
	ch |= take_time(&d->delivery_estimated_at, &s->delivery_estimated_at);
	ch |= take_bool(&d->sharing_enabled, &s->sharing_enabled);
	ch |= take_bool(&d->is_subtitle, &s->is_subtitle);
	ch |= take_bool(&d->refunded, &s->refunded);
	if (s->failure_reason_st != STENO_MISSING) {
		ch |= d->failure_reason_st != s->failure_reason_st ||
		      !str_eq(d->failure_reason, s->failure_reason);
		free(d->failure_reason);
		d->failure_reason = s->failure_reason;
		d->failure_reason_st = s->failure_reason_st;
		s->failure_reason = NULL;
	}
	ch |= take_str(&d->failure_message, &s->failure_message);
	ch |= take_str(&d->soundwave_url, &s->soundwave_url);
	ch |= take_str(&d->editor_url, &s->editor_url);
	ch |= take_str(&d->self_url, &s->self_url);
	ch |= take_str(&d->download_url, &s->download_url);
	if (s->form != STENO_FORM_UNKNOWN)
		d->form = s->form;
	return ch;
}

/* A failure reason belongs to the state it came with: a list item (which carries none)
 * announcing another state makes the old reason stale, and the details are read again
 * (the new state's reason and links: a transcription that failed says why). */
static void drop_stale_details(struct store_transcription *r)
{
	struct steno_transcription *d = &r->t;
	free(d->failure_reason);
	free(d->failure_message);
	d->failure_reason = NULL;
	d->failure_message = NULL;
	d->failure_reason_st = STENO_MISSING;
	r->detailed = false;
}

/* Still moving by itself: not final, not waiting for a person (locked), and a state this
 * steno knows (an unknown one is shown as it is, not as work in progress). No state yet:
 * changing until read. */
static bool is_changing(const char *state)
{
	return !state || (spec_state_is_known(SPEC_STATE_TRANSCRIPTION, state) &&
			  !spec_state_is_final(SPEC_STATE_TRANSCRIPTION, state) &&
			  !spec_state_needs_action(SPEC_STATE_TRANSCRIPTION, state));
}

static int rec_insert(struct steno_store *st, struct steno_transcription *t, bool detailed,
		      int64_t now, struct store_transcription **out, struct steno_error *err)
{
	struct store_transcription *r = calloc(1, sizeof(*r));
	*out = NULL;
	if (!r || table_grow(st) != 0) {
		free(r);
		steno_transcription_free(t);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	r->t = *t;
	memset(t, 0, sizeof(*t));
	r->detailed = detailed;
	r->changing = is_changing(r->t.state);
	r->state_changed_ms = r->updated_ms = r->fetched_ms = now;
	r->used = ++st->use_clock;
	slot_put(st->slots, st->n_slots, r);
	st->n_recs++;
	*out = r;
	return 1;
}

int store_rec_merge(struct steno_store *st, struct steno_transcription *t, bool detailed,
		    int64_t now, bool *state_changed, char **old_state, struct steno_error *err)
{
	*state_changed = false;
	*old_state = NULL;
	st->merge_keyed = true;   /* a new record, unless merged below */
	if (!t->id || !t->id[0]) {
		steno_transcription_free(t);
		return steno_error_set(err, STENO_ERR_PARSE, "a transcription without an id");
	}
	struct store_transcription *r = store_rec_get(st, t->id);
	if (!r) {
		*state_changed = true;
		int rc = rec_insert(st, t, detailed, now, &r, err);
		if (rc == 1 && r) {
			r->cached = st->db_loading;
			store_db_rec(st, r, st->db_org != NULL, now);
		}
		return rc;
	}
	bool new_state = t->state && !str_eq(r->t.state, t->state);
	if (new_state && r->t.state)
		*old_state = strdup(r->t.state);   /* for the event; NULL on no memory too */
	if (new_state && !detailed)
		drop_stale_details(r);
	bool keyed;
	bool ch = merge_fields(&r->t, t, &keyed);
	st->merge_keyed = keyed;
	steno_transcription_free(t);
	r->cached = r->cached && st->db_loading;
	ch |= detailed && !r->detailed;
	r->detailed |= detailed;
	r->fetched_ms = now;
	if (new_state) {
		r->state_changed_ms = now;
		r->changing = is_changing(r->t.state);
		*state_changed = true;
	}
	if (ch)
		r->updated_ms = now;
	if (ch || detailed)   /* written through: what changed, and when details were read */
		store_db_rec(st, r, st->db_org != NULL, now);
	return ch ? 1 : 0;
}

int store_transcription_put(struct steno_store *st, struct steno_transcription *t, bool detailed,
			    int64_t now, struct steno_error *err)
{
	/* the id moves into the store with the struct: keep a copy for the event */
	char *id = t->id ? strdup(t->id) : NULL;
	if (t->id && !id) {
		steno_transcription_free(t);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	store_note_clock(st, now);
	bool state_changed;
	char *old_state;
	int rc = store_rec_merge(st, t, detailed, now, &state_changed, &old_state, err);
	if (rc == 1) {
		struct store_event ev = { .what = STORE_WHAT_TRANSCRIPTION, .id = id,
					  .state_changed = state_changed, .old_state = old_state,
					  .keys_changed = st->merge_keyed };
		store_emit(st, false, &ev);
	}
	free(old_state);
	free(id);
	return rc;
}

const struct store_transcription *store_transcription_get(const struct steno_store *st,
							  const char *id)
{
	return store_rec_get(st, id);
}

void store_transcription_remove(struct steno_store *st, const char *id)
{
	struct store_transcription *r = store_rec_get(st, id);
	if (!r)
		return;
	char *copy = strdup(id);
	store_views_forget(st, id);
	store_db_rec_remove(st, id);
	table_remove(st, r);
	rec_free(r);
	struct store_event ev = { .what = STORE_WHAT_TRANSCRIPTION, .id = copy ? copy : "",
				  .keys_changed = true };
	store_emit(st, false, &ev);
	free(copy);
}

void store_transcription_failed(struct steno_store *st, const char *id,
				const struct steno_error *e)
{
	struct store_event ev = { .what = STORE_WHAT_TRANSCRIPTION, .id = id, .error = e };
	store_emit(st, true, &ev);
}

size_t store_records_held(const struct steno_store *st)
{
	return st->n_recs;
}

static int by_use(const void *a, const void *b)
{
	uint64_t ua = (*(struct store_transcription *const *)a)->used;
	uint64_t ub = (*(struct store_transcription *const *)b)->used;
	return (ua > ub) - (ua < ub);
}

/* Over the bound, down to three quarters of it: a trim every STORE_RECS_MAX / 4 new records,
 * not one a record. */
void store_trim(struct steno_store *st, int64_t now)
{
	store_note_clock(st, now);
	if (st->n_recs <= STORE_RECS_MAX || !store_db_trimmable(st))
		return;
	struct store_transcription **c = malloc(st->n_recs * sizeof *c);
	size_t n = 0;
	if (!c)
		return;
	for (size_t i = 0; i < st->n_slots; i++) {
		struct store_transcription *r = st->slots[i];
		if (r && !(r->live_ms && now - r->live_ms < STORE_LIVE_KEEP_MS) &&
		    store_listed(st, r->t.id))
			c[n++] = r;
	}
	qsort(c, n, sizeof *c, by_use);
	for (size_t i = 0; i < n && st->n_recs > STORE_RECS_MAX * 3 / 4; i++) {
		table_remove(st, c[i]);
		rec_free(c[i]);
	}
	free(c);
}

/* ---- refreshes in flight ---- */

static long inflight_find(const struct steno_store *st, const char *key)
{
	for (size_t i = 0; i < st->n_inflight; i++)
		if (strcmp(st->inflight[i], key) == 0)
			return (long)i;
	return -1;
}

bool store_refresh_begin(struct steno_store *st, const char *key)
{
	if (!key || inflight_find(st, key) >= 0)
		return false;
	char **n = realloc(st->inflight, (st->n_inflight + 1) * sizeof(*n));
	if (!n)
		return false;
	st->inflight = n;
	if (!(n[st->n_inflight] = strdup(key)))
		return false;
	st->n_inflight++;
	return true;
}

void store_refresh_end(struct steno_store *st, const char *key)
{
	long i = key ? inflight_find(st, key) : -1;
	if (i < 0)
		return;
	free(st->inflight[i]);
	st->inflight[i] = st->inflight[--st->n_inflight];
}

bool store_refresh_running(const struct steno_store *st, const char *key)
{
	return key && inflight_find(st, key) >= 0;
}

size_t store_refresh_count(const struct steno_store *st)
{
	return st->n_inflight;
}
