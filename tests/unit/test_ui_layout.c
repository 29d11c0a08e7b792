/* ui/layout: the transcription table's columns at different widths. */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <stdlib.h>

#include "ui/layout.h"
#include "ui/listview.h"

static void utf8_locale(void)
{
	cr_assert_not_null(setlocale(LC_ALL, "C.UTF-8"));
}

TestSuite(layout, .init = utf8_locale);

#define TR layout_transcription_cols, LAYOUT_TR_COUNT

static int total(const int *w, int gap)
{
	int sum = 0, n = 0;
	for (int i = 0; i < LAYOUT_TR_COUNT; i++)
		if (w[i]) {
			sum += w[i];
			n++;
		}
	return sum + (n > 1 ? (n - 1) * gap : 0);
}

Test(layout, wide_terminal_shows_everything_and_name_flexes)
{
	int w[LAYOUT_TR_COUNT];
	cr_assert_eq(layout_fit(TR, 200, 1, w), LAYOUT_TR_COUNT);
	cr_assert_eq(total(w, 1), 200);
	for (int i = 1; i < LAYOUT_TR_COUNT; i++)
		cr_assert_eq(w[i], layout_transcription_cols[i].pref, "column %d", i);
	cr_assert_gt(w[LAYOUT_TR_NAME], layout_transcription_cols[LAYOUT_TR_NAME].pref);
}

Test(layout, columns_drop_in_order_as_width_shrinks)
{
	int w[LAYOUT_TR_COUNT];
	/* all minimums: 12+9+5+7+8+8+6 = 55 plus 6 gaps = 61 */
	cr_assert_eq(layout_fit(TR, 61, 1, w), 7);
	cr_assert_eq(layout_fit(TR, 60, 1, w), 6);
	cr_assert_eq(w[LAYOUT_TR_TAGS], 0);
	cr_assert_eq(layout_fit(TR, 50, 1, w), 5);
	cr_assert_eq(w[LAYOUT_TR_COST], 0);
	cr_assert_eq(layout_fit(TR, 40, 1, w), 4);
	cr_assert_eq(w[LAYOUT_TR_CREATED], 0);
	cr_assert_neq(w[LAYOUT_TR_LENGTH], 0);
	cr_assert_eq(layout_fit(TR, 22, 1, w), 2);
	cr_assert_neq(w[LAYOUT_TR_STATE], 0);
	cr_assert_eq(total(w, 1), 22);
	cr_assert_eq(layout_fit(TR, 8, 1, w), 1);
	cr_assert_eq(w[LAYOUT_TR_NAME], 8);
}

Test(layout, extra_width_goes_to_important_columns_first)
{
	int w[LAYOUT_TR_COUNT];
	/* 61 + 20: the name (rank 0) grows to its preferred 32 first */
	layout_fit(TR, 81, 1, w);
	cr_assert_eq(w[LAYOUT_TR_NAME], 32);
	cr_assert_eq(w[LAYOUT_TR_STATE], 9);
	/* then state (rank 1), then language, before tags */
	layout_fit(TR, 84, 1, w);
	cr_assert_eq(w[LAYOUT_TR_STATE], 11);
	cr_assert_eq(w[LAYOUT_TR_LANGUAGE], 6);
	cr_assert_eq(w[LAYOUT_TR_TAGS], 6);
	cr_assert_eq(total(w, 1), 84);
}

Test(layout, every_width_fills_exactly)
{
	int w[LAYOUT_TR_COUNT];
	for (int width = 12; width < 240; width++) {
		layout_fit(TR, width, 2, w);
		cr_assert_eq(total(w, 2), width, "width %d", width);
	}
}

Test(layout, rows_render_aligned_with_cjk_and_hostile_cells)
{
	int w[LAYOUT_TR_COUNT];
	wchar_t a[512], b[512], h[512];
	const char *plain[] = { "meeting.mp3", "done", "en", "1:02:03", "€12.34", "3m ago", "a,b" };
	const char *cjk[] = { "会議の録音ファイル名がとても長い", "working", "ja", "0:45", "€0.50", "just now", "東京" };
	layout_fit(TR, 80, 1, w);
	cr_assert_eq(layout_render_row(TR, w, 1, 80, plain, 0, a, 512), 0);
	cr_assert_eq(layout_render_row(TR, w, 1, 80, cjk, 0, b, 512), 0);
	cr_assert_eq(layout_render_header(TR, w, 1, 80, 0, h, 512), 0);
	cr_assert_eq(text_width(a), 80);
	cr_assert_eq(text_width(b), 80);
	cr_assert_eq(text_width(h), 80);
	/* the state column starts at the same column in every row */
	int col = w[LAYOUT_TR_NAME] + 1, x = 0;
	size_t i = 0;
	while (x < col)
		x += text_char_width(b[i++]);
	cr_assert_eq(x, col);
	cr_assert_eq(wcsncmp(b + i, L"working", 7), 0);
	const char *evil[] = { "\x1b[2J\x1b]0;pwn\x07\xe2\x80\xae" "evil", "\x9b" "31m", NULL, NULL, NULL, NULL, NULL };
	cr_assert_eq(layout_render_row(TR, w, 1, 80, evil, 0, a, 512), 0);
	cr_assert_eq(text_width(a), 80);
	for (i = 0; a[i]; i++)
		cr_assert(a[i] >= 32 && a[i] != 0x7f && a[i] != 0x202e, "control %x", (unsigned)a[i]);
}

Test(layout, render_reports_small_buffer)
{
	int w[LAYOUT_TR_COUNT];
	wchar_t out[16];
	layout_fit(TR, 80, 1, w);
	cr_assert_eq(layout_render_header(TR, w, 1, 80, 0, out, 16), -1);
}

Test(listview, moves_and_scrolls)
{
	struct listview lv = { 0 };
	listview_resize(&lv, 100, 10);
	cr_assert_eq(listview_action(&lv, ACT_MOVE_UP), 0);
	cr_assert_eq(listview_action(&lv, ACT_MOVE_DOWN), 1);
	cr_assert_eq(lv.cursor, 1);
	for (int i = 0; i < 9; i++)
		listview_action(&lv, ACT_MOVE_DOWN);
	cr_assert_eq(lv.cursor, 10);
	cr_assert_eq(lv.top, 1);
	listview_action(&lv, ACT_PAGE_DOWN);
	cr_assert_eq(lv.cursor, 20);
	cr_assert_eq(lv.top, 11);
	listview_action(&lv, ACT_HALF_PAGE_UP);
	cr_assert_eq(lv.cursor, 15);
	cr_assert_eq(lv.top, 6);
	listview_action(&lv, ACT_MOVE_BOTTOM);
	cr_assert_eq(lv.cursor, 99);
	cr_assert_eq(lv.top, 90);
	cr_assert(listview_near_end(&lv, 5));
	cr_assert_eq(listview_action(&lv, ACT_PAGE_DOWN), 0);
	listview_action(&lv, ACT_MOVE_TOP);
	cr_assert_eq(lv.cursor, 0);
	cr_assert_eq(lv.top, 0);
	cr_assert_eq(listview_action(&lv, ACT_PAGE_UP), 0);
	cr_assert_eq(listview_action(&lv, ACT_QUIT), -1);
}

Test(listview, shrinking_list_and_window_keep_cursor_valid)
{
	struct listview lv = { 0 };
	listview_resize(&lv, 100, 10);
	listview_select(&lv, 95);
	listview_resize(&lv, 20, 10);
	cr_assert_eq(lv.cursor, 19);
	cr_assert_eq(lv.top, 10);
	listview_resize(&lv, 20, 30);
	cr_assert_eq(lv.top, 0);
	listview_resize(&lv, 0, 5);
	cr_assert_eq(lv.cursor, 0);
	cr_assert_eq(lv.top, 0);
	cr_assert_eq(listview_action(&lv, ACT_MOVE_DOWN), 0);
	listview_resize(&lv, 3, 0);
	cr_assert_eq(lv.rows, 1);
}
