#ifndef STENO_UI_APP_LIST_H
#define STENO_UI_APP_LIST_H

#include "ui/app_access.h"

/* app_list.c: the current view, the query over it, the marks and the selection */
struct store_view *app_view(struct app *app, bool create);   /* the current list */
void app_list_update(struct app *app);
const struct store_transcription *app_list_item(struct app *app, long i);  /* shown row i */
const char *app_list_id(struct app *app, long i);   /* its id, the record not read */
void app_sync_selected(struct app *app);   /* selection := the row under the cursor */
bool app_is_marked(const struct app *app, const char *id);
int app_toggle_mark(struct app *app, const char *id);
void app_set_selected(struct app *app, const char *id);
void app_marks_free(struct app *app);
void app_list_free(struct app *app);   /* marks, rows, selection, filter (app_close) */
/* The `/` filter: text parsed with query_parse (core/query.h) and in force at the next
 * draw; 0, or -1 with the parse error in err while the filter in force stays. */
int app_list_set_filter(struct app *app, const char *text, char *err, size_t size);
/* The current list is missing pages: loaded items and a next page on the server. */
bool app_list_partial(struct app *app);
/* How many items of the current list are loaded. */
size_t app_list_loaded(struct app *app);

#endif
