/* The new-transcription dialog: from a URL or a local file (uploaded to a signed URL with
 * progress, speed, ETA and cancel), auto / pro / alignment, subtitle, folder, tags, sharing. */
#include "config.h"

#include "ui/dialog_transcribe.h"

#include <stdlib.h>
#include <string.h>

#include "api/request.h"
#include "ui/dialog_base.h"
#include "ui/draw.h"
#include "ui/form.h"
#include "ui/form_draw.h"
#include "ui/style.h"

#define MAX_TAGS 32

enum dtr_mode { DTR_EDIT, DTR_RUNNING, DTR_DONE };

/* Ownership: the pane's data (dialog_new); dialog_close frees it (a running upload goes on
 * in the jobs). */
struct dtr {
	struct dialog_base b;
	enum dtr_mode mode;
	char result[512];
};

static int dtr_build(void *arg)
{
	struct dtr *d = arg;
	struct form *f = &d->b.form;
	int rc = 0;
	rc |= form_add(f, FORM_TEXT, "name", "Name") < 0;
	rc |= form_add(f, FORM_PICK, "language", "Language") < 0;
	rc |= dialog_add_languages(f, "language", "en-US", &d->b.env.recent_languages);
	rc |= form_add_radio(f, "source", "Source",
				 (const char *const[]){ "url|URL", "file|local file", NULL });
	rc |= form_add(f, FORM_TEXT, "url tmp_url", "Media URL") < 0;
	rc |= form_add(f, FORM_FILE, "file upload", "File (C-o)") < 0;
	rc |= form_add_radio(f, "service", "Service",
				 (const char *const[]){ "auto", "pro", "alignment", NULL });
	rc |= form_add(f, FORM_TEXT, "document_url", "Document URL") < 0;
	rc |= form_add(f, FORM_CHECK, "is_subtitle", "Subtitles") < 0;
	rc |= form_add(f, FORM_PICK, "folder_pick folder_id", "Known folder") < 0;
	rc |= dialog_add_folders(f, "folder_pick", &d->b.env);
	rc |= form_add(f, FORM_TEXT, "folder", "Folder path") < 0;
	rc |= form_add(f, FORM_TEXT, "tags", "Tags (a, b)") < 0;
	rc |= form_add(f, FORM_CHECK, "sharing_enabled", "Sharing") < 0;
	rc |= form_add(f, FORM_BUTTON, "create", "Create") < 0;
	rc |= form_add(f, FORM_BUTTON, "cancel", "Cancel") < 0;
	form_set_hidden(f, "file", true);
	form_set_hidden(f, "document_url", true);
	dialog_apply_choices(f, &d->b.env, CHOICE_TRANSCRIBE);
	f->focus = 0;
	return rc ? -1 : 0;
}

static int dtr_check(void *arg, struct steno_error *err);

/* Shows or hides the fields that depend on the source and the service. */
static void dtr_update(void *arg)
{
	struct dtr *d = arg;
	const char *svc = form_choice(&d->b.form, "service");
	dialog_update_source(&d->b.form);
	form_set_hidden(&d->b.form, "document_url", !(svc && strcmp(svc, "alignment") == 0));
}

static int dtr_open(struct pane *p, void *arg)
{
	struct dtr *d = dialog_new(p, sizeof *d, arg, dtr_build);
	if (!d)
		return -1;
	d->b.check = dtr_check;
	dtr_update(d);   /* a remembered service may show the document URL */
	return 0;
}

/* Follows the running job: done, failed (back to the form with the error), cancelled. */
static void dtr_sync(struct dtr *d)
{
	if (d->mode != DTR_RUNNING)
		return;
	const struct steno_job *j = dialog_job_alive(&d->b, "upload cancelled: nothing was created");
	if (!j) {
		d->mode = DTR_EDIT;
		return;
	}
	if (j->step == JOB_STEP_DONE) {
		d->mode = DTR_DONE;
		const struct store_transcription *t = j->resource_id && d->b.env.store ?
			store_transcription_get(d->b.env.store, j->resource_id) : NULL;
		/* a lost answer whose item was found (core/jobs_resolve.c): it carries on too */
		snprintf(d->result, sizeof d->result, "%s transcription %s (%s), state %s%s",
			 j->found_after_loss ? "No answer from the server, but found it:" : "Created",
			 t && t->t.name ? t->t.name : "", j->resource_id ? j->resource_id : "?",
			 j->state ? j->state : "?",
			 j->found_after_loss ? ": no need to submit again." : ".");
		dialog_refresh(&d->b.env);
		dialog_status(&d->b.env, "created transcription %s", j->resource_id ? j->resource_id : "");
	}
}

struct dtr_req {
	struct steno_transcription_create_req req;
	char name[512], url[2048], file[4096], doc[2048], folder[1024], tags[1024];
	const char *tag_v[MAX_TAGS];
};

static void dtr_fill(struct dtr *d, struct dtr_req *r)
{
	struct form *f = &d->b.form;
	memset(&r->req, 0, sizeof r->req);
	r->req.name = form_text(f, "name", r->name, sizeof r->name);
	r->req.language = form_choice(f, "language");
	r->req.organization_id = d->b.env.org_id[0] ? d->b.env.org_id : NULL;
	r->req.service = form_choice(f, "service");
	r->req.is_subtitle = form_checked(f, "is_subtitle");
	r->req.sharing_enabled = form_checked(f, "sharing_enabled");
	form_text(f, "url", r->url, sizeof r->url);
	form_text(f, "file", r->file, sizeof r->file);
	form_text(f, "document_url", r->doc, sizeof r->doc);
	r->req.tmp_url = r->url;
	if (!form_field(f, "document_url")->hidden)
		r->req.document_url = r->doc;
	dialog_fill_folder(f, r->folder, sizeof r->folder, &r->req.folder, &r->req.folder_id);
	r->req.n_tags = dialog_fill_tags(f, r->tags, sizeof r->tags, r->tag_v, MAX_TAGS, &r->req.tags);
}

/* What core/jobs checks before a transcription is created (an upload's URL is not known
 * yet: any valid one stands in). */
static int dtr_check(void *arg, struct steno_error *err)
{
	struct dtr *d = arg;
	struct dtr_req *r = calloc(1, sizeof *r);
	if (!r)
		return 0;
	dtr_fill(d, r);
	const char *src = form_choice(&d->b.form, "source");
	if (src && strcmp(src, "file") == 0)
		r->req.tmp_url = "https://upload.invalid/media";
	int rc = steno_validate_transcription_create(&r->req, err);
	free(r);
	return rc;
}

static void dtr_submit(void *arg)
{
	struct dtr *d = arg;
	struct steno_error err;
	struct dtr_req *r = dialog_request_new(&d->b, sizeof *r, &err);
	const char *upload;
	if (!r)
		return;
	dtr_fill(d, r);
	if (dialog_upload_file(&d->b.form, r->file, &upload) < 0) {
		free(r);
		return;
	}
	if (upload)
		r->req.tmp_url = NULL;
	int id = jobs_transcribe(d->b.env.jobs, &r->req, upload, false, &err);
	free(r);
	if (dialog_job_started(&d->b, id, &err)) {
		dialog_report_choices(&d->b.form, &d->b.env, CHOICE_TRANSCRIBE);
		d->mode = DTR_RUNNING;
	}
}

static unsigned dtr_running_key(struct dtr *d, enum action_id act, ui_key key)
{
	if (key == 'b' && jobs_get(d->b.env.jobs, d->b.job)) {
		/* the job is the app's (watched in the activity pane): it goes on without us */
		dialog_status(&d->b.env, "job %d goes on in the background: see the activity pane",
			      d->b.job);
		return PANE_HANDLED | PANE_CLOSE;
	}
	if (act != ACT_CANCEL || !jobs_get(d->b.env.jobs, d->b.job))
		return PANE_HANDLED;
	if (dialog_cancel_upload(&d->b)) {
		dtr_sync(d);
	} else {
		/* the POST is on its way: leaving now could hide a created transcription */
		form_set_message(&d->b.form, false, "the request was sent; waiting for the answer");
	}
	return PANE_HANDLED | PANE_REDRAW;
}

static unsigned dtr_key(struct pane *p, enum action_id act, ui_key key)
{
	struct dtr *d = p->data;
	dtr_sync(d);
	if (d->mode == DTR_DONE)
		return dialog_result_key(act);
	if (d->mode == DTR_RUNNING)
		return dtr_running_key(d, act, key);
	return dialog_form_key(&d->b, act, key, dtr_submit, dtr_update);
}

static void dtr_draw(struct pane *p)
{
	struct dtr *d = p->data;
	bool ascii = p->ctx->ascii;
	dtr_sync(d);
	const char *hint = d->mode == DTR_EDIT ? "Tab/Enter: next  F2: create  Esc: cancel" :
		d->mode == DTR_RUNNING ? "Esc: cancel the upload  b: on in the background" :
		"Enter/Esc: close";
	if (dialog_draw_form(p, &d->b, "New transcription", hint, d->mode == DTR_EDIT))
		return;
	int rows = dialog_body_rows(p), cols = dialog_body_cols(p);
	char name[512];
	style_set(p->win, THEME_DIALOG);
	draw_text(p->win, 1, 2, cols, form_text(&d->b.form, "name", name, sizeof name), TEXT_LEFT,
		  ascii ? TEXT_ASCII : 0);
	if (d->mode == DTR_RUNNING) {
		const struct steno_job *j = jobs_get(d->b.env.jobs, d->b.job);
		if (j)
			dialog_draw_job(p->win, 3, 2, cols, j, ascii);
		if (d->b.form.message[0])
			form_draw_wrapped(p->win, 5, 2, cols, 2, d->b.form.message, ascii);
		return;
	}
	form_draw_wrapped(p->win, 3, 2, cols, rows - 3, d->result, ascii);
}

const struct pane_ops dialog_transcribe_ops = {
	.name = "new-transcription",
	.scope = SCOPE_DIALOG,
	.place = PANE_PLACE_OVERLAY,
	.open = dtr_open,
	.draw = dtr_draw,
	.key = dtr_key,
	.close = dialog_close,
};
