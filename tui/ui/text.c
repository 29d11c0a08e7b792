/* Safe text: sanitizing untrusted UTF-8 and fitting it into columns. */
#include "config.h"

#include "ui/text.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPLACEMENT 0xFFFDul

/* Decodes one code point at s[*i]; strict (no overlongs, surrogates or > U+10FFFF).
 * Returns -1 for an invalid sequence, consuming exactly one byte, so that every bad
 * byte becomes one U+FFFD. */
static long utf8_next(const unsigned char *s, size_t len, size_t *i)
{
	unsigned char c = s[*i];
	size_t need;
	unsigned long cp, min;

	if (c < 0x80) {
		(*i)++;
		return c;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		need = 1; cp = c & 0x1F; min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		need = 2; cp = c & 0x0F; min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		need = 3; cp = c & 0x07; min = 0x10000;
	} else {
		(*i)++;
		return -1;
	}
	for (size_t k = 1; k <= need; k++) {
		if (*i + k >= len || (s[*i + k] & 0xC0) != 0x80) {
			(*i)++;
			return -1;
		}
		cp = (cp << 6) | (s[*i + k] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
		(*i)++;
		return -1;
	}
	*i += need + 1;
	return (long)cp;
}

/* Characters that reorder or hide text: bidi embeddings, overrides, isolates and
 * marks, the Arabic letter mark, and invisible joiners/format characters and
 * variation selectors (terminals disagree on their width, which breaks alignment). */
static int is_stripped_format(unsigned long cp)
{
	return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
		cp == 0x200E || cp == 0x200F || cp == 0x061C ||
		(cp >= 0x200B && cp <= 0x200D) || (cp >= 0x2060 && cp <= 0x2064) ||
		cp == 0xFEFF || (cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0x00AD ||
		cp == 0x2028 || cp == 0x2029;
}

bool text_is_clean(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s), i = 0;

	while (i < len) {
		long cp = utf8_next(u, len, &i);
		if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || is_stripped_format((unsigned long)cp) ||
		    wcwidth((wchar_t)cp) < 0)
			return false;
	}
	return true;
}

int text_char_width(wchar_t wc)
{
	int w = wcwidth(wc);
	return w < 0 ? 0 : w;
}

enum esc_state { S_NORMAL, S_ESC, S_CSI, S_INTER, S_STR };

struct sanitizer {
	enum esc_state st;
	wchar_t *out;
	size_t n;
	int combining;   /* marks on the last base; -1 when there is no base yet */
	unsigned flags;
};

static void emit_printable(struct sanitizer *z, unsigned long cp)
{
	int w;

	if (cp >= 0x80 && (z->flags & TEXT_ASCII)) {
		w = wcwidth((wchar_t)cp);
		if (w == 0)
			return;   /* a mark has no ASCII form; '?' would add a column */
		cp = '?';
	}
	w = wcwidth((wchar_t)cp);
	if (w < 0) {
		cp = (z->flags & TEXT_ASCII) ? '?' : REPLACEMENT;
		w = 1;
	}
	if (w == 0) {
		if (z->combining < 0 || z->combining >= TEXT_MAX_COMBINING)
			return;
		z->combining++;
	} else {
		z->combining = 0;
	}
	z->out[z->n++] = (wchar_t)cp;
}

static void step_normal(struct sanitizer *z, long cp)
{
	if (cp < 0) {
		emit_printable(z, REPLACEMENT);
	} else if (cp == 0x1B) {
		z->st = S_ESC;
	} else if (cp == 0x9B) {
		z->st = S_CSI;
	} else if (cp == 0x90 || cp == 0x98 || cp == 0x9D || cp == 0x9E || cp == 0x9F) {
		z->st = S_STR;
	} else if (cp == '\t' || cp == '\n' || cp == '\r') {
		emit_printable(z, ' ');
	} else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) {
		return;
	} else if (!is_stripped_format((unsigned long)cp)) {
		emit_printable(z, (unsigned long)cp);
	}
}

/* Returns 1 when cp was consumed by the sequence, 0 when it ends the sequence
 * without belonging to it and must be handled as normal text. */
static int step_sequence(struct sanitizer *z, long cp)
{
	switch (z->st) {
	case S_ESC:
		if (cp == '[') z->st = S_CSI;
		else if (cp == ']' || cp == 'P' || cp == 'X' || cp == '^' || cp == '_') z->st = S_STR;
		else if (cp >= 0x20 && cp <= 0x2F) z->st = S_INTER;
		else if (cp >= 0x30 && cp <= 0x7E) z->st = S_NORMAL;
		else { z->st = S_NORMAL; return 0; }
		return 1;
	case S_CSI:
	case S_INTER:
		if (cp >= 0x20 && cp <= (z->st == S_CSI ? 0x3F : 0x2F))
			return 1;
		z->st = S_NORMAL;
		return cp >= 0x30 && cp <= 0x7E;
	case S_STR:
		/* BEL ends OSC (xterm); ST (ESC \ or U+009C) ends all; CAN/SUB abort. */
		if (cp == 0x07 || cp == 0x9C || cp == 0x18 || cp == 0x1A)
			z->st = S_NORMAL;
		else if (cp == 0x1B)
			z->st = S_ESC;
		return 1;
	case S_NORMAL:
		break;
	}
	return 0;
}

wchar_t *text_sanitize_n(const char *s, size_t len, unsigned flags)
{
	const unsigned char *u = (const unsigned char *)(s ? s : "");
	struct sanitizer z = { .st = S_NORMAL, .combining = -1, .flags = flags };
	size_t i = 0;

	if (!s)
		len = 0;
	if (len >= SIZE_MAX / sizeof(wchar_t) - 1)
		return NULL;
	z.out = malloc((len + 1) * sizeof(wchar_t));
	if (!z.out)
		return NULL;
	while (i < len) {
		long cp = utf8_next(u, len, &i);
		if (z.st != S_NORMAL && step_sequence(&z, cp))
			continue;
		step_normal(&z, cp);
	}
	z.out[z.n] = L'\0';
	return z.out;
}

wchar_t *text_sanitize(const char *s, unsigned flags)
{
	return text_sanitize_n(s, s ? strlen(s) : 0, flags);
}

int text_width(const wchar_t *ws)
{
	int w = 0;

	for (; ws && *ws; ws++)
		w += text_char_width(*ws);
	return w;
}

int text_width_utf8(const char *s, unsigned flags)
{
	wchar_t *ws = text_sanitize(s, flags);

	if (!ws)
		return -1;
	int w = text_width(ws);
	free(ws);
	return w;
}

/* Length in wide chars of the cluster at s: one base and its zero-width marks. */
static size_t cluster_len(const wchar_t *s)
{
	size_t n = 1;

	while (s[n] && text_char_width(s[n]) == 0)
		n++;
	return n;
}

static int put_spaces(wchar_t *dst, size_t cap, size_t *n, int count)
{
	for (int k = 0; k < count; k++) {
		if (*n + 1 >= cap)
			return -1;
		dst[(*n)++] = L' ';
	}
	return 0;
}

/* Copies whole clusters of src taking at most `cols` columns; returns columns used. */
static int copy_clusters(wchar_t *dst, size_t cap, size_t *n, const wchar_t *src, int cols, int *err)
{
	int used = 0;

	while (*src) {
		size_t cl = cluster_len(src);
		int cw = text_char_width(*src);
		if (used + cw > cols)
			break;
		if (*n + cl >= cap) {
			*err = 1;
			break;
		}
		wmemcpy(dst + *n, src, cl);
		*n += cl;
		used += cw;
		src += cl;
	}
	return used;
}

int text_fit(wchar_t *dst, size_t dstcap, const wchar_t *src, int cols,
	enum text_align align, unsigned flags)
{
	size_t n = 0;
	int err = 0, width, used, left = 0;

	if (!dst || dstcap == 0)
		return -1;
	dst[0] = L'\0';
	if (cols <= 0)
		return 0;
	if (!src)
		src = L"";
	width = text_width(src);
	if (width <= cols) {
		int room = cols - width;
		left = align == TEXT_RIGHT ? room : align == TEXT_CENTER ? room / 2 : 0;
		if (put_spaces(dst, dstcap, &n, left) < 0)
			goto too_small;
		used = copy_clusters(dst, dstcap, &n, src, width, &err);
		if (err || put_spaces(dst, dstcap, &n, room - left) < 0)
			goto too_small;
	} else {
		used = copy_clusters(dst, dstcap, &n, src, cols - 1, &err);
		if (err || put_spaces(dst, dstcap, &n, cols - 1 - used) < 0 || n + 1 >= dstcap)
			goto too_small;
		dst[n++] = (flags & TEXT_ASCII) ? L'~' : L'\u2026';
	}
	dst[n] = L'\0';
	return (int)n;
too_small:
	dst[0] = L'\0';
	return -1;
}

wchar_t *text_fit_dup(const char *utf8, int cols, enum text_align align, unsigned flags)
{
	wchar_t *clean = text_sanitize(utf8, flags), *out;
	size_t cap = TEXT_FIT_CAP(cols < 0 ? 0 : cols);

	if (!clean)
		return NULL;
	out = malloc(cap * sizeof(wchar_t));
	if (out && text_fit(out, cap, clean, cols, align, flags) < 0) {
		free(out);
		out = NULL;
	}
	free(clean);
	return out;
}

size_t text_utf8_put(char *buf, unsigned long cp)
{
	unsigned char *b = (unsigned char *)buf;

	if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = REPLACEMENT;
	if (cp < 0x80) {
		b[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		b[0] = (unsigned char)(0xC0 | (cp >> 6));
		b[1] = (unsigned char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		b[0] = (unsigned char)(0xE0 | (cp >> 12));
		b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
		b[2] = (unsigned char)(0x80 | (cp & 0x3F));
		return 3;
	}
	b[0] = (unsigned char)(0xF0 | (cp >> 18));
	b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
	b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
	b[3] = (unsigned char)(0x80 | (cp & 0x3F));
	return 4;
}

char *text_to_utf8(const wchar_t *ws)
{
	size_t len = ws ? wcslen(ws) : 0, n = 0;
	char *out;

	if (len > (SIZE_MAX - 1) / 4)
		return NULL;
	out = malloc(len * 4 + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++)
		n += text_utf8_put(out + n, (unsigned long)ws[i]);
	out[n] = '\0';
	return out;
}

size_t text_wrap_row(const wchar_t *ws, size_t i, size_t n, int cols, int last)
{
	int wdt = 0;
	size_t j = i, brk = 0;
	while (j < n && wdt + text_char_width(ws[j]) <= cols) {
		wdt += text_char_width(ws[j]);
		if (ws[j] == L' ')
			brk = j;
		j++;
	}
	if (j == i && j < n)
		j++;   /* a character wider than the row: alone on it */
	if (j < n && brk > i && !last)
		j = brk + 1;
	return j;
}

size_t text_utf8_prefix(const char *s, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s), i = 0, cut = 0;

	if (len <= max)
		return len;
	while (i < len) {
		size_t start = i;
		long cp = utf8_next(u, len, &i);
		/* a character of width 0 (a mark, a joiner) belongs to the cluster before it */
		if (cp < 0 || cp < 0x80 || wcwidth((wchar_t)cp) != 0)
			cut = start;
		if (i > max)
			return cut;
	}
	return len;
}

void text_copy(char *dst, size_t size, const char *src)
{
	size_t n;

	if (!size)
		return;
	n = text_utf8_prefix(src ? src : "", size - 1);
	memcpy(dst, src ? src : "", n);
	dst[n] = '\0';
}

int text_vformat(char *buf, size_t size, const char *fmt, va_list ap)
{
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(buf, size, fmt, ap);
	if (n >= 0 && size && (size_t)n >= size) {
		/* cut: format it whole, then keep whole characters with their marks */
		char *all = malloc((size_t)n + 1);
		if (all && vsnprintf(all, (size_t)n + 1, fmt, again) == n)
			text_copy(buf, size, all);
		else
			buf[text_utf8_prefix(buf, strlen(buf))] = '\0';
		free(all);
	}
	va_end(again);
	return n;
}

int text_format(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = text_vformat(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

size_t text_appendf(char *buf, size_t size, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!size || len >= size - 1)
		return size ? size - 1 : 0;
	va_start(ap, fmt);
	text_vformat(buf + len, size - len, fmt, ap);
	va_end(ap);
	return len + strlen(buf + len);
}

int text_fit_utf8(char *dst, size_t size, const char *src, int cols, bool pad)
{
	wchar_t *w = text_sanitize(src, 0), *fit = NULL;
	char *u = NULL;
	int width;

	if (!w)
		return -1;
	width = text_width(w);
	if (width > cols || pad) {
		fit = calloc(TEXT_FIT_CAP(cols), sizeof *fit);
		if (fit && text_fit(fit, TEXT_FIT_CAP(cols), w, cols, TEXT_LEFT, 0) < 0)
			fit[0] = L'\0';
		width = width > cols ? cols : width;
	}
	u = text_to_utf8(fit ? fit : w);
	free(fit);
	free(w);
	if (!u)
		return -1;
	text_copy(dst, size, u);
	free(u);
	return width;
}
