#include "config.h"
#include "core/jobs.h"
#include "core/jobs_internal.h"
#include "api/utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The download of a ready export's file: the job of jobs_download, and the end of a
 * jobs_export given a directory. A link the file server refuses is read again from the
 * export once (reread_link), never more. */

static void on_dl_progress(void *ud, uint64_t now, uint64_t total)
{
	struct job *j = ud;
	j->pub.bytes_done = now;
	j->pub.bytes_total = total;
	job_emit(j);
}

/* The file server refused the link (a signed URL that expired, or is no longer valid). */
static bool link_refused(const struct steno_error *err)
{
	return err->kind == STENO_ERR_HTTP && (err->http_status == 401 || err->http_status == 403);
}

/* The export read again after its link was refused: ready with a fresh link, the download
 * goes on (jobs_export_result); anything else ends the job. */
static void on_link_reread(void *ud, struct steno_export *res, const struct steno_error *err)
{
	struct job *j = ud;
	if (!err) {
		jobs_export_result(j, res);
		return;
	}
	struct steno_error e = *err;
	snprintf(e.message, sizeof e.message,
		 "the link was refused, and reading the export again failed: %.*s",
		 STENO_UTF8_CUT(err->message, 400));
	job_fail(j, &e);
}

/* A refused link is read again from the export, once per job (the job never loops): a link
 * kept since the export was last read expires (signed URLs last about an hour). */
static bool reread_link(struct job *j, const struct steno_error *err)
{
	if (!link_refused(err) || j->link_reread || !j->pub.resource_id)
		return false;
	j->link_reread = true;
	struct steno_error e;
	steno_error_clear(&e);
	return steno_api_export_retrieve(j->jm->cfg.http, j->pub.resource_id, on_link_reread, j,
					 &e) == 0;
}

static void on_downloaded(void *ud, const char *path, const struct steno_http_response *resp,
			  const struct steno_error *err)
{
	(void)resp;
	struct job *j = ud;
	if (err) {
		if (!reread_link(j, err))
			job_fail(j, err);
		return;
	}
	job_set_str(j, &j->pub.file, path);
	job_set_step(j, JOB_STEP_DONE);
}

void job_set_download(struct job *j, const char *dir, const char *name, bool overwrite)
{
	j->overwrite = overwrite;
	if ((dir && !(j->dir = strdup(dir))) || (name && !(j->name = strdup(name))))
		j->nomem = true;
}

/* The one download of every job: e's file into the job's directory. */
static int download_submit(struct job *j, const struct steno_export *e, struct steno_error *err)
{
	j->pub.bytes_done = j->pub.bytes_total = 0;
	return steno_api_export_download(j->jm->cfg.http, e, j->dir, j->name, j->overwrite,
					 on_dl_progress, on_downloaded, j, err);
}

static void job_download(struct job *j, const struct steno_export *e)
{
	struct steno_error err;
	steno_error_clear(&err);
	job_set_step(j, JOB_STEP_DOWNLOADING);
	if (download_submit(j, e, &err) != 0)
		job_fail(j, &err);
}

int jobs_download(struct steno_jobs *jm, const struct steno_export *e, const char *dir,
		  const char *name, bool overwrite, struct steno_error *err)
{
	if (!e || !e->id || !e->download_link)
		return steno_error_invalid(err, "download_link", "the export is not ready to download");
	struct job *j = jobs_add(jm, JOB_DOWNLOAD, err);
	if (!j)
		return -1;
	job_set_download(j, dir, name, overwrite);
	job_set_str(j, &j->pub.resource_id, e->id);
	job_set_str(j, &j->pub.state, e->state);
	if (j->nomem) {
		jobs_remove(jm, j);
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	}
	j->pub.step = JOB_STEP_DOWNLOADING;
	if (download_submit(j, e, err) != 0) {
		jobs_remove(jm, j);
		return -1;
	}
	job_emit(j);
	return j->pub.id;
}

void jobs_export_result(struct job *j, struct steno_export *e)
{
	bool ready = e->state && strcmp(e->state, "ready") == 0;
	char *id = e->id ? strdup(e->id) : NULL, *state = e->state ? strdup(e->state) : NULL;
	/* A ready export with a directory to fill (or a download's) is this job's business, not
	 * a plain state. */
	bool download = j->pub.kind == JOB_DOWNLOAD;
	bool handled = ready && (j->dir || download);
	/* the store first: the job's end is recorded on the export in its new state */
	const struct steno_export *ready_export = e;
	if (j->jm->cfg.store) {
		store_export_put(j->jm->cfg.store, e, true, jobs_now_ms(), NULL);
		const struct store_activity *a = store_activity_find(j->jm->cfg.store, STORE_ACT_EXPORT, id);
		ready_export = a ? &a->export_ : NULL;
	}
	if (handled) {
		job_set_str(j, &j->pub.resource_id, id);
		job_set_str(j, &j->pub.state, state);
		scheduler_untrack(j->jm->sched, SCHED_EXPORT, id ? id : "");
		if (ready_export && ready_export->download_link) {
			job_download(j, ready_export);
		} else {
			steno_error_set(&j->pub.error, STENO_ERR_PARSE,
					"export %s is ready but has no download_link", id ? id : "");
			job_fail(j, NULL);
		}
	} else if (download) {
		/* read again after a refused link: no file any more */
		job_set_str(j, &j->pub.state, state);   /* what its end speaks of (expired...) */
		steno_error_set(&j->pub.error, STENO_ERR_JOB, "the link was refused, and export %s is "
				"now %s: export again", id ? id : "", state ? state : "in no state");
		snprintf(j->pub.error.code, sizeof(j->pub.error.code), "%s", state ? state : "");
		job_fail(j, NULL);
	} else {
		job_resource_state(j, SCHED_EXPORT, id ? id : "", state, false, NULL);
	}
	free(id);
	free(state);
}

