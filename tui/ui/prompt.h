#ifndef STENO_UI_PROMPT_H
#define STENO_UI_PROMPT_H

/* The `:` prompt on the last line: type an action name (Tab completes the longest
 * common prefix, a unique prefix is enough), Enter runs it, Esc cancels. Unknown or
 * ambiguous names are reported on the prompt line itself. The line takes the readline
 * keys (ui/line_input.h); Up/Down browse the names entered before. pane_new's argument is
 * the history (struct line_history *, borrowed; NULL: none). */

#include <stddef.h>

#include "ui/pane.h"

extern const struct pane_ops prompt_pane_ops;

/* The prompt's decision for text, as a pure function: the action to run (> 0),
 * ACT_NONE with msg set when nothing or several match. */
int prompt_resolve(const char *text, char *msg, size_t size);

#endif
