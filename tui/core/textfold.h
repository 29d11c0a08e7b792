#ifndef STENO_CORE_TEXTFOLD_H
#define STENO_CORE_TEXTFOLD_H

/* Case-insensitive matching of UTF-8 text, independent of the process locale: the search
 * of language names, the filter query language and natural sort fold case the same way.
 * Folding covers ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic (enough for every
 * name in core/lang_names_data.c); other code points compare as they are. Invalid UTF-8
 * bytes are taken one at a time, as themselves. Pure functions; NULL strings are empty. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes the code point at s (s[0] != 0) into *cp; returns its length in bytes (1..4).
 * An invalid or truncated sequence gives its first byte as the code point, length 1. */
size_t textfold_next(const char *s, uint32_t *cp);

/* The lower-case form of a code point (identity outside the ranges above). */
uint32_t textfold_lower(uint32_t cp);

/* needle (folded) is a prefix of hay (folded). An empty needle is a prefix of anything. */
bool textfold_has_prefix(const char *hay, const char *needle);

/* needle is a prefix of a word of hay: at its start or right after a character that is
 * not a letter or digit (space, punctuation, parenthesis). "chinese" matches "Mandarin
 * Chinese (Simplified Han, China)"; "apan" does not match "Japanese". */
bool textfold_word_prefix(const char *hay, const char *needle);

/* needle occurs anywhere in hay, folded. */
bool textfold_contains(const char *hay, const char *needle);

#endif
