#include "config.h"
#include "core/jobs.h"
#include "core/jobs_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/spec_tables.h"

#define WAIT_ERRORS_MAX 5

int64_t jobs_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct steno_jobs *jobs_new(const struct jobs_config *cfg, struct steno_error *err)
{
	if (!cfg || !cfg->http) {
		steno_error_set(err, STENO_ERR_INVALID, "jobs need an HTTP engine");
		return NULL;
	}
	struct steno_jobs *jm = calloc(1, sizeof(*jm));
	if (!jm) {
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		return NULL;
	}
	jm->cfg = *cfg;
	jm->cfg.organization_id = NULL; /* borrowed strings are not kept: copied below */
	struct sched_policy p;
	scheduler_policy_default(&p);
	if (cfg->poll_min_ms > 0)
		p.min_ms = cfg->poll_min_ms;
	if (cfg->poll_max_ms > 0)
		p.max_ms = cfg->poll_max_ms;
	if (cfg->requests_per_second > 0)
		p.requests_per_second = cfg->requests_per_second;
	p.background_factor = 1; /* every job's item is watched */
	jm->sched = scheduler_new(&p, jobs_now_ms());
	char *org = cfg->organization_id ? strdup(cfg->organization_id) : NULL;
	if (!jm->sched || (cfg->organization_id && !org)) {
		free(org);
		scheduler_free(jm->sched);
		free(jm);
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		return NULL;
	}
	jm->org = org;
	jm->cfg.organization_id = org;
	return jm;
}

static void job_free(struct job *j)
{
	free(j->pub.resource_id);
	free(j->pub.state);
	free(j->pub.file);
	for (size_t i = 0; i < j->pub.n_result_ids; i++)
		free(j->pub.result_ids[i]);
	free(j->pub.result_ids);
	for (size_t i = 0; i < j->pub.n_candidates; i++)
		free(j->pub.candidates[i]);
	free(j->pub.candidates);
	free(j->upload_path);
	for (size_t i = 0; i < j->n_owned; i++)
		free(j->owned[i]);
	free(j->owned);
	free(j->treq_tags);
	free(j->oreq_tags);
	free(j->glossary_ids);
	free(j->dir);
	free(j->name);
	free(j);
}

void jobs_free(struct steno_jobs *jm)
{
	if (!jm)
		return;
	for (size_t i = 0; i < jm->n; i++) {
		steno_http_cancel_owner(jm->cfg.http, jm->jobs[i]);
		job_free(jm->jobs[i]);
	}
	free(jm->jobs);
	scheduler_free(jm->sched);
	free(jm->org);
	free(jm);
}

struct job *jobs_add(struct steno_jobs *jm, enum job_kind kind, struct steno_error *err)
{
	struct job *j = calloc(1, sizeof(*j));
	struct job **js = j ? realloc(jm->jobs, (jm->n + 1) * sizeof(*js)) : NULL;
	if (!js) {
		free(j);
		steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		return NULL;
	}
	jm->jobs = js;
	js[jm->n++] = j;
	j->jm = jm;
	j->pub.id = ++jm->next_id;
	j->pub.kind = kind;
	j->pub.step = JOB_STEP_CREATING;
	j->pub.started_ms = j->pub.step_ms = jobs_now_ms();
	struct timespec wall;
	clock_gettime(CLOCK_REALTIME, &wall);
	j->started_wall_ms = (int64_t)wall.tv_sec * 1000 + wall.tv_nsec / 1000000;
	return j;
}

void jobs_remove(struct steno_jobs *jm, struct job *j)
{
	for (size_t i = 0; i < jm->n; i++)
		if (jm->jobs[i] == j) {
			memmove(&jm->jobs[i], &jm->jobs[i + 1], (jm->n - i - 1) * sizeof(*jm->jobs));
			jm->n--;
			break;
		}
	steno_http_cancel_owner(jm->cfg.http, j);
	job_free(j);
}

void job_emit(struct job *j)
{
	if (j->jm->cfg.on_event)
		j->jm->cfg.on_event(j->jm->cfg.ud, &j->pub);
}

static bool step_over(enum job_step s)
{
	return s == JOB_STEP_DONE || s == JOB_STEP_FAILED || s == JOB_STEP_CANCELLED;
}

/* An ended job's words on the order, export or task it made or followed (the store's
 * activity row); a job done with nothing to add clears what an earlier one left there. */
static void job_record_end(struct job *j)
{
	enum store_activity_kind kind;
	char text[STORE_JOB_END_MAX];
	if (!j->jm->cfg.store || !jobs_resource_kind(&j->pub, &kind))
		return;
	jobs_end_text(&j->pub, text, sizeof text);
	store_activity_job_end(j->jm->cfg.store, kind, j->pub.resource_id, text[0] ? text : NULL,
			       j->pub.step == JOB_STEP_FAILED);
}

void job_set_step(struct job *j, enum job_step step)
{
	if (step_over(step) && !step_over(j->pub.step))
		j->pub.ended_while = j->pub.step;
	j->pub.step = step;
	j->pub.step_ms = jobs_now_ms();
	if (step_over(step))
		job_record_end(j);
	job_emit(j);
}

void job_fail(struct job *j, const struct steno_error *err)
{
	if (err)
		j->pub.error = *err;
	else if (j->pub.error.kind == STENO_ERR_NONE)
		steno_error_set(&j->pub.error, STENO_ERR_JOB, "failed");
	job_set_step(j, JOB_STEP_FAILED);
}

int job_set_str(struct job *j, char **dst, const char *src)
{
	if (!src || (*dst && strcmp(*dst, src) == 0))
		return 0;
	char *c = strdup(src);
	if (!c) {
		j->nomem = true;
		return -1;
	}
	free(*dst);
	*dst = c;
	return 0;
}

const char *jobs_step_name(enum job_step step)
{
	switch (step) {
	case JOB_STEP_UPLOAD_URL: return "preparing upload";
	case JOB_STEP_UPLOADING: return "uploading";
	case JOB_STEP_CREATING: return "creating";
	case JOB_STEP_WAITING: return "waiting";
	case JOB_STEP_DOWNLOADING: return "downloading";
	case JOB_STEP_RESOLVING: return "looking for what the lost request made";
	case JOB_STEP_DONE: return "done";
	case JOB_STEP_FAILED: return "failed";
	case JOB_STEP_CANCELLED: return "cancelled";
	}
	return "?";
}

const char *jobs_end_text(const struct steno_job *j, char *buf, size_t size)
{
	bool downloading = j->ended_while == JOB_STEP_DOWNLOADING;
	buf[0] = '\0';
	if (j->step == JOB_STEP_DONE && j->file)
		snprintf(buf, size, "downloaded to %s", j->file);
	else if (j->step == JOB_STEP_FAILED)
		snprintf(buf, size, "%s%s", downloading ? "download failed: " : "", j->error.message);
	else if (j->step == JOB_STEP_CANCELLED)
		snprintf(buf, size, "%s", j->error.message);   /* jobs_cancel's words */
	return buf;
}

/* Ends, fails or keeps waiting, from the resource's state. */
void job_resource_state(struct job *j, enum sched_kind kind, const char *id, const char *state,
			bool failure_final, const char *failure_reason)
{
	job_set_str(j, &j->pub.resource_id, id);
	job_set_str(j, &j->pub.state, state);
	enum spec_state_kind sk = scheduler_spec_kind(kind);
	bool final = state && spec_state_is_final(sk, state);
	if (final && (failure_final || spec_state_is_failure(sk, state))) {
		scheduler_untrack(j->jm->sched, kind, id);
		steno_error_set(&j->pub.error, STENO_ERR_JOB, "%s %s is %s%s%s", kind == SCHED_ORDER ? "order" :
				kind == SCHED_EXPORT ? "export" : kind == SCHED_TRANSLATION_TASK ?
				"translation task" : "transcription", id, state,
				failure_reason ? ": " : "", failure_reason ? failure_reason : "");
		snprintf(j->pub.error.code, sizeof(j->pub.error.code), "%s",
			 failure_reason ? failure_reason : state);
		job_fail(j, NULL);
		return;
	}
	/* Waiting on a person (incomplete after confirm, locked) will not end by itself. */
	if (j->wait && state && spec_state_needs_action(sk, state)) {
		scheduler_untrack(j->jm->sched, kind, id);
		steno_error_set(&j->pub.error, STENO_ERR_JOB,
				"%s is %s and waits for action in the web application", id, state);
		snprintf(j->pub.error.code, sizeof(j->pub.error.code), "%s", state);
		job_fail(j, NULL);
		return;
	}
	if (final || !j->wait) {
		scheduler_untrack(j->jm->sched, kind, id);
		job_set_step(j, JOB_STEP_DONE);
		return;
	}
	if (scheduler_track(j->jm->sched, kind, id, state, jobs_now_ms()) < 0) {
		job_fail(j, NULL);
		return;
	}
	scheduler_set_watched(j->jm->sched, kind, id, true);
	if (j->pub.step != JOB_STEP_WAITING)
		job_set_step(j, JOB_STEP_WAITING);
	else
		job_emit(j);
}

/* ---- waiting: retrieve callbacks ---- */

static struct job *job_waiting_on(struct steno_jobs *jm, const char *id)
{
	for (size_t i = 0; i < jm->n; i++)
		if (jm->jobs[i]->pub.step == JOB_STEP_WAITING && jm->jobs[i]->pub.resource_id &&
		    strcmp(jm->jobs[i]->pub.resource_id, id) == 0)
			return jm->jobs[i];
	return NULL;
}

/* A failed retrieve: 4xx other than 429 ends the job; others back off, a few times. */
static void wait_error(struct job *j, enum sched_kind kind, const struct steno_error *err)
{
	bool fatal = err->kind == STENO_ERR_HTTP && err->http_status >= 400 &&
		     err->http_status < 500 && err->http_status != 429;
	if (fatal || ++j->wait_errors >= WAIT_ERRORS_MAX) {
		scheduler_untrack(j->jm->sched, kind, j->pub.resource_id);
		job_fail(j, err);
		return;
	}
	int64_t ra = err->retry_after_s >= 0 ? (int64_t)(err->retry_after_s * 1000) : -1;
	scheduler_report_error(j->jm->sched, kind, j->pub.resource_id, ra, jobs_now_ms());
}

/* The answer of a retrieve: an error goes to wait_error; a resource (in `state`) is reported
 * to the scheduler. True when there is a resource to take in. */
static bool wait_answer(struct job *j, enum sched_kind kind, const char *state, const struct steno_error *err)
{
	if (err) {
		wait_error(j, kind, err);
		return false;
	}
	j->wait_errors = 0;
	scheduler_report_ok(j->jm->sched, kind, j->pub.resource_id, state, jobs_now_ms());
	return true;
}

static void on_transcription(void *ud, struct steno_transcription *res,
			     const struct steno_error *err)
{
	struct job *j = ud;
	if (!wait_answer(j, SCHED_TRANSCRIPTION, err ? NULL : res->state, err))
		return;
	char *reason = res->failure_reason ? strdup(res->failure_reason) : NULL;
	char *state = res->state ? strdup(res->state) : NULL;
	if (j->jm->cfg.store)
		store_transcription_put(j->jm->cfg.store, res, true, jobs_now_ms(), NULL);
	job_resource_state(j, SCHED_TRANSCRIPTION, j->pub.resource_id, state,
			   state && strcmp(state, "failed") == 0, reason);
	free(reason);
	free(state);
}

static void on_order(void *ud, struct steno_order *res, const struct steno_error *err)
{
	struct job *j = ud;
	if (wait_answer(j, SCHED_ORDER, err ? NULL : res->state, err))
		jobs_order_result(j, res);
}

static void on_export(void *ud, struct steno_export *res, const struct steno_error *err)
{
	struct job *j = ud;
	if (wait_answer(j, SCHED_EXPORT, err ? NULL : res->state, err))
		jobs_export_result(j, res);
}

static void on_task(void *ud, struct steno_translation_task *res, const struct steno_error *err)
{
	struct job *j = ud;
	if (wait_answer(j, SCHED_TRANSLATION_TASK, err ? NULL : res->state, err))
		jobs_task_result(j, res);
}

static int refresh(struct job *j, enum sched_kind kind, struct steno_error *err)
{
	struct steno_http *http = j->jm->cfg.http;
	const char *id = j->pub.resource_id;
	switch (kind) {
	case SCHED_TRANSCRIPTION:
		return steno_api_transcription_retrieve(http, id, on_transcription, j, err);
	case SCHED_ORDER: return steno_api_order_retrieve(http, id, on_order, j, err);
	case SCHED_EXPORT: return steno_api_export_retrieve(http, id, on_export, j, err);
	case SCHED_TRANSLATION_TASK:
		return steno_api_translation_task_retrieve(http, id, on_task, j, err);
	}
	return -1;
}

void jobs_tick(struct steno_jobs *jm)
{
	struct sched_ref due[16];
	jobs_resolve_tick(jm, jobs_now_ms());
	size_t n = scheduler_take_due(jm->sched, jobs_now_ms(), 16, due, 16);
	for (size_t i = 0; i < n; i++) {
		struct job *j = job_waiting_on(jm, due[i].id);
		if (!j) {
			scheduler_untrack(jm->sched, due[i].kind, due[i].id);
			continue;
		}
		struct steno_error err;
		steno_error_clear(&err);
		if (refresh(j, due[i].kind, &err) != 0)
			wait_error(j, due[i].kind, &err);
	}
}

long jobs_timeout_ms(const struct steno_jobs *jm)
{
	int64_t t = scheduler_next_due(jm->sched, jobs_now_ms());
	long r = jobs_resolve_next_ms(jm, jobs_now_ms());
	if (r >= 0 && (t < 0 || r < t))
		t = r;
	return t > 86400000 ? 86400000 : (long)t;
}

int jobs_run(struct steno_jobs *jm, long max_ms)
{
	int64_t end = max_ms >= 0 ? jobs_now_ms() + max_ms : INT64_MAX;
	while (jobs_active(jm) > 0) {
		int64_t left = end - jobs_now_ms();
		if (left <= 0)
			return -1;
		long t = jobs_timeout_ms(jm);
		if (t < 0 || t > left)
			t = (long)(left > 1000 ? 1000 : left);
		steno_http_poll(jm->cfg.http, NULL, 0, t);
		steno_http_perform(jm->cfg.http);
		jobs_tick(jm);
	}
	return 0;
}

/* ---- queries ---- */

const struct steno_job *jobs_get(const struct steno_jobs *jm, int id)
{
	for (size_t i = 0; i < jm->n; i++)
		if (jm->jobs[i]->pub.id == id)
			return &jm->jobs[i]->pub;
	return NULL;
}

size_t jobs_count(const struct steno_jobs *jm)
{
	return jm->n;
}

const struct steno_job *jobs_at(const struct steno_jobs *jm, size_t i)
{
	return i < jm->n ? &jm->jobs[i]->pub : NULL;
}

size_t jobs_active(const struct steno_jobs *jm)
{
	size_t n = 0;
	for (size_t i = 0; i < jm->n; i++)
		n += !step_over(jm->jobs[i]->pub.step);
	return n;
}

static struct job *job_find(struct steno_jobs *jm, int id)
{
	for (size_t i = 0; i < jm->n; i++)
		if (jm->jobs[i]->pub.id == id)
			return jm->jobs[i];
	return NULL;
}

int jobs_cancel(struct steno_jobs *jm, int id)
{
	struct job *j = job_find(jm, id);
	if (!j || step_over(j->pub.step))
		return -1;
	steno_http_cancel_owner(jm->cfg.http, j);
	if (j->pub.resource_id)
		for (int k = SCHED_TRANSCRIPTION; k <= SCHED_TRANSLATION_TASK; k++)
			scheduler_untrack(jm->sched, (enum sched_kind)k, j->pub.resource_id);
	/* what it was doing is said plainly: "download cancelled", "cancelled while waiting" */
	enum job_step st = j->pub.step;
	if (st == JOB_STEP_DOWNLOADING || st == JOB_STEP_UPLOADING || st == JOB_STEP_UPLOAD_URL)
		steno_error_set(&j->pub.error, STENO_ERR_CANCELLED, "%s cancelled",
				st == JOB_STEP_DOWNLOADING ? "download" : "upload");
	else
		steno_error_set(&j->pub.error, STENO_ERR_CANCELLED, "cancelled while %s",
				jobs_step_name(st));
	job_set_step(j, JOB_STEP_CANCELLED);
	return 0;
}

bool jobs_resource_kind(const struct steno_job *j, enum store_activity_kind *kind)
{
	if (!j || !j->resource_id)
		return false;
	switch (j->kind) {
	case JOB_ORDER:
	case JOB_CONFIRM:
	case JOB_TRANSLATION_ORDER: *kind = STORE_ACT_ORDER; return true;
	case JOB_EXPORT:
	case JOB_DOWNLOAD: *kind = STORE_ACT_EXPORT; return true;
	case JOB_TRANSLATION_TASK: *kind = STORE_ACT_TRANSLATION_TASK; return true;
	case JOB_TRANSCRIBE: return false;   /* a transcription: it is in the list */
	}
	return false;
}

void jobs_forget(struct steno_jobs *jm, int id)
{
	struct job *j = job_find(jm, id);
	if (j && step_over(j->pub.step))
		jobs_remove(jm, j);
}

bool jobs_download_target(const struct steno_job *pub, const char **dir, const char **name,
			  bool *overwrite)
{
	const struct job *j = (const struct job *)pub;   /* pub is its first member */

	if (!pub || pub->kind != JOB_EXPORT || !j->dir || pub->step == JOB_STEP_DOWNLOADING ||
	    pub->step == JOB_STEP_DONE || pub->step == JOB_STEP_FAILED ||
	    pub->step == JOB_STEP_CANCELLED)
		return false;
	if (dir)
		*dir = j->dir;
	if (name)
		*name = j->name;
	if (overwrite)
		*overwrite = j->overwrite;
	return true;
}
