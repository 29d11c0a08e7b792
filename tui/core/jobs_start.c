#include "config.h"
#include "core/jobs.h"
#include "core/jobs_internal.h"

#include <libgen.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api/spec_tables.h"

/* ---- request copies: strings owned by the job ---- */

/* Appends a copy of s to the array *v of *n strings; the copy, or NULL when out of memory. */
static char *push_copy(char ***v, size_t *n, const char *s)
{
	char **grown = realloc(*v, (*n + 1) * sizeof(*grown));
	char *c = grown ? strdup(s) : NULL;
	if (grown)
		*v = grown;
	if (c)
		grown[(*n)++] = c;
	return c;
}

const char *job_own(struct job *j, const char *s)
{
	if (!s)
		return NULL;
	const char *c = push_copy(&j->owned, &j->n_owned, s);
	if (!c)
		j->nomem = true;
	return c;
}

/* Makes the job own every string member of req named by offs (offsetof of const char *). */
static void own_fields(struct job *j, void *req, const size_t *offs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char **field = (const char **)((char *)req + offs[i]);
		*field = job_own(j, *field);
	}
}

static const char **own_list(struct job *j, const char *const *v, size_t n)
{
	if (!v || n == 0)
		return NULL;
	const char **c = calloc(n, sizeof(*c));
	if (!c) {
		j->nomem = true;
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		c[i] = job_own(j, v[i]);
	return c;
}

/* The string members of the requests a job copies. */
#define TR_FIELD(m) offsetof(struct steno_transcription_create_req, m)
static const size_t treq_strings[] = {
	TR_FIELD(name), TR_FIELD(language), TR_FIELD(tmp_url), TR_FIELD(organization_id),
	TR_FIELD(service), TR_FIELD(folder), TR_FIELD(folder_id), TR_FIELD(document_url),
};
#undef TR_FIELD
#define OR_FIELD(m) offsetof(struct steno_order_create_req, m)
static const size_t oreq_strings[] = {
	OR_FIELD(url), OR_FIELD(language), OR_FIELD(organization_id), OR_FIELD(service),
	OR_FIELD(folder_id), OR_FIELD(folder), OR_FIELD(name), OR_FIELD(webhook_url),
};
#undef OR_FIELD

static void own_transcription_req(struct job *j, const struct steno_transcription_create_req *r)
{
	j->treq = *r;
	own_fields(j, &j->treq, treq_strings, sizeof treq_strings / sizeof *treq_strings);
	j->treq_tags = own_list(j, r->tags, r->n_tags);
	j->treq.tags = j->treq_tags;
}

static void own_order_req(struct job *j, const struct steno_order_create_req *r)
{
	j->oreq = *r;
	own_fields(j, &j->oreq, oreq_strings, sizeof oreq_strings / sizeof *oreq_strings);
	j->oreq_tags = own_list(j, r->tags, r->n_tags);
	j->oreq.tags = j->oreq_tags;
	j->oreq.glossary_ids = NULL;
	if (r->glossary_ids && r->n_glossary_ids) {
		int64_t *g = malloc(r->n_glossary_ids * sizeof(*g));
		if (g)
			memcpy(g, r->glossary_ids, r->n_glossary_ids * sizeof(*g));
		else
			j->nomem = true;
		j->glossary_ids = g;
		j->oreq.glossary_ids = g;
	}
}

/* ---- learned folders ---- */

static void learn_folder(struct job *j, const char *org, const char *folder_id, const char *path)
{
	struct steno_state *st = j->jm->cfg.state;
	if (!st || (!folder_id && !path))
		return;
	if (!org)
		org = j->jm->cfg.organization_id;
	if (!org)
		return;
	char slashed[1024];
	if (path && path[0] != '/') {
		snprintf(slashed, sizeof(slashed), "/%s", path);
		path = slashed;
	}
	state_folder_learn(st, org, folder_id, path, (int64_t)time(NULL) * 1000, NULL);
}

/* ---- results ---- */

static void add_result(struct job *j, const char *id)
{
	if (!id)
		return;
	for (size_t i = 0; i < j->pub.n_result_ids; i++)
		if (strcmp(j->pub.result_ids[i], id) == 0)
			return;
	if (!push_copy(&j->pub.result_ids, &j->pub.n_result_ids, id))
		j->nomem = true;
}

/* A copy of what the job needs before the struct moves into the store. */
struct seen {
	char *id, *state, *reason;
};

static void seen_free(struct seen *s)
{
	free(s->id);
	free(s->state);
	free(s->reason);
}

static struct seen seen_of(const char *id, const char *state, const char *reason)
{
	struct seen s = { id ? strdup(id) : NULL, state ? strdup(state) : NULL,
			  reason ? strdup(reason) : NULL };
	return s;
}

void jobs_order_result(struct job *j, struct steno_order *o)
{
	struct seen s = seen_of(o->id, o->state, NULL);
	for (size_t i = 0; i < o->outputs_ids.n; i++)
		add_result(j, o->outputs_ids.v[i]);
	for (size_t i = 0; i < o->n_transcriptions; i++)
		add_result(j, o->transcriptions[i].uuid);
	if (j->pub.kind == JOB_ORDER) {
		char fid[32];
		snprintf(fid, sizeof(fid), "%lld", (long long)o->folder_id.v);
		learn_folder(j, j->oreq.organization_id, steno_known(o->folder_id.st) ? fid : NULL,
			     j->oreq.folder);
	}
	if (j->jm->cfg.store)
		store_order_put(j->jm->cfg.store, o, true, jobs_now_ms(), NULL);
	job_resource_state(j, SCHED_ORDER, s.id ? s.id : "", s.state, false, NULL);
	seen_free(&s);
}

void jobs_task_result(struct job *j, struct steno_translation_task *t)
{
	struct seen s = seen_of(t->id, t->state, t->failure_reason);
	add_result(j, t->translated_transcription_id);
	if (j->jm->cfg.store)
		store_task_put(j->jm->cfg.store, t, true, jobs_now_ms(), NULL);
	job_resource_state(j, SCHED_TRANSLATION_TASK, s.id ? s.id : "", s.state, false, s.reason);
	seen_free(&s);
}

/* ---- creation callbacks ---- */

/* A create that failed: a lost answer is looked into before the job ends. */
static void job_failed_create(struct job *j, const struct steno_error *err)
{
	if (steno_error_outcome_unknown(err)) {
		jobs_resolve_lost_create(j, err);
		return;
	}
	if (j->pub.kind == JOB_TRANSCRIBE)
		jobs_claim_refused(j);
	job_fail(j, err);
}

static void on_created_transcription(void *ud, struct steno_transcription *res,
				     const struct steno_error *err)
{
	struct job *j = ud;
	if (err) {
		job_failed_create(j, err);
		return;
	}
	struct seen s = seen_of(res->id, res->state, res->failure_reason);
	jobs_claim_created(j, res->id);
	add_result(j, res->id);
	learn_folder(j, j->treq.organization_id, j->treq.folder_id, j->treq.folder);
	if (j->jm->cfg.store)
		store_transcription_put(j->jm->cfg.store, res, false, jobs_now_ms(), NULL);
	job_resource_state(j, SCHED_TRANSCRIPTION, s.id ? s.id : "", s.state,
			   s.state && strcmp(s.state, "failed") == 0, s.reason);
	seen_free(&s);
}

static void on_created_order(void *ud, struct steno_order *res, const struct steno_error *err)
{
	if (err)
		job_failed_create(ud, err);
	else
		jobs_order_result(ud, res);
}

static void on_created_export(void *ud, struct steno_export *res, const struct steno_error *err)
{
	if (err)
		job_failed_create(ud, err);
	else
		jobs_export_result(ud, res);
}

static void on_created_task(void *ud, struct steno_translation_task *res,
			    const struct steno_error *err)
{
	if (err)
		job_failed_create(ud, err);
	else
		jobs_task_result(ud, res);
}

int job_create(struct job *j, const char *media_url, struct steno_error *err)
{
	struct steno_http *http = j->jm->cfg.http;
	j->pub.step = JOB_STEP_CREATING;
	if (j->pub.kind == JOB_TRANSCRIBE) {
		if (media_url)
			j->treq.tmp_url = media_url;
		jobs_claim_begin(j);
		return steno_api_transcription_create(http, &j->treq, on_created_transcription, j, err);
	}
	if (media_url)
		j->oreq.url = media_url;
	return steno_api_order_create(http, &j->oreq, on_created_order, j, err);
}

/* ---- uploads ---- */

static void on_up_progress(void *ud, uint64_t now, uint64_t total)
{
	struct job *j = ud;
	j->pub.bytes_done = now;
	j->pub.bytes_total = total;
	job_emit(j);
}

static void on_put_done(void *ud, const struct steno_error *err)
{
	struct job *j = ud;
	if (err) {
		job_fail(j, err);
		return;
	}
	struct steno_error e;
	steno_error_clear(&e);
	job_set_step(j, JOB_STEP_CREATING);
	if (job_create(j, j->media_url, &e) != 0)
		job_fail(j, &e);
}

static void on_upload_url(void *ud, struct steno_upload *res, const struct steno_error *err)
{
	struct job *j = ud;
	if (err) {
		job_fail(j, err);
		return;
	}
	struct steno_error e;
	steno_error_clear(&e);
	const char *url = job_own(j, res->signed_url);
	if (!url) {
		steno_error_set(&e, STENO_ERR_NOMEM, "out of memory");
		job_fail(j, &e);
		return;
	}
	j->media_url = url;
	job_set_step(j, JOB_STEP_UPLOADING);
	if (steno_api_upload_put(j->jm->cfg.http, url, j->upload_path, on_up_progress, on_put_done, j,
				 &e) != 0)
		job_fail(j, &e);
}

/* Starts with the upload when there is a file, else with the POST. On a submission error the
 * job is removed and -1 returned. */
static int job_begin(struct job *j, const char *upload_path, struct steno_error *err)
{
	struct steno_jobs *jm = j->jm;
	if (j->nomem) {
		jobs_remove(jm, j);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	int rc;
	if (upload_path) {
		j->upload_path = strdup(upload_path);
		char *copy = strdup(upload_path);
		if (!j->upload_path || !copy) {
			free(copy);
			jobs_remove(jm, j);
			return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		}
		j->pub.step = JOB_STEP_UPLOAD_URL;
		rc = steno_api_uploads_new(jm->cfg.http, basename(copy), on_upload_url, j, err);
		free(copy);
	} else {
		rc = job_create(j, NULL, err);
	}
	if (rc != 0) {
		jobs_remove(jm, j);
		return -1;
	}
	job_emit(j);
	return j->pub.id;
}

static int check_upload(const char *path, struct steno_error *err)
{
	if (path && access(path, R_OK) != 0)
		return steno_error_invalid(err, "file", "cannot read %s", path);
	return 0;
}

/* A new job of kind, waiting for its resource's end when wait. NULL (err filled) on failure. */
static struct job *job_new(struct steno_jobs *jm, enum job_kind kind, bool wait, struct steno_error *err)
{
	struct job *j = jobs_add(jm, kind, err);
	if (j)
		j->wait = wait;
	return j;
}

/* Until the upload gives the real one, a stand-in URL lets the request be checked first. */
#define STANDIN_URL "https://upload.invalid/media"

int jobs_transcribe(struct steno_jobs *jm, const struct steno_transcription_create_req *req,
		    const char *upload_path, bool wait, struct steno_error *err)
{
	struct steno_transcription_create_req check = *req;
	if (upload_path)
		check.tmp_url = STANDIN_URL;
	if (check_upload(upload_path, err) || steno_validate_transcription_create(&check, err))
		return -1;
	struct job *j = job_new(jm, JOB_TRANSCRIBE, wait, err);
	if (!j)
		return -1;
	own_transcription_req(j, req);
	return job_begin(j, upload_path, err);
}

int jobs_order(struct steno_jobs *jm, const struct steno_order_create_req *req,
	       const char *upload_path, bool wait, struct steno_error *err)
{
	struct steno_order_create_req check = *req;
	if (upload_path)
		check.url = STANDIN_URL;
	if (check_upload(upload_path, err) || steno_validate_order_create(&check, err))
		return -1;
	/* an order left unconfirmed waits for a person: nothing to wait for */
	struct job *j = job_new(jm, JOB_ORDER, wait && req->confirm, err);
	if (!j)
		return -1;
	own_order_req(j, req);
	return job_begin(j, upload_path, err);
}

/* Jobs whose first step is a POST made right away with the caller's request. */
static int job_submitted(struct job *j, int rc)
{
	if (rc != 0 || j->nomem) {
		jobs_remove(j->jm, j);
		return -1;
	}
	job_emit(j);
	return j->pub.id;
}

int jobs_export(struct steno_jobs *jm, const struct steno_export_create_req *req, const char *dir,
		const char *name, bool overwrite, struct steno_error *err)
{
	struct job *j = job_new(jm, JOB_EXPORT, true, err);
	if (!j)
		return -1;
	job_set_download(j, dir, name, overwrite);
	if (j->nomem) {
		jobs_remove(jm, j);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	return job_submitted(j, steno_api_export_create(jm->cfg.http, req, on_created_export, j, err));
}

int jobs_translation_order(struct steno_jobs *jm, const struct steno_translation_order_req *req,
			   bool wait, struct steno_error *err)
{
	struct job *j = job_new(jm, JOB_TRANSLATION_ORDER, wait && req->confirm, err);
	if (!j)
		return -1;
	return job_submitted(j, steno_api_order_translation_create(jm->cfg.http, req,
								   on_created_order, j, err));
}

int jobs_translation_task(struct steno_jobs *jm, const struct steno_translation_task_req *req,
			  bool wait, struct steno_error *err)
{
	struct job *j = job_new(jm, JOB_TRANSLATION_TASK, wait, err);
	if (!j)
		return -1;
	return job_submitted(j, steno_api_translation_task_create(jm->cfg.http, req, on_created_task,
								  j, err));
}

int jobs_confirm(struct steno_jobs *jm, const char *order_id, bool wait, struct steno_error *err)
{
	struct job *j = job_new(jm, JOB_CONFIRM, wait, err);
	if (!j)
		return -1;
	job_set_str(j, &j->pub.resource_id, order_id);
	return job_submitted(j, steno_api_order_confirm(jm->cfg.http, order_id, on_created_order, j,
							err));
}
