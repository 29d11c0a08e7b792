/* ui/layout: the transcription table's columns at different widths. */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <stdlib.h>

#include "ui/layout.h"
#include "ui/listview.h"
#include "ui/table.h"

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

/* ---- the transcription list fitted to its content (layout_fit_content) ---- */

#define LIST layout_list_cols, LISTCOL_COUNT
static const unsigned char list_grow[LISTCOL_COUNT] = { LAYOUT_LIST_GROW };

/* The widest cells of a screen of the sandbox's demo with a 40-cell name, headers included. */
static void demo_wants(int *want, int name, int tags)
{
	want[LISTCOL_NAME] = name;
	want[LISTCOL_STATE] = 12;     /* "transcribing" */
	want[LISTCOL_LANGUAGE] = 5;   /* "pt-BR" */
	want[LISTCOL_LENGTH] = 6;     /* "Length" */
	want[LISTCOL_COST] = 5;       /* "19.50" */
	want[LISTCOL_CREATED] = 10;   /* "1h 00m ago" */
	want[LISTCOL_TAGS] = tags;
}

static int list_total(const int *w)
{
	int sum = 0, n = 0;
	for (int i = 0; i < LISTCOL_COUNT; i++)
		if (w[i]) {
			sum += w[i];
			n++;
		}
	return sum + (n > 1 ? n - 1 : 0);
}

Test(layout, content_fit_at_200_columns_shows_a_40_cell_name_and_every_cell_whole)
{
	int want[LISTCOL_COUNT], w[LISTCOL_COUNT];
	demo_wants(want, 40, 18);
	/* the list pane of a 200-column terminal: 109 columns, 2 of gutter */
	cr_assert_eq(layout_fit_content(LIST, want, list_grow, 0, -1, 107, 1, w), LISTCOL_COUNT);
	for (int i = 0; i < LISTCOL_COUNT; i++)
		cr_assert_geq(w[i], want[i], "column %d: %d < %d", i, w[i], want[i]);
	cr_assert_eq(list_total(w), 107, "the room is used");
	cr_assert_eq(w[LISTCOL_CREATED], 10, "fixed columns take their content, no more");
	cr_assert_gt(w[LISTCOL_NAME], 40, "what is left goes to Name");
}

Test(layout, content_fit_gives_the_slack_to_name_then_tags)
{
	int want[LISTCOL_COUNT], w[LISTCOL_COUNT];
	demo_wants(want, 40, 30);
	layout_fit_content(LIST, want, list_grow, 0, -1, 107, 1, w);
	cr_assert_eq(w[LISTCOL_NAME], 40, "Name whole first");
	cr_assert_eq(w[LISTCOL_TAGS], 107 - 40 - 12 - 5 - 6 - 5 - 10 - 6, "Tags get the rest");
	cr_assert_eq(w[LISTCOL_CREATED], 10, "Created is never cut to make room");
}

Test(layout, content_fit_drops_the_least_needed_columns_first_never_name)
{
	int want[LISTCOL_COUNT], w[LISTCOL_COUNT];
	static const int order[] = { LISTCOL_COST, LISTCOL_TAGS, LISTCOL_LENGTH, LISTCOL_LANGUAGE,
				     LISTCOL_CREATED, LISTCOL_STATE };
	demo_wants(want, 18, 20);   /* names whole at Name's minimum: Tags may show */
	/* all minimums: 18 + 12 + 5 + 6 + 5 + 10 + 6 + 6 gaps = 68 */
	cr_assert_eq(layout_fit_content(LIST, want, list_grow, 0, -1, 68, 1, w), LISTCOL_COUNT);
	int width = 68;
	for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
		width -= 1;   /* one cell short: the next column goes, the ones before it too */
		int shown = layout_fit_content(LIST, want, list_grow, 0, -1, width, 1, w);
		cr_assert_eq(shown, LISTCOL_COUNT - 1 - (int)k, "at %d", width);
		for (size_t j = 0; j <= k; j++)
			cr_assert_eq(w[order[j]], 0, "at %d column %d", width, order[j]);
		cr_assert_geq(w[LISTCOL_NAME], 18);
		cr_assert_leq(list_total(w), width);
		/* the next step: exactly the minimums left (the slack went to Name and Tags) */
		width -= w[LISTCOL_NAME] - 18 + (w[LISTCOL_TAGS] ? w[LISTCOL_TAGS] - 6 : 0);
	}
	/* at 80 columns (a 42-cell list): Name, State and Created */
	cr_assert_eq(layout_fit_content(LIST, want, list_grow, 0, -1, 42, 1, w), 3);
	cr_assert(w[LISTCOL_NAME] && w[LISTCOL_STATE] && w[LISTCOL_CREATED]);
	/* narrower than Name's minimum: Name alone, cut to what there is */
	cr_assert_eq(layout_fit_content(LIST, want, list_grow, 0, -1, 10, 1, w), 1);
	cr_assert_eq(w[LISTCOL_NAME], 10);
}

Test(layout, content_fit_cost_and_tags_give_way_to_a_cut_name)
{
	int want[LISTCOL_COUNT], w[LISTCOL_COUNT];
	demo_wants(want, 40, 24);
	/* the list of a 120-column terminal: every minimum fits (65 + 6 gaps), but Name would
	 * be cut to 18 and Tags read "inter…": Cost, then Tags leave, Name takes their room */
	cr_assert_eq(layout_fit_content(LIST, want, list_grow, 0, -1, 71, 1, w), LISTCOL_COUNT - 2);
	cr_assert_eq(w[LISTCOL_COST], 0);
	cr_assert_eq(w[LISTCOL_TAGS], 0);
	cr_assert_eq(w[LISTCOL_NAME], 71 - 12 - 5 - 6 - 10 - 4, "%d", w[LISTCOL_NAME]);
	/* Name whole once Cost left: Tags stays and takes the rest */
	demo_wants(want, 24, 24);
	layout_fit_content(LIST, want, list_grow, 0, -1, 71, 1, w);
	cr_assert_eq(w[LISTCOL_COST], 0);
	cr_assert_eq(w[LISTCOL_NAME], 24);
	cr_assert_eq(w[LISTCOL_TAGS], 71 - 24 - 12 - 5 - 6 - 10 - 5);
	/* sorted by cost, Cost stays (the sort's column is kept), Tags goes */
	demo_wants(want, 40, 24);
	layout_fit_content(LIST, want, list_grow, 0, LISTCOL_COST, 71, 1, w);
	cr_assert_eq(w[LISTCOL_COST], 5);
	cr_assert_eq(w[LISTCOL_TAGS], 0);
}

Test(layout, content_fit_leaves_hidden_columns_out_and_cuts_long_content_at_pref)
{
	int want[LISTCOL_COUNT], w[LISTCOL_COUNT];
	demo_wants(want, 40, 18);
	unsigned hidden = LISTCOL_BIT(LISTCOL_LENGTH) | LISTCOL_BIT(LISTCOL_COST);
	cr_assert_eq(layout_fit_content(LIST, want, list_grow, hidden, -1, 107, 1, w), 5);
	cr_assert_eq(w[LISTCOL_LENGTH], 0);
	cr_assert_eq(w[LISTCOL_COST], 0);
	cr_assert_eq(list_total(w), 107);
	/* "cmn-Hans-CN" (11) in Lang, pref 8: whole with room, cut to 8 before anything drops */
	want[LISTCOL_LANGUAGE] = 11;
	layout_fit_content(LIST, want, list_grow, 0, -1, 120, 1, w);
	cr_assert_eq(w[LISTCOL_LANGUAGE], 11);
	want[LISTCOL_NAME] = 18;   /* whole at its minimum: Cost and Tags need not give way */
	layout_fit_content(LIST, want, list_grow, 0, -1, 18 + 12 + 8 + 6 + 5 + 10 + 6 + 6, 1, w);
	cr_assert_eq(w[LISTCOL_LANGUAGE], 8);
	cr_assert_eq(w[LISTCOL_COST], 5, "nothing dropped");
}

Test(layout, content_fit_keeps_the_sorted_column_on_a_narrow_pane)
{
	int want[LISTCOL_COUNT], w[LISTCOL_COUNT];
	demo_wants(want, 30, 20);
	/* at 80 columns Cost is the first to go; sorted by cost it stays, others go instead */
	layout_fit_content(LIST, want, list_grow, 0, -1, 42, 1, w);
	cr_assert_eq(w[LISTCOL_COST], 0);
	layout_fit_content(LIST, want, list_grow, 0, LISTCOL_COST, 42, 1, w);
	cr_assert_eq(w[LISTCOL_COST], 5);
	cr_assert_geq(w[LISTCOL_NAME], 18);
	cr_assert_leq(list_total(w), 42);
	/* hidden by choice stays hidden */
	layout_fit_content(LIST, want, list_grow, LISTCOL_BIT(LISTCOL_COST), LISTCOL_COST, 42, 1, w);
	cr_assert_eq(w[LISTCOL_COST], 0);
}

Test(layout, the_sorted_column_title_carries_an_arrow)
{
	struct table_view tv = { layout_list_cols, LISTCOL_COUNT, 1, 1, 0 };
	struct table_fit fit = { .sort_col = LISTCOL_NAME };
	char buf[48];
	table_title(&tv, &fit, LISTCOL_NAME, buf, sizeof buf);
	cr_assert_str_eq(buf, "Name \u25b2");
	table_title(&tv, &fit, LISTCOL_STATE, buf, sizeof buf);
	cr_assert_str_eq(buf, "State");
	fit.descending = true;
	table_title(&tv, &fit, LISTCOL_NAME, buf, sizeof buf);
	cr_assert_str_eq(buf, "Name \u25bc");
	tv.flags = TEXT_ASCII;
	table_title(&tv, &fit, LISTCOL_NAME, buf, sizeof buf);
	cr_assert_str_eq(buf, "Name v");
	fit.descending = false;
	table_title(&tv, &fit, LISTCOL_NAME, buf, sizeof buf);
	cr_assert_str_eq(buf, "Name ^");
	fit.sort_col = -1;
	table_title(&tv, &fit, LISTCOL_NAME, buf, sizeof buf);
	cr_assert_str_eq(buf, "Name");
	table_title(&tv, NULL, LISTCOL_NAME, buf, sizeof buf);
	cr_assert_str_eq(buf, "Name");
}
