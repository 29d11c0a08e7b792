#include "config.h"
#include "core/query.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/lang_names.h"
#include "core/textfold.h"

static const struct {
	const char *name;
	enum query_field field;
} fields[] = {
	{"state", QUERY_STATE}, {"lang", QUERY_LANG}, {"language", QUERY_LANG},
	{"tag", QUERY_TAG}, {"cost", QUERY_COST},
};

void query_free(struct query *q)
{
	for (size_t i = 0; i < q->n; i++)
		free(q->terms[i].text);
	free(q->terms);
	q->terms = NULL;
	q->n = 0;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The next token into a malloc'd string (quotes removed) at *pos; NULL at the end or on
 * error (*failed set, message in err). *literal: 1 when it starts with a quote, 2 with -",
 * else 0; a quoted word is a word even when it reads "field:text" or "-word". */
static char *next_token(const char **pos, int *literal, bool *failed, char *err, size_t errsize)
{
	const char *p = *pos;
	while (is_space(*p))
		p++;
	if (!*p) {
		*pos = p;
		return NULL;
	}
	size_t cap = strlen(p) + 1, n = 0;
	char *out = malloc(cap);
	if (!out) {
		snprintf(err, errsize, "out of memory");
		*failed = true;
		return NULL;
	}
	bool quoted = false;
	*literal = p[0] == '"' ? 1 : p[0] == '-' && p[1] == '"' ? 2 : 0;
	for (; *p && (quoted || !is_space(*p)); p++) {
		if (*p == '"')
			quoted = !quoted;
		else
			out[n++] = *p;
	}
	out[n] = '\0';
	*pos = p;
	if (quoted) {
		snprintf(err, errsize, "unterminated quote");
		*failed = true;
		free(out);
		return NULL;
	}
	return out;
}

/* The field of "name:" at the start of tok (its length in *len), QUERY_WORD when tok has
 * no such prefix, -1 when the name is letters but not a known field. */
static int field_of(const char *tok, size_t *len)
{
	size_t n = 0;
	while ((tok[n] >= 'a' && tok[n] <= 'z') || (tok[n] >= 'A' && tok[n] <= 'Z'))
		n++;
	*len = n;
	if (n == 0)
		return QUERY_WORD;
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (strlen(fields[i].name) == n && strncasecmp(tok, fields[i].name, n) == 0) {
			if (fields[i].field == QUERY_COST && strchr(":<>=", tok[n]))
				return QUERY_COST;
			if (tok[n] == ':')
				return (int)fields[i].field;
		}
	return tok[n] == ':' && tok[n + 1] ? -1 : QUERY_WORD;
}

static int parse_cost(struct query_term *t, const char *s, char *err, size_t errsize)
{
	if (s[0] == ':')
		s++;
	if (s[0] == '<' && s[1] == '=')
		t->cmp = QUERY_LE, s += 2;
	else if (s[0] == '>' && s[1] == '=')
		t->cmp = QUERY_GE, s += 2;
	else if (s[0] == '<')
		t->cmp = QUERY_LT, s++;
	else if (s[0] == '>')
		t->cmp = QUERY_GT, s++;
	else if (s[0] == '=')
		t->cmp = QUERY_EQ, s++;
	else
		t->cmp = QUERY_EQ;
	char *end;
	errno = 0;
	t->number = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(t->number)) {
		snprintf(err, errsize, "cost needs a number: cost>100, cost<=2.5");
		return -1;
	}
	return 0;
}

static int add_term(struct query *q, char *tok, int literal, char *err, size_t errsize)
{
	struct query_term t = {0};
	char *s = tok;
	if (s[0] == '-' && s[1] && literal != 1) {
		t.negate = true;
		s++;
	}
	size_t flen = 0;
	int field = literal ? QUERY_WORD : field_of(s, &flen);
	if (field < 0) {
		snprintf(err, errsize, "unknown field '%.*s' (state, lang, tag, cost)", (int)flen, s);
		return -1;
	}
	t.field = (enum query_field)field;
	if (t.field == QUERY_COST) {
		if (parse_cost(&t, s + flen, err, errsize) != 0)
			return -1;
	} else {
		const char *text = t.field == QUERY_WORD ? s : s + flen + 1;
		if (!(t.text = strdup(text))) {
			snprintf(err, errsize, "out of memory");
			return -1;
		}
	}
	struct query_term *ts = realloc(q->terms, (q->n + 1) * sizeof *ts);
	if (!ts) {
		free(t.text);
		snprintf(err, errsize, "out of memory");
		return -1;
	}
	q->terms = ts;
	q->terms[q->n++] = t;
	return 0;
}

int query_parse(struct query *q, const char *text, char *err, size_t errsize)
{
	q->terms = NULL;
	q->n = 0;
	if (errsize)
		err[0] = '\0';
	const char *pos = text ? text : "";
	bool failed = false;
	int literal;
	char *tok;
	while ((tok = next_token(&pos, &literal, &failed, err, errsize)) != NULL) {
		/* "" matches all; so does a lone -, an exclusion not yet written */
		bool empty = !tok[0] || (!literal && strcmp(tok, "-") == 0);
		int rc = empty ? 0 : add_term(q, tok, literal, err, errsize);
		free(tok);
		if (rc != 0) {
			query_free(q);
			return -1;
		}
	}
	if (failed) {
		query_free(q);
		return -1;
	}
	return 0;
}

static bool any_tag(const struct query_item *it, const char *text, bool prefix)
{
	for (size_t i = 0; i < it->n_tags; i++)
		if (prefix ? textfold_has_prefix(it->tags[i], text) : textfold_contains(it->tags[i], text))
			return true;
	return false;
}

static bool cost_holds(const struct query_term *t, const struct query_item *it)
{
	if (!it->has_cost)
		return false;
	double cost = (double)it->cost_cents / 100.0;
	switch (t->cmp) {
	case QUERY_LT: return cost < t->number;
	case QUERY_GT: return cost > t->number;
	case QUERY_LE: return cost <= t->number;
	case QUERY_GE: return cost >= t->number;
	case QUERY_EQ: break;
	}
	return fabs(cost - t->number) < 0.005;
}

/* "done" finds automatic_done: a state matches by the start of any of its '_' words, as the
 * browser shows the last one. */
static bool state_has_word_prefix(const char *state, const char *prefix)
{
	for (const char *w = state; w; w = strchr(w, '_') ? strchr(w, '_') + 1 : NULL)
		if (textfold_has_prefix(w, prefix))
			return true;
	return false;
}

static bool term_holds(const struct query_term *t, const struct query_item *it)
{
	switch (t->field) {
	case QUERY_WORD:
		return textfold_contains(it->name, t->text) || textfold_contains(it->id, t->text) ||
		       any_tag(it, t->text, false);
	case QUERY_STATE:
		return it->state && state_has_word_prefix(it->state, t->text);
	case QUERY_LANG:
		return it->language && lang_name_match(it->language, t->text) != LANG_MATCH_NONE;
	case QUERY_TAG:
		return any_tag(it, t->text, true);
	case QUERY_COST:
		return cost_holds(t, it);
	}
	return false;
}

bool query_match(const struct query *q, const struct query_item *item)
{
	for (size_t i = 0; i < q->n; i++)
		if (term_holds(&q->terms[i], item) == q->terms[i].negate)
			return false;
	return true;
}
