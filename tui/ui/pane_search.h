#ifndef STENO_UI_PANE_SEARCH_H
#define STENO_UI_PANE_SEARCH_H

/* The results of a search of every transcript in the local store (core/content_db.h), full
 * screen: the query on the first line, searched again as it is typed (the last word as a
 * prefix), hits grouped by transcription (its name, then one line per passage: time code,
 * speaker, the words around the match highlighted); Enter opens the reader at the hit. */

#include <sqlite3.h>

#include "ui/pane.h"

struct search_arg {
	sqlite3 *db;                 /* the local store (must outlive the pane) */
	const char *query;           /* the first query (NULL: none yet) */
	const char *org;             /* only this organization (NULL: all) */
	/* Enter on a hit: the pane closes, then this opens the reader (id, at seconds or -1,
	 * the words to highlight); ids and words are copied by the callee. */
	void (*open)(void *ud, const char *id, double at, const char *find);
	void *ud;
};

extern const struct pane_ops search_pane_ops;

/* The query as typed made a search as you type: its last word a prefix ("gard" finds
 * "garden") unless it is quoted, an operator or already ends in '*'. Into out. Pure. */
void search_as_you_type(const char *typed, char *out, size_t size);

#endif
