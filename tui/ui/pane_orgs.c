/* Organizations and folders: those of the profile, those the key can access (GET
 * /organizations) and the folders learned from orders and creations. Enter shows the
 * transcriptions of the one under the cursor. */
#include "config.h"

#include "ui/pane_orgs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jobs_extra.h"
#include "ui/app_access.h"
#include "ui/app_draw.h"
#include "ui/app_places.h"
#include "ui/draw.h"
#include "ui/style.h"
#include "ui/text.h"

/* Ownership: the pane's data. */
struct orgs_pane {
	struct app *app;
	struct listview lv;
};

static int orgs_open(struct pane *p, void *arg)
{
	struct orgs_pane *op = calloc(1, sizeof *op);

	if (!op)
		return -1;
	op->app = arg;
	p->data = op;
	return 0;
}

static void orgs_close(struct pane *p)
{
	free(p->data);
	p->data = NULL;
}

static bool orgs_is_current(const struct app *app, const struct app_place *pl)
{
	if (!app->org_id || strcmp(app->org_id, pl->org_id))
		return false;
	if (!pl->folder_id || !app->folder_id)
		return !pl->folder_id && !app->folder_id;
	return !strcmp(pl->folder_id, app->folder_id);
}

static const char orgs_title[] = "Organizations";
static const char *const orgs_none[] = { "None known:", "organization = ID",
	"in the profile, or", "STENO_ORG_ID." };

/* Wide enough for every entry (the mark, the label and a blank column before the next
 * pane), the title and the message when there is none. */
static int orgs_max_cols(const struct pane *p)
{
	const struct orgs_pane *op = p->data;
	const struct app *app = op->app;
	unsigned flags = app_text_flags(p);
	int want = 1 + text_width_utf8(orgs_title, flags) + 1;

	for (size_t i = 0; !app->n_places && i < sizeof orgs_none / sizeof *orgs_none; i++) {
		int w = 1 + text_width_utf8(orgs_none[i], flags) + 1;
		want = w > want ? w : want;
	}
	for (size_t i = 0; i < app->n_places; i++) {
		int w = 2 + text_width_utf8(app->places[i].label, flags) + 1;
		want = w > want ? w : want;
	}
	return want;
}

static void orgs_draw(struct pane *p)
{
	struct orgs_pane *op = p->data;
	struct app *app = op->app;
	unsigned flags = app_text_flags(p);

	app_draw_title(p, orgs_title);
	if (!app->n_places) {
		app_draw_message(p, 1, orgs_none, sizeof orgs_none / sizeof *orgs_none);
		return;
	}
	listview_resize(&op->lv, (int)app->n_places, p->rows - 1);
	for (int i = op->lv.top; i < op->lv.count && i - op->lv.top < op->lv.rows; i++) {
		const struct app_place *pl = &app->places[i];
		int y = i - op->lv.top + 1;
		enum theme_elem e = THEME_NORMAL;
		if (i == op->lv.cursor)
			e = p->focused ? THEME_LIST_SELECTED : THEME_LIST_SELECTED_IDLE;
		style_set(p->win, e);
		draw_blank(p->win, y, 0, p->cols);
		bool cur = orgs_is_current(app, pl);
		draw_text(p->win, y, 0, 2, cur ? (p->ctx->ascii ? ">" : "›") : "", TEXT_LEFT, flags);
		if (pl->is_org && e == THEME_NORMAL)
			style_set(p->win, THEME_LIST_MARKED);
		draw_text(p->win, y, 2, p->cols - 3, pl->label, TEXT_LEFT, flags);
	}
	style_set(p->win, THEME_NORMAL);
}

static unsigned orgs_key(struct pane *p, enum action_id act, ui_key key)
{
	struct orgs_pane *op = p->data;
	struct app *app = op->app;

	(void)key;
	if (act == ACT_ENTER) {
		if (app_select_place(app, (size_t)op->lv.cursor) < 0)
			return PANE_HANDLED;
		return PANE_HANDLED | PANE_REDRAW |
		       frame_run(&app->ses.frame, ACT_VIEW_TRANSCRIPTIONS, KEYS_NONE);
	}
	int r = listview_action(&op->lv, act);
	if (r >= 0)
		return r ? PANE_HANDLED | PANE_REDRAW : PANE_HANDLED;
	return app_pass_action(app, act);
}

static unsigned orgs_select(struct pane *p, int row)
{
	struct orgs_pane *op = p->data;

	if (row < 1 || !listview_select(&op->lv, op->lv.top + row - 1))
		return PANE_IGNORED;
	return orgs_key(p, ACT_ENTER, KEYS_NONE);
}

/* The organizations of the key into the places (their names); with `choose` and none
 * selected, the only one is selected and its list opened. */
static void orgs_show(struct app *app, const struct steno_organization_list *res, bool choose)
{
	size_t chosen = app->n_places;
	struct app_org_found *found = calloc(res->n ? res->n : 1, sizeof *found);
	for (size_t i = 0; found && i < res->n; i++) {
		char id[32];
		snprintf(id, sizeof id, "%lld", (long long)res->items[i].id.v);
		const char *name = res->items[i].name && *res->items[i].name ? res->items[i].name : id;
		found[i].id = strdup(id);
		found[i].name = strdup(name);
	}
	if (app_places_found(app, found, found ? res->n : 0) != 0)
		app_log(app, "organizations of the key: out of memory");
	for (size_t k = 0; res->n == 1 && found && found[0].id && k < app->n_places; k++)
		if (app->places[k].is_org && !strcmp(app->places[k].org_id, found[0].id))
			chosen = k;
	pane_dirty(app->orgs);
	if (!choose || app->org_id || chosen >= app->n_places)
		return;
	app->ses.status.error[0] = '\0';   /* "no organization configured" no longer holds */
	if (app_select_place(app, chosen) == 0)
		frame_run(&app->ses.frame, ACT_VIEW_TRANSCRIPTIONS, KEYS_NONE);
}

/* None configured and none chosen: said once the server has answered (or cannot be asked
 * and the store knows none). */
static void orgs_unconfigured(struct app *app)
{
	if (app->org_id)
		return;
	snprintf(app->ses.status.error, sizeof app->ses.status.error,
		 "no organization configured: set `organization = ID` in the profile "
		 "or STENO_ORG_ID");
	pane_dirty(app->ses.status_pane);
}

static void orgs_found(void *ud, struct steno_organization_list *res,
		       const struct steno_error *err)
{
	struct app *app = ud;
	struct steno_organization_list kept;
	app->orgs_asking = false;
	pane_dirty(app->tlist);   /* its empty state said "asking" */
	if (err && (err->kind == STENO_ERR_NETWORK || err->kind == STENO_ERR_TIMEOUT) &&
	    jobs_extra_organizations_kept(app_store(app), &kept) == 0) {
		/* the server is out of reach (or --offline): the list last read */
		orgs_show(app, &kept, true);
		steno_organization_list_free(&kept);
		orgs_unconfigured(app);
		return;
	}
	if (err) {
		app_log(app, "organizations of the key: %s", err->message);
		orgs_unconfigured(app);
		return;
	}
	jobs_extra_organizations_keep(app_store(app), res);
	orgs_show(app, res, true);
	orgs_unconfigured(app);
}

void pane_orgs_kept(struct app *app, bool choose)
{
	struct steno_organization_list kept;
	if (jobs_extra_organizations_kept(app_store(app), &kept) != 0)
		return;
	orgs_show(app, &kept, choose);
	steno_organization_list_free(&kept);
}

void pane_orgs_discover(struct app *app)
{
	struct steno_error err;
	steno_error_clear(&err);
	app->orgs_asking = true;
	if (jobs_extra_organizations(app->http, orgs_found, app, &err) != 0)
		orgs_found(app, NULL, &err);   /* --offline: the list last read, if any */
}

const struct pane_ops orgs_pane_ops = {
	.name = "organizations", .scope = SCOPE_ORGS, .place = PANE_PLACE_MAIN,
	.open = orgs_open, .draw = orgs_draw, .key = orgs_key, .select = orgs_select,
	.close = orgs_close, .max_cols = orgs_max_cols,
};
