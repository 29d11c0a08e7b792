#include "config.h"
#include "core/lang_names.h"

#include <stdlib.h>
#include <string.h>

#include "core/textfold.h"

static int by_code(const void *key, const void *elem)
{
	return strcmp(key, ((const struct lang_name *)elem)->code);
}

const struct lang_name *lang_name_find(const char *code)
{
	if (!code)
		return NULL;
	return bsearch(code, lang_names_table, lang_names_table_count, sizeof lang_names_table[0],
		       by_code);
}

const char *lang_name_english(const char *code)
{
	const struct lang_name *n = lang_name_find(code);
	return n ? n->english : NULL;
}

const char *lang_name_native(const char *code)
{
	const struct lang_name *n = lang_name_find(code);
	return n && n->native[0] ? n->native : NULL;
}

enum lang_match lang_name_match(const char *code, const char *query)
{
	if (!query || !*query)
		return LANG_MATCH_CODE;
	if (textfold_has_prefix(code, query))
		return LANG_MATCH_CODE;
	const struct lang_name *n = lang_name_find(code);
	if (!n)
		return LANG_MATCH_NONE;
	if (textfold_word_prefix(n->english, query))
		return LANG_MATCH_ENGLISH;
	if (textfold_word_prefix(n->native, query))
		return LANG_MATCH_NATIVE;
	return LANG_MATCH_NONE;
}
