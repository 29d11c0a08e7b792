#ifndef STENO_UI_PANE_LIST_H
#define STENO_UI_PANE_LIST_H

/* The transcriptions pane of the TUI: pane_new(&list_pane_ops, ctx, app) with the struct app of
 * ui/app.h as the argument (borrowed; the app outlives its panes). */

#include "ui/pane.h"
#include "ui/theme.h"

extern const struct pane_ops list_pane_ops;

/* A transcription state as shown in lists ("automatic_done" -> "done"); a static string,
 * or s itself. */
const char *pane_list_state_label(const char *s);
/* The theme element for a transcription state. */
enum theme_elem pane_list_state_elem(const char *s);

#endif
