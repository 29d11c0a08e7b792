/* The translation dialog: an order for several target languages at once (multi-select), or
 * the superseded translation task (one per language), for one or several marked
 * transcriptions; progress until the translated transcriptions exist. */
#include "config.h"

#include "ui/dialog_translate.h"

#include <stdlib.h>
#include <string.h>

#include "api/request.h"
#include "api/spec_tables.h"
#include "ui/draw.h"
#include "ui/form.h"
#include "ui/form_draw.h"
#include "ui/style.h"

#define MAX_TARGETS 80
#define MAX_TAGS 32

enum dtl_mode { DTL_EDIT, DTL_RUNNING };

/* Ownership: the pane's data; jobs is malloc'd. */
struct dtl {
	struct dialog_env env;
	struct form form;
	enum dtl_mode mode;
	int *jobs;
	size_t n_jobs;
	bool reloaded;
};

static int dtl_build(struct dtl *d)
{
	struct form *f = &d->form;
	int rc = 0;
	char note[600];
	size_t o = 0;
	for (size_t i = 0; i < d->env.n_ids && o < sizeof note; i++)
		o += (size_t)snprintf(note + o, sizeof note - o, "%s%s", i ? ", " : "",
				      dialog_tr_name(&d->env, d->env.ids[i]));
	rc |= form_add(f, FORM_NOTE, "sources source_transcription_id", "Translate") < 0;
	rc |= form_set_text(f, "sources", d->env.n_ids ? note : "(nothing selected)");
	rc |= form_add(f, FORM_RADIO, "method", "Using") < 0;
	rc |= form_add_option(f, "method", "order", "an order", NULL);
	rc |= form_add_option(f, "method", "task", "tasks (superseded)", NULL);
	rc |= form_choose(f, "method", "order");
	rc |= form_add(f, FORM_MULTI, "targets target_languages target_language", "Into") < 0;
	for (size_t i = 0; i < spec_target_language_count(); i++)
		rc |= form_add_option(f, "targets", spec_target_language_at(i), NULL, NULL);
	rc |= form_add(f, FORM_RADIO, "service", "Service") < 0;
	rc |= form_add_option(f, "service", "auto", NULL, NULL);
	rc |= form_add_option(f, "service", "pro", NULL, NULL);
	rc |= form_choose(f, "service", "auto");
	rc |= form_add(f, FORM_CHECK, "boost", "Boost (rush)") < 0;
	rc |= form_add(f, FORM_TEXT, "webhook_url", "Webhook URL") < 0;
	rc |= form_add(f, FORM_TEXT, "tags", "Tags (a, b)") < 0;
	rc |= form_add(f, FORM_RADIO, "confirm", "Confirm") < 0;
	rc |= form_add_option(f, "confirm", "now", NULL, NULL);
	rc |= form_add_option(f, "confirm", "later", NULL, NULL);
	rc |= form_choose(f, "confirm", "now");
	rc |= form_add(f, FORM_BUTTON, "translate", "Translate") < 0;
	rc |= form_add(f, FORM_BUTTON, "cancel", "Cancel") < 0;
	form_focus(f, "targets");
	return rc ? -1 : 0;
}

static int dtl_open(struct pane *p, void *arg)
{
	struct dtl *d = calloc(1, sizeof *d);
	if (!d)
		return -1;
	form_init(&d->form);
	if (dialog_env_copy(&d->env, arg) != 0 || dtl_build(d) != 0) {
		form_free(&d->form);
		dialog_env_free(&d->env);
		free(d);
		return -1;
	}
	p->data = d;
	return 0;
}

static void dtl_close(struct pane *p)
{
	struct dtl *d = p->data;
	if (!d)
		return;
	form_free(&d->form);
	dialog_env_free(&d->env);
	free(d->jobs);
	free(d);
	p->data = NULL;
}

static void dtl_update(struct dtl *d)
{
	const char *m = form_choice(&d->form, "method");
	bool task = m && strcmp(m, "task") == 0;
	form_set_hidden(&d->form, "service", task);
	form_set_hidden(&d->form, "boost", task);
	form_set_hidden(&d->form, "webhook_url", task);
	form_set_hidden(&d->form, "tags", task);
	form_set_hidden(&d->form, "confirm", task);
}

/* The request of one source; strings point into the form's buffers in r. */
struct dtl_req {
	struct steno_translation_order_req order;
	const char *targets[MAX_TARGETS];
	size_t n_targets;
	char hook[2048], tags[1024];
	const char *tag_v[MAX_TAGS];
};

static void dtl_fill(struct dtl *d, struct dtl_req *r)
{
	struct form *f = &d->form;
	const char *conf = form_choice(f, "confirm");
	r->n_targets = form_selected(f, "targets", r->targets, MAX_TARGETS);
	if (r->n_targets > MAX_TARGETS)
		r->n_targets = MAX_TARGETS;
	r->order.target_languages = r->targets;
	r->order.n_target_languages = r->n_targets;
	r->order.service = form_choice(f, "service");
	r->order.confirm = conf && strcmp(conf, "now") == 0;
	r->order.boost = form_checked(f, "boost");
	form_text(f, "webhook_url", r->hook, sizeof r->hook);
	r->order.webhook_url = r->hook[0] ? r->hook : NULL;
	form_text(f, "tags", r->tags, sizeof r->tags);
	r->order.n_tags = dialog_split_list(r->tags, r->tag_v, MAX_TAGS);
	r->order.tags = r->order.n_tags ? r->tag_v : NULL;
}

static const char *source_language(const struct dtl *d, const char *id)
{
	const struct store_transcription *t = d->env.store ? store_transcription_get(d->env.store, id) : NULL;
	return t ? t->t.language : NULL;
}

/* Checks every request before the first is sent, so a rule break sends nothing. */
static int dtl_validate(struct dtl *d, struct dtl_req *r, bool task, struct steno_error *err)
{
	if (!d->env.n_ids)
		return steno_error_invalid(err, "sources", "select or mark a transcription first");
	if (!r->n_targets)
		return steno_error_invalid(err, "targets", "choose at least one language (Space)");
	for (size_t i = 0; i < d->env.n_ids; i++) {
		r->order.source_transcription_id = d->env.ids[i];
		r->order.source_language = source_language(d, d->env.ids[i]);
		if (!task && steno_validate_translation_order(&r->order, err) != 0)
			return -1;
		for (size_t k = 0; task && k < r->n_targets; k++) {
			struct steno_translation_task_req t = { d->env.ids[i], r->targets[k],
								r->order.source_language };
			if (steno_validate_translation_task(&t, err) != 0)
				return -1;
		}
	}
	return 0;
}

static int dtl_push(struct dtl *d, int id)
{
	int *js = realloc(d->jobs, (d->n_jobs + 1) * sizeof *js);
	if (!js)
		return -1;
	d->jobs = js;
	js[d->n_jobs++] = id;
	dialog_watch_job(&d->env, id);
	return 0;
}

static int dtl_start(struct dtl *d, struct dtl_req *r, bool task, struct steno_error *err)
{
	for (size_t i = 0; i < d->env.n_ids; i++) {
		r->order.source_transcription_id = d->env.ids[i];
		r->order.source_language = source_language(d, d->env.ids[i]);
		if (!task) {
			int id = jobs_translation_order(d->env.jobs, &r->order, true, err);
			if (id < 0 || dtl_push(d, id) != 0)
				return -1;
			continue;
		}
		for (size_t k = 0; k < r->n_targets; k++) {
			struct steno_translation_task_req t = { d->env.ids[i], r->targets[k],
								r->order.source_language };
			int id = jobs_translation_task(d->env.jobs, &t, true, err);
			if (id < 0 || dtl_push(d, id) != 0)
				return -1;
		}
	}
	return 0;
}

static void dtl_submit(struct dtl *d)
{
	struct dtl_req *r = calloc(1, sizeof *r);
	struct steno_error err;
	steno_error_clear(&err);
	form_clear_errors(&d->form);
	if (!r) {
		form_set_message(&d->form, true, "out of memory");
		return;
	}
	dtl_fill(d, r);
	const char *m = form_choice(&d->form, "method");
	bool task = m && strcmp(m, "task") == 0;
	if (dtl_validate(d, r, task, &err) != 0) {
		form_show_error(&d->form, &err);
		free(r);
		return;
	}
	int rc = dtl_start(d, r, task, &err);
	free(r);
	if (rc != 0 && !d->n_jobs) {
		form_show_error(&d->form, &err);
		return;
	}
	if (rc != 0)
		form_set_message(&d->form, true, "only %zu requests were sent: %s", d->n_jobs, err.message);
	d->mode = DTL_RUNNING;
	if (d->env.hooks.unmark)
		d->env.hooks.unmark(d->env.hooks.ud);
}

/* Back to the form when every request failed at once (a 429, a refusal): nothing exists. */
static void dtl_sync(struct dtl *d)
{
	if (d->mode != DTL_RUNNING)
		return;
	size_t failed = 0, over = 0;
	const struct steno_job *last = NULL;
	for (size_t i = 0; i < d->n_jobs; i++) {
		const struct steno_job *j = jobs_get(d->env.jobs, d->jobs[i]);
		if (!j)
			continue;
		bool posted_fail = j->step == JOB_STEP_FAILED && !j->resource_id;
		failed += posted_fail;
		over += j->step == JOB_STEP_DONE || j->step == JOB_STEP_FAILED;
		if (posted_fail)
			last = j;
	}
	if (d->n_jobs && failed == d->n_jobs && last) {
		d->mode = DTL_EDIT;
		d->n_jobs = 0;
		form_show_error(&d->form, &last->error);
	} else if (d->n_jobs && over == d->n_jobs && !d->reloaded) {
		d->reloaded = true;
		dialog_refresh(&d->env);
	}
}

static unsigned dtl_key(struct pane *p, enum action_id act, ui_key key)
{
	struct dtl *d = p->data;
	dtl_sync(d);
	if (d->mode == DTL_RUNNING)
		return act == ACT_CANCEL || act == ACT_SUBMIT ? PANE_HANDLED | PANE_CLOSE : PANE_HANDLED;
	switch (form_key(&d->form, act, key)) {
	case FORM_EV_CANCEL:
		return PANE_HANDLED | PANE_CLOSE;
	case FORM_EV_BUTTON:
		if (strcmp(d->form.pressed, "cancel") == 0)
			return PANE_HANDLED | PANE_CLOSE;
		dtl_submit(d);
		break;
	case FORM_EV_SUBMIT:
		dtl_submit(d);
		break;
	case FORM_EV_USED:
	case FORM_EV_NONE:
		break;
	}
	dtl_update(d);
	return PANE_HANDLED | PANE_REDRAW;
}

static void dtl_job_line(const struct dtl *d, const struct steno_job *j, char *buf, size_t size)
{
	size_t o = (size_t)snprintf(buf, size, "%s %s: %s%s%s",
				    j->kind == JOB_TRANSLATION_TASK ? "task" : "order",
				    j->resource_id ? j->resource_id : "-", jobs_step_name(j->step),
				    j->state ? " / " : "", j->state ? j->state : "");
	if (j->step == JOB_STEP_FAILED && o < size)
		o += (size_t)snprintf(buf + o, size - o, ": %s", j->error.message);
	for (size_t i = 0; i < j->n_result_ids && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : " -> ",
				      dialog_tr_name(&d->env, j->result_ids[i]));
}

static void dtl_draw(struct pane *p)
{
	struct dtl *d = p->data;
	bool ascii = p->ctx->ascii;
	int rows = dialog_body_rows(p), cols = dialog_body_cols(p);
	dtl_sync(d);
	form_draw_frame(p->win, "Translate", d->mode == DTL_EDIT ?
			"Tab: next  Space: choose  Enter: translate  Esc: cancel" :
			"Enter/Esc: close (the activity pane keeps following)", ascii);
	if (d->mode == DTL_EDIT) {
		form_draw(&d->form, p->win, 1, 2, rows, cols, ascii);
		return;
	}
	int y = 1;
	char line[1200];
	for (size_t i = 0; i < d->n_jobs && y < rows; i++) {
		const struct steno_job *j = jobs_get(d->env.jobs, d->jobs[i]);
		if (!j)
			continue;
		dtl_job_line(d, j, line, sizeof line);
		style_set(p->win, j->step == JOB_STEP_FAILED ? THEME_DIALOG_ERROR : THEME_DIALOG);
		y += form_draw_wrapped(p->win, y, 2, cols, 2, line, ascii);
	}
	if (d->form.message[0] && y < rows) {
		style_set(p->win, THEME_DIALOG_ERROR);
		form_draw_wrapped(p->win, y + 1, 2, cols, rows - y, d->form.message, ascii);
	}
	style_set(p->win, THEME_DIALOG);
}

const struct pane_ops dialog_translate_ops = {
	.name = "translate",
	.scope = SCOPE_DIALOG,
	.place = PANE_PLACE_OVERLAY,
	.open = dtl_open,
	.draw = dtl_draw,
	.key = dtl_key,
	.close = dtl_close,
};
