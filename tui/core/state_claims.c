/* The claims of the state file: the creations of this user's steno processes, recorded under
 * the file's lock before the POST and when its item is known (the reply, or the lookup after a
 * lost reply), so that a lookup never takes another process's item (core/jobs_resolve.c). */
#include "config.h"
#include "core/state.h"

#include <json.h>
#include <stdlib.h>
#include <string.h>

#include "core/state_internal.h"

static void claim_free(struct state_claim *c)
{
	free(c->origin);
	free(c->org_id);
	free(c->token);
	free(c->key);
	free(c->id);
}

void state_claims_free(struct steno_state *st)
{
	for (size_t i = 0; i < st->n_claims; i++)
		claim_free(&st->claims[i]);
	free(st->claims);
	st->claims = NULL;
	st->n_claims = 0;
}

struct state_claim *state_claim_find(struct steno_state *st, const char *token)
{
	for (size_t i = 0; token && i < st->n_claims; i++)
		if (strcmp(st->claims[i].token, token) == 0)
			return &st->claims[i];
	return NULL;
}

bool state_claim_taken(const struct steno_state *st, const char *origin, const char *org_id,
		       const char *id, const char *token)
{
	for (size_t i = 0; i < st->n_claims; i++) {
		const struct state_claim *c = &st->claims[i];
		if (c->id && strcmp(c->id, id) == 0 && strcmp(c->origin, origin ? origin : "") == 0 &&
		    strcmp(c->org_id, org_id ? org_id : "") == 0 &&
		    (!token || strcmp(c->token, token) != 0))
			return true;
	}
	return false;
}

static int dup_to(char **dst, const char *src)
{
	*dst = strdup(src ? src : "");
	return *dst ? 0 : -1;
}

int state_claim_put(struct steno_state *st, const struct state_claim_in *c)
{
	if (!c->token || !c->token[0])
		return -1;
	struct state_claim *d = state_claim_find(st, c->token);
	if (d) {
		if (c->id && !d->id && !(d->id = strdup(c->id)))
			return -1;
		d->resolving = d->resolving || c->resolving;
		d->done = d->done || c->done;
		if (c->started_ms && (!d->started_ms || c->started_ms < d->started_ms))
			d->started_ms = c->started_ms;
		st->dirty = true;
		return 0;
	}
	struct state_claim *v = realloc(st->claims, (st->n_claims + 1) * sizeof(*v));
	if (!v)
		return -1;
	st->claims = v;
	struct state_claim n = { .pid = c->pid, .started_ms = c->started_ms,
				 .resolving = c->resolving, .done = c->done };
	if (dup_to(&n.origin, c->origin) || dup_to(&n.org_id, c->org_id) ||
	    dup_to(&n.token, c->token) || dup_to(&n.key, c->key) ||
	    (c->id && dup_to(&n.id, c->id))) {
		claim_free(&n);
		return -1;
	}
	st->claims[st->n_claims++] = n;
	st->dirty = true;
	return 0;
}

void state_claims_prune(struct steno_state *st, int64_t now_ms)
{
	/* old ones go: a creation is looked up minutes after it, not days */
	size_t o = 0;
	for (size_t i = 0; i < st->n_claims; i++) {
		if (now_ms > 0 && st->claims[i].started_ms < now_ms - STATE_CLAIM_KEEP_MS)
			claim_free(&st->claims[i]);
		else
			st->claims[o++] = st->claims[i];
	}
	if (o != st->n_claims)
		st->dirty = true;
	st->n_claims = o;
}

int state_claims_merge(struct steno_state *dst, const struct steno_state *src, int64_t now_ms)
{
	for (size_t i = 0; i < src->n_claims; i++) {
		const struct state_claim *c = &src->claims[i];
		struct state_claim_in in = { c->origin, c->org_id, c->token, c->key, c->id, c->pid,
					     c->started_ms, c->resolving, c->done };
		if (state_claim_put(dst, &in) < 0)
			return -1;
	}
	state_claims_prune(dst, now_ms);
	return 0;
}

int state_claims_from_json(struct steno_state *st, json_object *root)
{
	json_object *arr;
	if (!json_object_object_get_ex(root, "claims", &arr))
		return 0;   /* older files have none */
	if (!json_object_is_type(arr, json_type_array))
		return 1;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		json_object *o = json_object_array_get_idx(arr, i);
		if (!json_object_is_type(o, json_type_object) || !state_jstr(o, "token") ||
		    !state_jstr(o, "origin"))
			return 1;
		struct state_claim_in c = {
			.origin = state_jstr(o, "origin"), .org_id = state_jstr(o, "org"),
			.token = state_jstr(o, "token"), .key = state_jstr(o, "key"),
			.id = state_jstr(o, "id"), .pid = (long)state_jint64(o, "pid"),
			.started_ms = state_jint64(o, "started_ms"), .resolving = state_jtrue(o, "resolving"),
			.done = state_jtrue(o, "done"),
		};
		if (state_claim_put(st, &c) < 0)
			return -1;
	}
	return 0;
}

int state_claims_to_json(const struct steno_state *st, json_object *root)
{
	if (!st->n_claims)
		return 0;
	json_object *arr = json_object_new_array();
	if (!arr || json_object_object_add(root, "claims", arr)) {
		json_object_put(arr);
		return -1;
	}
	for (size_t i = 0; i < st->n_claims; i++) {
		const struct state_claim *c = &st->claims[i];
		json_object *o = json_object_new_object();
		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			return -1;
		}
		json_object_object_add(o, "origin", json_object_new_string(c->origin));
		json_object_object_add(o, "org", json_object_new_string(c->org_id));
		json_object_object_add(o, "token", json_object_new_string(c->token));
		json_object_object_add(o, "key", json_object_new_string(c->key));
		if (c->id)
			json_object_object_add(o, "id", json_object_new_string(c->id));
		json_object_object_add(o, "pid", json_object_new_int64(c->pid));
		json_object_object_add(o, "started_ms", json_object_new_int64(c->started_ms));
		if (c->resolving)
			json_object_object_add(o, "resolving", json_object_new_boolean(1));
		if (c->done)
			json_object_object_add(o, "done", json_object_new_boolean(1));
	}
	return 0;
}
