/* The transcriptions of the selected organization / folder: a fitted table, paging as
 * the cursor nears the end, text and tag filters, sort, marks, and a marker on items
 * whose state is still changing. */
#include "config.h"

#include "ui/pane_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/spec_tables.h"
#include "ui/app_internal.h"
#include "ui/format.h"
#include "ui/pane_describe.h"
#include "ui/table.h"

/* Load the next page when the cursor comes this close to the end. */
#define LIST_PAGE_MARGIN 5
/* A row the live list brought in or changed is marked this long. */
#define LIST_FRESH_MS 10000

static const struct layout_col list_cols[LAYOUT_TR_COUNT] = {
	[LAYOUT_TR_NAME]     = { "Name",     12, 40, 0, 1, TEXT_LEFT },
	[LAYOUT_TR_STATE]    = { "State",    10, 14, 1, 0, TEXT_LEFT },
	[LAYOUT_TR_LANGUAGE] = { "Lang",      5,  6, 2, 0, TEXT_LEFT },
	[LAYOUT_TR_LENGTH]   = { "Length",    7,  8, 3, 0, TEXT_RIGHT },
	[LAYOUT_TR_COST]     = { "Cost",      7,  9, 5, 0, TEXT_RIGHT },
	[LAYOUT_TR_CREATED]  = { "Created",   8, 10, 4, 0, TEXT_LEFT },
	[LAYOUT_TR_TAGS]     = { "Tags",      6, 20, 6, 0, TEXT_LEFT },
};

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

/* Cells of one row; the buffers live in the pane's data until table_draw returns. */
struct list_row_buf {
	char length[16], cost[24], created[32], tags[256];
};

struct list_pane {
	struct app *app;
	int tick;                    /* of the times in the rows drawn (app_time_tick) */
	int64_t fresh_until;         /* the first fresh mark drawn goes then (0: none) */
	struct list_row_buf buf[256];
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
	struct list_row_buf *b = &lp->buf[(index - app->list.lv.top) & 255];

	if (!st)
		return;
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
	row->cells[LAYOUT_TR_NAME] = t->name ? t->name : t->id;
	row->cells[LAYOUT_TR_STATE] = pane_list_state_label(t->state);
	row->elem[LAYOUT_TR_STATE] = pane_list_state_elem(t->state);
	row->cells[LAYOUT_TR_LANGUAGE] = t->language ? t->language : "-";
	row->cells[LAYOUT_TR_LENGTH] = b->length;
	row->cells[LAYOUT_TR_COST] = b->cost;
	row->cells[LAYOUT_TR_CREATED] = b->created;
	row->cells[LAYOUT_TR_TAGS] = b->tags;
	row->changing = st->changing;
	row->marked = t->id && app_is_marked(app, t->id);
	int64_t now = app_now_ms(app);
	if (st->live_ms && now - st->live_ms < LIST_FRESH_MS) {
		row->elem[LAYOUT_TR_NAME] = THEME_LIST_FRESH;
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
	p->data = lp;
	return 0;
}

static void list_close(struct pane *p)
{
	free(p->data);
	p->data = NULL;
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
	struct table_view tv = { list_cols, LAYOUT_TR_COUNT, 1, p->focused, app_text_flags(p) };

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
	table_draw(p->win, 1, p->cols, &tv, &app->list.lv, list_row, p);
	app->list_tick = lp->tick;
	app->list_fresh_until = lp->fresh_until;
	list_mark_visible(app);
}

/* ---- keys ---- */

static void list_set_filter(struct app *app, const char *text)
{
	snprintf(app->list.filter, sizeof app->list.filter, "%s", text);
	app->list.lv.cursor = 0;
	app_list_update(app);
	pane_dirty(app->tlist);
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
		for (long i = 0; i < app->list.n_rows; i++) {
			const struct store_transcription *t = app_list_item(app, i);
			if (t && t->t.id && !app_is_marked(app, t->t.id))
				app_toggle_mark(app, t->t.id);
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
	if (act == ACT_SORT_REVERSE)
		app->list.descending = !app->list.descending;
	else
		app->list.sort = (app->list.sort + 1) % (STORE_SORT_LENGTH + 1);
	app_list_update(app);
	app_status(app, "sorted by %s%s", store_sort_name(app->list.sort),
		   app->list.descending ? ", descending" : "");
	return PANE_HANDLED | PANE_REDRAW;
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
		app_input_open(app, "/", app->list.filter, list_set_filter);
		return PANE_HANDLED;
	case ACT_TAG_FILTER:
		app_input_open(app, "tag: ", app->list.tag, list_set_tag);
		return PANE_HANDLED;
	case ACT_CLEAR_FILTER:
		list_set_filter(app, "");
		list_set_tag(app, "");
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
