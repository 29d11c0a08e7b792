#ifndef STENO_UI_APP_DATA_H
#define STENO_UI_APP_DATA_H

#include "ui/app_access.h"

/* app_data.c: what the browser asks of the sync engine, and its listeners */
/* Page 1 (first: also makes it the live view) or the next page of the current list. */
int app_load_view(struct app *app, bool first);
/* The status bar's word on rows from the local store (their age, refreshing or not). */
void app_cache_status(struct app *app);
int app_load_next_page(struct app *app);
/* Loads every page of the current list (sort and filter then see them all); the status
 * line tells the progress until the last page came (app_load_progress). */
void app_load_all(struct app *app);
/* The rows loaded do not fill the transcriptions pane (app->list.lv.rows) and a next page
 * exists: loads it, one page at a time (each answer calls this again). */
void app_list_fill(struct app *app);
void app_sync_listener(struct app *app, struct sync_listener *l);
void app_store_changed(void *ud, const struct store_event *ev);
void app_store_failed(void *ud, const struct store_event *ev);

#endif
