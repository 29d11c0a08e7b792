#ifndef STENO_UI_DIALOG_COLUMNS_H
#define STENO_UI_DIALOG_COLUMNS_H

/* `:columns`: a checkbox per column of the transcription list (Name is always shown); Enter
 * shows the choice and saves it as `columns = ...` in the config file (env.config->file).
 * `:columns NAME,NAME...` does the same without the dialog (dialog_columns_apply). */

#include "ui/dialog_common.h"
#include "ui/pane.h"

/* pane_new's arg (copied). */
struct dialog_columns_arg {
	struct dialog_env env;                      /* the config file; status messages */
	unsigned shown;                             /* core/columns.h bits */
	void (*apply)(void *ud, unsigned shown);    /* the list shows them */
	void *ud;
};

extern const struct pane_ops dialog_columns_ops;

/* Shows `shown` (a->apply) and saves it in the config file; the status line says where, or
 * why it was not saved. */
void dialog_columns_apply(const struct dialog_columns_arg *a, unsigned shown);

#endif
