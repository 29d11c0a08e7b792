#include "config.h"
#include "api/error_body.h"

#include <json-c/json.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/jget.h"
#include "api/timestamp.h"
#include "api/utf8.h"

#define TEXT_CHARS 200   /* open-points.md: a non-JSON body is shown by its first 200 chars */

/* A growing message text inside err->message-sized storage. */
struct text {
	char buf[sizeof(((struct steno_error *)0)->message)];
	size_t len;
};

static void text_add(struct text *t, const char *s)
{
	size_t room = sizeof(t->buf) - 1 - t->len;
	size_t n = strlen(s);
	if (n > room) {
		n = room;
		/* Never cut a UTF-8 sequence: back off to the start of the cut character. */
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

/* Copies at most max_chars UTF-8 characters of s, with runs of whitespace and control
 * characters (C0, DEL, C1) collapsed into one space, trimmed. s must be valid UTF-8. */
static void text_add_clean(struct text *t, const char *s, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t chars = 0;
	bool space = t->len > 0 && t->buf[t->len - 1] == ' ';
	while (*p && chars < max_chars && t->len < sizeof(t->buf) - 5) {
		bool ctl = *p <= 0x20 || *p == 0x7f || (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f);
		if (ctl) {
			p += *p == 0xc2 ? 2 : 1;
			if (!space && t->len > 0) {
				t->buf[t->len++] = ' ';
				chars++;
			}
			space = true;
			continue;
		}
		size_t k = *p < 0x80 ? 1 : *p < 0xe0 ? 2 : *p < 0xf0 ? 3 : 4;
		memcpy(t->buf + t->len, p, k);
		t->len += k;
		p += k;
		chars++;
		space = false;
	}
	while (t->len > 0 && t->buf[t->len - 1] == ' ')
		t->len--;
	t->buf[t->len] = '\0';
}

static void text_add_raw(struct text *t, const char *body, size_t len)
{
	char *fixed = jget_utf8_repair(body, len);
	if (fixed) {
		text_add_clean(t, fixed, TEXT_CHARS);
		free(fixed);
	}
}

static void add_string_member(struct text *t, struct json_object *o, const char *key)
{
	char *s;
	if (t->len == 0 && jget_string(o, key, &s) == JGET_OK) {
		text_add_clean(t, s, TEXT_CHARS);
		free(s);
	}
}

static bool is_code(const char *s)
{
	if (!*s || strlen(s) >= sizeof(((struct steno_error *)0)->code))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_' || *s == '.'))
			return false;
	return true;
}

/* "error": a snake_case code, a sentence, or an object with message/code. */
static void read_error_member(struct json_object *root, struct text *msg, struct steno_error *err)
{
	struct json_object *e;
	char *s;
	if (jget_member(root, "error", &e) != JGET_OK)
		return;
	if (json_object_is_type(e, json_type_object)) {
		add_string_member(msg, e, "message");
		if (jget_string(e, "code", &s) == JGET_OK) {
			if (is_code(s))
				snprintf(err->code, sizeof(err->code), "%s", s);
			free(s);
		}
	} else if (jget_value_string(e, &s) == JGET_OK) {
		if (is_code(s))
			snprintf(err->code, sizeof(err->code), "%s", s);
		else if (msg->len == 0)
			text_add_clean(msg, s, TEXT_CHARS);
		free(s);
	}
}

/* Appends the strings of an array, "; "-separated. */
static void add_problems(struct text *t, struct json_object *arr)
{
	size_t n = json_object_array_length(arr);
	bool first = true;
	for (size_t i = 0; i < n; i++) {
		char *s;
		if (jget_value_string(json_object_array_get_idx(arr, i), &s) != JGET_OK)
			continue;
		if (!first)
			text_add(t, "; ");
		text_add_clean(t, s, TEXT_CHARS);
		first = false;
		free(s);
	}
}

/* "errors": {"field":["problem"..]} or ["problem"..]. */
static void read_errors_member(struct json_object *root, struct text *detail,
			       struct steno_error *err)
{
	struct json_object *e;
	if (jget_member(root, "errors", &e) != JGET_OK)
		return;
	if (json_object_is_type(e, json_type_array)) {
		add_problems(detail, e);
		return;
	}
	if (!json_object_is_type(e, json_type_object))
		return;
	json_object_object_foreach(e, key, val) {
		char *field = jget_utf8_repair(key, strlen(key));
		if (!field)
			return;
		if (!err->field[0]) {
			struct text f = {.len = 0};
			text_add_clean(&f, field, sizeof(err->field) - 1);
			/* whole, or cut below the storage on a character boundary */
			size_t k = f.len < sizeof(err->field) - 1 ? f.len : sizeof(err->field) - 1;
			while (k < f.len && k > 0 && ((unsigned char)f.buf[k] & 0xc0) == 0x80)
				k--;
			memcpy(err->field, f.buf, k);
			err->field[k] = '\0';
		}
		if (detail->len)
			text_add(detail, "; ");
		text_add_clean(detail, field, 64);
		free(field);
		char *s;
		if (val && json_object_is_type(val, json_type_array)) {
			text_add(detail, ": ");
			add_problems(detail, val);
		} else if (jget_value_string(val, &s) == JGET_OK) {
			text_add(detail, ": ");
			text_add_clean(detail, s, TEXT_CHARS);
			free(s);
		}
	}
}

static void read_json_body(struct json_object *root, struct text *msg, struct steno_error *err)
{
	struct text detail = {.len = 0};
	double retry;

	read_error_member(root, msg, err);
	add_string_member(msg, root, "message");
	add_string_member(msg, root, "detail");
	read_errors_member(root, &detail, err);
	/* "language: fr is not available" after "fr is not available" says nothing new */
	if (detail.len && !(msg->len && strstr(detail.buf, msg->buf))) {
		if (msg->len) {
			text_add(msg, " (");
			text_add(msg, detail.buf);
			text_add(msg, ")");
		} else {
			text_add(msg, detail.buf);
		}
	}
	if (jget_double(root, "retry_in_seconds", &retry) == JGET_OK && retry >= 0)
		err->retry_after_s = retry;
}

/* The text between <tag> and </tag> in an XML body (S3-style storage errors:
 * <Error><Code>SignatureDoesNotMatch</Code><Message>...</Message></Error>), malloc'd, or NULL. */
static char *xml_element(const char *body, size_t len, const char *tag)
{
	char open[32], close[32];
	snprintf(open, sizeof(open), "<%s>", tag);
	snprintf(close, sizeof(close), "</%s>", tag);
	char *copy = jget_utf8_repair(body, len);
	char *a = copy ? strstr(copy, open) : NULL;
	char *b = a ? strstr(a, close) : NULL;
	char *out = NULL;
	if (b) {
		a += strlen(open);
		*b = '\0';
		out = strdup(a);
	}
	free(copy);
	return out;
}

/* An S3-style XML error: "Message" as the message, "Code" as the code. 1 when it was one. */
static int read_xml_body(const char *body, size_t len, struct text *msg, struct steno_error *err)
{
	char *code = xml_element(body, len, "Code"), *message = xml_element(body, len, "Message");
	int found = code || message;
	if (message)
		text_add_clean(msg, message, TEXT_CHARS);
	bool plain = code && *code && strlen(code) < sizeof(err->code);
	for (const char *p = code; plain && *p; p++)
		plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9');
	if (plain)
		snprintf(err->code, sizeof(err->code), "%s", code);
	else if (code && msg->len == 0)
		text_add_clean(msg, code, TEXT_CHARS);
	free(code);
	free(message);
	return found;
}

/* The body starts as a JSON object or array would (after blanks): one that did not parse is
 * cut or corrupt, and its text (`{"error":"not_found","mess`) is no message for a person. */
static bool looks_like_json(const char *body, size_t len)
{
	size_t i = 0;
	while (i < len && (body[i] == ' ' || body[i] == '\t' || body[i] == '\r' || body[i] == '\n'))
		i++;
	return i < len && (body[i] == '{' || body[i] == '[');
}

static void read_body(const char *body, size_t len, struct text *msg, struct steno_error *err)
{
	struct json_object *root = NULL;
	struct steno_error ignored;

	if (!body || len == 0)
		return;
	if (jget_parse(body, len, &root, &ignored) == 0 && root &&
	    json_object_is_type(root, json_type_object)) {
		read_json_body(root, msg, err);
	} else if (!root && !read_xml_body(body, len, msg, err)) {
		if (looks_like_json(body, len))
			text_add(msg, "the answer's body is not valid JSON");   /* never raw JSON */
		else
			text_add_raw(msg, body, len);   /* not JSON: the text itself */
	}
	json_object_put(root);
}

/* A 429 names the limit, not a bare "HTTP 429": "rate limited by the server (HTTP 429:
 * MESSAGE); it asks to wait N s". The asked wait is untrusted: kept finite and within a day. */
static int rate_limited(struct steno_error *err, const struct text *msg)
{
	char wait[64] = "";
	if (err->retry_after_s >= 0)
		snprintf(wait, sizeof wait, "; it asks to wait %.0f s",
			 err->retry_after_s < 1e9 ? err->retry_after_s : 1e9);
	if (!(err->retry_after_s <= STENO_RETRY_AFTER_MAX_S))
		err->retry_after_s = STENO_RETRY_AFTER_MAX_S;
	if (!strcmp(err->code, ""))
		snprintf(err->code, sizeof err->code, "rate_limited");
	/* at most 300 bytes of the message, cut between two UTF-8 characters */
	size_t n = strnlen(msg->buf, 300);
	while (n > 0 && n < strlen(msg->buf) && ((unsigned char)msg->buf[n] & 0xC0) == 0x80)
		n--;
	return steno_error_set(err, STENO_ERR_HTTP, "rate limited by the server (HTTP 429%s%.*s)%s",
			       msg->len ? ": " : "", (int)n, msg->buf, wait);
}

static int from_response(long status, const char *body, size_t len, double asked_s,
			 struct steno_error *err)
{
	struct text msg = {.len = 0};
	if (!err)
		return -1;
	steno_error_clear(err);
	err->http_status = status;
	read_body(body, len, &msg, err);
	if (asked_s > err->retry_after_s)
		err->retry_after_s = asked_s;
	if (status == 429)
		return rate_limited(err, &msg);
	if (msg.len == 0)
		snprintf(msg.buf, sizeof(msg.buf), "HTTP %ld", status);
	return steno_error_set(err, STENO_ERR_HTTP, "%s", msg.buf);
}

int steno_error_from_response(long status, const char *body, size_t len,
			      const char *retry_after_header, struct steno_error *err)
{
	return from_response(status, body, len,
			     steno_retry_after_parse(retry_after_header, (long long)time(NULL)), err);
}

int steno_error_from_http(const struct steno_http_response *resp, struct steno_error *err)
{
	int rc = from_response(resp->status, resp->body, resp->body_len, resp->retry_after_asked_s,
			       err);
	if (err && resp->retry_after_s >= 0)
		err->retry_after_s = resp->retry_after_s; /* what the engine honours: capped */
	return rc;
}

static int month_of(const char *m)
{
	static const char names[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	for (int i = 0; i < 12; i++)
		if (strncmp(names + 3 * i, m, 3) == 0)
			return i + 1;
	return 0;
}

/* IMF-fixdate "Sun, 06 Nov 1994 08:49:37 GMT" to seconds since the epoch, or -1. */
static long long parse_http_date(const char *v)
{
	char wday[4], mon[4], iso[32];
	int d, y, h, mi, s, used = 0;
	int64_t ms;
	if (sscanf(v, "%3s, %d %3s %d %d:%d:%d GMT%n", wday, &d, mon, &y, &h, &mi, &s, &used) != 7 ||
	    used == 0 || v[used] != '\0' || !month_of(mon) || y < 0 || y > 9999)
		return -1;
	snprintf(iso, sizeof(iso), "%04d-%02d-%02dT%02d:%02d:%02dZ", y, month_of(mon), d, h, mi, s);
	if (steno_timestamp_parse(iso, &ms) < 0)
		return -1;
	return (long long)(ms / 1000);
}

double steno_retry_after_parse(const char *value, long long now)
{
	char *end;
	if (!value)
		return -1;
	while (*value == ' ' || *value == '\t')
		value++;
	if (*value >= '0' && *value <= '9') {
		double d = strtod(value, &end);
		while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
			end++;
		return *end == '\0' && isfinite(d) && d >= 0 ? d : -1;
	}
	long long at = parse_http_date(value);
	if (at < 0)
		return -1;
	return at > now ? (double)(at - now) : 0;
}

const struct steno_error *steno_error_refused(const char *who,
					      const struct steno_http_response *resp,
					      const struct steno_error *err, struct steno_error *out)
{
	if (!err || err->kind != STENO_ERR_HTTP || !resp || resp->status <= 0) {
		if (err)
			*out = *err;
		return out;
	}
	steno_error_from_response(resp->status, resp->body, resp->body_len, NULL, out);
	char msg[sizeof(out->message)];
	snprintf(msg, sizeof(msg), "%s: %.*s", who, STENO_UTF8_CUT(out->message, 400));
	steno_error_set(out, STENO_ERR_HTTP, "%s", msg);
	out->retry_after_s = err->retry_after_s;
	return out;
}
