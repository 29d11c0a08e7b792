/* The transcriptions of the selected organization / folder: a fitted table, paging as
 * the cursor nears the end, text and tag filters, sort, marks, and a marker on items
 * whose state is still changing. */
#include "config.h"

#include "ui/pane_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/spec_tables.h"
#include "core/columns.h"
#include "ui/app_access.h"
#include "ui/app_draw.h"
#include "ui/app_list.h"
#include "ui/app_data.h"
#include "ui/app_input.h"
#include "ui/format.h"
#include "ui/list_sort.h"
#include "ui/pane_describe.h"
#include "ui/table.h"
#include "ui/text.h"

/* Load the next page when the cursor comes this close to the end. */
#define LIST_PAGE_MARGIN 5
/* A row the live list brought in or changed is marked this long. */
#define LIST_FRESH_MS 10000

/* The column that shows what the list is sorted by; -1 for the server's order. The one
 * place a new sort key finds its column. */
static int list_sort_column(enum store_sort sort)
{
	switch (sort) {
	case STORE_SORT_NAME: return LISTCOL_NAME;
	case STORE_SORT_CREATED: return LISTCOL_CREATED;
	case STORE_SORT_STATE: return LISTCOL_STATE;
	case STORE_SORT_LANGUAGE: return LISTCOL_LANGUAGE;
	case STORE_SORT_LENGTH: return LISTCOL_LENGTH;
	case STORE_SORT_COST: return LISTCOL_COST;
	case STORE_SORT_TAGS: return LISTCOL_TAGS;
	default: return -1;
	}
}

const char *pane_list_state_label(const char *s)
{
	if (!s)
		return "?";
	if (!strcmp(s, "automatic_done"))
		return "done";
	if (!strcmp(s, "automatic_transcribing"))
		return "transcribing";
	if (!strcmp(s, "waiting_for_payment"))
		return "to pay";
	return s;
}

enum theme_elem pane_list_state_elem(const char *s)
{
	if (!s || !spec_state_is_known(SPEC_STATE_TRANSCRIPTION, s))
		return THEME_STATE_UNKNOWN;
	if (spec_state_is_failure(SPEC_STATE_TRANSCRIPTION, s))
		return THEME_STATE_FAILED;
	if (spec_state_is_final(SPEC_STATE_TRANSCRIPTION, s))
		return THEME_STATE_DONE;
	if (spec_state_needs_action(SPEC_STATE_TRANSCRIPTION, s))
		return THEME_STATE_WAITING;
	return THEME_STATE_WORKING;
}

/* Cells of one row; the buffers live in the pane's data until table_draw returns (one per
 * visible row: the table measures them all before drawing). */
struct list_row_buf {
	char length[16], cost[24], created[32], tags[256];
};

struct list_filter_undo {
	char filter[256];     /* app->list.filter before `/` */
	char selected[SCHED_ID_MAX];   /* the id under the cursor then ("" none) */
	int cursor, top;
};

struct list_pane {
	struct app *app;
	struct list_filter_undo undo;   /* Esc in the `/` filter goes back to it */
	char filter_error[128];         /* the `/` line does not parse: why ("" when it does) */
	int tick;                    /* of the times in the rows drawn (app_time_tick) */
	int64_t fresh_until;         /* the first fresh mark drawn goes then (0: none) */
	struct list_row_buf *buf;    /* n_buf of them, one per visible row */
	int n_buf;
};

static void list_tags(char *out, size_t size, const struct steno_strings *tags)
{
	size_t len = 0;

	out[0] = '\0';
	for (size_t i = 0; i < tags->n && len + 1 < size; i++)
		len += (size_t)snprintf(out + len, size - len, "%s%s", i ? "," : "", tags->v[i]);
}

static void list_row(void *ctx, int index, struct table_row *row)
{
	struct pane *p = ctx;
	struct list_pane *lp = p->data;
	struct app *app = lp->app;
	const struct store_transcription *st = app_list_item(app, index);
	int slot = index - app->list.lv.top;

	if (!st || slot < 0 || slot >= lp->n_buf)
		return;
	struct list_row_buf *b = &lp->buf[slot];
	const struct steno_transcription *t = &st->t;
	fmt_duration(b->length, sizeof b->length,
		     steno_known(t->audio_length_s.st) ? (double)t->audio_length_s.v : -1);
	if (steno_known(t->cost_cents.st))
		fmt_money(b->cost, sizeof b->cost, t->cost_cents.v, NULL);
	else
		snprintf(b->cost, sizeof b->cost, "-");
	if (steno_known(t->created_at.st)) {
		time_t now = (time_t)(app_wall_ms(app) / 1000);
		fmt_relative(b->created, sizeof b->created, (time_t)(t->created_at.ms / 1000), now);
		app_time_tick(&lp->tick, (long long)(t->created_at.ms / 1000) - (long long)now);
	} else
		snprintf(b->created, sizeof b->created, "-");
	list_tags(b->tags, sizeof b->tags, &t->tags);
	row->cells[LISTCOL_NAME] = t->name ? t->name : t->id;
	row->cells[LISTCOL_STATE] = pane_list_state_label(t->state);
	row->elem[LISTCOL_STATE] = pane_list_state_elem(t->state);
	row->cells[LISTCOL_LANGUAGE] = t->language ? t->language : "-";
	row->cells[LISTCOL_LENGTH] = b->length;
	row->cells[LISTCOL_COST] = b->cost;
	row->cells[LISTCOL_CREATED] = b->created;
	row->cells[LISTCOL_TAGS] = b->tags;
	row->changing = st->changing;
	row->marked = t->id && app_is_marked(app, t->id);
	int64_t now = app_now_ms(app);
	if (st->live_ms && now - st->live_ms < LIST_FRESH_MS) {
		row->elem[LISTCOL_NAME] = THEME_LIST_FRESH;
		if (!lp->fresh_until || st->live_ms + LIST_FRESH_MS < lp->fresh_until)
			lp->fresh_until = st->live_ms + LIST_FRESH_MS;
	}
}

static int list_open(struct pane *p, void *arg)
{
	struct list_pane *lp = calloc(1, sizeof *lp);

	if (!lp)
		return -1;
	lp->app = arg;
	lp->app->list.columns = lp->app->config->list_columns;
	p->data = lp;
	return 0;
}

static void list_close(struct pane *p)
{
	struct list_pane *lp = p->data;

	if (lp)
		free(lp->buf);
	free(lp);
	p->data = NULL;
}

unsigned pane_list_columns(const struct app *app)
{
	return app->list.columns | LISTCOL_BIT(LISTCOL_NAME);
}

void pane_list_set_columns(struct app *app, unsigned shown)
{
	app->list.columns = (shown & LISTCOL_ALL) | LISTCOL_BIT(LISTCOL_NAME);
	pane_dirty(app->tlist);
}

/* A buffer per visible row; 0, or -1 when out of memory. */
static int list_buffers(struct list_pane *lp, int rows)
{
	if (rows <= lp->n_buf)
		return 0;
	struct list_row_buf *b = realloc(lp->buf, (size_t)rows * sizeof *b);
	if (!b)
		return -1;
	lp->buf = b;
	lp->n_buf = rows;
	return 0;
}

static void list_title(struct pane *p, const struct store_view *v)
{
	struct app *app = ((struct list_pane *)p->data)->app;
	char title[256];
	size_t len;

	len = (size_t)snprintf(title, sizeof title, "Transcriptions %ld", app->list.n_rows);
	if (v && v->n != (size_t)app->list.n_rows)
		len += (size_t)snprintf(title + len, sizeof title - len, "/%zu", v->n);
	if (v && !v->end)
		len += (size_t)snprintf(title + len, sizeof title - len, "+");
	if (v && store_refresh_running(app->store, v->key))
		len += (size_t)snprintf(title + len, sizeof title - len, " loading");
	if (app->list.filter[0])
		len += (size_t)snprintf(title + len, sizeof title - len, "  /%s", app->list.filter);
	if (app->list.tag[0])
		len += (size_t)snprintf(title + len, sizeof title - len, "  tag:%s", app->list.tag);
	if (app->list.sort != STORE_SORT_SERVER || app->list.descending)
		len += (size_t)snprintf(title + len, sizeof title - len, "  sort:%s%s",
					store_sort_name(app->list.sort),
					app->list.descending ? (p->ctx->ascii ? " desc" : " ↓") : "");
	if (app->list.n_marks)
		snprintf(title + len, sizeof title - len, "  %zu marked", app->list.n_marks);
	app_draw_title(p, title);
}

/* Empty states: say why nothing is shown and what to do. */
static int list_draw_empty(struct pane *p, const struct store_view *v)
{
	struct app *app = ((struct list_pane *)p->data)->app;

	if (!app->org_id && app->orgs_asking) {
		static const char *const msg[] = { "Asking the server for the key's organizations..." };
		app_draw_message(p, 2, msg, 1);
		return 1;
	}
	if (!app->org_id) {
		static const char *const msg[] = { "No organization configured.",
			"Set `organization = ID` in your profile",
			"(steno config paths shows the file),",
			"or export STENO_ORG_ID." };
		app_draw_message(p, 2, msg, 4);
		return 1;
	}
	if (app->list.n_rows > 0)
		return 0;
	if (v && v->has_error) {
		const char *msg[] = { "Could not load the transcriptions:", app->ses.status.error[0] ?
			app->ses.status.error : v->error.message, "r retries." };
		app_draw_message(p, 2, msg, 3);
	} else if (!v || (!v->pages && store_refresh_running(app->store, v->key))) {
		static const char *const msg[] = { "Loading..." };
		app_draw_message(p, 2, msg, 1);
	} else if (v->n > 0) {
		static const char *const msg[] = { "Nothing matches the filter.", "\\ clears it." };
		app_draw_message(p, 2, msg, 2);
	} else {
		static const char *const msg[] = { "No transcriptions here yet." };
		app_draw_message(p, 2, msg, 1);
	}
	return 1;
}

static void list_mark_visible(struct app *app)
{
	const struct listview *lv = &app->list.lv;

	scheduler_clear_visible(app_scheduler(app));
	for (int i = lv->top; i < lv->count && i < lv->top + lv->rows; i++) {
		const struct store_transcription *t = app_list_item(app, i);
		if (t && t->t.id)
			scheduler_set_visible(app_scheduler(app), SCHED_TRANSCRIPTION, t->t.id, true);
	}
}

static void list_draw(struct pane *p)
{
	struct app *app = ((struct list_pane *)p->data)->app;
	struct table_fit fit = { .grow = { LAYOUT_LIST_GROW },
		.hidden = LISTCOL_ALL & ~pane_list_columns(app),
		.sort_col = list_sort_column(app->list.sort), .descending = app->list.descending };
	struct table_view tv = { layout_list_cols, LISTCOL_COUNT, 1, p->focused, app_text_flags(p) };

	if (app->list.stale)
		app_list_update(app);
	struct store_view *v = app_view(app, false);
	listview_resize(&app->list.lv, (int)app->list.n_rows, p->rows - 2);
	app_list_fill(app);   /* a taller pane (first frame, resize) may want more rows */
	list_title(p, v);
	app->list_tick = 0;
	app->list_drawn_ms = app_now_ms(app);
	app->list_fresh_until = 0;
	if (list_draw_empty(p, v))
		return;
	struct list_pane *lp = p->data;
	lp->tick = 0;
	lp->fresh_until = 0;
	if (list_buffers(lp, app->list.lv.rows) == 0)   /* else out of memory: no rows */
		table_draw_fit(p->win, 1, p->cols, &tv, &fit, &app->list.lv, list_row, p);
	app->list_tick = lp->tick;
	app->list_fresh_until = lp->fresh_until;
	list_mark_visible(app);
}

/* ---- keys ---- */

/* ---- the `/` filter, narrowing the list as you type ---- */

static struct list_pane *list_data(struct app *app)
{
	return app->tlist->data;
}

static void filter_changed(struct app *app, const char *text)
{
	struct list_pane *lp = list_data(app);

	if (app_list_set_filter(app, text, lp->filter_error, sizeof lp->filter_error) != 0)
		return;
	lp->filter_error[0] = '\0';
	app->list.lv.cursor = 0;   /* the selected item if it still matches, else the first */
}

/* After the line: the parse error, or how many loaded items match and what Tab does. */
static void filter_hint(struct app *app, char *buf, size_t size, bool *error)
{
	struct list_pane *lp = list_data(app);
	struct store_view *v = app_view(app, false);
	bool partial = app_list_partial(app);

	if (lp->filter_error[0]) {
		*error = true;
		snprintf(buf, size, "%s", lp->filter_error);
		return;
	}
	if (app->list.stale)
		app_list_update(app);
	const char *more = !partial ? "" : v && app->list.load_all &&
		store_refresh_running(app->store, v->key) ? "loading every page...  " :
		"Tab: load all  ";
	snprintf(buf, size, "%ld of %zu%s match  %sEnter: keep  Esc: undo", app->list.n_rows,
		 app_list_loaded(app), partial ? " loaded" : "", more);
}

static bool filter_key(struct app *app, ui_key key)
{
	if (key != '\t')
		return false;
	app_load_all(app);
	return true;
}

static void filter_submit(struct app *app, const char *text)
{
	struct list_pane *lp = list_data(app);

	if (lp->filter_error[0])
		app_status(app, "filter kept as /%s: %s", app->list.filter, lp->filter_error);
	else if (strcmp(text, app->list.filter) != 0)
		filter_changed(app, text);
	lp->filter_error[0] = '\0';
	app_list_update(app);
	pane_dirty(app->tlist);
}

/* Esc: the filter, the cursor and the scroll position as they were before `/`. */
static void filter_cancel(struct app *app, const char *text)
{
	struct list_pane *lp = list_data(app);
	char err[128];

	(void)text;
	lp->filter_error[0] = '\0';
	if (app_list_set_filter(app, lp->undo.filter, err, sizeof err) != 0)
		app_status(app, "%s", err);
	/* the same item under the cursor; the same rows on screen unless pages came since */
	app_set_selected(app, lp->undo.selected[0] ? lp->undo.selected : NULL);
	app_list_update(app);
	const struct store_transcription *t = app_list_item(app, lp->undo.cursor);
	if (!lp->undo.selected[0] || (t && t->t.id && !strcmp(t->t.id, lp->undo.selected))) {
		listview_select(&app->list.lv, lp->undo.cursor);
		app->list.lv.top = lp->undo.top;
		listview_resize(&app->list.lv, (int)app->list.n_rows, app->list.lv.rows);
	}
	app_sync_selected(app);
	pane_dirty(app->tlist);
}

static void list_filter_open(struct app *app)
{
	struct list_pane *lp = list_data(app);
	struct app_input in = { .label = "/", .initial = app->list.filter, .submit = filter_submit,
		.changed = filter_changed, .cancel = filter_cancel, .key = filter_key,
		.hint = filter_hint, .history = &app->list.filter_history };

	snprintf(lp->undo.filter, sizeof lp->undo.filter, "%s", app->list.filter);
	snprintf(lp->undo.selected, sizeof lp->undo.selected, "%s",
		 app->list.selected ? app->list.selected : "");
	lp->undo.cursor = app->list.lv.cursor;
	lp->undo.top = app->list.lv.top;
	lp->filter_error[0] = '\0';
	app_input_start(app, &in);
}

static void list_clear_filter(struct app *app)
{
	char err[128];

	app_list_set_filter(app, "", err, sizeof err);
	app->list.lv.cursor = 0;
	app_list_update(app);
	pane_dirty(app->tlist);
}

/* Tab after `t`: the tags of the loaded rows that start with what was typed, completed to
 * their common part; several are named in the status line. */
static bool list_complete_tag(struct app *app, const char *text, char *out, size_t size)
{
	const char *found[32];
	size_t n = 0, len = strlen(text), common = 0;

	for (long i = 0; i < app->list.n_rows && n < 32; i++) {
		const struct store_transcription *t = app_list_item(app, i);
		for (size_t k = 0; t && k < t->t.tags.n && n < 32; k++) {
			const char *tag = t->t.tags.v[k];
			bool seen = false;
			for (size_t j = 0; j < n && !seen; j++)
				seen = !strcmp(found[j], tag);
			if (!seen && !strncmp(tag, text, len))
				found[n++] = tag;
		}
	}
	if (!n) {
		app_status(app, "no loaded row has a tag starting with '%s'", text);
		return false;
	}
	common = strlen(found[0]);
	for (size_t j = 1; j < n; j++)
		for (size_t c = 0; c < common; c++)
			if (found[j][c] != found[0][c]) {
				common = c;
				break;
			}
	char said[256];
	size_t at = 0;
	for (size_t j = 0; n > 1 && j < n; j++)
		at = text_appendf(said, sizeof said, at, "%s%s", j ? ", " : "", found[j]);
	if (n > 1)
		app_status(app, "tags: %s", said);
	text_format(out, size, "%.*s", (int)common, found[0]);
	return true;
}

static void list_set_tag(struct app *app, const char *text)
{
	snprintf(app->list.tag, sizeof app->list.tag, "%s", text);
	app->list.lv.cursor = 0;
	app->list.lv.top = 0;
	struct store_view *v = app_view(app, false);
	if (app->org_id && (!v || !v->pages))
		app_load_view(app, true);
	app_list_update(app);
	pane_dirty(app->tlist);
}

static void list_after_move(struct app *app)
{
	struct store_view *v = app_view(app, false);

	app_sync_selected(app);
	if (v && !v->end && (app->list.load_all || listview_near_end(&app->list.lv, LIST_PAGE_MARGIN)))
		app_load_next_page(app);
}

static unsigned list_mark(struct app *app, enum action_id act)
{
	if (act == ACT_UNMARK_ALL) {
		app_marks_free(app);
		return PANE_HANDLED | PANE_REDRAW;
	}
	if (act == ACT_MARK_ALL) {
		for (long i = 0; i < app->list.n_rows; i++) {   /* ids: no record read */
			const char *id = app_list_id(app, i);
			if (id && !app_is_marked(app, id))
				app_toggle_mark(app, id);
		}
		return PANE_HANDLED | PANE_REDRAW;
	}
	const struct store_transcription *t = app_list_item(app, app->list.lv.cursor);
	if (t && t->t.id && app_toggle_mark(app, t->t.id) < 0)
		app_status(app, "out of memory");
	listview_action(&app->list.lv, ACT_MOVE_DOWN);
	list_after_move(app);
	return PANE_HANDLED | PANE_REDRAW;
}

static unsigned list_sort(struct app *app, enum action_id act)
{
	if (act == ACT_SORT_REVERSE) {
		list_sort_apply(app, app->list.sort, !app->list.descending);
		return PANE_HANDLED | PANE_REDRAW;
	}
	list_sort_open(app);
	return PANE_HANDLED | PANE_REDRAW_ALL;
}

static unsigned list_key(struct pane *p, enum action_id act, ui_key key)
{
	struct app *app = ((struct list_pane *)p->data)->app;

	(void)key;
	switch (act) {
	case ACT_MARK: case ACT_MARK_ALL: case ACT_UNMARK_ALL:
		return list_mark(app, act);
	case ACT_SORT: case ACT_SORT_REVERSE:
		return list_sort(app, act);
	case ACT_FILTER:
		list_filter_open(app);
		return PANE_HANDLED;
	case ACT_TAG_FILTER: {
		struct app_input spec = { .label = "tag: ", .initial = app->list.tag,
			.submit = list_set_tag, .complete = list_complete_tag };
		app_input_start(app, &spec);
		return PANE_HANDLED;
	}
	case ACT_CLEAR_FILTER:
		list_clear_filter(app);
		list_set_tag(app, "");
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_LOAD_ALL:
		app_load_all(app);
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_ENTER:   /* the transcription full-screen, every field whole */
		if (app->list.selected)
			app_describe(app, DESCRIBE_TRANSCRIPTION, app->list.selected);
		return PANE_HANDLED | PANE_REDRAW;
	case ACT_BACK:
		return frame_run(&app->ses.frame, ACT_VIEW_ORGS, KEYS_NONE);
	case ACT_MOVE_BOTTOM:
		app->list.load_all = true;
		break;
	default:
		break;
	}
	int r = listview_action(&app->list.lv, act);
	if (r >= 0) {
		list_after_move(app);
		return r ? PANE_HANDLED | PANE_REDRAW : PANE_HANDLED;
	}
	return app_pass_action(app, act);
}

static unsigned list_select(struct pane *p, int row)
{
	struct app *app = ((struct list_pane *)p->data)->app;

	if (!listview_select(&app->list.lv, app->list.lv.top + row - 2))
		return PANE_IGNORED;
	list_after_move(app);
	return PANE_REDRAW;
}

const struct pane_ops list_pane_ops = {
	.name = "transcriptions", .scope = SCOPE_TRANSCRIPTIONS, .place = PANE_PLACE_MAIN,
	.open = list_open, .draw = list_draw, .key = list_key, .select = list_select,
	.close = list_close,
};
