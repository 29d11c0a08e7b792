/* The describe view: one resource full-screen, every field of the server's last answer
 * (core/describe.h), values whole and wrapped at spaces, an order's price above its fields
 * (ui/order_price.h); `y` copies the value under the
 * cursor, `J` shows the answer's JSON as text, `r` reads it again, Enter on a transcription
 * id opens that transcription, Esc goes back. */
#include "config.h"

#include "ui/pane_describe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/describe.h"
#include "ui/app_access.h"
#include "ui/app_draw.h"
#include "ui/clipboard.h"
#include "ui/draw.h"
#include "ui/order_price.h"
#include "ui/style.h"

#define DESCRIBE_LABEL_MAX 36
#define DESCRIBE_PRICE_MAX 32

struct describe_pane {
	struct app *app;
	struct pane *self;
	struct steno_describe d;
	bool raw;            /* J: the JSON text instead of the fields */
	int cursor;          /* field (or JSON line) under the cursor */
	int top;             /* first content row shown */
	int rows;            /* content rows, for scrolling */
	int cursor_row0, cursor_row1;   /* content rows of the cursor's item, last draw */
};

/* The JSON text's lines: pointers into a copy, for drawing and copying. */
struct raw_lines {
	char *buf;
	char **v;
	size_t n;
};

static int raw_split(const char *raw, struct raw_lines *l)
{
	memset(l, 0, sizeof *l);
	if (!raw || !(l->buf = strdup(raw)))
		return -1;
	size_t cap = 1;
	for (const char *c = raw; *c; c++)
		cap += *c == '\n';
	if (!(l->v = calloc(cap, sizeof *l->v))) {
		free(l->buf);
		return -1;
	}
	for (char *s = l->buf, *nl; s; s = nl ? nl + 1 : NULL) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = '\0';
		l->v[l->n++] = s;
	}
	return 0;
}

static void raw_free(struct raw_lines *l)
{
	free(l->v);
	free(l->buf);
}

static void describe_changed(void *ud)
{
	struct describe_pane *dp = ud;

	pane_dirty(dp->self);
}

/* An order's price lines, the first items of its fields view; 0 for the others and in the
 * JSON view. */
static int describe_price(const struct describe_pane *dp, char lines[][ORDER_PRICE_WIDTH])
{
	if (dp->raw || dp->d.kind != DESCRIBE_ORDER || !dp->d.has_order)
		return 0;
	return (int)order_price_lines(&dp->d.order, lines, DESCRIBE_PRICE_MAX);
}

static int count_items(const struct describe_pane *dp)
{
	char price[DESCRIBE_PRICE_MAX][ORDER_PRICE_WIDTH];

	if (!dp->raw)
		return describe_price(dp, price) + (int)dp->d.n;
	struct raw_lines l;
	if (raw_split(dp->d.raw, &l) < 0)
		return 0;
	int n = (int)l.n;
	raw_free(&l);
	return n;
}

static int label_width(const struct describe_pane *dp, int cols)
{
	int w = 4;

	for (size_t i = 0; i < dp->d.n; i++) {
		int len = (int)strlen(dp->d.fields[i].key);
		if (len > w)
			w = len;
	}
	if (w > DESCRIBE_LABEL_MAX)
		w = DESCRIBE_LABEL_MAX;
	return w < cols / 3 ? w : cols / 3;
}

/* Draws the items from content row 0; remembers where the cursor's item is. */
static void describe_draw_items(struct pane *p, struct describe_pane *dp)
{
	struct raw_lines l = { 0 };
	char price[DESCRIBE_PRICE_MAX][ORDER_PRICE_WIDTH];
	int np = describe_price(dp, price);
	int n = dp->raw ? (raw_split(dp->d.raw, &l) < 0 ? 0 : (int)l.n) : np + (int)dp->d.n;
	int lw = dp->raw ? 0 : label_width(dp, p->cols), row = 0;

	for (int i = 0; i < n; i++) {
		const struct describe_field *fd = !dp->raw && i >= np ? &dp->d.fields[i - np] : NULL;
		struct app_field f = { .label = fd ? fd->key : i == 0 && np ? "price" : "",
			.value = fd ? fd->value : dp->raw ? l.v[i] : price[i], .label_w = lw,
			.elem = THEME_NORMAL, .selected = i == dp->cursor };
		if (i == dp->cursor)
			dp->cursor_row0 = row;
		row += app_draw_field(p, &f, row, dp->top, 1);
		if (i == dp->cursor)
			dp->cursor_row1 = row - 1;
	}
	dp->rows = row;
	raw_free(&l);
}

static void describe_draw(struct pane *p)
{
	struct describe_pane *dp = p->data;
	char title[200];

	werase(p->win);
	snprintf(title, sizeof title, "%s %s%s%s  -  y copy  J %s  r refresh%s  Esc back",
		 describe_kind_name(dp->d.kind), dp->d.id, dp->d.loading ? " (reading...)" : "",
		 dp->d.has_error ? " (the last read failed)" : "", dp->raw ? "fields" : "JSON",
		 dp->d.kind == DESCRIBE_ORDER ? "  c confirm" : "");
	app_draw_title(p, title);
	if (!dp->d.n && !dp->d.raw) {
		const char *msg[] = { dp->d.has_error ? dp->d.error.message : "Reading..." };
		app_draw_message(p, 2, msg, 1);
		return;
	}
	/* draw once to learn where the cursor is; scroll it into view and draw again */
	describe_draw_items(p, dp);
	int view = p->rows - 1, top = dp->top;
	if (dp->cursor_row0 < top)
		top = dp->cursor_row0;
	else if (dp->cursor_row1 >= top + view)
		top = dp->cursor_row1 - view + 1;
	if (top != dp->top) {
		dp->top = top;
		werase(p->win);
		app_draw_title(p, title);
		describe_draw_items(p, dp);
	}
}

/* The value under the cursor (the whole JSON text in the JSON view). */
static void describe_copy(struct describe_pane *dp)
{
	struct app *app = dp->app;
	char price[DESCRIBE_PRICE_MAX][ORDER_PRICE_WIDTH];
	int np = describe_price(dp, price), k = dp->cursor - np;
	const char *what = dp->raw ? "the JSON" : dp->cursor < np ? "the price line" :
		k < (int)dp->d.n ? dp->d.fields[k].key : NULL;
	const char *text = dp->raw ? dp->d.raw : dp->cursor < np ? price[dp->cursor] :
		what ? dp->d.fields[k].value : NULL;

	if (!text) {
		app_status(app, "nothing to copy here");
		return;
	}
	/* only what the screen shows as it is; a URL only as a plain http(s) URL; the JSON
	 * made safe (one line, escapes for what cannot be shown), the same JSON */
	bool url = !dp->raw && (!strncmp(text, "http://", 7) || !strncmp(text, "https://", 8));
	char how[160], *safe = dp->raw ? clipboard_json_safe(text) : NULL;
	if (dp->raw && !safe) {
		app_status(app, "not copied: out of memory");
		return;
	}
	if (clipboard_copy(app->opts.out, app->config->clipboard, safe ? safe : text, url, how,
			   sizeof how) < 0)
		app_status(app, "not copied: %s: %s", what, how);
	else if (safe)
		app_status(app, "copied %s, %zu bytes on one line (%s)", what, strlen(safe), how);
	else
		app_status(app, "copied %s (%s)", what, how);
	free(safe);
}

/* The transcription a field names: a row of an order's transcriptions (any of its fields:
 * the row's uuid is the id the API takes, its id a number), an input's transcription_id, an
 * outputsIds entry, a task's translated transcription. NULL when none. */
static const char *field_transcription(const struct describe_pane *dp, size_t i)
{
	const struct describe_field *f = &dp->d.fields[i];
	const char *close;

	if (!strncmp(f->key, "transcriptions[", 15) && (close = strchr(f->key, ']'))) {
		size_t len = (size_t)(close - f->key) + 1;
		for (size_t j = 0; j < dp->d.n; j++)
			if (!strncmp(dp->d.fields[j].key, f->key, len) &&
			    !strcmp(dp->d.fields[j].key + len, ".uuid"))
				return dp->d.fields[j].value;
		return NULL;
	}
	if (strstr(f->key, "ranscriptionId") || strstr(f->key, "ranscription_id") ||
	    !strncmp(f->key, "outputsIds[", 11) || !strncmp(f->key, "outputs_ids[", 12))
		return *f->value ? f->value : NULL;
	return NULL;
}

/* Enter on a field that names a transcription opens it in this view (Esc then goes back to
 * the panes); returns false when the field names none. */
static bool describe_follow(struct describe_pane *dp)
{
	char price[DESCRIBE_PRICE_MAX][ORDER_PRICE_WIDTH];
	int k = dp->cursor - describe_price(dp, price);

	if (dp->raw || k < 0 || k >= (int)dp->d.n)
		return false;
	const char *tr = field_transcription(dp, (size_t)k);
	char *id = tr ? strdup(tr) : NULL;
	struct steno_error err;
	if (!id)
		return false;
	describe_close(&dp->d);
	if (describe_open(&dp->d, dp->app->http, DESCRIBE_TRANSCRIPTION, id, describe_changed, dp,
			  &err) < 0)
		app_error(dp->app, &err);
	free(id);
	dp->cursor = dp->top = 0;
	dp->raw = false;
	return true;
}

/* c on an order: the confirm dialog (which shows the price first) for this very order, from
 * the activity pane where the order is listed. */
static unsigned describe_confirm(struct describe_pane *dp)
{
	struct app *app = dp->app;

	if (dp->d.kind != DESCRIBE_ORDER) {
		app_status(app, "c confirms an order; this is a %s", describe_kind_name(dp->d.kind));
		return PANE_HANDLED;
	}
	if (sync_watch(app->sync, STORE_ACT_ORDER, dp->d.id) < 0)
		return PANE_HANDLED;
	/* app.c opens the dialog once this view has closed */
	snprintf(app->confirm_order, sizeof app->confirm_order, "%s", dp->d.id);
	return PANE_HANDLED | PANE_CLOSE;
}

static unsigned describe_key(struct pane *p, enum action_id act, ui_key key)
{
	struct describe_pane *dp = p->data;
	struct steno_error err;
	int n = count_items(dp), page = p->rows > 4 ? p->rows - 3 : 1;

	(void)key;
	switch (act) {
	case ACT_BACK: case ACT_QUIT:
		return PANE_HANDLED | PANE_CLOSE;
	case ACT_MOVE_DOWN: dp->cursor++; break;
	case ACT_MOVE_UP: dp->cursor--; break;
	case ACT_PAGE_DOWN: case ACT_HALF_PAGE_DOWN: dp->cursor += page; break;
	case ACT_PAGE_UP: case ACT_HALF_PAGE_UP: dp->cursor -= page; break;
	case ACT_MOVE_TOP: dp->cursor = 0; break;
	case ACT_MOVE_BOTTOM: dp->cursor = n - 1; break;
	case ACT_COPY_VALUE:
		describe_copy(dp);
		return PANE_HANDLED;
	case ACT_RAW_JSON:
		dp->raw = !dp->raw;
		dp->cursor = dp->top = 0;
		break;
	case ACT_REFRESH: case ACT_FORCE_REFRESH:
		if (describe_refresh(&dp->d, &err) < 0)
			app_error(dp->app, &err);
		break;
	case ACT_CONFIRM_ORDER:
		return describe_confirm(dp);
	case ACT_ENTER:
		if (!describe_follow(dp)) {
			app_status(dp->app, "Enter opens a transcription's id; y copies the value");
			return PANE_HANDLED;
		}
		break;
	default:
		return PANE_HANDLED;   /* modal: nothing reaches the panes below */
	}
	if (dp->cursor >= n)
		dp->cursor = n - 1;
	if (dp->cursor < 0)
		dp->cursor = 0;
	return PANE_HANDLED | PANE_REDRAW;
}

static int describe_pane_open(struct pane *p, void *arg)
{
	struct describe_pane *dp = calloc(1, sizeof *dp);

	if (!dp)
		return -1;
	dp->app = arg;
	dp->self = p;
	p->data = dp;
	return 0;
}

static void describe_pane_close(struct pane *p)
{
	struct describe_pane *dp = p->data;

	if (dp) {
		app_error_forget(dp->app, dp->d.id);   /* left: its error is over */
		describe_close(&dp->d);
	}
	free(dp);
	p->data = NULL;
}

const struct pane_ops describe_pane_ops = {
	.name = "describe", .scope = SCOPE_DESCRIBE, .place = PANE_PLACE_FULL,
	.open = describe_pane_open, .draw = describe_draw, .key = describe_key,
	.close = describe_pane_close,
};

int app_describe(struct app *app, enum describe_kind kind, const char *id)
{
	struct pane *p = pane_new(&describe_pane_ops, &app->ses.frame.ctx, app);
	struct steno_error err;

	if (!p)
		return -1;
	struct describe_pane *dp = p->data;
	if (describe_open(&dp->d, app->http, kind, id, describe_changed, dp, &err) < 0) {
		app_error(app, &err);
		pane_free(p);
		return -1;
	}
	frame_open_overlay(&app->ses.frame, p);
	return 0;
}
