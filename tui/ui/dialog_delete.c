/* The delete dialog: the marked transcriptions (or the selected one) to the trash or
 * permanently, after a confirmation that says what will be lost. Cancel has the focus. */
#include "config.h"

#include "ui/dialog_delete.h"

#include <stdlib.h>
#include <string.h>

#include "core/jobs_extra.h"
#include "ui/dialog_base.h"
#include "ui/draw.h"
#include "ui/form.h"
#include "ui/form_draw.h"
#include "ui/style.h"

enum ddl_mode { DDL_EDIT, DDL_RUNNING, DDL_DONE };

/* Ownership: the pane's data (dialog_new); dialog_close cancels deletes in flight, frees it. */
struct ddl {
	struct dialog_base b;
	enum ddl_mode mode;
	size_t sent, done, failed;
	char errors[1024];
};

static void ddl_explain(struct ddl *d)
{
	const char *m = form_choice(&d->b.form, "mode");
	char text[400];
	if (m && strcmp(m, "permanent") == 0)
		snprintf(text, sizeof text, "LOST FOR GOOD: %zu transcription%s with transcript, media and "
			 "exports. This cannot be undone.", d->b.env.n_ids, d->b.env.n_ids == 1 ? "" : "s");
	else
		snprintf(text, sizeof text, "%zu transcription%s go%s to the Trash (restore them in the web "
			 "application).", d->b.env.n_ids, d->b.env.n_ids == 1 ? "" : "s",
			 d->b.env.n_ids == 1 ? "es" : "");
	form_set_text(&d->b.form, "what", text);
}

static int ddl_build(void *arg)
{
	struct ddl *d = arg;
	struct form *f = &d->b.form;
	char names[600];
	int rc = 0;
	dialog_join_names(&d->b.env, names, sizeof names);
	rc |= form_add(f, FORM_NOTE, "names", "Delete") < 0;
	rc |= form_set_text(f, "names", d->b.env.n_ids ? names : "(nothing selected)");
	rc |= form_add_radio(f, "mode permanent", "How",
				 (const char *const[]){ "trash|to the Trash", "permanent|permanently", NULL });
	rc |= form_add(f, FORM_NOTE, "what", "") < 0;
	rc |= form_add(f, FORM_BUTTON, "delete", "Delete") < 0;
	rc |= form_add(f, FORM_BUTTON, "cancel", "Cancel") < 0;
	form_focus(f, "cancel");
	return rc ? -1 : 0;
}

static int ddl_open(struct pane *p, void *arg)
{
	struct ddl *d = dialog_new(p, sizeof *d, arg, ddl_build);
	if (!d)
		return -1;
	ddl_explain(d);
	return 0;
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
		dialog_refresh(&d->b.env);
		dialog_status(&d->b.env, "deleted %zu of %zu", d->done - d->failed, d->sent);
	}
	pane_dirty(d->b.pane);
}

static void ddl_submit(struct ddl *d)
{
	const char *m = form_choice(&d->b.form, "mode");
	bool permanent = m && strcmp(m, "permanent") == 0;
	struct steno_error err;
	steno_error_clear(&err);
	if (!d->b.env.n_ids) {
		form_set_message(&d->b.form, true, "select or mark a transcription first");
		return;
	}
	d->mode = DDL_RUNNING;
	for (size_t i = 0; i < d->b.env.n_ids; i++) {
		if (jobs_extra_delete(d->b.env.http, d->b.env.store, d->b.env.ids[i], permanent, on_deleted, d,
				      &err) != 0) {
			form_set_message(&d->b.form, true, "%s", err.message);
			break;
		}
		d->sent++;
	}
	if (!d->sent)
		d->mode = DDL_EDIT;
	else if (d->b.env.hooks.unmark && d->b.env.n_ids > 1)
		d->b.env.hooks.unmark(d->b.env.hooks.ud);
}

static unsigned ddl_key(struct pane *p, enum action_id act, ui_key key)
{
	struct ddl *d = p->data;
	if (d->mode == DDL_DONE)
		return dialog_result_key(act);
	if (d->mode == DDL_RUNNING)
		return PANE_HANDLED;   /* a DELETE on its way cannot be taken back */
	switch (form_key(&d->b.form, act, key)) {
	case FORM_EV_CANCEL:
		return PANE_HANDLED | PANE_CLOSE;
	case FORM_EV_BUTTON:
		if (strcmp(d->b.form.pressed, "delete") == 0)
			ddl_submit(d);
		else
			return PANE_HANDLED | PANE_CLOSE;
		break;
	case FORM_EV_SUBMIT:
		/* Enter on a field does not delete: the Delete button must be chosen */
		form_focus(&d->b.form, "delete");
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
	int rows = dialog_body_rows(p);
	if (dialog_draw_form(p, &d->b, "Delete", d->mode == DDL_EDIT ? "Tab: next  Enter: press  Esc: cancel" :
			     "Enter/Esc: close", d->mode == DDL_EDIT))
		return;
	char line[1300];
	if (d->mode == DDL_RUNNING)
		snprintf(line, sizeof line, "deleting... %zu of %zu answered", d->done, d->sent);
	else
		snprintf(line, sizeof line, "Deleted %zu of %zu.%s%s", d->done - d->failed, d->sent,
			 d->failed ? " Failed: " : "", d->errors);
	dialog_draw_text(p, 2, rows - 2, line, d->failed);
}

const struct pane_ops dialog_delete_ops = {
	.name = "delete",
	.scope = SCOPE_DIALOG,
	.place = PANE_PLACE_OVERLAY,
	.open = ddl_open,
	.draw = ddl_draw,
	.key = ddl_key,
	.close = dialog_close,
};
