/* The translation dialog: an order for several target languages at once (multi-select), or
 * the superseded translation task (one per language), for one or several marked
 * transcriptions; progress until the translated transcriptions exist. */
#include "config.h"

#include "ui/dialog_translate.h"

#include <stdlib.h>
#include <string.h>

#include "api/request.h"
#include "api/spec_tables.h"
#include "ui/dialog_base.h"
#include "ui/draw.h"
#include "ui/form.h"
#include "ui/form_draw.h"
#include "ui/style.h"

#define MAX_TARGETS 80
#define MAX_TAGS 32

enum dtl_mode { DTL_EDIT, DTL_RUNNING };

/* Ownership: the pane's data (dialog_new); jobs is malloc'd; dtl_close frees both. */
struct dtl {
	struct dialog_base b;
	enum dtl_mode mode;
	int *jobs;
	size_t n_jobs;
	bool reloaded;
};

static int dtl_build(void *arg)
{
	struct dtl *d = arg;
	struct form *f = &d->b.form;
	int rc = 0;
	char note[600];
	dialog_join_names(&d->b.env, note, sizeof note);
	rc |= form_add(f, FORM_NOTE, "sources source_transcription_id", "Translate") < 0;
	rc |= form_set_text(f, "sources", d->b.env.n_ids ? note : "(nothing selected)");
	rc |= form_add_radio(f, "method", "Using",
				 (const char *const[]){ "order|an order", "task|tasks (superseded)", NULL });
	rc |= form_add(f, FORM_MULTI, "targets target_languages target_language", "Into") < 0;
	rc |= dialog_add_target_languages(f, "targets", &d->b.env.recent_languages);
	rc |= form_add_radio(f, "service", "Service", (const char *const[]){ "auto", "pro", NULL });
	rc |= form_add(f, FORM_CHECK, "boost", "Boost (rush)") < 0;
	rc |= form_add(f, FORM_TEXT, "webhook_url", "Webhook URL") < 0;
	rc |= form_add(f, FORM_TEXT, "tags", "Tags (a, b)") < 0;
	rc |= form_add_radio(f, "confirm", "Confirm",
				 (const char *const[]){ "now", "later", NULL });
	rc |= form_add(f, FORM_BUTTON, "translate", "Translate") < 0;
	rc |= form_add(f, FORM_BUTTON, "cancel", "Cancel") < 0;
	dialog_apply_choices(f, &d->b.env, CHOICE_TRANSLATE);
	form_focus(f, "targets");
	return rc ? -1 : 0;
}

static int dtl_check(void *arg, struct steno_error *err);

static int dtl_open(struct pane *p, void *arg)
{
	struct dtl *d = dialog_new(p, sizeof *d, arg, dtl_build);
	if (!d)
		return -1;
	d->b.check = dtl_check;
	return 0;
}

static void dtl_close(struct pane *p)
{
	struct dtl *d = p->data;
	if (!d)
		return;
	free(d->jobs);
	dialog_close(p);
}

static void dtl_update(void *arg)
{
	struct dtl *d = arg;
	const char *m = form_choice(&d->b.form, "method");
	bool task = m && strcmp(m, "task") == 0;
	form_set_hidden(&d->b.form, "service", task);
	form_set_hidden(&d->b.form, "boost", task);
	form_set_hidden(&d->b.form, "webhook_url", task);
	form_set_hidden(&d->b.form, "tags", task);
	form_set_hidden(&d->b.form, "confirm", task);
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
	struct form *f = &d->b.form;
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
	r->order.n_tags = dialog_fill_tags(f, r->tags, sizeof r->tags, r->tag_v, MAX_TAGS, &r->order.tags);
}

static const char *source_language(const struct dtl *d, const char *id)
{
	const struct store_transcription *t = d->b.env.store ? store_transcription_get(d->b.env.store, id) : NULL;
	return t ? t->t.language : NULL;
}

/* Checks every request before the first is sent, so a rule break sends nothing. */
static int dtl_validate(struct dtl *d, struct dtl_req *r, bool task, struct steno_error *err)
{
	if (!d->b.env.n_ids)
		return steno_error_invalid(err, "sources", "select or mark a transcription first");
	if (!r->n_targets)
		return steno_error_invalid(err, "targets", "choose at least one language (Space)");
	for (size_t i = 0; i < d->b.env.n_ids; i++) {
		r->order.source_transcription_id = d->b.env.ids[i];
		r->order.source_language = source_language(d, d->b.env.ids[i]);
		if (!task && steno_validate_translation_order(&r->order, err) != 0)
			return -1;
		for (size_t k = 0; task && k < r->n_targets; k++) {
			struct steno_translation_task_req t = { d->b.env.ids[i], r->targets[k],
								r->order.source_language };
			if (steno_validate_translation_task(&t, err) != 0)
				return -1;
		}
	}
	return 0;
}

/* dtl_validate on the form as it is now (dialog_base's check). */
static int dtl_check(void *arg, struct steno_error *err)
{
	struct dtl *d = arg;
	struct dtl_req *r = calloc(1, sizeof *r);
	if (!r)
		return 0;
	dtl_fill(d, r);
	const char *m = form_choice(&d->b.form, "method");
	int rc = dtl_validate(d, r, m && strcmp(m, "task") == 0, err);
	free(r);
	return rc;
}

static int dtl_push(struct dtl *d, int id)
{
	int *js = realloc(d->jobs, (d->n_jobs + 1) * sizeof *js);
	if (!js)
		return -1;
	d->jobs = js;
	js[d->n_jobs++] = id;
	dialog_watch_job(&d->b.env, id);
	return 0;
}

static int dtl_start(struct dtl *d, struct dtl_req *r, bool task, struct steno_error *err)
{
	for (size_t i = 0; i < d->b.env.n_ids; i++) {
		r->order.source_transcription_id = d->b.env.ids[i];
		r->order.source_language = source_language(d, d->b.env.ids[i]);
		if (!task) {
			int id = jobs_translation_order(d->b.env.jobs, &r->order, true, err);
			if (id < 0 || dtl_push(d, id) != 0)
				return -1;
			continue;
		}
		for (size_t k = 0; k < r->n_targets; k++) {
			struct steno_translation_task_req t = { d->b.env.ids[i], r->targets[k],
								r->order.source_language };
			int id = jobs_translation_task(d->b.env.jobs, &t, true, err);
			if (id < 0 || dtl_push(d, id) != 0)
				return -1;
		}
	}
	return 0;
}

static void dtl_submit(void *arg)
{
	struct dtl *d = arg;
	struct steno_error err;
	struct dtl_req *r = dialog_request_new(&d->b, sizeof *r, &err);
	if (!r)
		return;
	dtl_fill(d, r);
	const char *m = form_choice(&d->b.form, "method");
	bool task = m && strcmp(m, "task") == 0;
	if (dtl_validate(d, r, task, &err) != 0) {
		form_show_error(&d->b.form, &err);
		free(r);
		return;
	}
	int rc = dtl_start(d, r, task, &err);
	if (d->n_jobs)
		dialog_report_choices(&d->b.form, &d->b.env, CHOICE_TRANSLATE);
	free(r);
	if (rc != 0 && !d->n_jobs) {
		form_show_error(&d->b.form, &err);
		return;
	}
	if (rc != 0)
		form_set_message(&d->b.form, true, "only %zu requests were sent: %s", d->n_jobs, err.message);
	d->mode = DTL_RUNNING;
	if (d->b.env.hooks.unmark)
		d->b.env.hooks.unmark(d->b.env.hooks.ud);
}

/* Back to the form when every request failed at once (a 429, a refusal): nothing exists. */
static void dtl_sync(struct dtl *d)
{
	if (d->mode != DTL_RUNNING)
		return;
	size_t failed = 0, over = 0;
	const struct steno_job *last = NULL;
	for (size_t i = 0; i < d->n_jobs; i++) {
		const struct steno_job *j = jobs_get(d->b.env.jobs, d->jobs[i]);
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
		form_show_error(&d->b.form, &last->error);
	} else if (d->n_jobs && over == d->n_jobs && !d->reloaded) {
		d->reloaded = true;
		dialog_refresh(&d->b.env);
	}
}

static unsigned dtl_key(struct pane *p, enum action_id act, ui_key key)
{
	struct dtl *d = p->data;
	dtl_sync(d);
	if (d->mode == DTL_RUNNING)
		return dialog_result_key(act);
	return dialog_form_key(&d->b, act, key, dtl_submit, dtl_update);
}

static void dtl_job_line(const struct dtl *d, const struct steno_job *j, char *buf, size_t size)
{
	/* the resource's state, unless the step says the same ("done / done") */
	const char *shown_state = j->state && strcmp(j->state, jobs_step_name(j->step)) ?
		j->state : NULL;
	size_t o = (size_t)snprintf(buf, size, "%s %s: %s%s%s",
				    j->kind == JOB_TRANSLATION_TASK ? "task" : "order",
				    j->resource_id ? j->resource_id : "-", jobs_step_name(j->step),
				    shown_state ? " / " : "", shown_state ? shown_state : "");
	if (j->step == JOB_STEP_FAILED && o < size)
		o += (size_t)snprintf(buf + o, size - o, ": %s", j->error.message);
	for (size_t i = 0; i < j->n_result_ids && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : " -> ",
				      dialog_tr_name(&d->b.env, j->result_ids[i]));
}

static void dtl_draw(struct pane *p)
{
	struct dtl *d = p->data;
	int rows = dialog_body_rows(p);
	dtl_sync(d);
	if (dialog_draw_form(p, &d->b, "Translate", d->mode == DTL_EDIT ?
			     "Tab/Enter: next  Space: choose  F2: translate  Esc: cancel" :
			     "Enter/Esc: close (the activity pane keeps following)", d->mode == DTL_EDIT))
		return;
	int y = 1;
	char line[1200];
	for (size_t i = 0; i < d->n_jobs && y < rows; i++) {
		const struct steno_job *j = jobs_get(d->b.env.jobs, d->jobs[i]);
		if (!j)
			continue;
		dtl_job_line(d, j, line, sizeof line);
		y += dialog_draw_text(p, y, 2, line, j->step == JOB_STEP_FAILED);
	}
	if (d->b.form.message[0] && y < rows)
		dialog_draw_text(p, y + 1, rows - y, d->b.form.message, true);
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
