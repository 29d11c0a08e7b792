#ifndef STENO_CORE_LANG_NAMES_H
#define STENO_CORE_LANG_NAMES_H

/* Names of the language codes the API uses: English ("Japanese (Japan)" for ja-JP) and the
 * language's own ("日本語 (日本)"). The table (core/lang_names_data.c) is generated from
 * Debian's iso-codes data by core/gen-lang-names.py for every code of api/spec_tables.c;
 * see the README ("Language names"). Ownership: static strings, nothing to free. */

#include <stdbool.h>
#include <stddef.h>

struct lang_name {
	const char *code;     /* "ja-JP", exactly as the API spells it */
	const char *english;  /* "Japanese (Japan)" */
	const char *native;   /* "日本語 (日本)"; "" when iso-codes has no translation */
};

/* The generated table, sorted by code (strcmp). */
extern const struct lang_name lang_names_table[];
extern const size_t lang_names_table_count;

/* The entry of a code (exact, case-sensitive as the API is), or NULL. */
const struct lang_name *lang_name_find(const char *code);
/* Its English name, or NULL for a code the table does not know. */
const char *lang_name_english(const char *code);
/* Its own name, or NULL when unknown or untranslated. */
const char *lang_name_native(const char *code);

enum lang_match {
	LANG_MATCH_NONE = 0,
	LANG_MATCH_CODE,      /* the query is a prefix of the code ("ja" -> ja-JP) */
	LANG_MATCH_ENGLISH,   /* a word of the English name starts with the query */
	LANG_MATCH_NATIVE,    /* a word of the native name starts with the query */
};

/* How code matches a search query, case-insensitively (UTF-8 folded, core/textfold.h):
 * "ja", "japanese", "japan", "日本" all find ja-JP; "chinese" finds cmn-Hans-CN. A code the
 * table does not know matches by code prefix only. An empty or NULL query matches every
 * code (LANG_MATCH_CODE). */
enum lang_match lang_name_match(const char *code, const char *query);

#endif
