#ifndef STENO_UI_LIST_SORT_H
#define STENO_UI_LIST_SORT_H

/* The transcriptions pane's sort: a picker of the sort keys (s) over the list, the current
 * key marked with its direction; Enter picks, picking the current key again reverses it.
 * The form's picker (ui/form.h) does the listing, the search as you type and the keys. */

#include <stdbool.h>

#include "core/store.h"

struct app;

/* Opens the picker as an overlay on the app's frame. */
void list_sort_open(struct app *app);
/* Sorts the list by `key` in that direction and says so in the status line, with what a
 * list missing pages sorts (the loaded items) and how to load them all. */
void list_sort_apply(struct app *app, enum store_sort key, bool descending);

#endif
