/* List cursor and scrolling. */
#include "config.h"

#include "ui/listview.h"

static void listview_clamp(struct listview *lv)
{
	if (lv->count < 0)
		lv->count = 0;
	if (lv->rows < 1)
		lv->rows = 1;
	if (lv->cursor >= lv->count)
		lv->cursor = lv->count - 1;
	if (lv->cursor < 0)
		lv->cursor = 0;
	if (lv->top > lv->cursor)
		lv->top = lv->cursor;
	if (lv->top < lv->cursor - lv->rows + 1)
		lv->top = lv->cursor - lv->rows + 1;
	/* no empty lines below the end while rows above are hidden */
	if (lv->top > lv->count - lv->rows)
		lv->top = lv->count - lv->rows;
	if (lv->top < 0)
		lv->top = 0;
}

void listview_resize(struct listview *lv, int count, int rows)
{
	lv->count = count;
	lv->rows = rows;
	listview_clamp(lv);
}

int listview_select(struct listview *lv, int row)
{
	int cursor = lv->cursor, top = lv->top;

	lv->cursor = row;
	listview_clamp(lv);
	return cursor != lv->cursor || top != lv->top;
}

/* Paging moves the view and the cursor together, like less and tig. */
static int listview_page(struct listview *lv, int delta)
{
	int cursor = lv->cursor, top = lv->top;

	lv->top += delta;
	lv->cursor += delta;
	if (lv->top < 0)
		lv->top = 0;
	listview_clamp(lv);
	return cursor != lv->cursor || top != lv->top;
}

int listview_action(struct listview *lv, enum action_id act)
{
	int half = lv->rows / 2 > 0 ? lv->rows / 2 : 1;

	switch (act) {
	case ACT_MOVE_DOWN: return listview_select(lv, lv->cursor + 1);
	case ACT_MOVE_UP: return listview_select(lv, lv->cursor - 1);
	case ACT_PAGE_DOWN: return listview_page(lv, lv->rows);
	case ACT_PAGE_UP: return listview_page(lv, -lv->rows);
	case ACT_HALF_PAGE_DOWN: return listview_page(lv, half);
	case ACT_HALF_PAGE_UP: return listview_page(lv, -half);
	case ACT_MOVE_TOP: return listview_select(lv, 0);
	case ACT_MOVE_BOTTOM: return listview_select(lv, lv->count - 1);
	default: return -1;
	}
}

int listview_near_end(const struct listview *lv, int margin)
{
	return lv->count - 1 - lv->cursor <= margin;
}
