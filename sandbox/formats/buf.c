#include "config.h"

#include "buf.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int buf_reserve(struct sb_buf *b, size_t extra)
{
	if (b->failed)
		return -1;
	if (b->len + extra + 1 <= b->cap)
		return 0;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + extra + 1) {
		if (cap > ((size_t)-1) / 2) {
			b->failed = 1;
			return -1;
		}
		cap *= 2;
	}
	unsigned char *p = realloc(b->data, cap);
	if (!p) {
		b->failed = 1;
		return -1;
	}
	b->data = p;
	b->cap = cap;
	return 0;
}

void sb_buf_append(struct sb_buf *b, const void *p, size_t n)
{
	if (buf_reserve(b, n) < 0)
		return;
	if (n)
		memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = 0;
}

void sb_buf_puts(struct sb_buf *b, const char *s)
{
	sb_buf_append(b, s, strlen(s));
}

void sb_buf_printf(struct sb_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->failed = 1;
		return;
	}
	if (buf_reserve(b, (size_t)n) < 0)
		return;
	va_start(ap, fmt);
	vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

unsigned sb_utf8_next(const unsigned char **p)
{
	const unsigned char *s = *p;
	unsigned cp, need, min;
	if (s[0] < 0x80) {
		*p = s + 1;
		return s[0];
	}
	if ((s[0] & 0xe0) == 0xc0) { cp = s[0] & 0x1f; need = 1; min = 0x80; }
	else if ((s[0] & 0xf0) == 0xe0) { cp = s[0] & 0x0f; need = 2; min = 0x800; }
	else if ((s[0] & 0xf8) == 0xf0) { cp = s[0] & 0x07; need = 3; min = 0x10000; }
	else { *p = s + 1; return 0xfffd; }
	for (unsigned i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80) { *p = s + 1; return 0xfffd; }
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
		*p = s + 1;
		return 0xfffd;
	}
	*p = s + need + 1;
	return cp;
}

void sb_buf_put_cp(struct sb_buf *b, unsigned cp)
{
	unsigned char o[4];
	size_t n;
	if (cp < 0x80) { o[0] = (unsigned char)cp; n = 1; }
	else if (cp < 0x800) { o[0] = (unsigned char)(0xc0 | cp >> 6); o[1] = (unsigned char)(0x80 | (cp & 0x3f)); n = 2; }
	else if (cp < 0x10000) {
		o[0] = (unsigned char)(0xe0 | cp >> 12); o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (unsigned char)(0x80 | (cp & 0x3f)); n = 3;
	} else {
		o[0] = (unsigned char)(0xf0 | cp >> 18); o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3f));
		o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3f)); o[3] = (unsigned char)(0x80 | (cp & 0x3f)); n = 4;
	}
	sb_buf_append(b, o, n);
}

/* Characters no text export should carry: C0/C1 controls, DEL, bidi overrides,
 * and the XML non-characters U+FFFE/U+FFFF. */
static int buf_cp_banned(unsigned cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfffe || cp == 0xffff;
}

void sb_buf_put_xml(struct sb_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned cp = sb_utf8_next(&p);
		switch (cp) {
		case '&': sb_buf_puts(b, "&amp;"); break;
		case '<': sb_buf_puts(b, "&lt;"); break;
		case '>': sb_buf_puts(b, "&gt;"); break;
		case '"': sb_buf_puts(b, "&quot;"); break;
		case '\'': sb_buf_puts(b, "&#39;"); break;
		case '\n': case '\t': sb_buf_puts(b, " "); break;
		default:
			if (!buf_cp_banned(cp))
				sb_buf_put_cp(b, cp);
		}
	}
}

void sb_buf_put_plain(struct sb_buf *b, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned cp = sb_utf8_next(&p);
		if (cp == '\n' || cp == '\t' || cp == '\r')
			sb_buf_puts(b, " ");
		else if (!buf_cp_banned(cp))
			sb_buf_put_cp(b, cp);
	}
}

void sb_buf_put_time(struct sb_buf *b, double seconds, char sep)
{
	if (!(seconds > 0))
		seconds = 0;
	long long ms = llround(seconds * 1000.0);
	long long h = ms / 3600000, m = ms / 60000 % 60, s = ms / 1000 % 60;
	sb_buf_printf(b, "%02lld:%02lld:%02lld%c%03lld", h, m, s, sep, ms % 1000);
}

unsigned char *sb_buf_take(struct sb_buf *b, size_t *len)
{
	if (buf_reserve(b, 0) < 0) {
		sb_buf_free(b);
		return NULL;
	}
	unsigned char *d = b->data;
	d[b->len] = 0;
	*len = b->len;
	b->data = NULL;
	b->len = b->cap = 0;
	return d;
}

void sb_buf_free(struct sb_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	b->failed = 0;
}
