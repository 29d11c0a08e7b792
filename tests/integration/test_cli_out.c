/* tui/cli/out: what reaches the terminal from server strings, and table alignment by
 * display width. */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/out.h"

static void utf8(void)
{
	if (!setlocale(LC_CTYPE, "C.UTF-8"))
		setlocale(LC_CTYPE, "");
}

static void expect_clean(const char *in, const char *want)
{
	char *got = out_clean(in);
	cr_assert(got);
	cr_expect_str_eq(got, want, "clean(%s)", in);
	free(got);
}

Test(cli_out, strips_controls_escapes_and_bidi, .init = utf8)
{
	expect_clean("plain", "plain");
	expect_clean("red \x1b[31malert\x1b[0m!", "red alert!");
	expect_clean("title\x1b]0;pwned\x07 ok", "title ok");
	expect_clean("a\tb\nc\rd", "a b c d");
	expect_clean("bell\x07 del\x7f", "bell del");
	expect_clean("c1 \xc2\x9b" "31m", "c1 31m");
	expect_clean("rtl \xe2\x80\xaemoc.evil\xe2\x80\xac", "rtl moc.evil");
	expect_clean("bad \xff utf8", "bad ? utf8");
	expect_clean("注文 é", "注文 é");
	expect_clean(NULL, "");
}

Test(cli_out, width_counts_wide_characters, .init = utf8)
{
	cr_expect_eq(out_width("abc"), 3);
	cr_expect_eq(out_width("注文"), 4);
	cr_expect_eq(out_width("é"), 1);
}

Test(cli_out, table_aligns_by_display_width, .init = utf8)
{
	static const char *const heads[] = {"ID", "NAME", "X"};
	struct out_table t;
	out_table_init(&t, 3, heads);
	cr_assert_eq(out_table_add(&t, (const char *const[]){"1", "注文", "a"}), 0);
	cr_assert_eq(out_table_add(&t, (const char *const[]){"22", "ab\x1b[2J", NULL}), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	out_table_print(&t, f);
	fclose(f);
	out_table_free(&t);
	cr_expect_str_eq(buf, "ID  NAME  X\n"
			      "1   注文  a\n"
			      "22  ab    -\n");
	free(buf);
}

Test(cli_out, json_body_is_reserialized)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert_eq(out_json_body(f, "{\"a\":\"\\u001b[31m\"}", 18), 0);
	cr_assert_eq(out_json_body(f, "not json", 8), 0);
	fclose(f);
	cr_expect(strstr(buf, "\\u001b[31m"), "escapes stay escaped: %s", buf);
	cr_expect(!strchr(buf, 0x1b));
	cr_expect(strstr(buf, "\"not json\""), "%s", buf);
	free(buf);
}
