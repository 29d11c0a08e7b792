#ifndef STENO_CORE_COLUMNS_H
#define STENO_CORE_COLUMNS_H

/* The columns of the transcription list as the user names them (config `columns = ...`,
 * the browser's `:columns`): which are shown, as a bit set. Name is always shown. Pure. */

#include <stddef.h>

enum list_column {
	LISTCOL_NAME, LISTCOL_STATE, LISTCOL_LANGUAGE, LISTCOL_LENGTH, LISTCOL_COST,
	LISTCOL_CREATED, LISTCOL_TAGS, LISTCOL_COUNT
};

#define LISTCOL_BIT(c) (1u << (c))
#define LISTCOL_ALL ((1u << LISTCOL_COUNT) - 1u)

/* "name", "state", "language", "length", "cost", "created", "tags"; NULL out of range. */
const char *listcol_name(enum list_column c);

/* A comma-separated list of names (spaces around them allowed, any order, case
 * insensitive) into *shown (Name added). An unknown or empty name: -1, *shown untouched,
 * the offending word copied into bad (if not NULL). */
int listcol_parse(const char *text, unsigned *shown, char *bad, size_t bad_size);

/* The names of the shown columns in list order, comma-separated ("name,state,tags"). */
void listcol_format(unsigned shown, char *buf, size_t size);

#endif
