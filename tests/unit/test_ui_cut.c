/* Text kept as bytes (messages, price lines, labels) is cut on characters and cells: names
 * in CJK, with combining marks (Hindi, Gujarati), accents and emoji, made longer one byte
 * at a time so that every cut position is tried, through every formatter that cuts. */
#include "config.h"

#include <criterion/criterion.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "api/error.h"
#include "ui/format.h"
#include "ui/order_price.h"
#include "ui/text.h"

static void utf8_locale(void)
{
	cr_assert_not_null(setlocale(LC_ALL, "C.UTF-8"), "C.UTF-8 locale missing");
}

TestSuite(cut, .init = utf8_locale);

static const char *const names[] = {
	"会议记录第二部分：预算与计划",
	"हिन्दी समाचार प्रसारण दिल्ली",
	"ગુજરાતી સમાચાર અમદાવાદ",
	"Commande n°2 — été à Zoë",
	"😀🎉 podcast 🎙 épisode",
};

/* The code point at s (valid UTF-8 assumed), its length in *len. */
static long decode(const char *s, size_t *len)
{
	mbstate_t st = { 0 };
	wchar_t wc;
	size_t n = mbrtowc(&wc, s, strlen(s), &st);
	cr_assert(n != (size_t)-1 && n != (size_t)-2, "invalid UTF-8 at \"%s\"", s);
	*len = n ? n : 1;
	return wc;
}

static void assert_valid(const char *s)
{
	for (size_t len; *s; s += len)
		decode(s, &len);
}

/* out holds src from its start, whole or cut between two clusters of src (never inside a
 * character, never between a character and its marks). */
static void assert_cut_ok(const char *src, const char *out)
{
	size_t p = 0, len;
	assert_valid(out);
	while (src[p] && src[p] == out[p])
		p++;
	if (!src[p])
		return;
	while (p > 0 && (src[p] & 0xC0) == 0x80)   /* back to the character's start */
		p--;
	cr_assert(strncmp(src, out, p) == 0);
	long cp = decode(src + p, &len);
	cr_assert(wcwidth((wchar_t)cp) != 0 || p == 0,
		  "cut before a mark at byte %zu of \"%s\": \"%s\"", p, src, out);
}

/* The name made longer by a byte each time: an ASCII lead of k bytes moves every cut. */
static void named(char *buf, size_t size, int k, const char *name)
{
	snprintf(buf, size, "%.*s%s%s%s", k, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", name, name, name);
}

Test(cut, text_format_and_copy_at_every_size)
{
	char buf[256], big[512];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		named(big, sizeof big, 0, names[i]);
		for (size_t size = 1; size <= strlen(big) + 1; size++) {
			text_format(buf, size, "%s", big);
			assert_cut_ok(big, buf);
			text_copy(buf, size, big);
			assert_cut_ok(big, buf);
		}
	}
}

/* The order's price lines (the confirm dialog and the order view): the file name takes
 * 20 cells, whole characters, with its marks; the line is cut the same way. */
Test(cut, order_price_lines)
{
	char name[512], minute[] = "minute", tr[] = "transcription", en[] = "hi-IN";
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		for (int k = 0; k < 40; k++) {
			named(name, sizeof name, k, names[i]);
			struct steno_order_item it = { .filename = name, .pricing_unit_name = minute,
				.pricing_unit_count = { STENO_PRESENT, 2.0 }, .has_service = true,
				.service = { .name = name, .type = tr, .language = en },
				.cents = { STENO_PRESENT, 300 }, .addon_name = name };
			struct steno_order o = { .details = { .present = true, .items = &it, .n_items = 1,
				.total_cents = { STENO_PRESENT, 300 } } };
			char lines[8][ORDER_PRICE_WIDTH];
			cr_assert_geq(order_price_lines(&o, lines, 8), 1);
			assert_valid(lines[0]);
			/* the name's column: exactly 20 cells, then a space */
			char col[200];
			size_t b = 0;
			int cells = 0;
			while (cells < 20 && lines[0][b]) {
				size_t len;
				long cp = decode(lines[0] + b, &len);
				cells += wcwidth((wchar_t)cp);
				b += len;
			}
			for (size_t len; lines[0][b] && wcwidth((wchar_t)decode(lines[0] + b, &len)) == 0;)
				b += len;   /* the last cell's marks */
			cr_assert_eq(cells, 20, "the name column is %d cells: \"%s\"", cells, lines[0]);
			cr_assert_eq(lines[0][b], ' ', "the name column ends mid-cluster: \"%s\"", lines[0]);
			snprintf(col, sizeof col, "%.*s", (int)b, lines[0]);
			if (strstr(col, "…"))
				*strstr(col, "…") = '\0';
			assert_cut_ok(name, col);
		}
}

/* The status line's error text: the server's message cut at whole characters. */
Test(cut, error_text)
{
	char msg[300], out[256];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		for (int k = 0; k < 40; k++) {
			struct steno_error e = { .kind = STENO_ERR_HTTP, .http_status = 404 };
			named(msg, sizeof msg, k, names[i]);
			/* longer than the 200 bytes shown */
			text_format(e.message, sizeof e.message, "%s%s", msg, msg + k);
			fmt_error_text(out, sizeof out, &e);
			cr_assert(strncmp(out, "HTTP 404: ", 10) == 0, "%s", out);
			assert_cut_ok(e.message, out + 10);
		}
}

/* Fitting to cells: every width from 0 to the name's, cut between clusters, never wider. */
Test(cut, fit_to_cells_and_append)
{
	char buf[512], big[512];
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		named(big, sizeof big, 0, names[i]);
		int whole = text_width_utf8(big, 0);
		for (int cols = 1; cols <= whole + 1; cols++) {
			int used = text_fit_utf8(buf, sizeof buf, big, cols, false);
			cr_assert(used >= 0 && used <= cols);
			cr_assert_leq(text_width_utf8(buf, 0), cols, "\"%s\" in %d cells", buf, cols);
			if (strstr(buf, "…"))
				*strstr(buf, "…") = '\0';
			assert_cut_ok(big, buf);
		}
		/* appending past the end stays inside the buffer and whole */
		size_t n = 0;
		for (int k = 0; k < 20; k++) {
			n = text_appendf(buf, 100, n, "%s, ", names[i]);
			cr_assert_lt(n, (size_t)100);
			cr_assert_eq(n, strlen(buf));
			assert_valid(buf);
		}
	}
}
