#ifndef STENO_UI_APP_CONTENT_H
#define STENO_UI_APP_CONTENT_H

/* The browser's side of transcript content: the local store of the server (core/localdb.h)
 * opened at start, the background reader (core/content_sync.h) run from the loop after the
 * sync engine's own reads, and its progress in the status bar ("indexing 340 of 1,200").
 * Without a store (cache = off, no cache dir) the browser runs as before: the reader and
 * search say so. Ownership: the app's (app_content_free). */

#include <sqlite3.h>
#include <stdint.h>

struct app;

/* Never fatal: a store that cannot be had is said in the log. */
void app_content_open(struct app *app);
void app_content_free(struct app *app);
/* The loop's hooks: when it has something to start (-1: nothing), and the run. */
long app_content_timeout(struct app *app);
void app_content_run(struct app *app);
/* The store's handle for the reader and the search pane; NULL when there is none. */
sqlite3 *app_content_db(struct app *app);
/* Opens the reader on id (at seconds, or -1: the start; find: words to highlight, or NULL).
 * 0 when it opened; -1 when the store holds no content for it (nothing said). */
int app_content_read(struct app *app, const char *id, double at, const char *find);
/* `:search QUERY` (or F): the results pane. Returns PANE_* bits. */
unsigned app_content_search(struct app *app, const char *query);

#endif
