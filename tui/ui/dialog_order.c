/* The new-order dialog (spec 4.5): transcription or subtitles, every order field, glossary
 * and style-guide pickers loaded from the API, confirm now or later. An order created
 * unconfirmed shows its pricing next, with the confirm key (dialog_confirm). */
#include "config.h"

#include "ui/dialog_order.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api/request.h"
#include "api/spec_tables.h"
#include "core/jobs_extra.h"
#include "ui/dialog_confirm.h"
#include "ui/draw.h"
#include "ui/form.h"
#include "ui/form_draw.h"
#include "ui/style.h"

#define MAX_TAGS 32
#define MAX_GLOSSARIES 64

enum dor_mode { DOR_EDIT, DOR_RUNNING, DOR_PRICING };

struct guide_flags {
	int64_t id;
	bool verbatim, sdh;
};

/* Ownership: the pane's data; dor_close frees it and cancels its list requests. */
struct dor {
	struct dialog_env env;
	struct form form;
	struct pane *pane;
	enum dor_mode mode;
	int job;
	struct guide_flags *guides;
	size_t n_guides;
	struct dconfirm confirm;
};

static int dor_build(struct dor *d)
{
	struct form *f = &d->form;
	int rc = 0;
	rc |= form_add(f, FORM_RADIO, "kind is_subtitle", "Order") < 0;
	rc |= form_add_option(f, "kind", "transcription", NULL, NULL);
	rc |= form_add_option(f, "kind", "subtitles", NULL, NULL);
	rc |= form_choose(f, "kind", "transcription");
	rc |= form_add(f, FORM_RADIO, "source", "Source") < 0;
	rc |= form_add_option(f, "source", "url", "URL", NULL);
	rc |= form_add_option(f, "source", "file", "local file", NULL);
	rc |= form_choose(f, "source", "url");
	rc |= form_add(f, FORM_TEXT, "url", "Media URL") < 0;
	rc |= form_add(f, FORM_FILE, "file upload", "File (C-o)") < 0;
	rc |= form_add(f, FORM_PICK, "language", "Language") < 0;
	rc |= dialog_add_languages(f, "language", "en-US");
	rc |= form_add(f, FORM_RADIO, "service", "Service") < 0;
	rc |= form_add_option(f, "service", "auto", NULL, NULL);
	rc |= form_add_option(f, "service", "pro", NULL, NULL);
	rc |= form_choose(f, "service", "auto");
	rc |= form_add(f, FORM_TEXT, "name", "Name") < 0;
	rc |= form_add(f, FORM_PICK, "folder_pick folder_id", "Known folder") < 0;
	rc |= dialog_add_folders(f, "folder_pick", &d->env);
	rc |= form_add(f, FORM_TEXT, "folder", "Folder path") < 0;
	rc |= form_add(f, FORM_TEXT, "tags", "Tags (a, b)") < 0;
	rc |= form_add(f, FORM_MULTI, "glossaries glossary_ids", "Glossaries") < 0;
	rc |= form_add(f, FORM_PICK, "style_guide style_guide_id verbatim sdh", "Style guide") < 0;
	rc |= form_add_option(f, "style_guide", "", "(none)", NULL);
	rc |= form_choose(f, "style_guide", "");
	rc |= form_add(f, FORM_CHECK, "boost", "Boost (rush)") < 0;
	rc |= form_add(f, FORM_TEXT, "webhook_url", "Webhook URL") < 0;
	rc |= form_add(f, FORM_RADIO, "confirm", "Confirm") < 0;
	rc |= form_add_option(f, "confirm", "later", "later (see the price)", NULL);
	rc |= form_add_option(f, "confirm", "now", NULL, NULL);
	rc |= form_choose(f, "confirm", "later");
	rc |= form_add(f, FORM_BUTTON, "order", "Order") < 0;
	rc |= form_add(f, FORM_BUTTON, "cancel", "Cancel") < 0;
	form_set_hidden(f, "file", true);
	return rc ? -1 : 0;
}

static void on_glossaries(void *ud, struct steno_glossary_list *res, const struct steno_error *err)
{
	struct dor *d = ud;
	if (err) {
		form_set_error(&d->form, "glossaries", err->message);
	} else {
		for (size_t i = 0; i < res->n; i++) {
			const struct steno_glossary *g = &res->items[i];
			char value[32], note[64];
			snprintf(value, sizeof value, "%" PRId64, g->id.v);
			snprintf(note, sizeof note, "%s%s", g->source_language ? g->source_language : "",
				 g->organization_default.v ? " default" : "");
			if (form_add_option(&d->form, "glossaries", value, g->name ? g->name : value, note) == 0 &&
			    g->organization_default.v)
				form_select(&d->form, "glossaries", value, true);
		}
	}
	pane_dirty(d->pane);
}

static void on_guides(void *ud, struct steno_style_guide_list *res, const struct steno_error *err)
{
	struct dor *d = ud;
	if (err) {
		form_set_error(&d->form, "style_guide", err->message);
		pane_dirty(d->pane);
		return;
	}
	struct guide_flags *gf = res->n ? calloc(res->n, sizeof *gf) : NULL;
	for (size_t i = 0; i < res->n && gf; i++) {
		const struct steno_style_guide *g = &res->items[i];
		char value[32], note[64];
		gf[i] = (struct guide_flags){ g->id.v, g->verbatim.v, g->sdh.v };
		snprintf(value, sizeof value, "%" PRId64, g->id.v);
		snprintf(note, sizeof note, "%s%s%s", g->operation ? g->operation : "",
			 g->verbatim.v ? " verbatim" : "", g->sdh.v ? " sdh" : "");
		form_add_option(&d->form, "style_guide", value, g->name ? g->name : value, note);
	}
	free(d->guides);
	d->guides = gf;
	d->n_guides = gf ? res->n : 0;
	pane_dirty(d->pane);
}

static void dor_load_lists(struct dor *d)
{
	struct steno_error err;
	steno_error_clear(&err);
	if (!d->env.http || !d->env.org_id[0])
		return;
	if (jobs_extra_glossaries(d->env.http, d->env.org_id, on_glossaries, d, &err) != 0)
		form_set_error(&d->form, "glossaries", err.message);
	if (jobs_extra_style_guides(d->env.http, d->env.org_id, on_guides, d, &err) != 0)
		form_set_error(&d->form, "style_guide", err.message);
}

static int dor_open(struct pane *p, void *arg)
{
	struct dor *d = calloc(1, sizeof *d);
	if (!d)
		return -1;
	form_init(&d->form);
	d->pane = p;
	if (dialog_env_copy(&d->env, arg) != 0 || dor_build(d) != 0) {
		form_free(&d->form);
		dialog_env_free(&d->env);
		free(d);
		return -1;
	}
	p->data = d;
	dor_load_lists(d);
	return 0;
}

static void dor_close(struct pane *p)
{
	struct dor *d = p->data;
	if (!d)
		return;
	if (d->env.http)
		jobs_extra_cancel(d->env.http, d);
	if (d->mode == DOR_PRICING)
		dconfirm_cancel(&d->confirm);
	form_free(&d->form);
	dialog_env_free(&d->env);
	free(d->guides);
	free(d);
	p->data = NULL;
}

static void dor_update(struct dor *d)
{
	const char *src = form_choice(&d->form, "source");
	bool file = src && strcmp(src, "file") == 0;
	form_set_hidden(&d->form, "url", file);
	form_set_hidden(&d->form, "file", !file);
}

static void dor_sync(struct dor *d)
{
	if (d->mode != DOR_RUNNING)
		return;
	const struct steno_job *j = jobs_get(d->env.jobs, d->job);
	if (!j || j->step == JOB_STEP_FAILED) {
		d->mode = DOR_EDIT;
		if (j)
			form_show_error(&d->form, &j->error);
		return;
	}
	if (j->step == JOB_STEP_CANCELLED) {
		d->mode = DOR_EDIT;
		form_set_message(&d->form, true, "upload cancelled: no order was created");
		return;
	}
	if (j->step != JOB_STEP_DONE)
		return;
	d->mode = DOR_PRICING;
	dconfirm_init(&d->confirm, &d->env, j->resource_id, d, d->pane);
	if (d->env.hooks.watch && j->resource_id)
		d->env.hooks.watch(d->env.hooks.ud, STORE_ACT_ORDER, j->resource_id);
	dialog_refresh(&d->env);
}

struct dor_req {
	struct steno_order_create_req req;
	char name[512], url[2048], file[4096], folder[1024], tags[1024], hook[2048];
	const char *tag_v[MAX_TAGS];
	const char *gl_v[MAX_GLOSSARIES];
	int64_t gl_ids[MAX_GLOSSARIES];
};

static void dor_fill_style(struct dor *d, struct dor_req *r)
{
	const char *sg = form_choice(&d->form, "style_guide");
	if (!sg || !sg[0])
		return;
	r->req.has_style_guide = true;
	r->req.style_guide_id = strtoll(sg, NULL, 10);
	for (size_t i = 0; i < d->n_guides; i++)
		if (d->guides[i].id == r->req.style_guide_id) {
			r->req.style_verbatim = d->guides[i].verbatim;
			r->req.style_sdh = d->guides[i].sdh;
		}
}

static void dor_fill(struct dor *d, struct dor_req *r)
{
	struct form *f = &d->form;
	const char *kind = form_choice(f, "kind"), *conf = form_choice(f, "confirm");
	r->req.url = form_text(f, "url", r->url, sizeof r->url);
	r->req.language = form_choice(f, "language");
	r->req.organization_id = d->env.org_id[0] ? d->env.org_id : NULL;
	r->req.service = form_choice(f, "service");
	r->req.confirm = conf && strcmp(conf, "now") == 0;
	r->req.is_subtitle = kind && strcmp(kind, "subtitles") == 0;
	r->req.boost = form_checked(f, "boost");
	form_text(f, "name", r->name, sizeof r->name);
	r->req.name = r->name[0] ? r->name : NULL;
	form_text(f, "webhook_url", r->hook, sizeof r->hook);
	r->req.webhook_url = r->hook[0] ? r->hook : NULL;
	form_text(f, "file", r->file, sizeof r->file);
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
	size_t ng = form_selected(f, "glossaries", r->gl_v, MAX_GLOSSARIES);
	for (size_t i = 0; i < ng && i < MAX_GLOSSARIES; i++)
		r->gl_ids[i] = strtoll(r->gl_v[i], NULL, 10);
	r->req.n_glossary_ids = ng < MAX_GLOSSARIES ? ng : MAX_GLOSSARIES;
	r->req.glossary_ids = ng ? r->gl_ids : NULL;
	dor_fill_style(d, r);
}

static void dor_submit(struct dor *d)
{
	struct dor_req *r = calloc(1, sizeof *r);
	struct steno_error err;
	steno_error_clear(&err);
	form_clear_errors(&d->form);
	if (!r) {
		form_set_message(&d->form, true, "out of memory");
		return;
	}
	dor_fill(d, r);
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
		r->req.url = NULL;
	int id = jobs_order(d->env.jobs, &r->req, upload, false, &err);
	free(r);
	if (id < 0) {
		form_show_error(&d->form, &err);
		return;
	}
	d->job = id;
	d->mode = DOR_RUNNING;
	dialog_watch_job(&d->env, id);
}

static unsigned dor_running_key(struct dor *d, enum action_id act)
{
	const struct steno_job *j = jobs_get(d->env.jobs, d->job);
	if (act == ACT_CANCEL && j && (j->step == JOB_STEP_UPLOAD_URL || j->step == JOB_STEP_UPLOADING)) {
		jobs_cancel(d->env.jobs, d->job);
		dor_sync(d);
	}
	return PANE_HANDLED | PANE_REDRAW;
}

static unsigned dor_key(struct pane *p, enum action_id act, ui_key key)
{
	struct dor *d = p->data;
	dor_sync(d);
	if (d->mode == DOR_PRICING)
		return dconfirm_key(&d->confirm, act, key) | PANE_REDRAW;
	if (d->mode == DOR_RUNNING)
		return dor_running_key(d, act);
	switch (form_key(&d->form, act, key)) {
	case FORM_EV_CANCEL:
		return PANE_HANDLED | PANE_CLOSE;
	case FORM_EV_BUTTON:
		if (strcmp(d->form.pressed, "cancel") == 0)
			return PANE_HANDLED | PANE_CLOSE;
		dor_submit(d);
		break;
	case FORM_EV_SUBMIT:
		dor_submit(d);
		break;
	case FORM_EV_USED:
	case FORM_EV_NONE:
		break;
	}
	dor_update(d);
	return PANE_HANDLED | PANE_REDRAW;
}

static void dor_draw(struct pane *p)
{
	struct dor *d = p->data;
	bool ascii = p->ctx->ascii;
	int rows = dialog_body_rows(p), cols = dialog_body_cols(p);
	dor_sync(d);
	const char *hint = d->mode == DOR_EDIT ? "Tab: next  Enter: order  Esc: cancel" :
		d->mode == DOR_RUNNING ? "Esc: cancel the upload" : "c: confirm  Esc: close";
	form_draw_frame(p->win, "New order", hint, ascii);
	if (d->mode == DOR_EDIT) {
		form_draw(&d->form, p->win, 1, 2, rows, cols, ascii);
	} else if (d->mode == DOR_RUNNING) {
		const struct steno_job *j = jobs_get(d->env.jobs, d->job);
		if (j)
			dialog_draw_job(p->win, 2, 2, cols, j, ascii);
	} else {
		dconfirm_draw(&d->confirm, p->win, 1, 2, rows, cols, ascii);
	}
}

const struct pane_ops dialog_order_ops = {
	.name = "new-order",
	.scope = SCOPE_DIALOG,
	.place = PANE_PLACE_OVERLAY,
	.open = dor_open,
	.draw = dor_draw,
	.key = dor_key,
	.close = dor_close,
};
