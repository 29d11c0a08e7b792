/* Details of the selected transcription: every field of the retrieve response, the
 * failure reason and message, the delivery estimate as a countdown, and the links. */
#include "config.h"

#include "ui/pane_details.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/spec_tables.h"
#include "ui/app_access.h"
#include "ui/app_draw.h"
#include "ui/pane_describe.h"
#include "ui/draw.h"
#include "ui/format.h"
#include "ui/pane_list.h"
#include "ui/style.h"

#define DETAILS_MAX_LINES 40
#define DETAILS_LABEL 11

struct details_line {
	const char *label;
	char value[2048];
	enum theme_elem elem;
	int cut;                     /* one row, cut (links, dates: whole in the describe view) */
};

/* Ownership: the pane's data. */
struct details_pane {
	struct app *app;
	struct listview lv;          /* scrolling over the lines */
	struct details_line lines[DETAILS_MAX_LINES];
	int n;
	char shown[128];             /* id shown: another one scrolls back to the top */
};

static struct details_line *dl_add(struct details_pane *d, const char *label)
{
	if (d->n == DETAILS_MAX_LINES)
		return NULL;
	struct details_line *l = &d->lines[d->n++];
	l->label = label;
	l->value[0] = '\0';
	l->elem = THEME_NORMAL;
	l->cut = 0;
	return l;
}

static void dl_str(struct details_pane *d, const char *label, const char *v)
{
	struct details_line *l = dl_add(d, label);

	if (l)
		snprintf(l->value, sizeof l->value, "%s", v ? v : "-");
}

/* Links (signed, long) take one row here. */
static void dl_link(struct details_pane *d, const char *label, const char *url)
{
	dl_str(d, label, url);
	if (d->n && d->lines[d->n - 1].label == label)
		d->lines[d->n - 1].cut = 1;
}

static void dl_time(struct details_pane *d, const char *label, const struct steno_time *t,
		    time_t now)
{
	struct details_line *l = dl_add(d, label);
	char rel[32];

	if (!l)
		return;
	l->cut = 1;   /* a date is read at a glance; the describe view has it whole */
	if (!steno_known(t->st)) {
		snprintf(l->value, sizeof l->value, "-");
		return;
	}
	time_t s = (time_t)(t->ms / 1000);
	struct tm tm;
	gmtime_r(&s, &tm);
	size_t n = strftime(l->value, sizeof l->value, "%Y-%m-%d %H:%M UTC", &tm);
	fmt_relative(rel, sizeof rel, s, now);
	app_time_tick(&d->app->animating, (long long)s - (long long)now);
	snprintf(l->value + n, sizeof l->value - n, " (%s)", rel);
}

static void dl_bool(struct details_pane *d, const char *label, const struct steno_bool *b)
{
	dl_str(d, label, !steno_known(b->st) ? "-" : b->v ? "yes" : "no");
}

static void details_fields(struct details_pane *d, const struct store_transcription *st,
			   time_t now)
{
	const struct steno_transcription *t = &st->t;
	struct details_line *l;
	char buf[64];

	dl_str(d, "Name", t->name);
	dl_str(d, "ID", t->id);
	if ((l = dl_add(d, "State"))) {
		snprintf(l->value, sizeof l->value, "%s%s", t->state ? t->state : "?",
			 st->changing ? " (still changing)" : "");
		l->elem = pane_list_state_elem(t->state);
	}
	if (st->state_changed_ms && st->changing && (l = dl_add(d, "In state"))) {
		long long in_state = (long long)((app_now_ms(d->app) - st->state_changed_ms) / 1000);
		fmt_span(l->value, sizeof l->value, in_state);
		app_time_tick(&d->app->animating, -in_state);   /* it began in_state s ago */
	}
	dl_str(d, "Language", t->language);
	fmt_duration(buf, sizeof buf, steno_known(t->audio_length_s.st) ? (double)t->audio_length_s.v : -1);
	dl_str(d, "Length", buf);
	if (steno_known(t->cost_cents.st))
		fmt_money(buf, sizeof buf, t->cost_cents.v, NULL);
	else
		snprintf(buf, sizeof buf, "-");
	dl_str(d, "Cost", buf);
	dl_bool(d, "Refunded", &t->refunded);
	dl_time(d, "Created", &t->created_at, now);
	dl_time(d, "Updated", &t->updated_at, now);
	/* an estimate means nothing once the work settled (done, failed, locked) */
	if (steno_known(t->delivery_estimated_at.st) && st->changing &&
	    (l = dl_add(d, "Delivery"))) {
		fmt_countdown(l->value, sizeof l->value,
			      (time_t)(t->delivery_estimated_at.ms / 1000), now);
		app_time_tick(&d->app->animating,
			      (long long)(t->delivery_estimated_at.ms / 1000) - (long long)now);
	}
	if ((l = dl_add(d, "Tags"))) {
		size_t len = 0;
		for (size_t i = 0; i < t->tags.n && len + 1 < sizeof l->value; i++)
			len += (size_t)snprintf(l->value + len, sizeof l->value - len, "%s%s",
						i ? ", " : "", t->tags.v[i]);
		if (!t->tags.n)
			snprintf(l->value, sizeof l->value, "-");
	}
	dl_bool(d, "Sharing", &t->sharing_enabled);
	if (steno_known(t->is_subtitle.st))
		dl_bool(d, "Subtitles", &t->is_subtitle);
	if (t->failure_reason || t->failure_message) {
		dl_str(d, "Failure", t->failure_reason);
		if ((l = dl_add(d, "Message"))) {
			snprintf(l->value, sizeof l->value, "%s", t->failure_message ? t->failure_message : "-");
			l->elem = THEME_STATE_FAILED;
		}
		d->lines[d->n - 2].elem = THEME_STATE_FAILED;
	}
	dl_link(d, "Editor", t->editor_url);
	if (t->download_url)
		dl_link(d, "Download", t->download_url);
	if (t->self_url)
		dl_link(d, "API", t->self_url);
	if (t->soundwave_url)
		dl_link(d, "Soundwave", t->soundwave_url);
	if (!st->detailed)
		dl_str(d, "", "(loading details...)");
}

static int details_open(struct pane *p, void *arg)
{
	struct details_pane *d = calloc(1, sizeof *d);

	if (!d)
		return -1;
	d->app = arg;
	p->data = d;
	return 0;
}

static void details_close(struct pane *p)
{
	free(p->data);
	p->data = NULL;
}

/* Draws one field (links and dates cut to one row); rows above `skip` are scrolled out.
 * Returns the rows it takes. */
static int details_draw_line(struct pane *p, const struct details_line *l, int row, int skip)
{
	struct app_field f = { .label = l->label, .value = l->value, .label_w = DETAILS_LABEL,
		.elem = l->elem, .cut = l->cut };

	return app_draw_field(p, &f, row, skip, 1);
}

static void details_draw(struct pane *p)
{
	struct details_pane *d = p->data;
	struct app *app = d->app;
	const struct store_transcription *st = app_selected(app);

	app_draw_title(p, "Details");
	d->n = 0;
	app->animating = 0;
	app->animating_drawn_ms = app_now_ms(app);
	if (!st) {
		static const char *const msg[] = { "Nothing selected." };
		app_draw_message(p, 1, msg, 1);
		return;
	}
	if (st->t.id && strncmp(d->shown, st->t.id, sizeof d->shown - 1)) {
		snprintf(d->shown, sizeof d->shown, "%s", st->t.id);
		d->lv.top = 0;
	}
	details_fields(d, st, (time_t)(app_wall_ms(app) / 1000));
	int row = 0;
	for (int i = 0; i < d->n; i++)
		row += details_draw_line(p, &d->lines[i], row, d->lv.top);
	d->lv.count = row;   /* rows of content, for scrolling */
	d->lv.rows = p->rows - 1;
	style_set(p->win, THEME_NORMAL);
}

static unsigned details_key(struct pane *p, enum action_id act, ui_key key)
{
	struct details_pane *d = p->data;

	(void)key;
	if (act == ACT_BACK)
		return frame_run(&d->app->ses.frame, ACT_VIEW_TRANSCRIPTIONS, KEYS_NONE);
	if (act == ACT_ENTER) {   /* the same full-screen, every field whole */
		const char *id = app_selected_id(d->app);
		if (id)
			app_describe(d->app, DESCRIBE_TRANSCRIPTION, id);
		return PANE_HANDLED | PANE_REDRAW;
	}
	/* the pane scrolls: top is the first row of content shown */
	int page = d->lv.rows > 1 ? d->lv.rows - 1 : 1, top = d->lv.top;
	switch (act) {
	case ACT_MOVE_DOWN: top++; break;
	case ACT_MOVE_UP: top--; break;
	case ACT_PAGE_DOWN: case ACT_HALF_PAGE_DOWN: top += page; break;
	case ACT_PAGE_UP: case ACT_HALF_PAGE_UP: top -= page; break;
	case ACT_MOVE_TOP: top = 0; break;
	case ACT_MOVE_BOTTOM: top = d->lv.count; break;
	default: return app_pass_action(d->app, act);
	}
	int max = d->lv.count - d->lv.rows;
	d->lv.top = top > max ? (max > 0 ? max : 0) : top < 0 ? 0 : top;
	return PANE_HANDLED | PANE_REDRAW;
}

/* The labels, then an id (32 hex digits) on one row and a blank column; longer values
 * wrap, and the describe view has them whole. */
static int details_max_cols(const struct pane *p)
{
	(void)p;
	return DETAILS_LABEL + 2 + 32 + 1;
}

const struct pane_ops details_pane_ops = {
	.name = "details", .scope = SCOPE_DETAILS, .place = PANE_PLACE_MAIN,
	.open = details_open, .draw = details_draw, .key = details_key, .close = details_close,
	.max_cols = details_max_cols,
};
