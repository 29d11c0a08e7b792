/* The new-transcription dialog: from a URL or a local file (uploaded to a signed URL with
 * progress, speed, ETA and cancel), auto / pro / alignment, subtitle, folder, tags, sharing. */
#include "config.h"

#include "ui/dialog_transcribe.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api/request.h"
#include "ui/dialog_common.h"
#include "ui/draw.h"
#include "ui/form.h"
#include "ui/form_draw.h"
#include "ui/style.h"

#define MAX_TAGS 32

enum dtr_mode { DTR_EDIT, DTR_RUNNING, DTR_DONE };

/* Ownership: the pane's data; dtr_close frees it (a running upload goes on in the jobs). */
struct dtr {
	struct dialog_env env;
	struct form form;
	enum dtr_mode mode;
	int job;
	char result[512];
};

static int dtr_build(struct dtr *d)
{
	struct form *f = &d->form;
	int rc = 0;
	rc |= form_add(f, FORM_TEXT, "name", "Name") < 0;
	rc |= form_add(f, FORM_PICK, "language", "Language") < 0;
	rc |= dialog_add_languages(f, "language", "en-US");
	rc |= form_add(f, FORM_RADIO, "source", "Source") < 0;
	rc |= form_add_option(f, "source", "url", "URL", NULL);
	rc |= form_add_option(f, "source", "file", "local file", NULL);
	rc |= form_choose(f, "source", "url");
	rc |= form_add(f, FORM_TEXT, "url tmp_url", "Media URL") < 0;
	rc |= form_add(f, FORM_FILE, "file upload", "File (C-o)") < 0;
	rc |= form_add(f, FORM_RADIO, "service", "Service") < 0;
	rc |= form_add_option(f, "service", "auto", NULL, NULL);
	rc |= form_add_option(f, "service", "pro", NULL, NULL);
	rc |= form_add_option(f, "service", "alignment", NULL, NULL);
	rc |= form_choose(f, "service", "auto");
	rc |= form_add(f, FORM_TEXT, "document_url", "Document URL") < 0;
	rc |= form_add(f, FORM_CHECK, "is_subtitle", "Subtitles") < 0;
	rc |= form_add(f, FORM_PICK, "folder_pick folder_id", "Known folder") < 0;
	rc |= dialog_add_folders(f, "folder_pick", &d->env);
	rc |= form_add(f, FORM_TEXT, "folder", "Folder path") < 0;
	rc |= form_add(f, FORM_TEXT, "tags", "Tags (a, b)") < 0;
	rc |= form_add(f, FORM_CHECK, "sharing_enabled", "Sharing") < 0;
	rc |= form_add(f, FORM_BUTTON, "create", "Create") < 0;
	rc |= form_add(f, FORM_BUTTON, "cancel", "Cancel") < 0;
	form_set_hidden(f, "file", true);
	form_set_hidden(f, "document_url", true);
	return rc ? -1 : 0;
}

static int dtr_open(struct pane *p, void *arg)
{
	struct dtr *d = calloc(1, sizeof *d);
	if (!d)
		return -1;
	form_init(&d->form);
	if (dialog_env_copy(&d->env, arg) != 0 || dtr_build(d) != 0) {
		form_free(&d->form);
		dialog_env_free(&d->env);
		free(d);
		return -1;
	}
	d->form.focus = 0;
	p->data = d;
	return 0;
}

static void dtr_close(struct pane *p)
{
	struct dtr *d = p->data;
	if (!d)
		return;
	form_free(&d->form);
	dialog_env_free(&d->env);
	free(d);
	p->data = NULL;
}

/* Shows or hides the fields that depend on the source and the service. */
static void dtr_update(struct dtr *d)
{
	const char *src = form_choice(&d->form, "source"), *svc = form_choice(&d->form, "service");
	bool file = src && strcmp(src, "file") == 0;
	form_set_hidden(&d->form, "url", file);
	form_set_hidden(&d->form, "file", !file);
	form_set_hidden(&d->form, "document_url", !(svc && strcmp(svc, "alignment") == 0));
}

/* Follows the running job: done, failed (back to the form with the error), cancelled. */
static void dtr_sync(struct dtr *d)
{
	if (d->mode != DTR_RUNNING)
		return;
	const struct steno_job *j = jobs_get(d->env.jobs, d->job);
	if (!j || j->step == JOB_STEP_FAILED) {
		d->mode = DTR_EDIT;
		if (j)
			form_show_error(&d->form, &j->error);
		return;
	}
	if (j->step == JOB_STEP_CANCELLED) {
		d->mode = DTR_EDIT;
		form_set_message(&d->form, true, "upload cancelled: nothing was created");
		return;
	}
	if (j->step == JOB_STEP_DONE) {
		d->mode = DTR_DONE;
		const struct store_transcription *t = j->resource_id && d->env.store ?
			store_transcription_get(d->env.store, j->resource_id) : NULL;
		snprintf(d->result, sizeof d->result, "Created transcription %s (%s), state %s.",
			 t && t->t.name ? t->t.name : "", j->resource_id ? j->resource_id : "?",
			 j->state ? j->state : "?");
		dialog_refresh(&d->env);
		dialog_status(&d->env, "created transcription %s", j->resource_id ? j->resource_id : "");
	}
}

struct dtr_req {
	struct steno_transcription_create_req req;
	char name[512], url[2048], file[4096], doc[2048], folder[1024], tags[1024];
	const char *tag_v[MAX_TAGS];
};

static void dtr_fill(struct dtr *d, struct dtr_req *r)
{
	struct form *f = &d->form;
	memset(&r->req, 0, sizeof r->req);
	r->req.name = form_text(f, "name", r->name, sizeof r->name);
	r->req.language = form_choice(f, "language");
	r->req.organization_id = d->env.org_id[0] ? d->env.org_id : NULL;
	r->req.service = form_choice(f, "service");
	r->req.is_subtitle = form_checked(f, "is_subtitle");
	r->req.sharing_enabled = form_checked(f, "sharing_enabled");
	form_text(f, "url", r->url, sizeof r->url);
	form_text(f, "file", r->file, sizeof r->file);
	form_text(f, "document_url", r->doc, sizeof r->doc);
	r->req.tmp_url = r->url;
	if (!form_field(f, "document_url")->hidden)
		r->req.document_url = r->doc;
	const char *fid, *fpath;
	dialog_folder_choice(form_choice(f, "folder_pick"), &fid, &fpath);
	form_text(f, "folder", r->folder, sizeof r->folder);
	const char *typed = r->folder[0] == '/' ? r->folder + 1 : r->folder;
	if (typed[0])
		r->req.folder = typed;
	else if (fpath)
		r->req.folder = fpath[0] == '/' ? fpath + 1 : fpath;
	else if (fid)
		r->req.folder_id = fid;
	form_text(f, "tags", r->tags, sizeof r->tags);
	r->req.n_tags = dialog_split_list(r->tags, r->tag_v, MAX_TAGS);
	r->req.tags = r->req.n_tags ? r->tag_v : NULL;
}

static void dtr_submit(struct dtr *d)
{
	struct dtr_req *r = calloc(1, sizeof *r);
	struct steno_error err;
	steno_error_clear(&err);
	form_clear_errors(&d->form);
	if (!r) {
		form_set_message(&d->form, true, "out of memory");
		return;
	}
	dtr_fill(d, r);
	const char *src = form_choice(&d->form, "source");
	const char *upload = src && strcmp(src, "file") == 0 ? r->file : NULL;
	struct stat st;
	if (upload && (!upload[0] || stat(upload, &st) != 0 || !S_ISREG(st.st_mode))) {
		form_set_error(&d->form, "file", upload[0] ? "not a readable file" : "choose a file (C-o)");
		form_focus_first_error(&d->form);
		free(r);
		return;
	}
	if (upload)
		r->req.tmp_url = NULL;
	int id = jobs_transcribe(d->env.jobs, &r->req, upload, false, &err);
	free(r);
	if (id < 0) {
		form_show_error(&d->form, &err);
		return;
	}
	d->job = id;
	d->mode = DTR_RUNNING;
	dialog_watch_job(&d->env, id);
}

static unsigned dtr_running_key(struct dtr *d, enum action_id act)
{
	const struct steno_job *j = jobs_get(d->env.jobs, d->job);
	if (act != ACT_CANCEL || !j)
		return PANE_HANDLED;
	if (j->step == JOB_STEP_UPLOAD_URL || j->step == JOB_STEP_UPLOADING) {
		jobs_cancel(d->env.jobs, d->job);
		dtr_sync(d);
	} else {
		/* the POST is on its way: leaving now could hide a created transcription */
		form_set_message(&d->form, false, "the request was sent; waiting for the answer");
	}
	return PANE_HANDLED | PANE_REDRAW;
}

static unsigned dtr_key(struct pane *p, enum action_id act, ui_key key)
{
	struct dtr *d = p->data;
	dtr_sync(d);
	if (d->mode == DTR_DONE)
		return act == ACT_SUBMIT || act == ACT_CANCEL ? PANE_HANDLED | PANE_CLOSE : PANE_HANDLED;
	if (d->mode == DTR_RUNNING)
		return dtr_running_key(d, act);
	switch (form_key(&d->form, act, key)) {
	case FORM_EV_CANCEL:
		return PANE_HANDLED | PANE_CLOSE;
	case FORM_EV_BUTTON:
		if (strcmp(d->form.pressed, "cancel") == 0)
			return PANE_HANDLED | PANE_CLOSE;
		dtr_submit(d);
		break;
	case FORM_EV_SUBMIT:
		dtr_submit(d);
		break;
	case FORM_EV_USED:
	case FORM_EV_NONE:
		break;
	}
	dtr_update(d);
	return PANE_HANDLED | PANE_REDRAW;
}

static void dtr_draw(struct pane *p)
{
	struct dtr *d = p->data;
	bool ascii = p->ctx->ascii;
	dtr_sync(d);
	const char *hint = d->mode == DTR_EDIT ? "Tab: next  Enter: create  Esc: cancel" :
		d->mode == DTR_RUNNING ? "Esc: cancel the upload" : "Enter/Esc: close";
	form_draw_frame(p->win, "New transcription", hint, ascii);
	int rows = dialog_body_rows(p), cols = dialog_body_cols(p);
	if (d->mode == DTR_EDIT) {
		form_draw(&d->form, p->win, 1, 2, rows, cols, ascii);
		return;
	}
	char name[512];
	style_set(p->win, THEME_DIALOG);
	draw_text(p->win, 1, 2, cols, form_text(&d->form, "name", name, sizeof name), TEXT_LEFT,
		  ascii ? TEXT_ASCII : 0);
	if (d->mode == DTR_RUNNING) {
		const struct steno_job *j = jobs_get(d->env.jobs, d->job);
		if (j)
			dialog_draw_job(p->win, 3, 2, cols, j, ascii);
		if (d->form.message[0])
			form_draw_wrapped(p->win, 5, 2, cols, 2, d->form.message, ascii);
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
	.close = dtr_close,
};
