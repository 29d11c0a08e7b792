#ifndef STENO_UI_LISTVIEW_H
#define STENO_UI_LISTVIEW_H

/* Cursor and scrolling of a list of `count` rows shown in `rows` lines: the logic
 * every list pane shares (moving, paging, keeping the cursor visible, clamping when
 * the list shrinks). Pure, no curses. */

#include "ui/actions.h"

/* Ownership: plain value inside a pane's data. */
struct listview {
	int count;    /* rows in the list */
	int rows;     /* lines available on screen */
	int cursor;   /* selected row, 0 <= cursor < count (0 when empty) */
	int top;      /* first row shown */
};

/* Sets count and rows (after data or size changes), keeping cursor and top valid. */
void listview_resize(struct listview *lv, int count, int rows);

/* Applies a movement action (move-up/down, page, half page, top, bottom). Returns 1
 * if cursor or top changed, 0 if not, -1 if act is not a movement. */
int listview_action(struct listview *lv, enum action_id act);

/* Moves the cursor to row (clamped) and scrolls it into view. Returns 1 if changed. */
int listview_select(struct listview *lv, int row);

/* Whether the cursor is within `margin` rows of the end: load the next page. */
int listview_near_end(const struct listview *lv, int margin);

#endif
