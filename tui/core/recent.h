#ifndef STENO_CORE_RECENT_H
#define STENO_CORE_RECENT_H

/* A short most-recent-first list of choices (languages a dialog was submitted with), so
 * pickers can offer them first. Plain value, no allocation. Persistence belongs to the
 * state file (per server); until it carries these lists, the owner keeps one per run. */

#include <stdbool.h>
#include <stddef.h>

#define RECENT_MAX 8

struct recent_list {
	char items[RECENT_MAX][64];   /* items[0] is the most recent */
	size_t n;
};

/* Puts value first (moving it up when already there; the oldest drops out when full).
 * Empty, NULL or too long (63 bytes and more) values are ignored. */
void recent_push(struct recent_list *r, const char *value);
/* The position of value (0 = most recent), or -1. r may be NULL. */
int recent_rank(const struct recent_list *r, const char *value);

#endif
