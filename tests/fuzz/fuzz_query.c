#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/lang_names.h"
#include "core/natsort.h"
#include "core/query.h"
#include "core/textfold.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input is split at its first NUL into a query (or name) and a second string.
 * The query parses or gives a message; a parsed query matches an item without crashing;
 * natural order is antisymmetric and reflexive; folding never reads past the end. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *a = malloc(size + 1), *b;
	if (!a)
		return 0;
	memcpy(a, data, size);
	a[size] = '\0';
	size_t la = strlen(a);
	b = la < size ? a + la + 1 : a + size;

	struct query q;
	char err[200];
	if (query_parse(&q, a, err, sizeof err) == 0) {
		const char *tags[] = {b, "x"};
		struct query_item it = { .id = b, .name = b, .state = b, .language = b, .tags = tags,
					 .n_tags = 2, .has_cost = size % 2, .cost_cents = (long long)size * 37 };
		(void)query_match(&q, &it);
		if (q.n == 0 && !query_match(&q, &it))
			abort();   /* an empty query matches everything */
		query_free(&q);
	} else if (!err[0] || q.terms || q.n) {
		abort();       /* a failure says why and leaves nothing behind */
	}
	int ab = natsort_cmp(a, b), ba = natsort_cmp(b, a);
	if (ab != -ba || natsort_cmp(a, a) != 0 || (ab == 0) != (strcmp(a, b) == 0))
		abort();
	if (!textfold_has_prefix(a, "") || !textfold_contains(a, a) || !textfold_word_prefix(a, ""))
		abort();
	if (lang_name_match(b, a) == LANG_MATCH_NONE && textfold_has_prefix(b, a))
		abort();
	free(a);
	return 0;
}
