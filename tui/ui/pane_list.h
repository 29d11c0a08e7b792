#ifndef STENO_UI_PANE_LIST_H
#define STENO_UI_PANE_LIST_H

/* The transcriptions pane of the TUI: pane_new(&list_pane_ops, ctx, app) with the struct app of
 * ui/app.h as the argument (borrowed; the app outlives its panes). */

#include "ui/pane.h"
#include "ui/theme.h"

struct app;

extern const struct pane_ops list_pane_ops;

/* The columns the pane shows (bits of enum list_column, core/columns.h; Name always),
 * from the config's `columns` at first, and a new choice (`:columns`), drawn next. */
unsigned pane_list_columns(const struct app *app);
void pane_list_set_columns(struct app *app, unsigned shown);

/* A transcription state as shown in lists ("automatic_done" -> "done"); a static string,
 * or s itself. */
const char *pane_list_state_label(const char *s);
/* The theme element for a transcription state. */
enum theme_elem pane_list_state_elem(const char *s);

#endif
