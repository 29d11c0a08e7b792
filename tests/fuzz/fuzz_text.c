#include "config.h"

/* Fuzzes the terminal text sanitizer and width fitter (ui/text.c). Input: byte 0 picks
 * flags and alignment, byte 1 the column count, the rest is untrusted UTF-8 (server text).
 * Invariants: sanitized text holds no C0/C1 control, no ESC, no bidi control, nothing the
 * locale cannot print (wcwidth < 0), at most TEXT_MAX_COMBINING marks per base, only ASCII
 * with TEXT_ASCII; sanitizing is idempotent; a fitted string takes exactly `cols` columns
 * (so never more) and fits in TEXT_FIT_CAP(cols). */

#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui/text.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!setlocale(LC_ALL, "C.UTF-8"))
		abort(); /* widths would be meaningless */
	return 0;
}

static int is_bidi_control(wchar_t c)
{
	return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
	       (c >= 0x2066 && c <= 0x2069);
}

/* Aborts unless ws is safe to draw; returns its width measured with libc's wcwidth. */
static int check_safe(const wchar_t *ws, unsigned flags)
{
	int width = 0, marks = 0;
	for (const wchar_t *p = ws; *p; p++) {
		wchar_t c = *p;
		if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || is_bidi_control(c))
			abort();
		if ((flags & TEXT_ASCII) && c >= 0x80)
			abort();
		int w = wcwidth(c);
		if (w < 0)
			abort();
		marks = w == 0 ? marks + 1 : 0;
		if (marks > TEXT_MAX_COMBINING || (w == 0 && p == ws))
			abort();
		width += w;
	}
	if (width != text_width(ws))
		abort();
	return width;
}

static void check_idempotent(const wchar_t *ws, unsigned flags)
{
	char *u = text_to_utf8(ws);
	if (!u)
		return;
	wchar_t *again = text_sanitize(u, flags);
	if (again && wcscmp(again, ws) != 0)
		abort();
	free(again);
	free(u);
}

static void check_fit(const wchar_t *ws, int cols, enum text_align align, unsigned flags)
{
	size_t cap = TEXT_FIT_CAP(cols);
	wchar_t *dst = malloc(cap * sizeof *dst);
	if (!dst)
		return;
	int n = text_fit(dst, cap, ws, cols, align, flags);
	if (n < 0 || (size_t)n >= cap || dst[n] != L'\0' || wcslen(dst) != (size_t)n)
		abort();
	if (check_safe(dst, flags & TEXT_ASCII ? TEXT_ASCII : 0) != cols)
		abort();
	if ((flags & TEXT_ASCII) && wcschr(dst, 0x2026))
		abort();
	free(dst);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	unsigned flags = data[0] & 1 ? TEXT_ASCII : 0;
	enum text_align align = (enum text_align)((data[0] >> 1) % 3);
	int cols = data[1] % 160;
	const char *s = (const char *)data + 2;
	size_t len = size - 2;

	wchar_t *ws = text_sanitize_n(s, len, flags);
	if (!ws)
		return 0;
	(void)check_safe(ws, flags);
	check_idempotent(ws, flags);
	check_fit(ws, cols, align, flags);

	char *z = malloc(len + 1);
	if (z) {
		memcpy(z, s, len);
		z[len] = '\0';
		wchar_t *fitted = text_fit_dup(z, cols, align, flags);
		if (!fitted || check_safe(fitted, flags) != cols)
			abort();
		free(fitted);
		free(z);
	}
	free(ws);
	return 0;
}
