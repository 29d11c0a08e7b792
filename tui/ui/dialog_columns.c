/* The column chooser of the transcription list (`:columns`), saved in the config file. */
#include "config.h"

#include "ui/dialog_columns.h"

#include <stdio.h>
#include <string.h>

#include "core/columns.h"
#include "core/conf.h"
#include "ui/dialog_base.h"

/* Ownership: the pane's data (dialog_new); dialog_close frees it. */
struct dcol {
	struct dialog_base b;
	void (*apply)(void *ud, unsigned shown);
	void *ud;
};

/* The checkbox labels, by column (Name has none: always shown). */
static const char *const labels[LISTCOL_COUNT] = {
	[LISTCOL_STATE] = "State", [LISTCOL_LANGUAGE] = "Language", [LISTCOL_LENGTH] = "Length",
	[LISTCOL_COST] = "Cost", [LISTCOL_CREATED] = "Created", [LISTCOL_TAGS] = "Tags",
};

static const char *config_file(const struct dialog_env *env)
{
	const struct steno_config *c = env->config;
	return c && c->file && c->file[0] ? c->file : NULL;
}

static int dcol_build(void *arg)
{
	struct dcol *d = arg;
	struct form *f = &d->b.form;
	char where[1200];
	int rc = form_add(f, FORM_NOTE, "name", "Name") < 0;

	rc |= form_set_text(f, "name", "always shown");
	for (int c = LISTCOL_NAME + 1; c < LISTCOL_COUNT; c++)
		rc |= form_add(f, FORM_CHECK, listcol_name(c), labels[c]) < 0;
	if (config_file(&d->b.env))
		snprintf(where, sizeof where, "Space shows or hides; Enter saves it in %s", config_file(&d->b.env));
	else
		snprintf(where, sizeof where, "Space shows or hides; no config file: not saved");
	rc |= form_add(f, FORM_NOTE, "where", "") < 0;
	rc |= form_set_text(f, "where", where);
	rc |= form_add(f, FORM_BUTTON, "apply", "Apply") < 0;
	rc |= form_add(f, FORM_BUTTON, "cancel", "Cancel") < 0;
	return rc ? -1 : 0;
}

static int dcol_open(struct pane *p, void *arg)
{
	const struct dialog_columns_arg *a = arg;
	struct dcol *d = dialog_new(p, sizeof *d, &a->env, dcol_build);

	if (!d)
		return -1;
	d->apply = a->apply;
	d->ud = a->ud;
	for (int c = LISTCOL_NAME + 1; c < LISTCOL_COUNT; c++)
		form_set_checked(&d->b.form, listcol_name(c), (a->shown & LISTCOL_BIT(c)) != 0);
	form_focus(&d->b.form, listcol_name(LISTCOL_STATE));
	return 0;
}

static void save(const struct dialog_env *env, void (*apply)(void *, unsigned), void *ud,
	unsigned shown)
{
	char text[128];
	struct steno_error err;

	if (apply)
		apply(ud, shown);
	listcol_format(shown, text, sizeof text);
	steno_error_clear(&err);
	if (!config_file(env))
		dialog_status(env, "columns: %s (no config file: not saved)", text);
	else if (config_set_global(config_file(env), "columns", text, &err) != 0)
		dialog_status(env, "columns: %s (not saved: %s)", text, err.message);
	else
		dialog_status(env, "columns: %s (saved in %s)", text, config_file(env));
}

void dialog_columns_apply(const struct dialog_columns_arg *a, unsigned shown)
{
	save(&a->env, a->apply, a->ud, shown);
}

/* The checkboxes' choice, shown and saved. */
static void dcol_apply(struct dcol *d)
{
	unsigned shown = LISTCOL_BIT(LISTCOL_NAME);

	for (int c = LISTCOL_NAME + 1; c < LISTCOL_COUNT; c++)
		if (form_checked(&d->b.form, listcol_name(c)))
			shown |= LISTCOL_BIT(c);
	save(&d->b.env, d->apply, d->ud, shown);
}

static unsigned dcol_key(struct pane *p, enum action_id act, ui_key key)
{
	struct dcol *d = p->data;

	switch (form_key(&d->b.form, act, key)) {
	case FORM_EV_CANCEL:
		return PANE_HANDLED | PANE_CLOSE;
	case FORM_EV_BUTTON:
		if (strcmp(d->b.form.pressed, "cancel") == 0)
			return PANE_HANDLED | PANE_CLOSE;
		dcol_apply(d);
		return PANE_HANDLED | PANE_CLOSE;
	case FORM_EV_SUBMIT:
		dcol_apply(d);
		return PANE_HANDLED | PANE_CLOSE;
	case FORM_EV_USED:
	case FORM_EV_NONE:
		break;
	}
	return PANE_HANDLED | PANE_REDRAW;
}

static void dcol_draw(struct pane *p)
{
	dialog_draw_form(p, p->data, "Columns", "Space: show/hide  Enter: apply  Esc: cancel", true);
}

const struct pane_ops dialog_columns_ops = {
	.name = "columns",
	.scope = SCOPE_DIALOG,
	.place = PANE_PLACE_OVERLAY,
	.open = dcol_open,
	.draw = dcol_draw,
	.key = dcol_key,
	.close = dialog_close,
};
