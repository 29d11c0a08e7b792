/* The delete dialog: the marked transcriptions (or the selected one) to the trash or
 * permanently, after a confirmation that says what will be lost. Cancel has the focus. */
#include "config.h"

#include "ui/dialog_delete.h"

#include <stdlib.h>
#include <string.h>

#include "core/jobs_extra.h"
#include "ui/draw.h"
#include "ui/form.h"
#include "ui/form_draw.h"
#include "ui/style.h"

enum ddl_mode { DDL_EDIT, DDL_RUNNING, DDL_DONE };

/* Ownership: the pane's data; ddl_close cancels deletes in flight. */
struct ddl {
	struct dialog_env env;
	struct form form;
	struct pane *pane;
	enum ddl_mode mode;
	size_t sent, done, failed;
	char errors[1024];
};

static void ddl_explain(struct ddl *d)
{
	const char *m = form_choice(&d->form, "mode");
	char text[400];
	if (m && strcmp(m, "permanent") == 0)
		snprintf(text, sizeof text, "LOST FOR GOOD: %zu transcription%s with transcript, media and "
			 "exports. This cannot be undone.", d->env.n_ids, d->env.n_ids == 1 ? "" : "s");
	else
		snprintf(text, sizeof text, "%zu transcription%s go%s to the Trash (restore them in the web "
			 "application).", d->env.n_ids, d->env.n_ids == 1 ? "" : "s",
			 d->env.n_ids == 1 ? "es" : "");
	form_set_text(&d->form, "what", text);
}

static int ddl_build(struct ddl *d)
{
	struct form *f = &d->form;
	char names[600];
	size_t o = 0;
	int rc = 0;
	for (size_t i = 0; i < d->env.n_ids && o < sizeof names; i++)
		o += (size_t)snprintf(names + o, sizeof names - o, "%s%s", i ? ", " : "",
				      dialog_tr_name(&d->env, d->env.ids[i]));
	rc |= form_add(f, FORM_NOTE, "names", "Delete") < 0;
	rc |= form_set_text(f, "names", d->env.n_ids ? names : "(nothing selected)");
	rc |= form_add(f, FORM_RADIO, "mode permanent", "How") < 0;
	rc |= form_add_option(f, "mode", "trash", "to the Trash", NULL);
	rc |= form_add_option(f, "mode", "permanent", "permanently", NULL);
	rc |= form_choose(f, "mode", "trash");
	rc |= form_add(f, FORM_NOTE, "what", "") < 0;
	rc |= form_add(f, FORM_BUTTON, "delete", "Delete") < 0;
	rc |= form_add(f, FORM_BUTTON, "cancel", "Cancel") < 0;
	form_focus(f, "cancel");
	return rc ? -1 : 0;
}

static int ddl_open(struct pane *p, void *arg)
{
	struct ddl *d = calloc(1, sizeof *d);
	if (!d)
		return -1;
	form_init(&d->form);
	d->pane = p;
	if (dialog_env_copy(&d->env, arg) != 0 || ddl_build(d) != 0) {
		form_free(&d->form);
		dialog_env_free(&d->env);
		free(d);
		return -1;
	}
	ddl_explain(d);
	p->data = d;
	return 0;
}

static void ddl_close(struct pane *p)
{
	struct ddl *d = p->data;
	if (!d)
		return;
	if (d->env.http)
		jobs_extra_cancel(d->env.http, d);
	form_free(&d->form);
	dialog_env_free(&d->env);
	free(d);
	p->data = NULL;
}

static void on_deleted(void *ud, const struct steno_error *err)
{
	struct ddl *d = ud;
	d->done++;
	if (err) {
		size_t o = strlen(d->errors);
		d->failed++;
		snprintf(d->errors + o, sizeof d->errors - o, "%s%s", o ? "; " : "", err->message);
	}
	if (d->done == d->sent) {
		d->mode = DDL_DONE;
		dialog_refresh(&d->env);
		dialog_status(&d->env, "deleted %zu of %zu", d->done - d->failed, d->sent);
	}
	pane_dirty(d->pane);
}

static void ddl_submit(struct ddl *d)
{
	const char *m = form_choice(&d->form, "mode");
	bool permanent = m && strcmp(m, "permanent") == 0;
	struct steno_error err;
	steno_error_clear(&err);
	if (!d->env.n_ids) {
		form_set_message(&d->form, true, "select or mark a transcription first");
		return;
	}
	d->mode = DDL_RUNNING;
	for (size_t i = 0; i < d->env.n_ids; i++) {
		if (jobs_extra_delete(d->env.http, d->env.store, d->env.ids[i], permanent, on_deleted, d,
				      &err) != 0) {
			form_set_message(&d->form, true, "%s", err.message);
			break;
		}
		d->sent++;
	}
	if (!d->sent)
		d->mode = DDL_EDIT;
	else if (d->env.hooks.unmark && d->env.n_ids > 1)
		d->env.hooks.unmark(d->env.hooks.ud);
}

static unsigned ddl_key(struct pane *p, enum action_id act, ui_key key)
{
	struct ddl *d = p->data;
	if (d->mode == DDL_DONE)
		return act == ACT_SUBMIT || act == ACT_CANCEL ? PANE_HANDLED | PANE_CLOSE : PANE_HANDLED;
	if (d->mode == DDL_RUNNING)
		return PANE_HANDLED;   /* a DELETE on its way cannot be taken back */
	switch (form_key(&d->form, act, key)) {
	case FORM_EV_CANCEL:
		return PANE_HANDLED | PANE_CLOSE;
	case FORM_EV_BUTTON:
		if (strcmp(d->form.pressed, "delete") == 0)
			ddl_submit(d);
		else
			return PANE_HANDLED | PANE_CLOSE;
		break;
	case FORM_EV_SUBMIT:
		/* Enter on a field does not delete: the Delete button must be chosen */
		form_focus(&d->form, "delete");
		break;
	case FORM_EV_USED:
	case FORM_EV_NONE:
		break;
	}
	ddl_explain(d);
	return PANE_HANDLED | PANE_REDRAW;
}

static void ddl_draw(struct pane *p)
{
	struct ddl *d = p->data;
	bool ascii = p->ctx->ascii;
	int rows = dialog_body_rows(p), cols = dialog_body_cols(p);
	form_draw_frame(p->win, "Delete", d->mode == DDL_EDIT ? "Tab: next  Enter: press  Esc: cancel" :
			"Enter/Esc: close", ascii);
	if (d->mode == DDL_EDIT) {
		form_draw(&d->form, p->win, 1, 2, rows, cols, ascii);
		return;
	}
	char line[1300];
	if (d->mode == DDL_RUNNING)
		snprintf(line, sizeof line, "deleting... %zu of %zu answered", d->done, d->sent);
	else
		snprintf(line, sizeof line, "Deleted %zu of %zu.%s%s", d->done - d->failed, d->sent,
			 d->failed ? " Failed: " : "", d->errors);
	style_set(p->win, d->failed ? THEME_DIALOG_ERROR : THEME_DIALOG);
	form_draw_wrapped(p->win, 2, 2, cols, rows - 2, line, ascii);
	style_set(p->win, THEME_DIALOG);
}

const struct pane_ops dialog_delete_ops = {
	.name = "delete",
	.scope = SCOPE_DIALOG,
	.place = PANE_PLACE_OVERLAY,
	.open = ddl_open,
	.draw = ddl_draw,
	.key = ddl_key,
	.close = ddl_close,
};
