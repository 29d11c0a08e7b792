#ifndef STENO_UI_TEXT_H
#define STENO_UI_TEXT_H

/* Safe text for the terminal. Every string from the network goes through
 * text_sanitize before it is drawn: the result holds no C0/C1 control, no escape
 * sequence (CSI, OSC, DCS, SOS, PM, APC, ESC X), no bidi override/isolate/mark,
 * no invalid UTF-8 (each bad byte becomes U+FFFD) and no character the locale cannot
 * print (U+FFFD too). Widths come from wcwidth, so LC_CTYPE must be set (setlocale).
 * Pure functions: no curses, no I/O; unit-tested as strings. */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <wchar.h>

enum text_flags {
	TEXT_ASCII = 1u << 0,   /* output plain ASCII only: '?' for others, "~" as ellipsis */
};

enum text_align { TEXT_LEFT, TEXT_RIGHT, TEXT_CENTER };

/* Most combining marks kept on one base character: ncurses stores at most 5 wide
 * characters per cell, and "zalgo" names should not grow without bound. */
#define TEXT_MAX_COMBINING 4

/* Sanitizes `len` bytes of UTF-8 (s may hold NUL bytes, which are dropped).
 * Tab, CR and LF become one space each; other controls vanish.
 * Returns a newly allocated NUL-terminated wide string (caller frees) or NULL when
 * out of memory. s == NULL is treated as "". */
wchar_t *text_sanitize_n(const char *s, size_t len, unsigned flags);
wchar_t *text_sanitize(const char *s, unsigned flags);

/* True when sanitizing would leave `s` (UTF-8) as it is: valid UTF-8 without any control
 * character (tab and newline included), C1, DEL, bidi or invisible format character. */
bool text_is_clean(const char *s);

/* Display columns of a sanitized wide string (0 for NULL). */
int text_width(const wchar_t *ws);
/* Display columns of UTF-8 as drawn (sanitized with flags), or -1 when out of memory. */
int text_width_utf8(const char *s, unsigned flags);

/* Writes into dst (capacity dstcap wide chars incl. NUL) a string that takes exactly
 * `cols` columns: src aligned and padded with spaces, or, when wider, cut at a
 * character boundary (never inside a wide char or before its combining marks) and
 * ended with "…" ("~" with TEXT_ASCII). src must be sanitized.
 * Returns the number of wide chars written, or -1 if dstcap is too small (dst then
 * holds "" when dstcap > 0). A capacity of TEXT_FIT_CAP(cols) always fits. */
#define TEXT_FIT_CAP(cols) ((size_t)(cols) * (TEXT_MAX_COMBINING + 1) + 2)
int text_fit(wchar_t *dst, size_t dstcap, const wchar_t *src, int cols,
	enum text_align align, unsigned flags);

/* Allocating form of text_fit on raw UTF-8: sanitize then fit. Caller frees. */
wchar_t *text_fit_dup(const char *utf8, int cols, enum text_align align, unsigned flags);

/* Converts a wide string to newly allocated UTF-8 (caller frees), independent of
 * the locale. NULL on out of memory. Used by tests and by the screen dump. */
char *text_to_utf8(const wchar_t *ws);

/* Appends the UTF-8 encoding of one code point to buf (at least 4 bytes free).
 * Returns the number of bytes written. */
size_t text_utf8_put(char *buf, unsigned long cp);

/* Wrapping: the end (exclusive) of the row of ws[i..n) that fits in cols columns, broken
 * after the last space that fits unless `last` (the final row: fill it) or no space fits;
 * at least one character per row. */
size_t text_wrap_row(const wchar_t *ws, size_t i, size_t n, int cols, int last);

/* Cutting UTF-8 that is kept as bytes (messages, price lines, labels) on characters,
 * never inside one, and never between a character and its combining marks (Hindi,
 * Gujarati) or joined emoji: what does not fit is dropped whole. */

/* Bytes of the longest prefix of s of at most max bytes that ends between two clusters. */
size_t text_utf8_prefix(const char *s, size_t max);
/* Copies src (NULL: "") into dst of size bytes, cut as text_utf8_prefix says. */
void text_copy(char *dst, size_t size, const char *src);
/* snprintf that cuts as text_copy: returns what vsnprintf returns. */
int text_vformat(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int text_format(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Appends to buf (len bytes used of size) as text_format; returns the new length (never
 * more than size - 1, so that calls can be chained without checking). */
size_t text_appendf(char *buf, size_t size, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Sanitized src in at most `cols` cells (cut with "…"), padded with spaces to exactly cols
 * when pad, as UTF-8 into dst (size bytes, cut as text_copy). Returns the cells used,
 * or -1 when out of memory. */
int text_fit_utf8(char *dst, size_t size, const char *src, int cols, bool pad);

/* Width in columns of one code point as drawn, after sanitizing (0 for combining). */
int text_char_width(wchar_t wc);

#endif
