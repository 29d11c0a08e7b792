#ifndef STENO_UI_LAYOUT_H
#define STENO_UI_LAYOUT_H

/* Column fitting for list panes, as strings (no curses). A table is described by
 * columns with a minimum and a preferred width and a drop rank: when the width is
 * too small for every column's minimum, the column with the highest drop rank goes
 * first. The flex column (at most one) is never dropped and takes what is left. */

#include <stddef.h>
#include <wchar.h>

#include "core/columns.h"
#include "ui/text.h"

struct layout_col {
	const char *title;     /* header text */
	int min, pref;         /* columns; pref >= min */
	int drop_rank;         /* higher drops first; the flex column is never dropped */
	int flex;              /* nonzero: grows to pref by rank, then takes what is left */
	enum text_align align;
};

/* Computes the width of every column (0 = dropped) for a total `width` with `gap`
 * spaces between visible columns. Returns the number of visible columns. */
int layout_fit(const struct layout_col *cols, size_t n, int width, int gap, int *widths);

/* Widths from content through core/colwidth: want[i] is column i's widest cell, header
 * included, in terminal cells (measured by the caller). grow[i] 0: the column is kept whole
 * up to its pref (never cut below that: dropped instead; wider content is cut only when room
 * lacks); 1, 2 ...: cut down to its min when room lacks, takes the slack in this order.
 * Columns whose bit is set in `hidden` get 0. Drop order: the highest drop_rank first, the
 * flex column and column `keep` (the sorted one; -1: none) never. Returns the number of
 * visible columns (n <= 64). */
int layout_fit_content(const struct layout_col *cols, size_t n, const int *want,
	const unsigned char *grow, unsigned hidden, int keep, int width, int gap, int *widths);

/* Renders one row: cells[i] is untrusted UTF-8 (NULL = empty) sanitized here and fitted
 * to widths[i]; dropped columns are skipped. The line takes exactly `width` columns
 * (sum of visible widths and gaps, padded to width). out holds `cap` wide chars.
 * Returns 0, or -1 when out of memory or cap is too small. */
int layout_render_row(const struct layout_col *cols, size_t n, const int *widths, int gap,
	int width, const char *const *cells, unsigned flags, wchar_t *out, size_t cap);

/* The header line: the titles rendered like a row. */
int layout_render_header(const struct layout_col *cols, size_t n, const int *widths, int gap,
	int width, unsigned flags, wchar_t *out, size_t cap);

/* The transcription table: name, state, language, length, cost, created, tags. */
enum layout_tr_col {
	LAYOUT_TR_NAME, LAYOUT_TR_STATE, LAYOUT_TR_LANGUAGE, LAYOUT_TR_LENGTH,
	LAYOUT_TR_COST, LAYOUT_TR_CREATED, LAYOUT_TR_TAGS, LAYOUT_TR_COUNT
};
extern const struct layout_col layout_transcription_cols[LAYOUT_TR_COUNT];

/* The browser's transcription list (ui/pane_list.c), fitted to content: indexed by enum
 * list_column (core/columns.h); LAYOUT_LIST_GROW initializes the grow order (Name, then
 * Tags take the slack). */
extern const struct layout_col layout_list_cols[LISTCOL_COUNT];
#define LAYOUT_LIST_GROW [LISTCOL_NAME] = 1, [LISTCOL_TAGS] = 2

#endif
