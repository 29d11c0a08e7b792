/* The browser's transcript content: its store and background reader (app_content.h). */
#include "config.h"

#include "ui/app_content.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/content_sync.h"
#include "core/localdb.h"
#include "core/store.h"
#include "ui/app_access.h"
#include "ui/frame.h"
#include "ui/pane_reader.h"
#include "ui/pane_search.h"

/* Counting what waits is a query: at most this often while it moves. */
#define COUNT_EVERY_MS 500

struct app_content {
	struct localdb *ldb;          /* the store's (store_localdb), borrowed */
	struct content_sync *cs;
	int64_t counted_ms;
	long counted_gen;             /* content_sync_generation of the last count */
	/* a hit chosen in the search pane: the reader opens once that pane has closed */
	bool open_pending;
	char open_id[160], open_find[400];
	double open_at;
};

static bool content_busy(void *ud)
{
	struct app *app = ud;
	return sync_in_flight(app->sync) > 0;
}

static void content_log(void *ud, const char *line)
{
	app_log(ud, "%s", line);
}

void app_content_open(struct app *app)
{
	struct steno_error err;
	struct app_content *ac = calloc(1, sizeof *ac);

	/* one connection to the local store: the list's (core/store_db.c); two in one process
	 * wait on each other's writes */
	if (!ac || !(ac->ldb = store_localdb(app->store)))
		goto fail;
	app->content = ac;
	if (!app->opts.index_content)
		return;   /* the reader and search work on what the store holds */
	struct content_sync_config cc = { .http = app->http, .db = localdb_handle(ac->ldb),
		.store = app->store, .jobs = app->jobs,
		/* in the background nothing is created on the server: no JSON export on the
		 * earlier API form (steno index makes them) */
		.allow_export = false, .busy = content_busy, .log = content_log,
		/* half the engine's request budget: two requests a transcription */
		.per_second = app->config && app->config->requests_per_second > 0 ?
			app->config->requests_per_second / 4 : 1,
		.ud = app };
	if (!(ac->cs = content_sync_new(&cc, &err)))
		app_log(app, "transcript content: %s", err.message);
	return;
fail:
	free(ac);
}

void app_content_free(struct app *app)
{
	struct app_content *ac = app->content;
	if (!ac)
		return;
	content_sync_free(ac->cs);
	free(ac);   /* the store's connection: the store closes it */
	app->content = NULL;
}

long app_content_timeout(struct app *app)
{
	struct app_content *ac = app->content;
	if (ac && ac->open_pending)
		return 0;
	if (!ac || !ac->cs)
		return -1;
	long t = content_sync_timeout_ms(ac->cs);
	if (content_sync_generation(ac->cs) != ac->counted_gen) {   /* the count is due */
		int64_t due = ac->counted_ms + COUNT_EVERY_MS - app_now_ms(app);
		long c = due > 0 ? (long)due : 0;
		if (t < 0 || c < t)
			t = c;
	}
	return t;
}

int app_content_read(struct app *app, const char *id, double at, const char *find)
{
	char msg[300];
	struct reader_arg a = { .db = app_content_db(app), .id = id, .at = at, .find = find,
		.tty = app->opts.out,
		.clipboard = app->config ? app->config->clipboard : CLIPBOARD_AUTO };
	if (!id || !a.db)
		return -1;
	if (reader_open(&app->ses.frame, &a, msg, sizeof msg) < 0)
		return -1;
	return 0;
}

static void search_chose(void *ud, const char *id, double at, const char *find)
{
	struct app *app = ud;
	struct app_content *ac = app->content;
	snprintf(ac->open_id, sizeof ac->open_id, "%s", id);
	snprintf(ac->open_find, sizeof ac->open_find, "%s", find ? find : "");
	ac->open_at = at;
	ac->open_pending = true;
}

unsigned app_content_search(struct app *app, const char *query)
{
	/* the organization on screen only, as steno search --org */
	struct search_arg a = { .db = app_content_db(app), .query = query, .org = app_org_id(app),
		.open = search_chose, .ud = app };
	if (!a.db) {
		app_status(app, "no local store (cache = off): nothing to search");
		return PANE_HANDLED;
	}
	struct pane *p = pane_new(&search_pane_ops, &app->ses.frame.ctx, &a);
	if (!p) {
		app_status(app, "cannot open the search: out of memory");
		return PANE_HANDLED;
	}
	frame_open_overlay(&app->ses.frame, p);
	return PANE_HANDLED | PANE_REDRAW_ALL;
}

/* "1,200" */
static void thousands(long v, char *buf, size_t n)
{
	char raw[32];
	size_t k = (size_t)snprintf(raw, sizeof raw, "%ld", v < 0 ? 0 : v), o = 0;
	for (size_t i = 0; i < k && o + 2 < n; i++) {
		if (i && (k - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = raw[i];
	}
	buf[o] = '\0';
}

void app_content_run(struct app *app)
{
	struct app_content *ac = app->content;
	struct status_info *s = &app->ses.status;
	char text[64], a[24], b[24];
	long held, waiting;

	if (ac && ac->open_pending) {
		ac->open_pending = false;
		if (app_content_read(app, ac->open_id, ac->open_at, ac->open_find) < 0)
			app_status(app, "the transcript of %s is not in the local store", ac->open_id);
	}
	if (!ac || !ac->cs)
		return;
	content_sync_run(ac->cs);
	/* counted again only when something changed, and not more often than COUNT_EVERY_MS
	 * (a key's pass draws at once; the count follows on a later pass) */
	int64_t now = app_now_ms(app);
	long gen = content_sync_generation(ac->cs);
	if (gen == ac->counted_gen || (ac->counted_ms && now - ac->counted_ms < COUNT_EVERY_MS))
		return;
	ac->counted_ms = now;
	ac->counted_gen = gen;
	content_sync_progress(ac->cs, &held, &waiting);
	text[0] = '\0';
	if (waiting > 0 && held >= 0) {
		thousands(held, a, sizeof a);
		thousands(held + waiting, b, sizeof b);
		snprintf(text, sizeof text, "indexing %s of %s", a, b);
	}
	if (strcmp(text, s->indexing) != 0) {
		snprintf(s->indexing, sizeof s->indexing, "%s", text);
		pane_dirty(app->ses.status_pane);
	}
}

sqlite3 *app_content_db(struct app *app)
{
	return app->content ? localdb_handle(app->content->ldb) : NULL;
}
