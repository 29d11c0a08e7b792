/* Growable byte buffer used by the export writers. A failed append marks the
 * buffer failed (later appends are no-ops) so writers check once at the end. */
#ifndef SANDBOX_FORMATS_BUF_H
#define SANDBOX_FORMATS_BUF_H

#include <stddef.h>

/* Owner frees data with sb_buf_free, or takes it with sb_buf_take. */
struct sb_buf {
	unsigned char *data;
	size_t len, cap;
	int failed;
};

void sb_buf_append(struct sb_buf *b, const void *p, size_t n);
void sb_buf_puts(struct sb_buf *b, const char *s);
void sb_buf_printf(struct sb_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Decode one UTF-8 sequence at *p (advanced past it). Returns the code point,
 * or 0xFFFD for an invalid/overlong/surrogate sequence (advancing one byte). */
unsigned sb_utf8_next(const unsigned char **p);
/* Append code point cp as UTF-8. */
void sb_buf_put_cp(struct sb_buf *b, unsigned cp);
/* s with & < > " ' escaped and C0 controls (but \t \n) dropped: XML 1.0 and HTML text/attributes. */
void sb_buf_put_xml(struct sb_buf *b, const char *s);
/* s with controls dropped (text formats): \n and \t turned into spaces. */
void sb_buf_put_plain(struct sb_buf *b, const char *s);
/* HH:MM:SS<sep>mmm (sep ',' for SRT, '.' for VTT/txt). */
void sb_buf_put_time(struct sb_buf *b, double seconds, char sep);
/* Return the data (NUL-terminated, len excludes it) and reset b; NULL if failed. */
unsigned char *sb_buf_take(struct sb_buf *b, size_t *len);
void sb_buf_free(struct sb_buf *b);

#endif
