#include "config.h"
#include "core/natsort.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/utf8.h"
#include "core/textfold.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Compares the digit runs at *a and *b as numbers and moves past them. */
static int cmp_number(const char **a, const char **b)
{
	const char *x = *a, *y = *b;
	while (*x == '0' && is_digit(x[1]))
		x++;
	while (*y == '0' && is_digit(y[1]))
		y++;
	size_t nx = 0, ny = 0;
	while (is_digit(x[nx]))
		nx++;
	while (is_digit(y[ny]))
		ny++;
	*a = x + nx;
	*b = y + ny;
	if (nx != ny)
		return nx < ny ? -1 : 1;
	int c = memcmp(x, y, nx);
	return c < 0 ? -1 : c > 0;
}

/* Past what the screen does not show of a name (ui/text.c drops it): escape sequences
 * (CSI up to its final byte; OSC, DCS, SOS, PM, APC up to BEL or ESC \; ESC and one byte),
 * C0 and C1 controls, DEL, bidi and invisible format characters. Tab, CR and LF show as a
 * space: they are kept. */
static const char *skip_unseen(const char *s)
{
	for (;;) {
		unsigned char c = (unsigned char)*s;
		uint32_t cp = 0;
		size_t n;
		if (c == 0x1b && s[1] == '[') {
			s += 2;
			while (*s && !((unsigned char)*s >= 0x40 && (unsigned char)*s <= 0x7e))
				s++;
			s += *s ? 1 : 0;
		} else if (c == 0x1b && s[1] && strchr("]PX^_", s[1])) {
			s += 2;
			while (*s && *s != '\a' && !(*s == 0x1b && s[1] == '\\'))
				s++;
			s += *s == '\a' ? 1 : *s ? 2 : 0;
		} else if (c == 0x1b) {
			s += s[1] ? 2 : 1;
		} else if ((c && c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
			s++;
		} else if (c >= 0x80 && (n = steno_utf8_next(s, &cp)) > 0 && steno_cp_is_hidden(cp)) {
			s += n;
		} else {
			return s;
		}
	}
}

int natsort_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return a == b ? 0 : a ? 1 : -1;
	const char *x = skip_unseen(a), *y = skip_unseen(b);
	while (*x && *y) {
		if (is_digit(*x) && is_digit(*y)) {
			int c = cmp_number(&x, &y);
			if (c)
				return c;
			continue;
		}
		uint32_t cx, cy;
		x += textfold_next(x, &cx);
		y += textfold_next(y, &cy);
		cx = textfold_lower(cx);
		cy = textfold_lower(cy);
		if (cx != cy)
			return cx < cy ? -1 : 1;
		x = skip_unseen(x);
		y = skip_unseen(y);
	}
	if (*x || *y)
		return *x ? 1 : -1;
	int c = strcmp(a, b);
	return c < 0 ? -1 : c > 0;
}

/* ---- the key: natsort_cmp's order as bytes (memcmp) ---- */

struct keybuf {
	unsigned char *b;
	size_t n, cap;
	bool fail;
};

static void put(struct keybuf *k, const void *p, size_t n)
{
	if (k->fail)
		return;
	if (k->n + n > k->cap) {
		size_t cap = (k->cap ? k->cap * 2 : 64) + n;
		unsigned char *b = realloc(k->b, cap);
		if (!b) {
			k->fail = true;
			return;
		}
		k->b = b;
		k->cap = cap;
	}
	memcpy(k->b + k->n, p, n);
	k->n += n;
}

/* A token: a character as the UTF-8 bytes of its folded code point (their byte order is the
 * code points' order); a run of digits as '0' (all digits stand where '0' stands against
 * any other character), the count of its digits without leading zeros (4 bytes) and those
 * digits. A key that is the start of another comes first, as the shorter name does. */
static void key_tokens(struct keybuf *k, const char *s)
{
	const char *x = skip_unseen(s);
	while (*x) {
		if (is_digit(*x)) {
			while (*x == '0' && is_digit(x[1]))
				x++;
			size_t n = 0;
			while (is_digit(x[n]))
				n++;
			unsigned char t[5] = { '0', (unsigned char)(n >> 24), (unsigned char)(n >> 16),
					       (unsigned char)(n >> 8), (unsigned char)n };
			put(k, t, sizeof t);
			put(k, x, n);
			x += n;
			continue;   /* as natsort_cmp: nothing is skipped after a number */
		}
		uint32_t c;
		x += textfold_next(x, &c);
		c = textfold_lower(c);
		unsigned char t[4];
		size_t n = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
		if (n == 1) {
			t[0] = (unsigned char)c;
		} else {
			for (size_t i = n - 1; i > 0; i--, c >>= 6)
				t[i] = (unsigned char)(0x80 | (c & 0x3f));
			t[0] = (unsigned char)((n == 2 ? 0xc0 : n == 3 ? 0xe0 : 0xf0) | c);
		}
		put(k, t, n);
		x = skip_unseen(x);
	}
}

unsigned char *natsort_key(const char *s, size_t *len)
{
	struct keybuf k = { 0 };
	key_tokens(&k, s ? s : "");
	if (!k.fail && !k.b)   /* nothing shown: the empty key, first */
		k.fail = !(k.b = malloc(1));
	if (k.fail) {
		free(k.b);
		return NULL;
	}
	*len = k.n;
	return k.b;
}

unsigned char *natsort_key_list(const char *const *v, size_t n, size_t *len)
{
	struct keybuf k = { 0 };
	static const unsigned char zero = 0;
	for (size_t i = 0; i < n; i++) {   /* tokens, 0x00, the bytes (ties), 0x00 */
		key_tokens(&k, v[i]);
		put(&k, &zero, 1);
		put(&k, v[i], strlen(v[i]));
		put(&k, &zero, 1);
	}
	if (k.fail || !k.b) {
		free(k.b);
		return NULL;
	}
	*len = k.n;
	return k.b;
}
