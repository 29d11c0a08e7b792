#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/jobs_internal.h"

/* A create whose answer was lost (err.code outcome_unknown) may or may not have been acted
 * on. The job never sends it again; it looks for what the POST may have made and says
 * what it found:
 * - a transcription (or an order given a name): the organization's newest transcriptions
 *   (page 0, most recent first) with the same name, created since the job started (less a
 *   margin for clock skew between us and the server);
 * - a confirm: the order read again (it left `incomplete` if the confirm went through);
 * - exports, translation orders and tasks cannot be listed in the API: nothing to search.
 * The job then ends FAILED with code outcome_found (resource_id set) or outcome_unknown. */

#define RESOLVE_SKEW_MS (5 * 60 * 1000)

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
		steno_error_set(&j->pub.error, j->pub.error.kind, "no answer from the server, but %.400s",
				what);
	else
		steno_error_set(&j->pub.error, j->pub.error.kind, "%.200s; %.280s", msg, what);
	snprintf(j->pub.error.code, sizeof(j->pub.error.code), "%s",
		 found ? STENO_CODE_OUTCOME_FOUND : STENO_CODE_OUTCOME_UNKNOWN);
	job_fail(j, NULL);
}

static const char *resolve_name(const struct job *j)
{
	return j->pub.kind == JOB_TRANSCRIBE ? j->treq.name : j->oreq.name;
}

static void on_recent(void *ud, struct steno_transcription_page *res, const struct steno_error *err)
{
	struct job *j = ud;
	if (err) {
		char what[300];
		snprintf(what, sizeof(what), "looking for it failed too (%.200s): check the list",
			 err->message);
		resolved(j, false, what);
		return;
	}
	const char *name = resolve_name(j);
	const struct steno_transcription *hit = NULL;
	for (size_t i = 0; i < res->n && !hit; i++) {
		const struct steno_transcription *t = &res->items[i];
		if (t->id && t->name && strcmp(t->name, name) == 0 &&
		    (t->created_at.st != STENO_PRESENT ||
		     t->created_at.ms >= j->started_wall_ms - RESOLVE_SKEW_MS))
			hit = t;
	}
	char what[300];
	if (hit) {
		job_set_str(j, &j->pub.resource_id, hit->id);
		long ago = hit->created_at.st == STENO_PRESENT
			? (long)((wall_ms() - hit->created_at.ms) / 1000) : -1;
		if (ago >= 0)
			snprintf(what, sizeof(what), "found it: transcription %s \"%.80s\" (created %ld s ago)",
				 hit->id, name, ago);
		else
			snprintf(what, sizeof(what), "found it: transcription %s \"%.80s\"", hit->id, name);
	} else {
		snprintf(what, sizeof(what),
			 "not found: no transcription \"%.80s\" was created since the submit", name);
	}
	resolved(j, hit != NULL, what);
}

static void on_order_again(void *ud, struct steno_order *res, const struct steno_error *err)
{
	struct job *j = ud;
	char what[300];
	if (err)
		snprintf(what, sizeof(what), "reading the order again failed too (%.200s)", err->message);
	else if (res->state && strcmp(res->state, "incomplete") != 0)
		snprintf(what, sizeof(what), "found it: order %.64s is now %.40s, the confirm went through",
			 res->id ? res->id : "", res->state);
	else
		snprintf(what, sizeof(what), "not found: order %.64s is still %.40s", res->id ? res->id : "",
			 res->state ? res->state : "(no state)");
	bool found = !err && res->state && strcmp(res->state, "incomplete") != 0;
	if (!err && res->id)
		job_set_str(j, &j->pub.resource_id, res->id);
	resolved(j, found, what);
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
		struct steno_api_list_query q = {.organization_id = org, .page = 0};
		rc = steno_api_transcriptions_list(http, &q, on_recent, j, &e);
	} else if (j->pub.kind == JOB_CONFIRM && j->pub.resource_id) {
		rc = steno_api_order_retrieve(http, j->pub.resource_id, on_order_again, j, &e);
	} else {
		resolved(j, false, "it cannot be looked up (the API lists no such resource): "
			    "check in the web application before submitting again");
		return;
	}
	if (rc != 0) {
		char what[300];
		snprintf(what, sizeof(what), "could not look for it (%.200s)", e.message);
		resolved(j, false, what);
		return;
	}
	job_set_step(j, JOB_STEP_RESOLVING);
}
