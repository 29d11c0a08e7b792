#include "config.h"
#include "core/jobs.h"
#include "core/jobs_internal.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api/spec_tables.h"

/* ---- request copies: strings owned by the job ---- */

const char *job_own(struct job *j, const char *s)
{
	if (!s)
		return NULL;
	char **o = realloc(j->owned, (j->n_owned + 1) * sizeof(*o));
	char *c = o ? strdup(s) : NULL;
	if (o)
		j->owned = o;
	if (!c) {
		j->nomem = true;
		return NULL;
	}
	o[j->n_owned++] = c;
	return c;
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

static void own_transcription_req(struct job *j, const struct steno_transcription_create_req *r)
{
	j->treq = *r;
	j->treq.name = job_own(j, r->name);
	j->treq.language = job_own(j, r->language);
	j->treq.tmp_url = job_own(j, r->tmp_url);
	j->treq.organization_id = job_own(j, r->organization_id);
	j->treq.service = job_own(j, r->service);
	j->treq.folder = job_own(j, r->folder);
	j->treq.folder_id = job_own(j, r->folder_id);
	j->treq.document_url = job_own(j, r->document_url);
	j->treq_tags = own_list(j, r->tags, r->n_tags);
	j->treq.tags = j->treq_tags;
}

static void own_order_req(struct job *j, const struct steno_order_create_req *r)
{
	j->oreq = *r;
	j->oreq.url = job_own(j, r->url);
	j->oreq.language = job_own(j, r->language);
	j->oreq.organization_id = job_own(j, r->organization_id);
	j->oreq.service = job_own(j, r->service);
	j->oreq.folder_id = job_own(j, r->folder_id);
	j->oreq.folder = job_own(j, r->folder);
	j->oreq.name = job_own(j, r->name);
	j->oreq.webhook_url = job_own(j, r->webhook_url);
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
	char **r = realloc(j->pub.result_ids, (j->pub.n_result_ids + 1) * sizeof(*r));
	char *c = r ? strdup(id) : NULL;
	if (r)
		j->pub.result_ids = r;
	if (!c) {
		j->nomem = true;
		return;
	}
	r[j->pub.n_result_ids++] = c;
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

static void on_created_transcription(void *ud, struct steno_transcription *res,
				     const struct steno_error *err)
{
	struct job *j = ud;
	if (err) {
		job_fail(j, err);
		return;
	}
	struct seen s = seen_of(res->id, res->state, res->failure_reason);
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
	struct job *j = ud;
	if (err) {
		job_fail(j, err);
		return;
	}
	jobs_order_result(j, res);
}

static void on_created_export(void *ud, struct steno_export *res, const struct steno_error *err)
{
	struct job *j = ud;
	if (err) {
		job_fail(j, err);
		return;
	}
	jobs_export_result(j, res);
}

static void on_created_task(void *ud, struct steno_translation_task *res,
			    const struct steno_error *err)
{
	struct job *j = ud;
	if (err) {
		job_fail(j, err);
		return;
	}
	jobs_task_result(j, res);
}

int job_create(struct job *j, const char *media_url, struct steno_error *err)
{
	struct steno_http *http = j->jm->cfg.http;
	j->pub.step = JOB_STEP_CREATING;
	if (j->pub.kind == JOB_TRANSCRIBE) {
		if (media_url)
			j->treq.tmp_url = media_url;
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
	struct job *j = jobs_add(jm, JOB_TRANSCRIBE, err);
	if (!j)
		return -1;
	j->wait = wait;
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
	struct job *j = jobs_add(jm, JOB_ORDER, err);
	if (!j)
		return -1;
	/* an order left unconfirmed waits for a person: nothing to wait for */
	j->wait = wait && req->confirm;
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
	struct job *j = jobs_add(jm, JOB_EXPORT, err);
	if (!j)
		return -1;
	j->wait = true;
	j->overwrite = overwrite;
	if ((dir && !(j->dir = strdup(dir))) || (name && !(j->name = strdup(name))))
		j->nomem = true;
	if (j->nomem) {
		jobs_remove(jm, j);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	return job_submitted(j, steno_api_export_create(jm->cfg.http, req, on_created_export, j, err));
}

int jobs_translation_order(struct steno_jobs *jm, const struct steno_translation_order_req *req,
			   bool wait, struct steno_error *err)
{
	struct job *j = jobs_add(jm, JOB_TRANSLATION_ORDER, err);
	if (!j)
		return -1;
	j->wait = wait && req->confirm;
	return job_submitted(j, steno_api_order_translation_create(jm->cfg.http, req,
								   on_created_order, j, err));
}

int jobs_translation_task(struct steno_jobs *jm, const struct steno_translation_task_req *req,
			  bool wait, struct steno_error *err)
{
	struct job *j = jobs_add(jm, JOB_TRANSLATION_TASK, err);
	if (!j)
		return -1;
	j->wait = wait;
	return job_submitted(j, steno_api_translation_task_create(jm->cfg.http, req, on_created_task,
								  j, err));
}

int jobs_confirm(struct steno_jobs *jm, const char *order_id, bool wait, struct steno_error *err)
{
	struct job *j = jobs_add(jm, JOB_CONFIRM, err);
	if (!j)
		return -1;
	j->wait = wait;
	job_set_str(j, &j->pub.resource_id, order_id);
	return job_submitted(j, steno_api_order_confirm(jm->cfg.http, order_id, on_created_order, j,
							err));
}
