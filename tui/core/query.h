#ifndef STENO_CORE_QUERY_H
#define STENO_CORE_QUERY_H

/* The filter query language, shared by the browser's `/` filter and `steno ls --where`:
 *
 *   words          every free word must occur (case folded) in the name, the id or a tag
 *   "two words"    a quoted phrase is one word
 *   state:failed   the state starts with it          tag:x      a tag starts with it
 *   lang:fr        the language code starts with it, or a word of its English or own name
 *                  does (lang:japanese, lang:日本; core/lang_names.h)
 *   cost>100       the cost in currency units (costInCents / 100) compared with the number;
 *                  also <, >=, <=, = (an item without a cost never matches)
 *   -term          excludes what term matches (-draft, -state:failed); a lone - is
 *                  ignored (the live filter does not empty while -word is typed)
 *
 * Terms are ANDed. Field names are case-insensitive; `field:` with an unknown field name
 * is an error (so a typo does not silently match nothing). Pure: no I/O.
 * Ownership: query_parse fills a struct query that query_free releases. */

#include <stdbool.h>
#include <stddef.h>

enum query_field { QUERY_WORD, QUERY_STATE, QUERY_LANG, QUERY_TAG, QUERY_COST };
enum query_cmp { QUERY_EQ, QUERY_LT, QUERY_GT, QUERY_LE, QUERY_GE };

struct query_term {
	enum query_field field;
	bool negate;
	char *text;          /* WORD, STATE, LANG, TAG: the text to look for (malloc'd) */
	enum query_cmp cmp;  /* COST */
	double number;       /* COST, in currency units */
};

struct query {
	struct query_term *terms;
	size_t n;
};

/* What a query looks at in one item. Borrowed strings; NULL means missing. */
struct query_item {
	const char *id, *name, *state, *language;
	const char *const *tags;
	size_t n_tags;
	bool has_cost;
	long long cost_cents;
};

/* Parses text (UTF-8; NULL or blank gives an empty query that matches everything).
 * Returns 0, or -1 with a message in err ("unknown field 'colour' (state, lang, tag,
 * cost)", "cost needs a number: cost>100", "unterminated quote", "out of memory"). */
int query_parse(struct query *q, const char *text, char *err, size_t errsize);
bool query_match(const struct query *q, const struct query_item *item);
void query_free(struct query *q);

#endif
