#ifndef STENO_CORE_COLWIDTH_H
#define STENO_CORE_COLWIDTH_H

/* Widths of table columns from their content and the room there is. Each column says the
 * least it can be shown in (min), what its content wants (want: its widest cell, header
 * included, measured in terminal cells by the caller) and how eagerly it takes slack
 * (grow: 0 never beyond want; otherwise the order in which columns get room past their
 * want, 1 first: Name, then Tags). Pure, no allocation beyond the caller's arrays. */

#include <stddef.h>

struct colwidth_spec {
	int min;     /* at least this many cells when shown */
	int want;    /* the widest content; clamped to >= min */
	int grow;    /* 0: no slack; 1, 2 ...: takes leftover room in this order */
	int drop;    /* 0: always shown; 1, 2 ...: dropped first (1 first) when even the
	              * minimums do not fit */
};

/* Fills width[i] for n columns in `total` cells, `gap` cells between two shown columns.
 * 1. every column gets min; a column that does not fit is dropped (width 0) in drop order;
 * 2. the room left brings columns towards want: first the growing ones in grow order
 *    (Name before Tags), then the others left to right;
 * 3. what remains goes to the growing columns in grow order (the first takes it all);
 * 4. while the first growing column (Name) is below its want, the columns that drop no
 *    later than a later growing one (Tags) leave, least needed first (Cost, then Tags):
 *    the slack is Name's before it is theirs, and a Tags column at its minimum reads
 *    "inter…".
 * Returns the number of columns shown. total or n <= 0 (or n > 64): every width 0. */
int colwidth_allocate(const struct colwidth_spec *spec, size_t n, int total, int gap, int *width);

#endif
