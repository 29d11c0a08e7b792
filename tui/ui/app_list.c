/* The transcriptions shown: the current view filtered and sorted, the marks and the
 * selection, kept in the app so that dialogs act on them. */
#include "config.h"

#include "ui/app_list.h"
#include "ui/app_access.h"
#include "core/store_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct store_view *app_view(struct app *app, bool create)
{
	if (!app->org_id)
		return NULL;
	return store_view_get(app->store, app->org_id, app->folder_id,
			      app->list.tag[0] ? app->list.tag : NULL, create);
}

void app_list_update(struct app *app)
{
	struct store_view *v = app_view(app, false);
	struct store_query q = { .where = app->list.where.n ? &app->list.where : NULL,
		.sort = app->list.sort, .descending = app->list.descending };
	long n = 0;

	app->list.stale = false;
	if (!app->list.shown && !(app->list.shown = store_list_new())) {
		app_status(app, "out of memory");
		return;
	}
	n = store_list_update(app->store, app->list.shown, v, &q);
	if (n < 0) {
		app_status(app, "out of memory");
		n = 0;
	}
	app->list.n_rows = n;
	/* the cursor stays on the same transcription when the list moves under it; scrolled
	 * down, so does its row on screen (rows that came in above push the scroll position
	 * too); at the head of the list the head stays in view, new rows appearing there */
	const struct store_transcription *at = app_list_item(app, app->list.lv.cursor);
	long i = !app->list.selected ? -1 : at && at->t.id && !strcmp(at->t.id, app->list.selected)
		 ? app->list.lv.cursor : store_list_find(app->store, app->list.shown,
							  app->list.selected);
	if (i >= 0) {
		int moved = (int)i - app->list.lv.cursor;
		app->list.lv.cursor = (int)i;
		if (app->list.lv.top > 0 && app->list.lv.top + moved >= 0)
			app->list.lv.top += moved;
	}
	listview_resize(&app->list.lv, (int)n, app->list.lv.rows);
	app_sync_selected(app);
}

int app_list_set_filter(struct app *app, const char *text, char *err, size_t size)
{
	struct query q;

	if (query_parse(&q, text, err, size) != 0)
		return -1;
	query_free(&app->list.where);
	app->list.where = q;
	snprintf(app->list.filter, sizeof app->list.filter, "%s", text ? text : "");
	app->list.stale = true;   /* selected again once, at the next draw */
	pane_dirty(app->tlist);
	return 0;
}

bool app_list_partial(struct app *app)
{
	struct store_view *v = app_view(app, false);

	return v && v->pages && !v->end;
}

size_t app_list_loaded(struct app *app)
{
	struct store_view *v = app_view(app, false);

	return v ? v->n : 0;
}

void app_list_free(struct app *app)
{
	app_marks_free(app);
	store_list_free(NULL, app->list.shown);   /* after store_free: its temp table went with it */
	app->list.shown = NULL;
	app->list.n_rows = 0;
	free(app->list.selected);
	app->list.selected = NULL;
	query_free(&app->list.where);
	line_history_free(&app->list.filter_history);
}

const char *app_list_id(struct app *app, long i)
{
	if (!app->list.shown || i < 0 || i >= app->list.n_rows)
		return NULL;
	return store_list_id(app->store, app->list.shown, i);
}

const struct store_transcription *app_list_item(struct app *app, long i)
{
	if (!app->list.shown || i < 0 || i >= app->list.n_rows)
		return NULL;
	return store_list_item(app->store, app->list.shown, i);
}

void app_sync_selected(struct app *app)
{
	const struct store_transcription *t = app_list_item(app, app->list.lv.cursor);

	app_set_selected(app, t ? t->t.id : NULL);
}

bool app_is_marked(const struct app *app, const char *id)
{
	for (size_t i = 0; i < app->list.n_marks; i++)
		if (!strcmp(app->list.marks[i], id))
			return true;
	return false;
}

int app_toggle_mark(struct app *app, const char *id)
{
	struct app_list *l = &app->list;

	for (size_t i = 0; i < l->n_marks; i++) {
		if (!strcmp(l->marks[i], id)) {
			free(l->marks[i]);
			l->marks[i] = l->marks[--l->n_marks];
			return 0;
		}
	}
	if (l->n_marks == l->cap_marks) {
		size_t cap = l->cap_marks ? l->cap_marks * 2 : 16;
		char **m = realloc(l->marks, cap * sizeof *m);
		if (!m)
			return -1;
		l->marks = m;
		l->cap_marks = cap;
	}
	if (!(l->marks[l->n_marks] = strdup(id)))
		return -1;
	l->n_marks++;
	return 1;
}

void app_marks_free(struct app *app)
{
	for (size_t i = 0; i < app->list.n_marks; i++)
		free(app->list.marks[i]);
	free(app->list.marks);
	app->list.marks = NULL;
	app->list.n_marks = app->list.cap_marks = 0;
}

void app_unmark_all(struct app *app)
{
	app_marks_free(app);
	pane_dirty(app->tlist);
}

void app_set_selected(struct app *app, const char *id)
{
	if ((!id && !app->list.selected) ||
	    (id && app->list.selected && !strcmp(id, app->list.selected)))
		return;
	free(app->list.selected);
	app->list.selected = id ? strdup(id) : NULL;
	pane_dirty(app->details);
	sync_show_transcription(app->sync, app->list.selected);
}
