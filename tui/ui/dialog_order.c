/* The new-order dialog (spec 4.5): transcription or subtitles, every order field, glossary
 * and style-guide pickers loaded from the API, confirm now or later. An order created
 * unconfirmed shows its pricing next, with the confirm key (dialog_confirm). */
#include "config.h"

#include "ui/dialog_order.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "api/request.h"
#include "api/spec_tables.h"
#include "core/jobs_extra.h"
#include "ui/dialog_base.h"
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
	bool verbatim, sdh, subtitles;   /* subtitles: the guide is for subtitling orders */
};

/* Ownership: the pane's data (dialog_new); dor_close cancels its list requests and frees it. */
struct dor {
	struct dialog_base b;
	enum dor_mode mode;
	struct guide_flags *guides;
	size_t n_guides;
	struct dconfirm confirm;
};

static int dor_build(void *arg)
{
	struct dor *d = arg;
	struct form *f = &d->b.form;
	int rc = 0;
	rc |= form_add_radio(f, "kind is_subtitle", "Order",
				 (const char *const[]){ "transcription", "subtitles", NULL });
	rc |= form_add_radio(f, "source", "Source",
				 (const char *const[]){ "url|URL", "file|local file", NULL });
	rc |= form_add(f, FORM_TEXT, "url", "Media URL") < 0;
	rc |= form_add(f, FORM_FILE, "file upload", "File (C-o)") < 0;
	rc |= form_add(f, FORM_PICK, "language", "Language") < 0;
	rc |= dialog_add_languages(f, "language", "en-US", &d->b.env.recent_languages);
	rc |= form_add_radio(f, "service", "Service", (const char *const[]){ "auto", "pro", NULL });
	rc |= form_add(f, FORM_TEXT, "name", "Name") < 0;
	rc |= form_add(f, FORM_PICK, "folder_pick folder_id", "Known folder") < 0;
	rc |= dialog_add_folders(f, "folder_pick", &d->b.env);
	rc |= form_add(f, FORM_TEXT, "folder", "Folder path") < 0;
	rc |= form_add(f, FORM_TEXT, "tags", "Tags (a, b)") < 0;
	rc |= form_add(f, FORM_MULTI, "glossaries glossary_ids", "Glossaries") < 0;
	rc |= form_add(f, FORM_PICK, "style_guide style_guide_id verbatim sdh", "Style guide") < 0;
	rc |= form_add_option(f, "style_guide", "", "(none)", NULL);
	rc |= form_choose(f, "style_guide", "");
	rc |= form_add(f, FORM_CHECK, "boost", "Boost (rush)") < 0;
	rc |= form_add(f, FORM_TEXT, "webhook_url", "Webhook URL") < 0;
	rc |= form_add_radio(f, "confirm", "Confirm",
				 (const char *const[]){ "later|later (see the price)", "now", NULL });
	rc |= form_add(f, FORM_BUTTON, "order", "Order") < 0;
	rc |= form_add(f, FORM_BUTTON, "cancel", "Cancel") < 0;
	form_set_hidden(f, "file", true);
	dialog_apply_choices(f, &d->b.env, CHOICE_ORDER);
	return rc ? -1 : 0;
}

static void on_glossaries(void *ud, struct steno_glossary_list *res, const struct steno_error *err)
{
	struct dor *d = ud;
	if (err) {
		form_set_error(&d->b.form, "glossaries", err->message);
	} else {
		for (size_t i = 0; i < res->n; i++) {
			const struct steno_glossary *g = &res->items[i];
			char value[32], note[64];
			snprintf(value, sizeof value, "%" PRId64, g->id.v);
			snprintf(note, sizeof note, "%s%s", g->source_language ? g->source_language : "",
				 g->organization_default.v ? " default" : "");
			if (form_add_option(&d->b.form, "glossaries", value, g->name ? g->name : value, note) == 0 &&
			    g->organization_default.v)
				form_select(&d->b.form, "glossaries", value, true);
		}
	}
	pane_dirty(d->b.pane);
}

static void on_guides(void *ud, struct steno_style_guide_list *res, const struct steno_error *err)
{
	struct dor *d = ud;
	if (err) {
		form_set_error(&d->b.form, "style_guide", err->message);
		pane_dirty(d->b.pane);
		return;
	}
	struct guide_flags *gf = res->n ? calloc(res->n, sizeof *gf) : NULL;
	for (size_t i = 0; i < res->n && gf; i++) {
		const struct steno_style_guide *g = &res->items[i];
		char value[32], note[64];
		gf[i] = (struct guide_flags){ g->id.v, g->verbatim.v, g->sdh.v,
			g->operation && strcmp(g->operation, "subtitles") == 0 };
		snprintf(value, sizeof value, "%" PRId64, g->id.v);
		snprintf(note, sizeof note, "%s%s%s", g->operation ? g->operation : "",
			 g->verbatim.v ? " verbatim" : "", g->sdh.v ? " sdh" : "");
		form_add_option(&d->b.form, "style_guide", value, g->name ? g->name : value, note);
	}
	free(d->guides);
	d->guides = gf;
	d->n_guides = gf ? res->n : 0;
	pane_dirty(d->b.pane);
}

static void dor_load_lists(struct dor *d)
{
	struct steno_error err;
	steno_error_clear(&err);
	if (!d->b.env.http || !d->b.env.org_id[0])
		return;
	if (jobs_extra_glossaries(d->b.env.http, d->b.env.org_id, on_glossaries, d, &err) != 0)
		form_set_error(&d->b.form, "glossaries", err.message);
	if (jobs_extra_style_guides(d->b.env.http, d->b.env.org_id, on_guides, d, &err) != 0)
		form_set_error(&d->b.form, "style_guide", err.message);
}

static int dor_check(void *arg, struct steno_error *err);

static int dor_open(struct pane *p, void *arg)
{
	struct dor *d = dialog_new(p, sizeof *d, arg, dor_build);
	if (!d)
		return -1;
	d->b.check = dor_check;
	dor_load_lists(d);
	return 0;
}

static void dor_close(struct pane *p)
{
	struct dor *d = p->data;
	if (!d)
		return;
	if (d->mode == DOR_PRICING)
		dconfirm_cancel(&d->confirm);
	free(d->guides);
	dialog_close(p);
}

static void dor_update(void *arg)
{
	struct dor *d = arg;
	dialog_update_source(&d->b.form);
}

static void dor_sync(struct dor *d)
{
	if (d->mode != DOR_RUNNING)
		return;
	const struct steno_job *j = dialog_job_alive(&d->b, "upload cancelled: no order was created");
	if (!j) {
		d->mode = DOR_EDIT;
		return;
	}
	if (j->step != JOB_STEP_DONE)
		return;
	d->mode = DOR_PRICING;
	dconfirm_init(&d->confirm, &d->b.env, j->resource_id, d, d->b.pane);
	if (d->b.env.hooks.watch && j->resource_id)
		d->b.env.hooks.watch(d->b.env.hooks.ud, STORE_ACT_ORDER, j->resource_id);
	dialog_refresh(&d->b.env);
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
	const char *sg = form_choice(&d->b.form, "style_guide");
	if (!sg || !sg[0])
		return;
	r->req.has_style_guide = true;
	r->req.style_guide_id = strtoll(sg, NULL, 10);
	for (size_t i = 0; i < d->n_guides; i++)
		if (d->guides[i].id == r->req.style_guide_id) {
			r->req.style_verbatim = d->guides[i].verbatim;
			r->req.style_sdh = d->guides[i].sdh;
			r->req.style_subtitles = d->guides[i].subtitles;
		}
}

static void dor_fill(struct dor *d, struct dor_req *r)
{
	struct form *f = &d->b.form;
	const char *kind = form_choice(f, "kind"), *conf = form_choice(f, "confirm");
	r->req.url = form_text(f, "url", r->url, sizeof r->url);
	r->req.language = form_choice(f, "language");
	r->req.organization_id = d->b.env.org_id[0] ? d->b.env.org_id : NULL;
	r->req.service = form_choice(f, "service");
	r->req.confirm = conf && strcmp(conf, "now") == 0;
	r->req.is_subtitle = kind && strcmp(kind, "subtitles") == 0;
	r->req.boost = form_checked(f, "boost");
	form_text(f, "name", r->name, sizeof r->name);
	r->req.name = r->name[0] ? r->name : NULL;
	form_text(f, "webhook_url", r->hook, sizeof r->hook);
	r->req.webhook_url = r->hook[0] ? r->hook : NULL;
	form_text(f, "file", r->file, sizeof r->file);
	dialog_fill_folder(f, r->folder, sizeof r->folder, &r->req.folder, &r->req.folder_id);
	r->req.n_tags = dialog_fill_tags(f, r->tags, sizeof r->tags, r->tag_v, MAX_TAGS, &r->req.tags);
	size_t ng = form_selected(f, "glossaries", r->gl_v, MAX_GLOSSARIES);
	for (size_t i = 0; i < ng && i < MAX_GLOSSARIES; i++)
		r->gl_ids[i] = strtoll(r->gl_v[i], NULL, 10);
	r->req.n_glossary_ids = ng < MAX_GLOSSARIES ? ng : MAX_GLOSSARIES;
	r->req.glossary_ids = ng ? r->gl_ids : NULL;
	dor_fill_style(d, r);
}

/* What core/jobs checks before an order is created (an upload's URL is not known yet: any
 * valid one stands in). */
static int dor_check(void *arg, struct steno_error *err)
{
	struct dor *d = arg;
	struct dor_req *r = calloc(1, sizeof *r);
	if (!r)
		return 0;
	dor_fill(d, r);
	const char *src = form_choice(&d->b.form, "source");
	if (src && strcmp(src, "file") == 0)
		r->req.url = "https://upload.invalid/media";
	int rc = steno_validate_order_create(&r->req, err);
	free(r);
	return rc;
}

static void dor_submit(void *arg)
{
	struct dor *d = arg;
	struct steno_error err;
	struct dor_req *r = dialog_request_new(&d->b, sizeof *r, &err);
	const char *upload;
	if (!r)
		return;
	dor_fill(d, r);
	if (dialog_upload_file(&d->b.form, r->file, &upload) < 0) {
		free(r);
		return;
	}
	if (upload)
		r->req.url = NULL;
	int id = jobs_order(d->b.env.jobs, &r->req, upload, false, &err);
	free(r);
	if (dialog_job_started(&d->b, id, &err)) {
		dialog_report_choices(&d->b.form, &d->b.env, CHOICE_ORDER);
		d->mode = DOR_RUNNING;
	}
}

static unsigned dor_running_key(struct dor *d, enum action_id act)
{
	if (act == ACT_CANCEL && dialog_cancel_upload(&d->b))
		dor_sync(d);
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
	return dialog_form_key(&d->b, act, key, dor_submit, dor_update);
}

static void dor_draw(struct pane *p)
{
	struct dor *d = p->data;
	bool ascii = p->ctx->ascii;
	int rows = dialog_body_rows(p), cols = dialog_body_cols(p);
	dor_sync(d);
	const char *hint = d->mode == DOR_EDIT ? "Tab/Enter: next  F2: order  Esc: cancel" :
		d->mode == DOR_RUNNING ? "Esc: cancel the upload" : "c: confirm  Esc: close";
	if (dialog_draw_form(p, &d->b, "New order", hint, d->mode == DOR_EDIT))
		return;
	if (d->mode == DOR_RUNNING) {
		const struct steno_job *j = jobs_get(d->b.env.jobs, d->b.job);
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
