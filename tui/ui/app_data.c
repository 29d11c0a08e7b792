/* What the browser asks of the sync engine (core/sync.h) and what it does with the engine's
 * news and the store's events: panes marked dirty, the status bar, the log. */
#include "config.h"

#include "ui/app_data.h"
#include "ui/app_access.h"
#include "ui/app_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/format.h"
#include "ui/text.h"

/* ---- asking the engine ---- */

int app_load_view(struct app *app, bool first)
{
	const char *tag = app->list.tag[0] ? app->list.tag : NULL;

	if (!app->org_id)
		return -1;
	/* the view read from page 1 is the one on screen: it is kept live */
	if (first && sync_set_live_view(app->sync, app->org_id, app->folder_id, tag) < 0)
		app_status(app, "out of memory");
	int rc = sync_load_view(app->sync, app->org_id, app->folder_id, tag, first,
				app->list.load_all);
	pane_dirty(app->tlist);
	app_refresh_status(app);
	app_cache_status(app);
	return rc;
}

/* Rows on screen that came from the local store and no read has confirmed yet: how old they
 * are, and whether a read is on its way ("cached 3m ago, refreshing") or the server cannot
 * be reached ("cached 3m ago"). */
void app_cache_status(struct app *app)
{
	const struct store_view *v = app_view(app, false);
	struct status_info *s = &app->ses.status;
	char text[sizeof s->cache] = "", ago[48];

	if (v && v->cached && v->cached_wall_ms > 0 && v->pages == 0) {
		fmt_relative(ago, sizeof ago, (time_t)(v->cached_wall_ms / 1000),
			     (time_t)(app_wall_ms(app) / 1000));
		bool waiting = !v->has_error && !app->opts.offline &&
			       s->health != STATUS_OFFLINE;
		snprintf(text, sizeof text, "cached %s%s", ago, waiting ? ", refreshing" : "");
	}
	if (strcmp(text, s->cache) != 0) {
		snprintf(s->cache, sizeof s->cache, "%s", text);
		pane_dirty(app->ses.status_pane);
	}
}

int app_load_next_page(struct app *app)
{
	return app_load_view(app, false);
}

void app_list_fill(struct app *app)
{
	struct store_view *v = app_view(app, false);

	/* counts the rows loaded, not the rows a text filter lets through: a filter that
	 * matches little must not pull every page of a large account (unless asked to) */
	if (!v || v->end || !v->next_url || v->has_error ||
	    (!app->list.load_all && (app->list.lv.rows <= 0 || (long)v->n >= app->list.lv.rows)))
		return;
	app_load_next_page(app);   /* a page already loading is not asked for twice */
}

void app_load_all(struct app *app)
{
	struct store_view *v = app_view(app, false);

	if (!v || !v->pages) {
		app_status(app, "the list is not loaded yet");
		return;
	}
	if (v->end && !v->has_error) {
		app_status(app, "all %zu are loaded", v->n);
		return;
	}
	if (v->end && store_view_stopped(v)) {   /* page_limit or a looping link: no further */
		app_status(app, "loading stopped at %zu: %s", v->n, v->error.message);
		return;
	}
	app->list.load_all = true;
	app->list.announce_all = true;
	app_status(app, "loading every page: %zu loaded...", v->n);
	app_load_next_page(app);
}

/* A page of the current list came while every page is asked for: how far it is. */
static void app_load_progress(struct app *app, const struct store_view *v)
{
	if (!app->list.announce_all)
		return;
	if (v->has_error) {
		app->list.announce_all = false;
		app_status(app, "loading stopped at %zu: %s", v->n, v->error.message);
	} else if (v->end) {
		app->list.announce_all = false;
		if (app->list.sort != STORE_SORT_SERVER || app->list.descending)
			app_status(app, "all %zu loaded, sorted by %s%s", v->n,
				   store_sort_name(app->list.sort),
				   app->list.descending ? ", descending" : "");
		else
			app_status(app, "all %zu loaded", v->n);
	} else {
		app_status(app, "loading every page: %zu loaded...", v->n);
	}
}

/* ---- the engine's news ---- */

static void app_on_log(void *ud, const char *line)
{
	app_log(ud, "%s", line);
}

static void app_on_error(void *ud, const struct steno_error *err)
{
	struct app *app = ud;

	if (!app->quit)
		app_error(app, err);
}

static void app_on_health(void *ud, enum sync_health health, double rate_wait_s)
{
	static const enum status_health map[] = { [SYNC_UNKNOWN] = STATUS_UNKNOWN,
		[SYNC_ONLINE] = STATUS_ONLINE, [SYNC_SLOW] = STATUS_SLOW,
		[SYNC_OFFLINE] = STATUS_OFFLINE };
	struct app *app = ud;
	struct status_info *s = &app->ses.status;

	/* back online: the "cannot reach" error is over */
	if (health == SYNC_ONLINE && s->health == STATUS_OFFLINE)
		s->error[0] = '\0';
	s->health = map[health];
	s->rate_wait_s = rate_wait_s;
	pane_dirty(app->ses.status_pane);
}

/* A desktop notification through the terminal (OSC 9 or OSC 777), which travels over SSH
 * with the rest of the output. The text is the screen's sanitized text, so nothing of the
 * server's can end the sequence early. */
static void app_desktop_notify(struct app *app, const char *text)
{
	FILE *out = app->opts.out ? app->opts.out : stdout;
	wchar_t *ws = text_sanitize(text, 0);
	char *clean = ws ? text_to_utf8(ws) : NULL;

	free(ws);
	if (!clean)
		return;
	for (char *c = clean; *c; c++)
		if (*c == ';' && app->config->desktop_notify == CONFIG_DESKTOP_OSC777)
			*c = ',';   /* OSC 777 separates title and body with ';' */
	if (app->config->desktop_notify == CONFIG_DESKTOP_OSC9)
		fprintf(out, "\033]9;%s\007", clean);
	else
		fprintf(out, "\033]777;notify;steno;%s\007", clean);
	fflush(out);
	free(clean);
}

/* A watched item changed state: said once, in the status bar (config notify), the log,
 * the activity pane's history, and optionally with the bell and on the desktop. */
static void app_on_news(void *ud, const struct sync_news *n)
{
	struct app *app = ud;
	char text[300];

	if (app->quit)
		return;
	if (n->settled)
		snprintf(text, sizeof text, "%s %s%s%s%s %s (%s)", n->kind, n->id,
			 n->name ? " \"" : "", n->name ? n->name : "", n->name ? "\"" : "",
			 n->failure ? "failed" : "finished", n->state);
	else
		snprintf(text, sizeof text, "%s %s%s%s%s: %s -> %s", n->kind, n->id,
			 n->name ? " \"" : "", n->name ? n->name : "", n->name ? "\"" : "",
			 n->old_state, n->state);
	app_log(app, "%s", text);
	app_history_add(app, text);
	pane_dirty(app->activity);
	if (app->config->notify)
		app_status(app, "%s", text);
	if (app->config->bell)
		beep();
	if (app->config->desktop_notify != CONFIG_DESKTOP_OFF)
		app_desktop_notify(app, text);
}

void app_sync_listener(struct app *app, struct sync_listener *l)
{
	*l = (struct sync_listener){ .log = app_on_log, .error = app_on_error,
		.health = app_on_health, .news = app_on_news, .ud = app };
}

/* ---- store listeners ---- */

void app_store_changed(void *ud, const struct store_event *ev)
{
	struct app *app = ud;

	if (app->quit)
		return;
	if (ev->what & (STORE_WHAT_LIST | STORE_WHAT_TRANSCRIPTION)) {
		struct pane *o = app->ses.frame.overlay;
		/* details read for the row under the cursor move no row: drawn again, not
		 * selected again (a sort of 100,000 rows on every cursor move) */
		if ((ev->what & STORE_WHAT_LIST) || ev->keys_changed)
			app->list.stale = true;
		pane_dirty(app->tlist);
		if (o && o->ops->place == PANE_PLACE_PROMPT)
			pane_dirty(o);   /* the `/` filter's count of matches */
	}
	if ((ev->what & STORE_WHAT_LIST) && ev->view) {
		/* a page came: the pane may want the next, or every page after G */
		struct store_view *v = app_view(app, false);
		if (v && !strcmp(v->key, ev->view)) {
			app_list_fill(app);
			app_load_progress(app, v);
		}
	}
	if ((ev->what & STORE_WHAT_TRANSCRIPTION) && ev->id && app->list.selected &&
	    !strcmp(ev->id, app->list.selected))
		pane_dirty(app->details);
	app_notify_dialogs(app);
	if (ev->what & STORE_WHAT_ACTIVITY)
		pane_dirty(app->activity);
}

void app_store_failed(void *ud, const struct store_event *ev)
{
	struct app *app = ud;

	if (app->quit)
		return;
	struct store_view *v = (ev->what & STORE_WHAT_LIST) && ev->view ? app_view(app, false) : NULL;
	if (v && !strcmp(v->key, ev->view))
		app_load_progress(app, v);
	pane_dirty(app->tlist);
	pane_dirty(app->details);
	pane_dirty(app->activity);
}
