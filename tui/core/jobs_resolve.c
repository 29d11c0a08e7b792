#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "api/utf8.h"
#include "core/jobs_internal.h"

/* A create whose answer was lost (err.code outcome_unknown) may or may not have been acted
 * on. The job never sends it again; it looks for what the POST may have made:
 * - a transcription: the organization's newest transcriptions (page 0, most recent first;
 *   in the folder when a folder id was sent) that fit everything the list shows of what was
 *   sent (name, language, tags) and were created in the job's time window (since it started,
 *   less a margin for clock skew). The list does not show the
 *   media nor a folder path: what tells two such creations apart is the claims of the state
 *   file (core/state.h struct state_claim). Every transcription POST of a steno process with
 *   a state file records a claim first (a random token, what was sent, its pid), and the id
 *   when the reply names it; under the file's lock, a lookup drops the candidates another
 *   claim holds, waits (up to RESOLVE_WAIT_MS) while another live process with the same
 *   request has neither its reply nor a lost one, and takes a candidate only when exactly one
 *   is left and no other live process is looking for the same thing. Then the claim holds
 *   it, and the job carries on as if the reply had come (found_after_loss: it waits, when
 *   asked to). More than one candidate, or others looking too: the job fails with code
 *   "ambiguous" and the candidates (never picks one); none: outcome_unknown, "not found";
 * - a confirm: the order read again; when it left `incomplete` the confirm went through and
 *   the job carries on (found_after_loss);
 * - an order given a name: a transcription of that name since the submit says the order
 *   probably went through, but not its id: outcome_unknown, saying so;
 * - exports, translation orders and tasks cannot be listed in the API: outcome_unknown. */

#define RESOLVE_SKEW_MS (5 * 60 * 1000)
#define RESOLVE_WAIT_MS (60 * 1000)      /* for another process's reply */
#define RESOLVE_MAX_CANDIDATES 16

static int64_t wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void resolved(struct job *j, bool found, const char *what)
{
	char msg[sizeof(j->pub.error.message)];
	snprintf(msg, sizeof(msg), "%s", j->pub.error.message);
	if (found)
		steno_error_set(&j->pub.error, j->pub.error.kind, "no answer from the server, but %.*s",
				STENO_UTF8_CUT(what, 400));
	else
		steno_error_set(&j->pub.error, j->pub.error.kind, "%.*s; %.*s",
				STENO_UTF8_CUT(msg, 200), STENO_UTF8_CUT(what, 280));
	snprintf(j->pub.error.code, sizeof(j->pub.error.code), "%s",
		 found ? STENO_CODE_OUTCOME_FOUND : STENO_CODE_OUTCOME_UNKNOWN);
	job_fail(j, NULL);
}

/* ---- the claims ---- */

static const char *job_origin(const struct job *j)
{
	const struct steno_state *st = j->jm->cfg.state;
	return st && st->origin ? st->origin : "";
}

static const char *claim_org(const struct job *j)
{
	return j->treq.organization_id ? j->treq.organization_id : "";
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* What the list shows of what was sent, as one string: two creations with the same key
 * cannot be told apart in the list. Malloc'd, or NULL. */
static char *claim_key(const struct job *j)
{
	const struct steno_transcription_create_req *r = &j->treq;
	const char **tags = r->n_tags ? calloc(r->n_tags, sizeof(*tags)) : NULL;
	if (r->n_tags && !tags)
		return NULL;
	size_t len = 64;
	for (size_t i = 0; i < r->n_tags; i++) {
		tags[i] = r->tags[i];
		len += strlen(r->tags[i]) + 1;
	}
	if (r->n_tags)
		qsort(tags, r->n_tags, sizeof(*tags), cmp_str);
	const char *f[] = { r->name, r->language, r->folder, r->folder_id };
	for (size_t i = 0; i < 4; i++)
		len += (f[i] ? strlen(f[i]) : 0) + 1;
	char *k = malloc(len);
	if (k) {
		size_t o = (size_t)snprintf(k, len, "%s\x1f%s\x1f%s\x1f%s\x1f", f[0] ? f[0] : "",
					    f[1] ? f[1] : "", f[2] ? f[2] : "", f[3] ? f[3] : "");
		for (size_t i = 0; i < r->n_tags && o < len; i++)
			o += (size_t)snprintf(k + o, len - o, "%s%s", i ? "," : "", tags[i]);
	}
	free(tags);
	return k;
}

struct claim_op {
	const struct job *j;
	const char *key;
	struct state_claim_in rec;              /* put as is (begin, created, resolving) */
	/* the decision of a lookup */
	const char *const *cand;             /* candidates that fit, newest first */
	size_t n_cand;
	bool may_wait;
	const char *left[RESOLVE_MAX_CANDIDATES]; /* out: those no other claim holds */
	size_t n_left;
	size_t waiting, looking;             /* out: other live processes with the same key */
	long waiting_pid;                    /* out: one of those waiting for their reply */
};

static int claim_put_fn(struct steno_state *disk, void *ud)
{
	struct claim_op *op = ud;
	state_claims_prune(disk, wall_ms());
	return state_claim_put(disk, &op->rec);
}

static bool pid_alive(long pid)
{
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

enum { DECIDE_WAIT = 1, DECIDE_FOUND, DECIDE_NONE, DECIDE_AMBIGUOUS };

static int claim_decide_fn(struct steno_state *disk, void *ud)
{
	struct claim_op *op = ud;
	const struct job *j = op->j;
	const char *origin = job_origin(j), *org = claim_org(j), *token = j->claim_token;
	state_claims_prune(disk, wall_ms());
	for (size_t i = 0; i < op->n_cand && op->n_left < RESOLVE_MAX_CANDIDATES; i++)
		if (!state_claim_taken(disk, origin, org, op->cand[i], token))
			op->left[op->n_left++] = op->cand[i];
	for (size_t i = 0; i < disk->n_claims; i++) {
		const struct state_claim *c = &disk->claims[i];
		if (strcmp(c->token, token) == 0 || c->id || c->done || strcmp(c->origin, origin) ||
		    strcmp(c->org_id, org) || strcmp(c->key, op->key) || !pid_alive(c->pid) ||
		    c->started_ms > wall_ms() + RESOLVE_SKEW_MS)
			continue;
		if (c->resolving)
			op->looking++;
		else if (!op->waiting++)
			op->waiting_pid = c->pid;
	}
	if (op->waiting && op->may_wait)
		return DECIDE_WAIT;
	struct state_claim_in mine = { .origin = origin, .org_id = org,
				    .token = token, .key = op->key,
				    .pid = (long)getpid(), .started_ms = j->started_wall_ms,
				    .resolving = true, .done = true };
	int verdict = op->n_left == 0 ? DECIDE_NONE
		: op->n_left == 1 && !op->waiting && !op->looking ? DECIDE_FOUND : DECIDE_AMBIGUOUS;
	if (verdict == DECIDE_FOUND)
		mine.id = op->left[0];
	return state_claim_put(disk, &mine) < 0 ? -1 : verdict;
}

static void claim_update(struct job *j, struct claim_op *op)
{
	const char *path = j->jm->cfg.state_path;
	if (!path || !j->claim_token[0])
		return;
	struct steno_error e;
	steno_error_clear(&e);
	state_file_update(path, claim_put_fn, op, &e);   /* at worst a lookup says "ambiguous" */
}

static void claim_record(struct job *j, const char *id, bool resolving, bool done)
{
	char *key = claim_key(j);
	struct claim_op op = { .j = j, .key = key,
			       .rec = { .origin = job_origin(j), .org_id = claim_org(j),
					.token = j->claim_token, .key = key, .id = id,
					.pid = (long)getpid(), .started_ms = j->started_wall_ms,
					.resolving = resolving, .done = done } };
	if (key)
		claim_update(j, &op);
	free(key);
}

void jobs_claim_begin(struct job *j)
{
	unsigned char r[16];
	if (!j->jm->cfg.state_path || getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
		return;
	for (size_t i = 0; i < sizeof r; i++)
		snprintf(j->claim_token + 2 * i, 3, "%02x", r[i]);
	claim_record(j, NULL, false, false);
}

void jobs_claim_refused(struct job *j)
{
	if (j->claim_token[0])
		claim_record(j, NULL, false, true);
}

void jobs_claim_created(struct job *j, const char *id)
{
	if (id)
		claim_record(j, id, false, true);
}

/* ---- a transcription's lookup ---- */

/* A name in a message: at most 80 bytes, cut between characters (a "%.*s" pair). */
#define NAME_CUT(name) STENO_UTF8_CUT(name, 80)

static const char *resolve_name(const struct job *j)
{
	return j->pub.kind == JOB_TRANSCRIBE ? j->treq.name : j->oreq.name;
}

/* Whether a listed transcription fits what was sent (what the list shows of it). */
static bool fits(const struct job *j, const struct steno_transcription *t)
{
	const char *name = resolve_name(j);
	if (!t->id || !t->name || strcmp(t->name, name) != 0)
		return false;
	if (t->created_at.st == STENO_PRESENT &&
	    t->created_at.ms < j->started_wall_ms - RESOLVE_SKEW_MS)
		return false;
	if (j->pub.kind != JOB_TRANSCRIBE)
		return true;
	const struct steno_transcription_create_req *r = &j->treq;
	if (r->language && t->language && strcmp(r->language, t->language) != 0)
		return false;
	if (t->tags.st == STENO_PRESENT) {
		if (t->tags.n != r->n_tags)
			return false;
		for (size_t i = 0; i < r->n_tags; i++) {
			bool in = false;
			for (size_t k = 0; k < t->tags.n && !in; k++)
				in = strcmp(t->tags.v[k], r->tags[i]) == 0;
			if (!in)
				return false;
		}
	}
	return true;
}

static void set_candidates(struct job *j, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char **c = realloc(j->pub.candidates, (j->pub.n_candidates + 1) * sizeof(*c));
		char *s = c ? strdup(v[i]) : NULL;
		if (c)
			j->pub.candidates = c;
		if (!s) {
			j->nomem = true;
			return;
		}
		c[j->pub.n_candidates++] = s;
	}
}

/* The one candidate is the job's: it carries on from its listed state. */
static void carry_on(struct job *j, const struct steno_transcription *t)
{
	steno_error_clear(&j->pub.error);
	j->pub.found_after_loss = true;
	char *state = t->state ? strdup(t->state) : NULL;
	job_resource_state(j, SCHED_TRANSCRIPTION, t->id, state,
			   state && strcmp(state, "failed") == 0, NULL);
	free(state);
}

static void ambiguous(struct job *j, const char *const *left, size_t n, size_t others)
{
	set_candidates(j, left, n);
	char ids[300] = "";
	for (size_t i = 0, o = 0; i < n && o < sizeof ids; i++)
		o += (size_t)snprintf(ids + o, sizeof ids - o, "%s%s", i ? ", " : "", left[i]);
	char msg[sizeof(j->pub.error.message)];
	snprintf(msg, sizeof msg, "%.*s; ambiguous: %zu transcription%s \"%.*s\" fit%s what was "
		 "sent (%s)%s; none is taken as this command's: check them (steno show ID) before "
		 "submitting again", STENO_UTF8_CUT(j->pub.error.message, 160), n, n == 1 ? "" : "s", NAME_CUT(resolve_name(j)),
		 n == 1 ? "s" : "", ids, others ? " and other steno processes sent the same and lost "
		 "their reply too" : "");
	steno_error_set(&j->pub.error, j->pub.error.kind, "%s", msg);
	snprintf(j->pub.error.code, sizeof(j->pub.error.code), "ambiguous");
	job_fail(j, NULL);
}

static void on_recent(void *ud, struct steno_transcription_page *res, const struct steno_error *err)
{
	struct job *j = ud;
	if (err) {
		char what[300];
		snprintf(what, sizeof(what), "looking for it failed too (%.*s): check the list",
			 STENO_UTF8_CUT(err->message, 200));
		resolved(j, false, what);
		return;
	}
	const char *cand[RESOLVE_MAX_CANDIDATES];
	const struct steno_transcription *item[RESOLVE_MAX_CANDIDATES];
	size_t n = 0;
	for (size_t i = 0; i < res->n && n < RESOLVE_MAX_CANDIDATES; i++)
		if (fits(j, &res->items[i])) {
			item[n] = &res->items[i];
			cand[n++] = res->items[i].id;
		}
	const char *name = resolve_name(j);
	char what[300];
	if (j->pub.kind == JOB_ORDER) {
		if (n)
			snprintf(what, sizeof what, "transcription %s \"%.*s\" was created since the "
				 "submit: the order probably went through, but its id is unknown: check "
				 "the orders in the web application before submitting again", cand[0],
				 NAME_CUT(name));
		else
			snprintf(what, sizeof what, "not found: no transcription \"%.*s\" was created "
				 "since the submit", NAME_CUT(name));
		resolved(j, false, what);
		return;
	}
	char *key = claim_key(j);
	struct claim_op op = { .j = j, .key = key ? key : "", .cand = cand, .n_cand = n,
			       .may_wait = jobs_now_ms() < j->resolve_until_ms };
	int verdict;
	if (j->jm->cfg.state_path && j->claim_token[0]) {
		struct steno_error e;
		steno_error_clear(&e);
		verdict = key ? state_file_update(j->jm->cfg.state_path, claim_decide_fn, &op, &e) : -1;
	} else {
		/* no state file: no other process's claims to see */
		for (size_t i = 0; i < n; i++)
			op.left[op.n_left++] = cand[i];
		verdict = n == 0 ? DECIDE_NONE : n == 1 ? DECIDE_FOUND : DECIDE_AMBIGUOUS;
	}
	free(key);
	if (verdict == DECIDE_WAIT) {
		/* another process's reply may still come: look again soon, saying so (the state
		 * of a resolving job is what its lookup waits for) */
		char note[160];
		snprintf(note, sizeof note, "waiting for steno process %ld, which sent the same and "
			 "has no answer yet (up to a minute)", op.waiting_pid);
		job_set_str(j, &j->pub.state, note);
		job_emit(j);
		j->resolve_at_ms = jobs_now_ms() + 500;
		return;
	}
	free(j->pub.state);
	j->pub.state = NULL;
	if (verdict == DECIDE_FOUND) {
		for (size_t i = 0; i < n; i++)
			if (strcmp(cand[i], op.left[0]) == 0)
				carry_on(j, item[i]);
		return;
	}
	if (verdict == DECIDE_AMBIGUOUS) {
		ambiguous(j, op.left, op.n_left, op.looking + op.waiting);
		return;
	}
	if (verdict < 0)
		snprintf(what, sizeof what, "the state file could not be read to tell this command's "
			 "transcription \"%.*s\" from another process's: check the list", NAME_CUT(name));
	else if (n)
		snprintf(what, sizeof what, "not found: every transcription \"%.*s\" created since "
			 "the submit is another steno command's", NAME_CUT(name));
	else
		snprintf(what, sizeof(what),
			 "not found: no transcription \"%.*s\" was created since the submit", NAME_CUT(name));
	resolved(j, false, what);
}

static void on_order_again(void *ud, struct steno_order *res, const struct steno_error *err)
{
	struct job *j = ud;
	char what[300];
	bool found = !err && res->state && strcmp(res->state, "incomplete") != 0;
	if (found) {
		steno_error_clear(&j->pub.error);
		j->pub.found_after_loss = true;
		jobs_order_result(j, res);
		return;
	}
	if (err)
		snprintf(what, sizeof(what), "reading the order again failed too (%.*s)",
			 STENO_UTF8_CUT(err->message, 200));
	else
		snprintf(what, sizeof(what), "not found: order %.*s is still %.*s",
			 STENO_UTF8_CUT(res->id ? res->id : "", 64),
			 STENO_UTF8_CUT(res->state ? res->state : "(no state)", 40));
	if (!err && res->id)
		job_set_str(j, &j->pub.resource_id, res->id);
	resolved(j, false, what);
}

static int list_again(struct job *j, struct steno_error *e)
{
	struct steno_api_list_query q = {.organization_id = j->pub.kind == JOB_TRANSCRIBE
						? j->treq.organization_id : j->oreq.organization_id,
					 .page = 0,
					 .folder_id = j->pub.kind == JOB_TRANSCRIBE ? j->treq.folder_id
										    : NULL};
	return steno_api_transcriptions_list(j->jm->cfg.http, &q, on_recent, j, e);
}

long jobs_resolve_next_ms(const struct steno_jobs *jm, int64_t now)
{
	long best = -1;
	for (size_t i = 0; i < jm->n; i++) {
		const struct job *j = jm->jobs[i];
		if (j->pub.step != JOB_STEP_RESOLVING || !j->resolve_at_ms)
			continue;
		long d = j->resolve_at_ms > now ? (long)(j->resolve_at_ms - now) : 0;
		if (best < 0 || d < best)
			best = d;
	}
	return best;
}

void jobs_resolve_tick(struct steno_jobs *jm, int64_t now)
{
	for (size_t i = 0; i < jm->n; i++) {
		struct job *j = jm->jobs[i];
		if (j->pub.step != JOB_STEP_RESOLVING || !j->resolve_at_ms || j->resolve_at_ms > now)
			continue;
		j->resolve_at_ms = 0;
		struct steno_error e;
		steno_error_clear(&e);
		if (list_again(j, &e) != 0) {
			char what[300];
			snprintf(what, sizeof(what), "could not look for it (%.*s)", STENO_UTF8_CUT(e.message, 200));
			resolved(j, false, what);
		}
	}
}

void jobs_resolve_lost_create(struct job *j, const struct steno_error *err)
{
	j->pub.error = *err;
	struct steno_http *http = j->jm->cfg.http;
	struct steno_error e;
	steno_error_clear(&e);
	int rc = -1;
	const char *name = (j->pub.kind == JOB_TRANSCRIBE || j->pub.kind == JOB_ORDER) ? resolve_name(j)
										       : NULL;
	const char *org = j->pub.kind == JOB_TRANSCRIBE ? j->treq.organization_id
							: j->oreq.organization_id;
	if (name && name[0] && org) {
		if (j->pub.kind == JOB_TRANSCRIBE)
			claim_record(j, NULL, true, false);
		j->resolve_until_ms = jobs_now_ms() + RESOLVE_WAIT_MS;
		rc = list_again(j, &e);
	} else if (j->pub.kind == JOB_CONFIRM && j->pub.resource_id) {
		rc = steno_api_order_retrieve(http, j->pub.resource_id, on_order_again, j, &e);
	} else {
		resolved(j, false, "it cannot be looked up (the API lists no such resource): "
			    "check in the web application before submitting again");
		return;
	}
	if (rc != 0) {
		char what[300];
		snprintf(what, sizeof(what), "could not look for it (%.*s)", STENO_UTF8_CUT(e.message, 200));
		resolved(j, false, what);
		return;
	}
	job_set_step(j, JOB_STEP_RESOLVING);
}
