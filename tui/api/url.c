#include "config.h"
#include "api/url.h"

#include "api/utf8.h"

#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Origin parts of a parsed URL. Owned by the struct; freed by origin_free. */
struct origin {
	char *scheme;
	char *host;
	char *port;
};

static void origin_free(struct origin *o)
{
	curl_free(o->scheme);
	curl_free(o->host);
	curl_free(o->port);
	memset(o, 0, sizeof(*o));
}

static int host_is_plain_ascii(const char *h)
{
	for (const unsigned char *p = (const unsigned char *)h; *p; p++)
		if (*p >= 0x80 || *p < 0x21 || *p == '%' || *p == '@')
			return 0;
	return 1;
}

/* Uses curl's own parser so that we judge a URL exactly as curl will connect to it. */
static int origin_parse(const char *url, struct origin *o)
{
	memset(o, 0, sizeof(*o));
	if (!url)
		return -1;
	CURLU *u = curl_url();
	if (!u)
		return -1;
	int rc = -1;
	if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_SCHEME, &o->scheme, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &o->host, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_PORT, &o->port, CURLU_DEFAULT_PORT) == CURLUE_OK)
		rc = 0;
	curl_url_cleanup(u);
	if (rc == 0 && (strcasecmp(o->scheme, "http") != 0 && strcasecmp(o->scheme, "https") != 0))
		rc = -1;
	if (rc == 0 && !host_is_plain_ascii(o->host))
		rc = -1;
	if (rc != 0)
		origin_free(o);
	return rc;
}

int steno_url_same_origin(const char *a, const char *b)
{
	struct origin oa, ob;
	if (origin_parse(a, &oa) != 0)
		return 0;
	if (origin_parse(b, &ob) != 0) {
		origin_free(&oa);
		return 0;
	}
	int same = strcasecmp(oa.scheme, ob.scheme) == 0 && strcasecmp(oa.host, ob.host) == 0 &&
		   atol(oa.port) == atol(ob.port);
	origin_free(&oa);
	origin_free(&ob);
	return same;
}

/* The path of url as curl reads it (curl_free it), NULL when it does not parse. */
static char *path_of(const char *url)
{
	CURLU *u = curl_url();
	char *path = NULL;
	if (u && (curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
		  curl_url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK))
		path = NULL;
	curl_url_cleanup(u);
	return path;
}

int steno_url_under(const char *base, const char *url)
{
	if (!steno_url_same_origin(base, url))
		return 0;
	char *bp = path_of(base), *up = path_of(url);
	size_t k = bp ? strlen(bp) : 0;
	while (k > 0 && bp[k - 1] == '/')
		k--;
	int under = bp && up && !strncmp(up, bp, k) && (up[k] == '\0' || up[k] == '/');
	curl_free(bp);
	curl_free(up);
	return under;
}

static int name_is_secret(const char *name, size_t len)
{
	static const char *const words[] = {
		"sig", "credential", "token", "key", "secret", "password", "auth", "policy",
	};
	char low[64];
	if (len >= sizeof(low))
		return 1; /* an odd, huge name: redact rather than guess */
	for (size_t i = 0; i < len; i++)
		low[i] = (char)((name[i] >= 'A' && name[i] <= 'Z') ? name[i] + 32 : name[i]);
	low[len] = '\0';
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(low, words[i]))
			return 1;
	return 0;
}

static void out_append(char *out, size_t size, size_t *pos, const char *s, size_t n)
{
	if (*pos >= size)
		return;
	size_t room = size - 1 - *pos;
	if (n > room)
		n = room;
	memcpy(out + *pos, s, n);
	*pos += n;
	out[*pos] = '\0';
}

static void redact_query(const char *q, char *out, size_t size, size_t *pos)
{
	int first = 1;
	while (*q) {
		size_t n = strcspn(q, "&");
		const char *eq = memchr(q, '=', n);
		size_t name_len = eq ? (size_t)(eq - q) : n;
		out_append(out, size, pos, first ? "?" : "&", 1);
		first = 0;
		if (eq && name_is_secret(q, name_len)) {
			out_append(out, size, pos, q, name_len);
			out_append(out, size, pos, "=REDACTED", 9);
		} else {
			out_append(out, size, pos, q, n);
		}
		q += n;
		if (*q == '&')
			q++;
	}
}

int steno_url_redact(const char *url, char *out, size_t size)
{
	if (!out || size == 0)
		return -1;
	out[0] = '\0';
	CURLU *u = curl_url();
	char *scheme = NULL, *host = NULL, *port = NULL, *path = NULL, *query = NULL;
	int rc = -1;
	if (u && url && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
	    curl_url_get(u, CURLUPART_PATH, &path, 0) == CURLUE_OK) {
		size_t pos = 0;
		curl_url_get(u, CURLUPART_PORT, &port, 0);
		curl_url_get(u, CURLUPART_QUERY, &query, 0);
		out_append(out, size, &pos, scheme, strlen(scheme));
		out_append(out, size, &pos, "://", 3);
		out_append(out, size, &pos, host, strlen(host));
		if (port) {
			out_append(out, size, &pos, ":", 1);
			out_append(out, size, &pos, port, strlen(port));
		}
		out_append(out, size, &pos, path, strlen(path));
		if (query)
			redact_query(query, out, size, &pos);
		rc = 0;
	} else {
		snprintf(out, size, "<unparsable url>");
	}
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_free(path);
	curl_free(query);
	curl_url_cleanup(u);
	return rc;
}

static int char_is_unsafe(unsigned char c)
{
	return strchr("/\\:*?\"<>|", c) != NULL;
}

/* Length of the last `max` bytes boundary that does not cut a UTF-8 sequence. A sequence has
 * at most 3 continuation bytes: past that the text is not UTF-8 and is cut at max (found by
 * fuzzing: a name of continuation bytes was cut to "" and returned as the basename). */
static size_t utf8_floor(const char *s, size_t len, size_t max)
{
	if (len <= max)
		return len;
	size_t n = max;
	while (n > 0 && max - n < 3 && ((unsigned char)s[n] & 0xC0) == 0x80)
		n--;
	return ((unsigned char)s[n] & 0xC0) == 0x80 ? max : n;
}

#define BASENAME_MAX 200

/* Copies the last path component of `name` into buf, one character at a time: what could hide,
 * reorder or control (steno_cp_is_hidden), malformed UTF-8 and the characters unsafe in a file
 * name become '_'; then the name may not start with '.', '-' or a space (hidden files, options
 * to the next command) nor end with '.' or a space. */
static void basename_reduce(const char *name, char *buf, size_t bufsize)
{
	const char *p = name ? name : "";
	for (const char *q = p; *q; q++)
		if (*q == '/' || *q == '\\')
			p = q + 1;
	size_t n = 0;
	while (*p && n + 5 < bufsize) {
		uint32_t cp = 0;
		size_t len = steno_utf8_next(p, &cp);
		if (len == 0 || steno_cp_is_hidden(cp) || (len == 1 && char_is_unsafe((unsigned char)*p))) {
			buf[n++] = '_';
			p += len ? len : 1;
			continue;
		}
		memcpy(buf + n, p, len);
		n += len;
		p += len;
	}
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '.' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	for (size_t i = 0; i < n && strchr(". -", buf[i]); i++)
		buf[i] = '_';
}

static void basename_shorten(char *buf)
{
	size_t len = strlen(buf);
	if (len <= BASENAME_MAX)
		return;
	const char *dot = strrchr(buf, '.');
	size_t ext = dot ? strlen(dot) : 0;
	if (ext > 16)
		ext = 0; /* not a real extension */
	size_t keep = utf8_floor(buf, len - ext, BASENAME_MAX - ext);
	memmove(buf + keep, buf + len - ext, ext + 1);
}

int steno_url_safe_basename(const char *name, const char *fallback, char *out, size_t size,
			    struct steno_error *err)
{
	char buf[4096];
	basename_reduce(name, buf, sizeof(buf));
	if (buf[0] == '\0')
		basename_reduce(fallback, buf, sizeof(buf));
	if (buf[0] == '\0')
		return steno_error_invalid(err, "name", "no usable file name");
	basename_shorten(buf);
	if (!out || strlen(buf) + 1 > size)
		return steno_error_invalid(err, "name", "file name buffer too small");
	memcpy(out, buf, strlen(buf) + 1);
	return 0;
}

char *steno_url_escape(const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t len = strlen(s);
	char *out = malloc(len * 3 + 1);
	if (!out)
		return NULL;
	char *o = out;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    *p == '-' || *p == '.' || *p == '_' || *p == '~') {
			*o++ = (char)*p;
		} else {
			*o++ = '%';
			*o++ = hex[*p >> 4];
			*o++ = hex[*p & 15];
		}
	}
	*o = '\0';
	return out;
}

static void builder_append(struct steno_url_builder *b, const char *s)
{
	if (b->failed)
		return;
	size_t n = strlen(s);
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 128) + n;
		char *nb = realloc(b->buf, cap);
		if (!nb) {
			b->failed = 1;
			return;
		}
		b->buf = nb;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, s, n + 1);
	b->len += n;
}

void steno_url_builder_init(struct steno_url_builder *b, const char *base, const char *path)
{
	memset(b, 0, sizeof(*b));
	builder_append(b, base ? base : "");
	while (!b->failed && b->len > 0 && b->buf[b->len - 1] == '/')
		b->buf[--b->len] = '\0';
	if (path)
		builder_append(b, path);
}

static void builder_append_escaped(struct steno_url_builder *b, const char *s)
{
	char *e = steno_url_escape(s);
	if (!e) {
		b->failed = 1;
		return;
	}
	builder_append(b, e);
	free(e);
}

void steno_url_builder_segment(struct steno_url_builder *b, const char *seg)
{
	builder_append(b, "/");
	seg = seg ? seg : "";
	/* "." and ".." would be removed by URL normalisation and climb the path. */
	if (strspn(seg, ".") == strlen(seg)) {
		for (size_t i = 0; seg[i]; i++)
			builder_append(b, "%2E");
		return;
	}
	builder_append_escaped(b, seg);
}

void steno_url_builder_param(struct steno_url_builder *b, const char *name, const char *value)
{
	if (!value)
		return;
	builder_append(b, b->nparams++ ? "&" : "?");
	builder_append_escaped(b, name);
	builder_append(b, "=");
	builder_append_escaped(b, value);
}

char *steno_url_builder_take(struct steno_url_builder *b)
{
	char *s = b->failed ? NULL : b->buf;
	if (b->failed)
		free(b->buf);
	memset(b, 0, sizeof(*b));
	return s;
}

void steno_url_builder_free(struct steno_url_builder *b)
{
	free(b->buf);
	memset(b, 0, sizeof(*b));
}
