#ifndef STENO_CORE_NATSORT_H
#define STENO_CORE_NATSORT_H

#include <stddef.h>

/* Natural order for names: runs of ASCII digits compare as numbers ("Commande n°2" before
 * "Commande n°10", leading zeros ignored, any length), the rest character by character
 * (UTF-8 code points, case folded by core/textfold.h, so "é" stays one character and
 * "Zoë" sorts with "zoë"). Ties (case, leading zeros) are broken by byte order, so the
 * order is total and stable across runs. What the screen does not show (escape sequences,
 * controls, bidi and invisible format characters: ui/text.c drops them) is skipped, so a
 * name does not sort first for a hidden escape. NULL sorts before everything. Pure. */

int natsort_cmp(const char *a, const char *b);

/* The key of s: bytes whose order (memcmp, a key that is the start of the other first, as
 * SQLite compares BLOBs) is natsort_cmp's up to its last tie-break: names natsort_cmp tells
 * apart only by their bytes have the same key (order them by their bytes after it). For an
 * index or an ORDER BY in the local store (core/store_list.c). malloc'd, *len its size (0
 * for a name with nothing shown); NULL on no memory. natsort_key_list: the key of a list compared
 * item by item (each with its byte tie-break), then the shorter first (the tags sort's
 * order); NULL when n is 0 or on no memory. */
unsigned char *natsort_key(const char *s, size_t *len);
unsigned char *natsort_key_list(const char *const *v, size_t n, size_t *len);

#endif
