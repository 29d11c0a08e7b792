#include "config.h"
#include "api/paging.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/url.h"

void steno_pager_init(struct steno_pager *p, long limit)
{
	memset(p, 0, sizeof(*p));
	p->limit = limit > 0 ? limit : STENO_PAGER_DEFAULT_LIMIT;
}

void steno_pager_free(struct steno_pager *p)
{
	for (size_t i = 0; i < p->nseen; i++)
		free(p->seen[i]);
	free(p->seen);
	free(p->keep);
	memset(p, 0, sizeof(*p));
}

int steno_pager_keep(struct steno_pager *p, const char *name, const char *value)
{
	if (!value)
		return 0;
	char *n = steno_url_escape(name), *v = steno_url_escape(value);
	size_t len = (p->keep ? strlen(p->keep) + 1 : 0) + (n ? strlen(n) : 0) + (v ? strlen(v) : 0) + 2;
	char *k = n && v ? malloc(len) : NULL;
	if (k)
		snprintf(k, len, "%s%s%s=%s", p->keep ? p->keep : "", p->keep ? "&" : "", n, v);
	free(n);
	free(v);
	if (!k)
		return -1;
	free(p->keep);
	p->keep = k;
	return 0;
}

/* True when the query `q` has a parameter named like the first `len` bytes of `name`. */
static int query_has(const char *q, const char *name, size_t len)
{
	while (q && *q) {
		if (strncmp(q, name, len) == 0 && (q[len] == '=' || q[len] == '&' || !q[len]))
			return 1;
		q = strchr(q, '&');
		q = q ? q + 1 : NULL;
	}
	return 0;
}

/* `next` with every kept parameter it lacks appended. NULL on no memory or a bad URL. */
static char *with_kept(const struct steno_pager *p, const char *next)
{
	CURLU *u = curl_url();
	char *query = NULL, *full = NULL, *out = NULL;
	if (!u || curl_url_set(u, CURLUPART_URL, next, 0) != CURLUE_OK)
		goto done;
	curl_url_get(u, CURLUPART_QUERY, &query, 0);
	for (const char *k = p->keep; k && *k;) {
		size_t len = strcspn(k, "&");
		size_t nlen = strcspn(k, "=");
		char pair[1024];
		if (len < sizeof(pair) && !query_has(query, k, nlen)) {
			memcpy(pair, k, len);
			pair[len] = '\0';
			if (curl_url_set(u, CURLUPART_QUERY, pair, CURLU_APPENDQUERY) != CURLUE_OK)
				goto done;
		}
		k += len;
		k += *k == '&';
	}
	if (curl_url_get(u, CURLUPART_URL, &full, 0) == CURLUE_OK)
		out = strdup(full);
done:
	curl_free(query);
	curl_free(full);
	curl_url_cleanup(u);
	return out;
}

static int seen_add(struct steno_pager *p, const char *url)
{
	for (size_t i = 0; i < p->nseen; i++)
		if (strcmp(p->seen[i], url) == 0)
			return 0;
	if (p->nseen == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		char **s = realloc(p->seen, cap * sizeof(*s));
		if (!s)
			return -1;
		p->seen = s;
		p->cap = cap;
	}
	if (!(p->seen[p->nseen] = strdup(url)))
		return -1;
	p->nseen++;
	return 1;
}

int steno_pager_count(struct steno_pager *p, struct steno_error *err)
{
	if (p->pages >= p->limit) {
		steno_error_set(err, STENO_ERR_PARSE,
				"stopped after %ld pages (page_limit): the server keeps offering more",
				p->pages);
		if (err)
			snprintf(err->code, sizeof(err->code), "%s", STENO_CODE_PAGE_LIMIT);
		return -1;
	}
	p->pages++;
	return 0;
}

int steno_pager_next(struct steno_pager *p, const char *next, char **out, struct steno_error *err)
{
	*out = NULL;
	if (p->pages == 0)
		p->pages = 1; /* the first page, requested by the caller */
	if (!next || !*next)
		return 0;
	char *url = with_kept(p, next);
	if (!url)
		return steno_error_set(err, STENO_ERR_PARSE, "the next page's link is not a URL");
	int fresh = seen_add(p, url);
	if (fresh <= 0) {
		free(url);
		if (fresh < 0)
			return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
		steno_error_set(err, STENO_ERR_PARSE,
				"stopped after %ld pages: the server's next link repeats an earlier one",
				p->pages);
		if (err)
			snprintf(err->code, sizeof(err->code), "%s", STENO_CODE_PAGE_LOOP);
		return -1;
	}
	if (steno_pager_count(p, err) != 0) {
		free(url);
		return -1;
	}
	*out = url;
	return 1;
}
