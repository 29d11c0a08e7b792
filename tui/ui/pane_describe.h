#ifndef STENO_UI_PANE_DESCRIBE_H
#define STENO_UI_PANE_DESCRIBE_H

/* The describe view (full-screen overlay) of one transcription, order, export or translation
 * task: every field of the server's answer, whole. */

#include "core/describe.h"
#include "ui/pane.h"

struct app;

extern const struct pane_ops describe_pane_ops;

/* Opens the view of a resource on top of everything and starts reading it. 0 or -1 (a
 * message is in the status bar). */
int app_describe(struct app *app, enum describe_kind kind, const char *id);

#endif
