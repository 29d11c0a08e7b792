/* Screen tests of the TUI against a sandbox: layout, navigation, paging, filters, sort,
 * marks, details. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "panes_fixture.h"

static struct pf f;
static const char *const demo30[] = { "--seed-demo", "30", "--page-size", "10", NULL };

static void teardown(void)
{
	pf_close(&f);
}

static void open_demo(int rows, int cols)
{
	struct pf_opts o = { .rows = rows, .cols = cols, .sandbox_args = demo30 };
	pf_open(&f, &o);
}

TestSuite(browse, .fini = teardown);

Test(browse, first_screen_lists_the_first_page)
{
	open_demo(30, 120);
	pf_golden(&f, "panes-browse-120x30.txt");
}

Test(browse, moving_the_cursor_shows_the_details)
{
	open_demo(30, 120);
	pf_keys(&f, "j j");
	pf_golden(&f, "panes-moved-120x30.txt");
	pf_expect(&f, "State       automatic_done");
}

Test(browse, scrolling_near_the_end_loads_page_two)
{
	open_demo(12, 120);   /* nine rows: the first page fills them */
	pf_expect(&f, "Transcriptions 10+");
	pf_keys(&f, "j j j");
	pf_expect(&f, "Transcriptions 10+");
	pf_keys(&f, "j j");   /* five rows from the end */
	pf_expect(&f, "Transcriptions 20+");
	pf_keys(&f, "G");     /* every page */
	pf_reject(&f, "+ ");
	pf_expect(&f, "Transcriptions 43 ");
}

Test(browse, text_filter_and_clear)
{
	open_demo(30, 120);
	pf_keys(&f, "G / P o d c a s t <Enter>");
	pf_expect(&f, "/Podcast");
	pf_golden(&f, "panes-filtered-120x30.txt");
	pf_keys(&f, "\\");
	pf_reject(&f, "/Podcast");
}

Test(browse, nothing_matches_says_so)
{
	open_demo(30, 120);
	pf_keys(&f, "/ z z z q <Enter>");
	pf_expect(&f, "Nothing matches the filter.");
}

Test(browse, tag_filter_asks_the_server)
{
	open_demo(30, 120);
	pf_keys(&f, "t l e g a l <Enter>");
	pf_expect(&f, "tag:legal");
	char *t = pf_text(&f);
	/* every row shown carries the tag */
	cr_assert(strstr(t, "legal"), "%s", t);
	cr_assert_null(strstr(t, " draft "), "%s", t);
	free(t);
}

Test(browse, sort_by_name_and_reverse)
{
	open_demo(30, 120);
	pf_keys(&f, "G s <Down> <Enter>");   /* the picker's second key */
	pf_expect(&f, "sort:name");
	pf_golden(&f, "panes-sorted-120x30.txt");
	pf_keys(&f, "S");
	pf_expect(&f, "sort:name ↓");
}

Test(browse, marks_are_counted)
{
	open_demo(30, 120);
	pf_keys(&f, "<Space> <Space>");
	pf_expect(&f, "2 marked");
	pf_keys(&f, "U");
	pf_reject(&f, "marked");
	pf_keys(&f, "M");
	pf_expect(&f, "30 marked");   /* the three pages that fill the pane */
}

Test(browse, failure_reason_and_message_in_details)
{
	open_demo(30, 120);
	pf_keys(&f, "G / s t a t e : f a i l e d <Enter>");
	pf_expect(&f, "Failure     download_failed");
	pf_keys(&f, "j");
	pf_expect(&f, "Failure     unsupported_media");
	/* the message whole, wrapped at spaces */
	pf_expect(&f, "Message     no audio could be\n");
	pf_expect(&f, "recognized in the\n");
	pf_expect(&f, "media file\n");
	pf_expect(&f, "6abeaa099ebf");           /* the id whole, on a second row */
	pf_reject(&f, "Delivery");               /* no estimate on a failed item */
	pf_reject(&f, "overdue");
	pf_golden(&f, "panes-failed-details-120x30.txt");
}

Test(browse, focus_keys_and_organizations_pane)
{
	open_demo(30, 120);
	pf_keys(&f, "1");
	pf_keys(&f, "<Enter>");   /* the same organization: the list stays */
	pf_expect(&f, "Transcriptions 30+");
	pf_keys(&f, "4");
	pf_expect(&f, "Nothing watched.");
	pf_golden(&f, "panes-activity-empty-120x30.txt");
}

Test(browse, learned_folders_are_listed_and_selectable)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30,
		.learned_folder = "424242:/Podcasts/2024" };
	pf_open(&f, &o);
	pf_expect(&f, "  /Podcasts/2024");
	pf_keys(&f, "1 j <Enter>");
	/* the status bar names the folder; the sandbox knows no such folder */
	pf_expect(&f, "/Podcasts/2024");
	pf_reject(&f, "Transcriptions 30+");
	pf_keys(&f, "1 k <Enter>");
	pf_expect(&f, "Transcriptions 30+");
}

Test(browse, mouse_click_selects_and_wheel_scrolls)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30, .mouse = 1 };
	pf_open(&f, &o);
	MEVENT ev = { .x = 40, .y = 4, .bstate = BUTTON1_CLICKED };
	cr_assert_eq(ungetmouse(&ev), OK);
	pf_settle(&f);
	pf_expect(&f, "Name        Entrevista");   /* the third row */
	MEVENT wheel = { .x = 40, .y = 10, .bstate = BUTTON5_PRESSED };
	cr_assert_eq(ungetmouse(&wheel), OK);
	pf_settle(&f);
	pf_expect(&f, "Name        会議の録音 27");   /* three rows further */
}

Test(browse, pages_load_until_the_pane_is_full_and_no_further)
{
	open_demo(40, 120);
	/* 37 rows to fill, pages of 10: four pages, one after another, not a fifth */
	pf_expect(&f, "Transcriptions 40+");
	pf_resize(&f, 60, 120);   /* a taller pane wants the rest */
	pf_settle(&f);
	pf_expect(&f, "Transcriptions 43 ");
}

Test(browse, status_bar_hints_the_keys_when_there_is_room)
{
	open_demo(40, 120);
	pf_expect(&f, "?:help  q:quit");
	pf_golden(&f, "panes-hint-120x40.txt");
	pf_keys(&f, "s <Down> <Enter>");   /* a notice keeps its place beside the hint */
	pf_expect(&f, "sorted by name");
	pf_expect(&f, "?:help  q:quit");
	pf_resize(&f, 24, 45);   /* narrow: the hint goes first, the notice stays */
	pf_reject(&f, "q:quit");
	pf_expect(&f, "sorted by name");
}

/* In a dialog q types into a field: the hint shows the dialog's keys, and the browse hint
 * comes back when it closes. */
Test(browse, status_bar_hints_the_dialog_keys_while_one_is_open)
{
	open_demo(40, 120);
	pf_expect(&f, "?:help  q:quit");
	pf_keys(&f, "a");
	pf_expect(&f, "<Esc>:cancel  <Enter>:submit");
	pf_reject(&f, "q:quit");
	pf_keys(&f, "<Esc>");
	pf_expect(&f, "?:help  q:quit");
	pf_reject(&f, "<Esc>:cancel");
}
