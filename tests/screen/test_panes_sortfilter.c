/* Screen tests of the transcriptions pane's sort picker (s) and its filter as you type (/)
 * with the query language, against a sandbox, at 80x24, 120x40 and 200x50. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "panes_fixture.h"

static struct pf f;
static const char *const demo30[] = { "--seed-demo", "30", "--page-size", "10", NULL };
/* enough that even 200x50 has pages left on the server */
static const char *const demo60[] = { "--seed-demo", "60", "--page-size", "10", NULL };

static void teardown(void)
{
	pf_close(&f);
}

static void open_seed(int rows, int cols, const char *const *seed)
{
	struct pf_opts o = { .rows = rows, .cols = cols, .sandbox_args = seed };
	pf_open(&f, &o);
}

static void open_demo(int rows, int cols)
{
	open_seed(rows, cols, demo30);
}

TestSuite(sortfilter, .fini = teardown);

/* The digits of ages ("29m ago", "2h 20m ago"): the demo's times are seeded relative to the
 * sandbox's start, some a few seconds from a minute's boundary, so a slow run (valgrind on a
 * busy machine) saw "30m ago" where the golden had "29m ago". */
static void mask_ages(char *t)
{
	for (char *ago = strstr(t, " ago"); ago; ago = strstr(ago + 4, " ago")) {
		/* back over "2h 20m": a unit letter, its digits, then a space before another unit */
		char *p = ago - 1;
		while (p > t && strchr("hmsd", *p) && p[-1] >= '0' && p[-1] <= '9') {
			for (p--; p >= t && *p >= '0' && *p <= '9'; p--)
				*p = '~';
			if (p <= t || *p != ' ')
				break;
			p--;
		}
	}
}

/* pf_golden, with the digits right of an overlay's border masked: the overlay leaves only
 * the ends of the details' values in view ("0.0.1:41723" of a URL, "11:17" of a date),
 * which pf_text cannot recognise to mask; and the digits of ages. */
static void golden(const char *name)
{
	char *t = pf_text(&f);
	mask_ages(t);
	for (char *line = t; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char *end = strchr(line, '\n'), *border = NULL;
		static const char *const borders[] = { "│", "┐", "┘" };
		for (size_t b = 0; b < 3; b++)
			for (char *p = line; (p = strstr(p, borders[b])) && (!end || p < end); p += 3)
				border = p > border ? p : border;
		for (char *p = border; p && *p && p != end; p++)
			if (*p >= '0' && *p <= '9')
				*p = '~';
	}
	scr_golden(name, t);
	free(t);
}

/* ---- the sort picker ---- */

static void picker_golden(int rows, int cols)
{
	char name[64];

	open_seed(rows, cols, demo60);
	pf_keys(&f, "s");
	pf_expect(&f, "Sort the transcriptions");
	pf_expect(&f, "* Server order");
	pf_expect(&f, "loaded, more on the server");
	snprintf(name, sizeof name, "sortfilter-picker-%dx%d.txt", cols, rows);
	golden(name);
}

Test(sortfilter, picker_80x24) { picker_golden(24, 80); }
Test(sortfilter, picker_120x40) { picker_golden(40, 120); }
Test(sortfilter, picker_200x50) { picker_golden(50, 200); }

/* The position of needle on the screen (asserting it is there). */
static size_t screen_pos(const char *needle)
{
	char *t = pf_text(&f);
	const char *at = strstr(t, needle);
	cr_assert(at, "no '%s' on\n%s", needle, t);
	size_t pos = (size_t)(at - t);
	free(t);
	return pos;
}

Test(sortfilter, name_sort_is_natural_and_says_what_it_sorted)
{
	open_seed(50, 200, demo60);
	pf_keys(&f, "s n a m e <Enter>");
	pf_reject(&f, "Sort the transcriptions");
	pf_expect(&f, "sort:name");
	pf_expect(&f, "sorted by name: 50 loaded, A loads all");
	cr_assert_lt(screen_pos("Commande n°2 "), screen_pos("Commande n°10 "));
	cr_assert_lt(screen_pos("Commande n°9 "), screen_pos("Commande n°10 "));
	golden("sortfilter-by-name-200x50.txt");
	pf_keys(&f, "A");
	pf_expect(&f, "all 73 loaded, sorted by name");
	pf_expect(&f, "Transcriptions 73 ");
}

Test(sortfilter, picking_the_current_key_again_reverses_it)
{
	open_demo(40, 120);
	pf_keys(&f, "s <Down> <Enter>");
	pf_expect(&f, "sort:name  ");
	pf_keys(&f, "s");
	pf_expect(&f, "* Name");
	pf_expect(&f, "↑ Enter: descending");
	pf_keys(&f, "<Enter>");
	pf_expect(&f, "sort:name ↓");
	pf_expect(&f, "sorted by name, descending");
	pf_keys(&f, "s c o s t <Enter>");   /* another key starts ascending */
	pf_expect(&f, "sort:cost  ");
	pf_keys(&f, "s <Esc>");              /* Esc leaves it as it was */
	pf_expect(&f, "sort:cost  ");
	pf_reject(&f, "Sort the transcriptions");
}

/* ---- the filter as you type ---- */

/* The count the prompt line shows after each key of `typed` (one key at a time). */
static void type_and_expect(const char *keys, const char *const *counts, int n_counts)
{
	ui_key k[64];
	int n = scr_parse_script(keys, k, 64);

	cr_assert_eq(n, n_counts);
	for (int i = 0; i < n; i++) {
		scr_push_key(k[i]);
		pf_settle(&f);
		char want[64];
		snprintf(want, sizeof want, "    %s of 40 loaded match  Tab: load all", counts[i]);
		pf_expect(&f, want);
	}
}

/* Each key narrows (or widens) the list at once, with the count on the prompt line. */
Test(sortfilter, live_filter_counts_after_each_key)
{
	open_demo(40, 120);
	pf_keys(&f, "/");
	pf_expect(&f, "    40 of 40 loaded match  Tab: load all  Enter: keep  Esc: undo");
	/* "-" alone is an exclusion not yet written (all pass), "-d" leaves what has no d,
	 * "-dr" what has no "dr"; "la" and "lang" are words too until the colon makes a field */
	static const char *const counts[] = { "40", "1", "34", "34", "34", "34", "34", "16", "0",
		"0", "0", "34", "4", "2" };
	type_and_expect("- d r a f t <Space> l a n g : f r", counts, 14);
	pf_expect(&f, "Transcriptions 2/40+  /-draft lang:fr");
}

static void live_filter(int rows, int cols)
{
	char name[64];

	static const char typed[] = "-draft lang:fr";
	char line[64];

	open_seed(rows, cols, demo60);
	char *before = pf_text(&f);
	mask_ages(before);   /* a slow run sees "9s ago" turn to "10s ago" */
	pf_keys(&f, "/");
	/* after each key: the line so far, then the count of what it lets through */
	for (size_t i = 0; i < strlen(typed); i++) {
		pf_keys(&f, typed[i] == ' ' ? "<Space>" : (char[]){ typed[i], '\0' });
		snprintf(line, sizeof line, "/%.*s    ", (int)i + 1, typed);
		pf_expect(&f, line);
		pf_expect(&f, " loaded match  Tab: load all");
	}
	snprintf(name, sizeof name, "sortfilter-live-%dx%d.txt", cols, rows);
	golden(name);
	pf_keys(&f, "<Esc>");
	char *after = pf_text(&f);
	mask_ages(after);
	cr_assert_str_eq(after, before, "Esc did not restore the list");
	free(after);
	free(before);
}

Test(sortfilter, live_filter_80x24) { live_filter(24, 80); }
Test(sortfilter, live_filter_120x40) { live_filter(40, 120); }
Test(sortfilter, live_filter_200x50) { live_filter(50, 200); }

Test(sortfilter, enter_keeps_the_filter_and_tab_loads_every_page)
{
	open_demo(40, 120);
	pf_keys(&f, "/ s t a t e : f a i l e d");
	pf_expect(&f, "of 40 loaded match  Tab: load all");
	pf_keys(&f, "<Tab>");
	pf_expect(&f, "of 43 match  Enter: keep");
	pf_reject(&f, "Tab: load all");
	pf_keys(&f, "<Enter>");
	pf_expect(&f, "/state:failed");
	pf_expect(&f, "Transcriptions ");
	pf_reject(&f, " done ");
	/* the history brings the line back */
	pf_keys(&f, "\\ / <Up>");
	pf_expect(&f, "/state:failed ");
}

Test(sortfilter, a_query_that_does_not_parse_says_why_and_keeps_the_list)
{
	open_demo(40, 120);
	pf_keys(&f, "/ s t a t e : f");
	pf_expect(&f, "    3 of 40 loaded match");
	pf_keys(&f, "<C-a> x");   /* "xstate:f": no such field */
	pf_expect(&f, "/xstate:f    unknown field 'xstate' (state, lang, tag, cost)");
	/* the list is still what state:f showed */
	pf_expect(&f, "Transcriptions 3/40+  /state:f ");
	pf_expect_row(&f, "Commande n°5 — 注文", " failed ");
	pf_expect_row(&f, "Focus group #20 ", " failed ");
	pf_expect_row(&f, "Focus group #8 ", " failed ");
	pf_keys(&f, "<BS>");
	pf_reject(&f, "unknown field");
	pf_expect(&f, "/state:f    3 of 40 loaded match");
}

/* A counts the pages in the status line as they come, and says when all are in. */
Test(sortfilter, load_all_tells_its_progress)
{
	open_seed(40, 120, demo60);
	pf_expect(&f, "Transcriptions 40+");
	scr_push_key('A');
	f.quit |= app_step(f.app, 0);   /* the key, before any page came */
	char *t = scr_text();
	cr_assert(strstr(t, "loading every page: 40 loaded..."), "%s", t);
	free(t);
	pf_settle(&f);
	pf_expect(&f, "all 73 loaded");
	pf_expect(&f, "Transcriptions 73 ");
	pf_keys(&f, "A");
	pf_expect(&f, "all 73 are loaded");
}

/* Bytes the terminal got while the filter "-draft lang:fr" was typed: one key at a time
 * (each drawn before the next), or all at once (keys a fast typist queues before a pass). */
static size_t filter_output(bool at_once)
{
	static const char *const keys = "/ - d r a f t <Space> l a n g : f r";
	struct pf_opts o = { .rows = 40, .cols = 120, .sandbox_args = demo30, .capture_out = 1 };
	ui_key k[32];
	int n = scr_parse_script(keys, k, 32);

	pf_open(&f, &o);
	char *t = pf_out_text(&f);
	size_t before = strlen(t);
	free(t);
	if (at_once) {
		for (int i = n; i-- > 0;)   /* curses' queue gives back the last pushed first */
			scr_push_key(k[i]);
		pf_settle(&f);
	} else {
		pf_keys(&f, keys);
	}
	pf_expect(&f, "    2 of 40 loaded match");
	t = pf_out_text(&f);
	size_t bytes = strlen(t) - before;
	free(t);
	pf_close(&f);
	memset(&f, 0, sizeof f);
	return bytes;
}

/* Keys queued together are read in one pass and drawn once: the list is selected and
 * painted for the last line typed, not for each key. */
Test(sortfilter, keys_typed_fast_are_drawn_once)
{
	size_t slow = filter_output(false), fast = filter_output(true);
	cr_log_info("filter typed key by key: %zu bytes to the terminal, all at once: %zu", slow, fast);
	cr_assert_lt(fast * 3, slow, "at once %zu bytes, key by key %zu", fast, slow);
}

/* The name the details pane shows (the item under the cursor) into buf. */
static void details_name(char *buf, size_t size)
{
	static const char label[] = "Name        ";
	char *t = pf_text(&f);
	char *line = strstr(t, "\n") + 1;   /* the row below the titles: the list's heading */
	line[strcspn(line, "\n")] = '\0';
	const char *at = NULL;
	for (const char *p = line; (p = strstr(p, label)); p++)
		at = p;   /* the details' label is the last one on the row */
	cr_assert(at, "%s", line);
	at += strlen(label);
	at += strspn(at, " ");
	snprintf(buf, size, "%s", at);
	free(t);
}

/* Esc puts the cursor back on the item it was on, also when Tab loaded pages that sort
 * above it meanwhile. */
Test(sortfilter, esc_after_loading_all_keeps_the_item_under_the_cursor)
{
	char before[160], after[160];

	open_demo(40, 120);
	pf_keys(&f, "s <Down> <Enter> j j j j j j j j j j j j j j j j j j j j");
	pf_expect(&f, "Transcriptions 40+");
	details_name(before, sizeof before);
	pf_keys(&f, "/ c o <Tab>");
	pf_expect(&f, "of 43 match");
	pf_keys(&f, "<Esc>");
	pf_expect(&f, "Transcriptions 43 ");
	details_name(after, sizeof after);
	cr_assert_str_eq(after, before);
}

/* `t` then Tab completes a tag from the loaded rows. */
Test(sortfilter, the_tag_filter_completes_tags)
{
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = demo30 };

	pf_open(&f, &o);
	pf_keys(&f, "t i n t e r <Tab>");
	pf_expect(&f, "tag: interview");
	pf_keys(&f, "<Enter>");
	pf_expect(&f, "Entrevista");
}
