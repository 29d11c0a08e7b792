#include "config.h"
#include "core/transcript_fetch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/endpoints.h"
#include "core/content_sync.h"
#include "core/jobs_extra.h"
#include "core/paths.h"

#define FINISHED_STATE "automatic_done"

static void set_step(struct transcript_fetch *f, enum tfetch_step step)
{
	f->step = step;
	if (f->o.changed)
		f->o.changed(f->o.ud);
}

/* Fails with e, or with msg (STENO_ERR_INVALID) when e is NULL. */
static void fail(struct transcript_fetch *f, const struct steno_error *e, const char *msg)
{
	if (e)
		f->error = *e;
	else
		steno_error_set(&f->error, STENO_ERR_INVALID, "%s", msg);
	set_step(f, TFETCH_FAILED);
}

/* An answer that is an error ends the fetch: true then. */
static bool answer_failed(struct transcript_fetch *f, const struct steno_error *err)
{
	if (err)
		fail(f, err, NULL);
	return err != NULL;
}

static void on_content(void *ud, struct steno_api_content *res, const struct steno_error *err)
{
	struct transcript_fetch *f = ud;
	if (answer_failed(f, err))
		return;
	/* parsed by the engine already: taken */
	f->transcript = res->transcript;
	memset(&res->transcript, 0, sizeof res->transcript);
	set_step(f, TFETCH_DONE);
}

/* The earlier API form gives no downloadUrl: a JSON export, unless that is refused. */
static void start_export(struct transcript_fetch *f)
{
	struct steno_error e;
	steno_error_clear(&e);
	if (!f->o.allow_export) {
		fail(f, NULL, "read-only: this server gives no downloadUrl (earlier API form), "
		     "and reading the transcript through a JSON export would create an export on "
		     "the server");
		return;
	}
	const char *ids[1] = { f->id };
	struct steno_export_create_req req = { .format = "json", .transcription_ids = ids,
					       .n_transcription_ids = 1 };
	char name[200];
	snprintf(name, sizeof name, "%s.json", f->id);
	int job = jobs_export(f->o.jobs, &req, f->dir, name, true, &e);
	if (job < 0) {
		fail(f, &e, NULL);
		return;
	}
	f->job = job;
	snprintf(f->note, sizeof f->note,
		 "this server gives no downloadUrl (earlier API form): read through a JSON export");
	set_step(f, TFETCH_EXPORTING);
}

static void on_retrieved(void *ud, struct steno_transcription *t, const struct steno_error *err)
{
	struct transcript_fetch *f = ud;
	if (answer_failed(f, err))
		return;
	struct steno_error e;
	steno_error_clear(&e);
	content_version_of(t, f->version, sizeof f->version);
	if (t->download_url && t->download_url[0]) {
		if (steno_api_transcription_content(f->o.http, t->download_url, on_content, f, &e) != 0)
			fail(f, &e, NULL);
		else
			set_step(f, TFETCH_READING);
		return;
	}
	if (!t->state || strcmp(t->state, FINISHED_STATE) != 0) {
		char msg[200];
		snprintf(msg, sizeof msg, "no transcript yet: the transcription is %s",
			 t->state ? t->state : "in an unknown state");
		fail(f, NULL, msg);
		return;
	}
	start_export(f);
}

int transcript_fetch_start(struct transcript_fetch **out, const struct tfetch_opts *o,
			   struct steno_error *err)
{
	*out = NULL;
	if (!o->http || !o->id || !o->id[0] || !o->dir || !o->file)
		return steno_error_invalid(err, "id", "select a transcription first");
	struct transcript_fetch *f = calloc(1, sizeof *f);
	if (!f)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	f->o = *o;
	snprintf(f->id, sizeof f->id, "%s", o->id);
	snprintf(f->dir, sizeof f->dir, "%s", o->dir);
	snprintf(f->file, sizeof f->file, "%s", o->file);
	f->o.id = f->id;
	f->o.dir = f->dir;
	f->o.file = f->file;
	f->step = TFETCH_RETRIEVING;
	if (paths_mkdir_private(f->dir, err) != 0 ||
	    steno_api_transcription_retrieve(f->o.http, f->id, on_retrieved, f, err) != 0) {
		free(f);
		return -1;
	}
	*out = f;
	return 0;
}

void transcript_fetch_sync(struct transcript_fetch *f)
{
	if (!f || f->step != TFETCH_EXPORTING)
		return;
	const struct steno_job *j = jobs_get(f->o.jobs, f->job);
	if (!j)
		return;
	if (j->step == JOB_STEP_FAILED || j->step == JOB_STEP_CANCELLED) {
		steno_error_set(&f->error, j->error.kind ? j->error.kind : STENO_ERR_INVALID,
				"the JSON export failed: %s", j->error.message);
		set_step(f, TFETCH_FAILED);
	} else if (j->step == JOB_STEP_DONE) {
		struct steno_error e;
		if (jobs_extra_transcript_load(f->file, &f->transcript, &e) != 0) {
			f->error = e;
			set_step(f, TFETCH_FAILED);
			return;
		}
		unlink(f->file);   /* read: no file stays */
		set_step(f, TFETCH_DONE);
	}
}

void transcript_fetch_free(struct transcript_fetch *f)
{
	if (!f)
		return;
	/* the retrieve and the GET go; a fallback export keeps running in the jobs, and the
	 * next preview of it takes its file into the store */
	steno_http_cancel_owner(f->o.http, f);
	steno_transcript_free(&f->transcript);
	free(f);
}
