#ifndef STENO_CORE_NATSORT_H
#define STENO_CORE_NATSORT_H

/* Natural order for names: runs of ASCII digits compare as numbers ("Commande n°2" before
 * "Commande n°10", leading zeros ignored, any length), the rest character by character
 * (UTF-8 code points, case folded by core/textfold.h, so "é" stays one character and
 * "Zoë" sorts with "zoë"). Ties (case, leading zeros) are broken by byte order, so the
 * order is total and stable across runs. What the screen does not show (escape sequences,
 * controls, bidi and invisible format characters: ui/text.c drops them) is skipped, so a
 * name does not sort first for a hidden escape. NULL sorts before everything. Pure. */

int natsort_cmp(const char *a, const char *b);

#endif
