/* The sort picker of the transcriptions pane: a form whose one picker lists the sort keys. */
#include "config.h"

#include "ui/list_sort.h"

#include <stdio.h>
#include <stdlib.h>

#include "ui/app_access.h"
#include "ui/app_list.h"
#include "ui/draw.h"
#include "ui/form_draw.h"
#include "ui/style.h"

/* The keys in the order shown; the value is store_sort_name's. */
static const char *const sort_labels[STORE_SORT_COUNT] = {
	[STORE_SORT_SERVER] = "Server order (newest first)",
	[STORE_SORT_NAME] = "Name (n°2 before n°10)",
	[STORE_SORT_CREATED] = "Created",
	[STORE_SORT_STATE] = "State",
	[STORE_SORT_LANGUAGE] = "Language",
	[STORE_SORT_LENGTH] = "Length",
	[STORE_SORT_COST] = "Cost",
	[STORE_SORT_TAGS] = "Tags",
};

/* Ownership: the pane's data, freed by sort_close. */
struct sort_picker {
	struct app *app;
	struct form form;
	char note[160];   /* what a list missing pages sorts, "" when whole */
};

void list_sort_apply(struct app *app, enum store_sort key, bool descending)
{
	char more[96] = "";

	app->list.sort = key;
	app->list.descending = descending;
	app_list_update(app);
	pane_dirty(app->tlist);
	if (app_list_partial(app))
		snprintf(more, sizeof more, ": %zu loaded, A loads all", app_list_loaded(app));
	app_status(app, "sorted by %s%s%s", store_sort_name(key), descending ? ", descending" : "",
		   more);
}

static int sort_build(struct sort_picker *sp)
{
	struct form *f = &sp->form;
	const struct app_list *l = &sp->app->list;
	bool ascii = sp->app->ses.frame.ctx.ascii;

	form_init(f);
	if (form_add(f, FORM_PICK, "sort", "Sort by") < 0)
		return -1;
	for (int k = 0; k < STORE_SORT_COUNT; k++) {
		const char *note = NULL;
		if (k == (int)l->sort)
			note = l->descending ? (ascii ? "desc, Enter: ascending" : "↓ Enter: ascending") :
				(ascii ? "asc, Enter: descending" : "↑ Enter: descending");
		if (form_add_option(f, "sort", store_sort_name(k), sort_labels[k], note) != 0)
			return -1;
	}
	f->fields[0].choice = (int)l->sort;
	if (app_list_partial(sp->app))
		snprintf(sp->note, sizeof sp->note,
			 "%zu loaded, more on the server: sorts those (A in the list loads all)",
			 app_list_loaded(sp->app));
	return form_pick_open(f, 0, 0);
}

static int sort_open(struct pane *p, void *arg)
{
	struct sort_picker *sp = calloc(1, sizeof *sp);

	if (!sp)
		return -1;
	sp->app = arg;
	if (sort_build(sp) != 0) {
		form_free(&sp->form);
		free(sp);
		return -1;
	}
	p->data = sp;
	return 0;
}

static void sort_close(struct pane *p)
{
	struct sort_picker *sp = p->data;

	if (sp)
		form_free(&sp->form);
	free(sp);
	p->data = NULL;
}

static void sort_draw(struct pane *p)
{
	struct sort_picker *sp = p->data;
	bool ascii = p->ctx->ascii;
	int note = sp->note[0] ? 1 : 0;

	form_draw_frame(p->win, "Sort the transcriptions", "Enter: sort  Esc: close", ascii);
	style_set(p->win, THEME_DIALOG);
	form_draw(&sp->form, p->win, 1, 2, p->rows - 2 - note, p->cols - 4, ascii);
	if (note) {
		style_set(p->win, THEME_MUTED);
		draw_text(p->win, p->rows - 2, 2, p->cols - 4, sp->note, TEXT_LEFT,
			  ascii ? TEXT_ASCII : 0);
	}
	style_set(p->win, THEME_DIALOG);
}

/* The border, the picker's heading, its rows, its key line, and the note. */
static int sort_fit(const struct pane *p, int cols)
{
	const struct sort_picker *sp = p->data;

	(void)cols;
	return 2 + 2 + STORE_SORT_COUNT + (sp && sp->note[0] ? 1 : 0);
}

static unsigned sort_key(struct pane *p, enum action_id act, ui_key key)
{
	struct sort_picker *sp = p->data;
	struct form *f = &sp->form;
	int before = f->fields[0].choice;

	if ((act == ACT_SUBMIT || key == ' ') && !f->pick.n_idx)
		return PANE_HANDLED;   /* nothing matches the search: nothing to pick */
	form_pick_key(f, act, key);
	if (f->pick.active)
		return PANE_HANDLED | PANE_REDRAW;
	int chosen = f->fields[0].choice;
	if (act != ACT_CANCEL && chosen >= 0) {
		const struct app_list *l = &sp->app->list;
		/* the current key again reverses it; another key starts ascending */
		bool desc = chosen == before ? !l->descending : false;
		list_sort_apply(sp->app, (enum store_sort)chosen, desc);
	}
	return PANE_HANDLED | PANE_CLOSE | PANE_REDRAW_ALL;
}

static const struct pane_ops sort_pane_ops = {
	.name = "sort", .scope = SCOPE_DIALOG, .place = PANE_PLACE_OVERLAY,
	.open = sort_open, .draw = sort_draw, .key = sort_key, .close = sort_close,
};

void list_sort_open(struct app *app)
{
	struct pane *p = pane_new(&sort_pane_ops, &app->ses.frame.ctx, app);

	if (!p) {
		app_status(app, "cannot open the sort picker: out of memory");
		return;
	}
	frame_open_overlay_fit(&app->ses.frame, p, sort_fit);
}
