/* Test panes with fixed data. */
#include "config.h"

#include "fake_panes.h"

#include <stdlib.h>
#include <string.h>

#include "ui/draw.h"
#include "ui/listview.h"
#include "ui/style.h"
#include "ui/table.h"

static const struct fake_row plain_rows[] = {
	{ { "board-meeting-2026-03.mp3", "done", "en", "1:02:03", "€12.34", "3d 04h ago", "board" }, 0 },
	{ { "interview_jane.wav", "working", "en", "0:45:10", "€8.10", "2h 05m ago", "hr,video" }, 1 },
	{ { "podcast-ep42.m4a", "failed", "de", "0:58:00", "€0.00", "5m ago", "" }, 0 },
	{ { "lecture-01.mp4", "waiting", "fr", "1:30:00", "€18.00", "just now", "course" }, 1 },
	{ { "call-support-17.ogg", "done", "nl", "0:04:12", "€0.84", "1d 02h ago", "support" }, 0 },
	{ { "keynote.webm", "done", "en", "0:33:33", "€6.71", "6d 00h ago", "talks,2026" }, 0 },
	{ { "focus-group-b.mp3", "unknown", "es", "1:12:45", "€14.55", "12m ago", "research" }, 0 },
	{ { "standup-0412.m4a", "done", "en", "0:12:00", "€2.40", "3h 10m ago", "" }, 0 },
	{ { "radio-show.mp3", "done", "it", "2:00:00", "€24.00", "2d 11h ago", "radio" }, 0 },
	{ { "voicemail-88.wav", "done", "pt", "0:00:41", "€0.14", "40s ago", "" }, 0 },
};

struct fake_table fake_plain_table = { "Transcriptions", plain_rows, 10 };

static const struct fake_row hostile_rows[] = {
	{ { "\x1b[2J\x1b[H\x1b]0;owned\x07" "clear-screen.mp3", "done", "en", "0:01:00", "€1.00", "1m ago", "\x1b[31mred\x1b[0m" }, 0 },
	{ { "osc52-\x1b]52;c;cm0gLXJmIH4=\x07" "copy.wav", "done", "en", "0:02:00", "€2.00", "2m ago", "\x1b]8;;http://x/\x1b\\link\x1b]8;;\x1b\\" }, 0 },
	{ { "invoice\xe2\x80\xae" "fdp.exe.mp3", "failed", "ar", "0:03:00", "€3.00", "3m ago", "\xe2\x81\xa6" "bidi\xe2\x81\xa9" }, 0 },
	{ { "会議の録音ファイル名がとても長い場合の表示テスト.mp3", "working", "ja", "0:04:00", "€4.00", "4m ago", "東京,大阪" }, 1 },
	{ { "e\xcc\x81" "te\xcc\x81-cafe\xcc\x81-\xf0\x9f\x8e\x99\xef\xb8\x8f-podcast", "done", "fr", "0:05:00", "€5.00", "5m ago", "\xf0\x9f\x98\x80" }, 0 },
	{ { "c1-\xc2\x9b" "31m-\xc2\x9d" "0;t\xc2\x9c" "-bad\xff\xfe" "utf8", "waiting", "de", "0:06:00", "€6.00", "6m ago", "tab\there" }, 0 },
};

struct fake_table fake_hostile_table = { "Hostile", hostile_rows, 6 };

static const struct layout_col cols[7] = {
	{ "Name", 12, 32, 0, 1, TEXT_LEFT },
	{ "State", 9, 11, 1, 0, TEXT_LEFT },
	{ "Lang", 5, 6, 2, 0, TEXT_LEFT },
	{ "Length", 7, 8, 3, 0, TEXT_RIGHT },
	{ "Cost", 8, 9, 5, 0, TEXT_RIGHT },
	{ "Created", 8, 10, 4, 0, TEXT_LEFT },
	{ "Tags", 6, 20, 6, 0, TEXT_LEFT },
};

struct table_state {
	const struct fake_table *t;
	struct listview lv;
	int marked[16];
};

static enum theme_elem state_elem(const char *s)
{
	if (!strcmp(s, "done")) return THEME_STATE_DONE;
	if (!strcmp(s, "failed")) return THEME_STATE_FAILED;
	if (!strcmp(s, "working")) return THEME_STATE_WORKING;
	if (!strcmp(s, "waiting")) return THEME_STATE_WAITING;
	return THEME_STATE_UNKNOWN;
}

static void table_row(void *ctx, int i, struct table_row *row)
{
	struct table_state *s = ctx;
	const struct fake_row *r = &s->t->rows[i];

	for (int c = 0; c < 7; c++)
		row->cells[c] = r->cells[c];
	row->elem[1] = state_elem(r->cells[1]);
	row->changing = r->changing;
	row->marked = s->marked[i];
}

static int table_open(struct pane *p, void *arg)
{
	struct table_state *s = calloc(1, sizeof *s);

	if (!s)
		return -1;
	s->t = arg;
	p->data = s;
	return 0;
}

static void table_close(struct pane *p)
{
	free(p->data);
}

static void title_draw(struct pane *p, const char *title)
{
	style_set(p->win, p->focused ? THEME_PANE_TITLE_FOCUS : THEME_PANE_TITLE);
	draw_blank(p->win, 0, 0, p->cols);
	draw_text(p->win, 0, 1, p->cols - 1, title, TEXT_LEFT, p->ctx->ascii ? TEXT_ASCII : 0);
	style_set(p->win, THEME_NORMAL);
}

static void table_draw_pane(struct pane *p)
{
	struct table_state *s = p->data;
	struct table_view tv = { cols, 7, 1, p->focused, p->ctx->ascii ? TEXT_ASCII : 0 };

	listview_resize(&s->lv, s->t->count, p->rows - 2);
	title_draw(p, s->t->title);
	table_draw(p->win, 1, p->cols, &tv, &s->lv, table_row, s);
}

static unsigned table_key(struct pane *p, enum action_id act, ui_key key)
{
	struct table_state *s = p->data;

	(void)key;
	if (act == ACT_MARK) {
		s->marked[s->lv.cursor] = !s->marked[s->lv.cursor];
		listview_action(&s->lv, ACT_MOVE_DOWN);
		return PANE_HANDLED | PANE_REDRAW;
	}
	int r = listview_action(&s->lv, act);
	return r < 0 ? PANE_IGNORED : r ? PANE_HANDLED | PANE_REDRAW : PANE_HANDLED;
}

static unsigned table_select(struct pane *p, int row)
{
	struct table_state *s = p->data;

	return listview_select(&s->lv, s->lv.top + row - 2) ? PANE_REDRAW : 0;
}

const struct pane_ops fake_table_ops = {
	.name = "transcriptions", .scope = SCOPE_TRANSCRIPTIONS, .place = PANE_PLACE_MAIN,
	.open = table_open, .draw = table_draw_pane, .key = table_key, .select = table_select,
	.close = table_close,
};

static void orgs_draw(struct pane *p)
{
	static const char *const orgs[] = { "acme", "  media", "  legal", "globex", "  /" };
	title_draw(p, "Organizations");
	for (int i = 0; i < 5 && i + 1 < p->rows; i++)
		draw_text(p->win, i + 1, 1, p->cols - 2, orgs[i], TEXT_LEFT, p->ctx->ascii ? TEXT_ASCII : 0);
}

const struct pane_ops fake_orgs_ops = {
	.name = "organizations", .scope = SCOPE_ORGS, .place = PANE_PLACE_MAIN, .draw = orgs_draw,
};

static int log_open(struct pane *p, void *arg)
{
	(void)arg;
	p->hidden = 1;
	return 0;
}

static void log_draw(struct pane *p)
{
	static const char *const lines[] = { "GET /transcriptions?limit=50 200 41ms",
		"GET /orders/ord_1 429 retry in 2s", "POST /exports 201 88ms" };
	unsigned flags = p->ctx->ascii ? TEXT_ASCII : 0;
	style_set(p->win, THEME_BORDER);
	draw_hline(p->win, 0, 0, p->cols, p->ctx->ascii);
	draw_text(p->win, 0, 2, 6, " Log ", TEXT_LEFT, flags);
	for (int i = 0; i < 3 && i + 1 < p->rows; i++) {
		style_set(p->win, i == 1 ? THEME_LOG_ERROR : THEME_LOG);
		draw_text(p->win, i + 1, 1, p->cols - 2, lines[i], TEXT_LEFT, flags);
	}
}

const struct pane_ops fake_log_ops = {
	.name = "log", .scope = SCOPE_LOG, .place = PANE_PLACE_BOTTOM, .open = log_open,
	.draw = log_draw,
};
