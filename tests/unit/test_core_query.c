/* tui/core pure helpers of the list: the filter query language, natural sort and the
 * allocation of column widths. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/colwidth.h"
#include "core/natsort.h"
#include "core/query.h"

static const char *const tags_a[] = {"interview", "Paris"};
static const struct query_item item_a = {
	.id = "aaaa1111", .name = "Commande n°4 — entretien", .state = "failed",
	.language = "fr-FR", .tags = tags_a, .n_tags = 2, .has_cost = true, .cost_cents = 12050,
};
static const struct query_item item_b = {
	.id = "bbbb2222", .name = "Board call", .state = "done", .language = "ja-JP",
	.tags = NULL, .n_tags = 0, .has_cost = false,
};

static bool m(const char *text, const struct query_item *it)
{
	struct query q;
	char err[200];
	cr_assert_eq(query_parse(&q, text, err, sizeof err), 0, "%s: %s", text, err);
	bool hit = query_match(&q, it);
	query_free(&q);
	return hit;
}

static void parse_fails(const char *text, const char *msg_part)
{
	struct query q;
	char err[200];
	cr_assert_eq(query_parse(&q, text, err, sizeof err), -1, "%s", text);
	cr_assert(strstr(err, msg_part), "%s: %s", text, err);
	cr_assert_null(q.terms);
}

Test(query, free_words_match_name_id_and_tags_folded)
{
	cr_assert(m("", &item_a));
	cr_assert(m(NULL, &item_a));
	cr_assert(m("commande", &item_a));
	cr_assert(m("COMMANDE N°4", &item_a), "every word must occur");
	cr_assert_not(m("commande n°5", &item_a));
	cr_assert(m("1111", &item_a), "id");
	cr_assert(m("pari", &item_a), "tag");
	cr_assert(m("ENTRETIEN", &item_a));
	cr_assert(m("\"board call\"", &item_b), "quoted phrase");
	cr_assert_not(m("\"call board\"", &item_b));
}

Test(query, fields_state_lang_tag)
{
	cr_assert(m("state:failed", &item_a));
	cr_assert(m("State:FAIL", &item_a), "prefix, field name and value folded");
	cr_assert_not(m("state:done", &item_a));
	{
		struct query_item c = item_b;
		c.state = "automatic_done";
		cr_assert(m("state:done", &c), "a word of the API state, as the browser shows it");
		cr_assert(m("state:automatic", &c));
		cr_assert_not(m("state:tic", &c), "words match from their start");
	}
	cr_assert(m("lang:fr", &item_a));
	cr_assert(m("lang:french", &item_a), "by English name");
	cr_assert(m("lang:français", &item_a), "by own name");
	cr_assert(m("language:japanese", &item_b));
	cr_assert(m("lang:日本", &item_b));
	cr_assert_not(m("lang:fr", &item_b));
	cr_assert(m("tag:inter", &item_a), "tag prefix");
	cr_assert_not(m("tag:view", &item_a), "tag: is a prefix, not anywhere");
	cr_assert_not(m("tag:x", &item_b), "no tags");
}

Test(query, cost_comparisons_in_currency_units)
{
	cr_assert(m("cost>100", &item_a));
	cr_assert(m("cost>=120.5", &item_a));
	cr_assert(m("cost<=120.5", &item_a));
	cr_assert(m("cost=120.50", &item_a));
	cr_assert(m("cost:120.5", &item_a));
	cr_assert_not(m("cost<100", &item_a));
	cr_assert_not(m("cost>121", &item_a));
	cr_assert_not(m("cost>0", &item_b), "no cost never matches");
	cr_assert(m("-cost>0", &item_b));
}

Test(query, minus_excludes_and_terms_are_anded)
{
	cr_assert_not(m("-commande", &item_a));
	cr_assert(m("-commande", &item_b));
	cr_assert(m("-state:failed", &item_b));
	cr_assert_not(m("-state:failed", &item_a));
	cr_assert_not(m("commande -tag:paris", &item_a));
	cr_assert(m("commande state:failed lang:fr tag:paris cost>100", &item_a));
	cr_assert(m("\"-board\"", &item_a) == false, "a quoted -word is a word");
	cr_assert(m("-", &item_a) && m("-", &item_b) && m("board -", &item_b),
		  "a lone - is an exclusion not yet written: it matches all (the live filter "
		  "does not empty the list while -word is typed)");
	cr_assert(m("\"-\"", &item_a) == false, "a quoted - is a word");
	cr_assert(m("\"colour:red\"", &item_a) == false, "quoted: a word, not a field");
}

Test(query, errors_name_the_problem)
{
	parse_fails("colour:red", "unknown field 'colour'");
	parse_fails("cost>abc", "cost needs a number");
	parse_fails("cost>", "cost needs a number");
	parse_fails("cost>1e999", "cost needs a number");
	parse_fails("board \"call", "unterminated quote");
	/* a word with a colon that is not letters-then-colon stays a word */
	struct query q;
	char err[100];
	cr_assert_eq(query_parse(&q, "10:30 n°2:", err, sizeof err), 0, "%s", err);
	cr_assert_eq(q.n, 2);
	cr_assert_eq(q.terms[0].field, QUERY_WORD);
	query_free(&q);
}

Test(natsort, numbers_compare_as_numbers)
{
	cr_assert_lt(natsort_cmp("Commande n°2", "Commande n°10"), 0);
	cr_assert_gt(natsort_cmp("Commande n°10", "Commande n°2"), 0);
	cr_assert_lt(natsort_cmp("Commande n°1", "Commande n°2"), 0);
	cr_assert_lt(natsort_cmp("a9", "a10"), 0);
	cr_assert_lt(natsort_cmp("a99999999999999999999", "a100000000000000000000"), 0,
		     "longer than any integer type");
	cr_assert_lt(natsort_cmp("x2y9", "x2y10"), 0);
	cr_assert_lt(natsort_cmp("file", "file1"), 0);
}

Test(natsort, case_and_utf8_folded_ties_broken_by_bytes)
{
	cr_assert_lt(natsort_cmp("apple", "Banana"), 0);
	cr_assert_lt(natsort_cmp("Éclair", "éclairs"), 0, "É folds to é");
	cr_assert_lt(natsort_cmp("zoë", "zoëa"), 0);
	cr_assert_lt(natsort_cmp("Zoé", "Zoë"), 0, "code points, not bytes cut apart");
	cr_assert_neq(natsort_cmp("a", "A"), 0, "total order");
	cr_assert_eq(natsort_cmp("a", "A"), -natsort_cmp("A", "a"));
	cr_assert_neq(natsort_cmp("n°02", "n°2"), 0);
	cr_assert_eq(natsort_cmp("same", "same"), 0);
	cr_assert_lt(natsort_cmp(NULL, ""), 0);
	cr_assert_eq(natsort_cmp(NULL, NULL), 0);
}

static int cmp_ptr(const void *a, const void *b)
{
	return natsort_cmp(*(const char *const *)a, *(const char *const *)b);
}

Test(natsort, sorts_a_list)
{
	const char *v[] = {"Commande n°10", "commande n°2", "Commande n°1", "Commande n°20",
			   "Commande n°3"};
	qsort(v, 5, sizeof v[0], cmp_ptr);
	cr_assert_str_eq(v[0], "Commande n°1");
	cr_assert_str_eq(v[1], "commande n°2");
	cr_assert_str_eq(v[2], "Commande n°3");
	cr_assert_str_eq(v[3], "Commande n°10");
	cr_assert_str_eq(v[4], "Commande n°20");
}

/* The browser's columns: ID, State, Language, Length, Created, Tags, Name. */
enum { C_ID, C_STATE, C_LANG, C_LEN, C_CREATED, C_TAGS, C_NAME, C_N };

static void list_specs(struct colwidth_spec *s, int name_want, int tags_want)
{
	s[C_ID] = (struct colwidth_spec){ .min = 8, .want = 32, .grow = 0, .drop = 1 };
	s[C_STATE] = (struct colwidth_spec){ .min = 6, .want = 22, .grow = 0, .drop = 0 };
	s[C_LANG] = (struct colwidth_spec){ .min = 5, .want = 11, .grow = 0, .drop = 3 };
	s[C_LEN] = (struct colwidth_spec){ .min = 6, .want = 8, .grow = 0, .drop = 4 };
	s[C_CREATED] = (struct colwidth_spec){ .min = 10, .want = 16, .grow = 0, .drop = 2 };
	s[C_TAGS] = (struct colwidth_spec){ .min = 6, .want = tags_want, .grow = 2, .drop = 5 };
	s[C_NAME] = (struct colwidth_spec){ .min = 12, .want = name_want, .grow = 1, .drop = 0 };
}

/* Names whole at Name's minimum: nothing gives way to Name, only minimums drop columns. */
static void name_whole_at_min(struct colwidth_spec *s)
{
	s[C_NAME].want = s[C_NAME].min;
}

static int sum(const int *w, size_t n, int gap)
{
	int t = 0, shown = 0;
	for (size_t i = 0; i < n; i++)
		if (w[i]) {
			t += w[i];
			shown++;
		}
	return t + (shown - 1) * gap;
}

Test(colwidth, at_200_columns_a_40_cell_name_is_whole)
{
	struct colwidth_spec s[C_N];
	int w[C_N];
	list_specs(s, 40, 30);
	cr_assert_eq(colwidth_allocate(s, C_N, 200, 1, w), C_N);
	cr_assert_geq(w[C_NAME], 40, "name %d", w[C_NAME]);
	cr_assert_geq(w[C_TAGS], 30, "tags whole too: %d", w[C_TAGS]);
	cr_assert_eq(w[C_CREATED], 16);
	cr_assert_eq(sum(w, C_N, 1), 200, "the room is used");
}

Test(colwidth, slack_goes_to_name_first_then_tags)
{
	struct colwidth_spec s[C_N];
	int w[C_N];
	list_specs(s, 60, 40);
	/* minimums 53 + 6 gaps = 59; at 120 Name takes what it can before Tags does */
	colwidth_allocate(s, C_N, 120, 1, w);
	cr_assert_eq(w[C_NAME], 60, "%d", w[C_NAME]);
	cr_assert_eq(sum(w, C_N, 1), 120);
	cr_assert_gt(w[C_TAGS], 6);
	cr_assert_eq(w[C_ID], 8, "fixed columns stay at their minimum while names are cut");
	/* a little narrower: Name still gets the room before Tags; while Name is cut, the
	 * columns that drop no later than Tags give way, least needed first: ID (43 -> 52),
	 * then Created (-> 63, Name whole); Tags stays and takes the rest */
	colwidth_allocate(s, C_N, 90, 1, w);
	cr_assert_eq(w[C_ID], 0);
	cr_assert_eq(w[C_CREATED], 0);
	cr_assert_eq(w[C_NAME], 60, "%d", w[C_NAME]);
	cr_assert_eq(w[C_TAGS], 6 + 3);
	cr_assert_eq(sum(w, C_N, 1), 90);
	/* surplus beyond every want goes to Name */
	colwidth_allocate(s, C_N, 300, 1, w);
	cr_assert_eq(w[C_TAGS], 40);
	cr_assert_eq(w[C_ID], 32);
	cr_assert_eq(sum(w, C_N, 1), 300);
	cr_assert_gt(w[C_NAME], 60);
}

Test(colwidth, narrow_terminals_drop_columns_in_order)
{
	struct colwidth_spec s[C_N];
	int w[C_N];
	list_specs(s, 40, 20);
	/* minimums: ID goes first, then Created */
	name_whole_at_min(s);
	int shown = colwidth_allocate(s, C_N, 45, 1, w);
	cr_assert_eq(w[C_ID], 0, "ID goes first");
	cr_assert_eq(w[C_CREATED], 0, "then Created");
	cr_assert_gt(w[C_NAME], 0);
	cr_assert_gt(w[C_STATE], 0);
	cr_assert_eq(sum(w, C_N, 1), 45);
	cr_assert_eq(shown, 5);
	/* Name cut (18 of 40) with Tags shown: Lang, Length, then Tags give way to it */
	list_specs(s, 40, 20);
	shown = colwidth_allocate(s, C_N, 45, 1, w);
	cr_assert_eq(shown, 2);
	cr_assert_eq(w[C_NAME], 45 - 6 - 1);
	cr_assert_eq(w[C_STATE], 6);
	/* smaller than every minimum: what stays is cut down, never beyond the total */
	colwidth_allocate(s, C_N, 10, 1, w);
	cr_assert_leq(sum(w, C_N, 1), 10);
	cr_assert_eq(colwidth_allocate(s, C_N, 0, 1, w), 0);
	cr_assert_eq(w[C_NAME], 0);
}

/* Names sort as the screen shows them: an escape sequence, a control or a bidi mark (which
 * the screen drops) does not put a name first. */
Test(natsort, what_the_screen_drops_does_not_sort)
{
	cr_assert_gt(natsort_cmp("\033[31mZulu", "Alpha"), 0, "an escape sequence sorted first");
	cr_assert_gt(natsort_cmp("\x01Zulu", "Alpha"), 0, "a control character sorted first");
	cr_assert_gt(natsort_cmp("\xe2\x80\xaeZulu", "Alpha"), 0, "a bidi override sorted first");
	cr_assert_gt(natsort_cmp("\033]0;x\007Zulu", "Alpha"), 0, "an OSC sorted first");
	cr_assert_lt(natsort_cmp("\033[1mn\xc2\xb0" "2", "n\xc2\xb0" "10"), 0, "numbers after it");
	cr_assert_neq(natsort_cmp("\033[31mAlpha", "Alpha"), 0, "still a total order");
}

/* memcmp then the shorter first: how SQLite orders the BLOB keys */
static int blob_cmp(const unsigned char *a, size_t na, const unsigned char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);
	if (!c)
		c = (na > nb) - (na < nb);
	return (c > 0) - (c < 0);
}

/* The key's order is natsort_cmp's, over names made of the pieces that matter: digit runs
 * with leading zeros, case, accents, hidden characters, prefixes. */
Test(natsort, the_key_orders_as_natsort_cmp)
{
	static const char *const piece[] = { "0", "007", "7", "10", "a", "A", "b", "é", "É",
		"z", " ", "-", "\x1b[1m", "\xe2\x80\x8b", "n°", "日", "", "9", "Z", "_" };
	const size_t np = sizeof piece / sizeof piece[0];
	char s[400][32];
	unsigned seed = 7;
	for (int i = 0; i < 400; i++) {
		s[i][0] = '\0';
		for (int k = 0, m = i % 5 + 1; k < m; k++) {
			seed = seed * 1103515245u + 12345u;
			strcat(s[i], piece[(seed >> 16) % np]);
		}
	}
	for (int i = 0; i < 400; i++)
		for (int j = 0; j < 400; j += 3) {
			size_t na, nb;
			unsigned char *ka = natsort_key(s[i], &na), *kb = natsort_key(s[j], &nb);
			cr_assert(ka && kb);
			int want = natsort_cmp(s[i], s[j]), got = blob_cmp(ka, na, kb, nb);
			if (!got)   /* the same key: told apart by their bytes */
				got = strcmp(s[i], s[j]);
			cr_assert_eq((got > 0) - (got < 0), (want > 0) - (want < 0),
				     "'%s' against '%s'", s[i], s[j]);
			free(ka);
			free(kb);
		}
}

/* Lists of tags: tag by tag, then the shorter list first. */
Test(natsort, the_list_key_orders_tag_by_tag)
{
	const char *a[] = { "urgent", "b" }, *b[] = { "urgent" }, *c[] = { "Urgent", "a" },
		   *d[] = { "draft" }, *e[] = { "urgent", "b10" }, *f[] = { "urgent", "b9" };
	const char *const *l[] = { d, c, b, a, f, e };
	size_t n[] = { 1, 2, 1, 2, 2, 2 };
	for (int i = 0; i + 1 < 6; i++) {
		size_t na, nb;
		unsigned char *ka = natsort_key_list(l[i], n[i], &na);
		unsigned char *kb = natsort_key_list(l[i + 1], n[i + 1], &nb);
		cr_assert(ka && kb);
		cr_assert_lt(blob_cmp(ka, na, kb, nb), 0, "list %d before list %d", i, i + 1);
		free(ka);
		free(kb);
	}
}
