#ifndef STENO_UI_DIALOG_POPUP_H
#define STENO_UI_DIALOG_POPUP_H

/* A small popup with a title and text (the editor URL when OSC 52 is off or may be ignored:
 * the text can be selected with the terminal's own mouse selection). Any key closes it. */

#include "ui/pane.h"

struct dialog_popup_arg {
	const char *title;
	const char *text;   /* untrusted: sanitized when drawn; each '\n' starts a line */
};

/* pane_new's arg: a const struct dialog_popup_arg * (copied). */
extern const struct pane_ops dialog_popup_ops;
/* The same popup as a question before quitting (what would be lost): q or y quits
 * (PANE_QUIT), any other key closes it and steno stays. */
extern const struct pane_ops dialog_quit_ops;
/* A frame_fit_fn (ui/frame.h): the rows its text needs at that width. */
int dialog_popup_fit(const struct pane *p, int cols);

#endif
