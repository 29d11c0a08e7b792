#ifndef STENO_TESTS_SCREEN_FAKE_PANES_H
#define STENO_TESTS_SCREEN_FAKE_PANES_H

/* Panes with fixed data for screen tests of the framework (the real panes need the
 * store): a transcription-like table, an organizations list and a log. */

#include "ui/pane.h"

struct fake_row {
	const char *cells[7];   /* name, state, language, length, cost, created, tags */
	int changing;
};

struct fake_table {
	const char *title;
	const struct fake_row *rows;
	int count;
};

extern const struct pane_ops fake_table_ops;   /* arg: const struct fake_table * */
extern const struct pane_ops fake_orgs_ops;    /* arg: NULL */
extern const struct pane_ops fake_log_ops;     /* arg: NULL; starts hidden */

/* Ten ordinary rows, and rows with hostile and wide strings. */
extern struct fake_table fake_plain_table;
extern struct fake_table fake_hostile_table;

#endif
