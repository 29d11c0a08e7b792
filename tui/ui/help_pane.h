#ifndef STENO_UI_HELP_PANE_H
#define STENO_UI_HELP_PANE_H

/* The `?` overlay: every action with its keys, generated from the actions table and
 * the current keymap; write actions greyed in read-only mode. Scrolls with the list
 * keys; q, Esc, ? or F1 close it. */

#include "ui/pane.h"

extern const struct pane_ops help_pane_ops;

#endif
