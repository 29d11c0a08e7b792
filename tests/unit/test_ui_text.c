/* ui/text: sanitizing hostile strings and fitting them into columns. */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/text.h"

static void utf8_locale(void)
{
	cr_assert_not_null(setlocale(LC_ALL, "C.UTF-8"), "C.UTF-8 locale missing");
}

TestSuite(text, .init = utf8_locale);

/* Sanitizes s and returns it as UTF-8 in a static buffer, for comparisons. */
static const char *clean(const char *s, size_t len, unsigned flags)
{
	static char out[1024];
	wchar_t *w = text_sanitize_n(s, len, flags);
	cr_assert_not_null(w);
	char *u = text_to_utf8(w);
	cr_assert_not_null(u);
	snprintf(out, sizeof out, "%s", u);
	free(u);
	free(w);
	return out;
}

#define CLEAN(s) clean(s, sizeof(s) - 1, 0)

static const char *fit(const char *s, int cols, enum text_align a, unsigned flags)
{
	static char out[1024];
	wchar_t *w = text_fit_dup(s, cols, a, flags);
	cr_assert_not_null(w);
	char *u = text_to_utf8(w);
	snprintf(out, sizeof out, "%s", u);
	cr_assert_eq(text_width(w), cols < 0 ? 0 : cols, "width of '%s' is %d, want %d", u, text_width(w), cols);
	free(u);
	free(w);
	return out;
}

Test(text, plain_text_unchanged)
{
	cr_assert_str_eq(CLEAN("hello, world"), "hello, world");
	cr_assert_str_eq(CLEAN("Grüße – 東京"), "Grüße – 東京");
	cr_assert_str_eq(clean(NULL, 0, 0), "");
}

Test(text, c0_controls_and_del_removed)
{
	cr_assert_str_eq(CLEAN("a\x01" "b\x07" "c\x08" "d\x7f" "e"), "abcde");
	cr_assert_str_eq(CLEAN("tab\there\nnew\rline"), "tab here new line");
	cr_assert_str_eq(CLEAN("nul\0inside"), "nulinside");
}

Test(text, csi_sequences_removed)
{
	cr_assert_str_eq(CLEAN("\x1b[31mred\x1b[0m"), "red");
	cr_assert_str_eq(CLEAN("\x1b[2J\x1b[H\x1b[?1049hclear"), "clear");
	cr_assert_str_eq(CLEAN("x\x1b[1;2;3;4;5;6;7;8;9mY"), "xY");
	/* a CSI cut short by a non-ASCII char: the char survives */
	cr_assert_str_eq(CLEAN("\x1b[12é"), "é");
}

Test(text, osc_sequences_removed)
{
	cr_assert_str_eq(CLEAN("\x1b]0;evil title\x07name"), "name");
	cr_assert_str_eq(CLEAN("\x1b]8;;http://evil/\x1b\\link\x1b]8;;\x1b\\"), "link");
	cr_assert_str_eq(CLEAN("\x1b]52;c;ZXZpbA==\x07" "after"), "after");
	/* unterminated OSC swallows the rest: nothing of it reaches the terminal */
	cr_assert_str_eq(CLEAN("keep\x1b]2;never ends"), "keep");
}

Test(text, dcs_pm_apc_and_single_escapes_removed)
{
	cr_assert_str_eq(CLEAN("a\x1bPq#0;2;0;0;0\x1b\\b"), "ab");
	cr_assert_str_eq(CLEAN("a\x1b^private\x1b\\b\x1b_apc\x1b\\c"), "abc");
	cr_assert_str_eq(CLEAN("a\x1b" "cb\x1b" "7c\x1b(Bd"), "abcd");
	cr_assert_str_eq(CLEAN("end\x1b"), "end");
}

Test(text, c1_controls_removed)
{
	/* U+009B is CSI and U+009D OSC when a terminal takes 8-bit controls */
	cr_assert_str_eq(CLEAN("a\xc2\x9b" "31mb"), "ab");
	cr_assert_str_eq(CLEAN("a\xc2\x9d" "0;t\xc2\x9c" "b"), "ab");
	cr_assert_str_eq(CLEAN("a\xc2\x85" "b\xc2\x80" "c"), "abc");
	/* raw 8-bit C1 bytes are invalid UTF-8 */
	cr_assert_str_eq(CLEAN("a\x9b" "b"), "a\xef\xbf\xbd" "b");
}

Test(text, bidi_controls_removed)
{
	cr_assert_str_eq(CLEAN("file\xe2\x80\xaegnp.exe"), "filegnp.exe");       /* RLO */
	cr_assert_str_eq(CLEAN("a\xe2\x81\xa6" "b\xe2\x81\xa9" "c"), "abc");     /* LRI PDI */
	cr_assert_str_eq(CLEAN("a\xe2\x80\x8f" "b\xe2\x80\x8e" "c"), "abc");     /* RLM LRM */
	cr_assert_str_eq(CLEAN("a\xe2\x80\xaa" "b\xe2\x80\xac" "c"), "abc");     /* LRE PDF */
	cr_assert_str_eq(CLEAN("zero\xe2\x80\x8bwidth\xef\xbb\xbf"), "zerowidth");
}

Test(text, invalid_utf8_replaced_per_byte)
{
	cr_assert_str_eq(CLEAN("a\xff" "b"), "a\xef\xbf\xbd" "b");
	cr_assert_str_eq(CLEAN("\xc0\xaf"), "\xef\xbf\xbd\xef\xbf\xbd");          /* overlong */
	cr_assert_str_eq(CLEAN("\xed\xa0\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"); /* surrogate */
	cr_assert_str_eq(CLEAN("\xe6\x9d"), "\xef\xbf\xbd\xef\xbf\xbd");          /* truncated */
	cr_assert_str_eq(CLEAN("\xf4\x90\x80\x80"), "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
}

/* The width of UTF-8 as drawn: sanitized first (the escape sequence takes no cell). */
Test(text, utf8_width_is_the_width_drawn)
{
	cr_assert_eq(text_width_utf8("東京 ok", 0), 7);
	cr_assert_eq(text_width_utf8("\x1b[31mred\x1b[0m", 0), 3);
	cr_assert_eq(text_width_utf8(NULL, 0), 0);
}

Test(text, widths_follow_wcwidth)
{
	wchar_t *w = text_sanitize("東京 ok", 0);
	cr_assert_eq(text_width(w), 7);
	free(w);
	w = text_sanitize("e\xcc\x81" "te\xcc\x81", 0);   /* combining acute */
	cr_assert_eq(text_width(w), 3);
	cr_assert_eq(wcslen(w), 5);
	free(w);
	w = text_sanitize("\xf0\x9f\x98\x80!", 0);         /* emoji */
	cr_assert_eq(text_width(w), 3);
	free(w);
}

Test(text, leading_and_excess_combining_marks_dropped)
{
	cr_assert_str_eq(CLEAN("\xcc\x81" "a"), "a");
	wchar_t *w = text_sanitize("a\xcc\x81\xcc\x82\xcc\x83\xcc\x84\xcc\x85\xcc\x86\xcc\x87", 0);
	cr_assert_eq(wcslen(w), 1 + TEXT_MAX_COMBINING);
	cr_assert_eq(text_width(w), 1);
	free(w);
}

Test(text, unprintable_replaced)
{
	/* U+0378 is unassigned: wcwidth says -1 */
	cr_assert_str_eq(CLEAN("a\xcd\xb8" "b"), "a\xef\xbf\xbd" "b");
}

Test(text, ascii_mode)
{
	cr_assert_str_eq(clean("Grüße 東 e\xcc\x81", strlen("Grüße 東 e\xcc\x81"), TEXT_ASCII), "Gr??e ? e");
	cr_assert_str_eq(fit("abcdefgh", 5, TEXT_LEFT, TEXT_ASCII), "abcd~");
}

Test(text, fit_pads_and_aligns)
{
	cr_assert_str_eq(fit("abc", 6, TEXT_LEFT, 0), "abc   ");
	cr_assert_str_eq(fit("abc", 6, TEXT_RIGHT, 0), "   abc");
	cr_assert_str_eq(fit("abc", 7, TEXT_CENTER, 0), "  abc  ");
	cr_assert_str_eq(fit("abc", 3, TEXT_LEFT, 0), "abc");
	cr_assert_str_eq(fit("abc", 0, TEXT_LEFT, 0), "");
}

Test(text, fit_truncates_with_ellipsis)
{
	cr_assert_str_eq(fit("abcdefgh", 5, TEXT_LEFT, 0), "abcd…");
	cr_assert_str_eq(fit("abcdefgh", 5, TEXT_RIGHT, 0), "abcd…");
	cr_assert_str_eq(fit("abcdefgh", 1, TEXT_LEFT, 0), "…");
}

Test(text, fit_never_splits_wide_chars)
{
	/* 東京都庁 is 8 columns; 6 columns leave room for 東京 + pad + … */
	cr_assert_str_eq(fit("東京都庁", 6, TEXT_LEFT, 0), "東京 …");
	cr_assert_str_eq(fit("東京都庁", 5, TEXT_LEFT, 0), "東京…");
	cr_assert_str_eq(fit("東京都庁", 2, TEXT_LEFT, 0), " …");
	cr_assert_str_eq(fit("東京", 5, TEXT_RIGHT, 0), " 東京");
}

Test(text, fit_keeps_combining_marks_with_base)
{
	cr_assert_str_eq(fit("e\xcc\x81" "e\xcc\x81" "e\xcc\x81" "e", 3, TEXT_LEFT, 0), "e\xcc\x81" "e\xcc\x81…");
	cr_assert_str_eq(fit("e\xcc\x81", 3, TEXT_LEFT, 0), "e\xcc\x81  ");
}

Test(text, fit_hostile_string_keeps_its_width)
{
	const char *evil = "\x1b]0;x\x07\xe2\x80\xae" "名前\x1b[31m\xc2\x9b" "2J\xf0\x9f\x98\x80\xff";
	cr_assert_str_eq(fit(evil, 10, TEXT_LEFT, 0), "名前\xf0\x9f\x98\x80\xef\xbf\xbd   ");
	cr_assert_str_eq(fit(evil, 4, TEXT_LEFT, 0), "名 …");
}

Test(text, fit_reports_small_buffer)
{
	wchar_t buf[4];
	cr_assert_eq(text_fit(buf, 4, L"abcdef", 6, TEXT_LEFT, 0), -1);
	cr_assert_eq(buf[0], L'\0');
	cr_assert_eq(text_fit(buf, 4, L"ab", 3, TEXT_LEFT, 0), 3);
}

Test(text, wrap_rows_break_at_spaces_and_keep_every_character)
{
	const wchar_t *ws = L"GET http://host/api/v1/transcriptions/3a07 200";
	size_t n = wcslen(ws);
	size_t j = text_wrap_row(ws, 0, n, 20, 0);
	cr_assert_eq(j, 4, "after 'GET ': the URL does not fit behind it");
	size_t k = text_wrap_row(ws, j, n, 20, 0);
	cr_assert_eq(k, j + 20, "no space within the URL: cut at the width");
	cr_assert_eq(text_wrap_row(ws, 0, n, 20, 1), 20, "the last row fills up");
	const wchar_t *wide = L"日本語";
	cr_assert_eq(text_wrap_row(wide, 0, 3, 5, 0), 2, "a wide character is never split");
	cr_assert_eq(text_wrap_row(wide, 0, 3, 1, 0), 1, "too narrow: one character per row");
	cr_assert_eq(text_wrap_row(ws, n, n, 20, 0), n);
}
