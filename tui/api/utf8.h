#ifndef STENO_API_UTF8_H
#define STENO_API_UTF8_H

/* UTF-8 facts shared by everything that judges text byte by byte (server text and file names
 * in the client, request bodies in the sandbox). Pure functions, no locale, no json-c, no
 * curl: this unit is also in libsteno_spec.a, the one library steno-sandbox shares with tui. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The code point that starts at `s` (NUL-terminated) in *cp and its length in bytes (1..4), or 0
 * when the bytes there are not well-formed UTF-8 (overlong, surrogate, past U+10FFFF, cut). */
size_t steno_utf8_next(const char *s, uint32_t *cp);

/* The length (1..4) of the well-formed UTF-8 sequence at s, reading at most n (> 0) bytes; 0
 * when the bytes there are not one (overlong, surrogate, past U+10FFFF, cut at n) or are a NUL. */
size_t steno_utf8_seq(const unsigned char *s, size_t n);

/* The length in bytes of the longest prefix of s (NUL-terminated) that fits in max bytes and
 * ends at a character's end, never inside one (a malformed byte counts as one character). */
size_t steno_utf8_prefix(const char *s, size_t max);

/* The two arguments of "%.*s" that print at most max bytes of s cut between characters
 * (steno_utf8_prefix): printf's precision counts bytes and would end inside one. s is
 * evaluated twice: pass a name or a plain expression. */
#define STENO_UTF8_CUT(s, max) (int)steno_utf8_prefix((s), (max)), (s)

/* The length of s[0..len) less a character cut at its end (a lead byte whose continuation
 * bytes are missing): where a fixed buffer that text was cut to must end. */
size_t steno_utf8_uncut(const char *s, size_t len);

/* True when s[0..len) is well-formed UTF-8 without a NUL. */
bool steno_utf8_valid(const char *s, size_t len);

/* True for a code point that must never reach a file name or a terminal as such: C0 controls,
 * DEL, C1 controls, bidi marks/embeddings/overrides/isolates, invisible format characters (zero
 * width space and joiners, word joiner and invisible operators, BOM, soft hyphen, variation
 * selectors, line/paragraph separators, interlinear annotation, tag characters), noncharacters
 * and private use. */
int steno_cp_is_hidden(uint32_t cp);

#endif
