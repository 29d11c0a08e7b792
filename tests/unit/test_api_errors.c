#include "config.h"

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/error_body.h"
#include "api/jget.h"

char *api_fixture(const char *name, size_t *len);

static struct steno_error from_fixture(long status, const char *name, const char *retry_after)
{
	struct steno_error err;
	size_t len;
	char *body = api_fixture(name, &len);
	cr_assert_eq(steno_error_from_response(status, body, len, retry_after, &err), -1);
	free(body);
	cr_assert_eq(err.kind, STENO_ERR_HTTP);
	cr_assert_eq(err.http_status, status);
	return err;
}

static struct steno_error from_text(long status, const char *body)
{
	struct steno_error err;
	cr_assert_eq(steno_error_from_response(status, body, body ? strlen(body) : 0, NULL, &err), -1);
	return err;
}

Test(error_body, sandbox_validation_form)
{
	struct steno_error e = from_fixture(422, "error_422.json", NULL);
	cr_assert_str_eq(e.code, "unprocessable_entity");
	cr_assert_str_eq(e.field, "language");
	cr_assert(strstr(e.message, "The request could not be processed."), "%s", e.message);
	cr_assert(strstr(e.message, "language: is not supported for the pro service"), "%s", e.message);
	cr_assert(strstr(e.message, "tmp_url: can't be blank"), "%s", e.message);
	cr_assert(e.retry_after_s < 0);
}

Test(error_body, other_variants)
{
	struct steno_error e = from_fixture(400, "error_errors_array.json", NULL);
	cr_assert_str_eq(e.message, "Name can't be blank; Language is invalid");
	cr_assert_str_eq(e.code, "");
	e = from_fixture(404, "error_nested.json", NULL);
	cr_assert_str_eq(e.message, "Organization not found");
	cr_assert_str_eq(e.code, "not_found");
	e = from_fixture(401, "error_message.json", NULL);
	cr_assert_str_eq(e.message, "Invalid API key");
	e = from_fixture(405, "error_detail.json", NULL);
	cr_assert_str_eq(e.message, "Method Not Allowed");
	e = from_text(500, "{\"error\":\"Something broke badly\"}");
	cr_assert_str_eq(e.message, "Something broke badly");
	cr_assert_str_eq(e.code, "");
}

Test(error_body, non_json_body_is_sanitized_text)
{
	struct steno_error e = from_fixture(502, "error_html.txt", NULL);
	cr_assert(strstr(e.message, "<title>502 Bad Gateway</title>"), "%s", e.message);
	cr_assert_null(strchr(e.message, '\n'));
	char big[1000];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	e = from_text(500, big);
	cr_assert_eq(strlen(e.message), 200);
	e = from_text(500, "bad \x1b[31mred\x1b[0m \xc2\x9b" "c1 \xff end\r\n");
	for (const unsigned char *p = (const unsigned char *)e.message; *p; p++) {
		cr_assert(*p >= 0x20 && *p != 0x7f, "control byte in %s", e.message);
		cr_assert(!(p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f), "C1 control survived");
		cr_assert(*p != 0xff, "invalid UTF-8 survived");
	}
	/* Non-object JSON bodies say nothing useful: fall back to the status. */
	e = from_text(503, "[1,2]");
	cr_assert_str_eq(e.message, "HTTP 503");
	e = from_text(500, "");
	cr_assert_str_eq(e.message, "HTTP 500");
	e = from_text(500, NULL);
	cr_assert_str_eq(e.message, "HTTP 500");
	e = from_text(404, "{}");
	cr_assert_str_eq(e.message, "HTTP 404");
	e = from_text(500, "{\"message\":\"a\\u0000b\\nc\"}");
	cr_assert_eq(strlen(e.message), strlen("a\xef\xbf\xbd" "b c"));
}

Test(error_body, rate_limit_retry)
{
	struct steno_error e = from_fixture(429, "error_429.json", NULL);
	cr_assert_str_eq(e.code, "rate_limited");
	cr_assert_float_eq(e.retry_after_s, 12.0, 1e-9);
	e = from_fixture(429, "error_429.json", "30");
	cr_assert_float_eq(e.retry_after_s, 30.0, 1e-9, "the larger of header and body");
	struct steno_error h;
	cr_assert_eq(steno_error_from_response(429, "", 0, "7", &h), -1);
	cr_assert_float_eq(h.retry_after_s, 7.0, 1e-9);
	cr_assert_eq(steno_error_from_response(429, "", 0, "soon", &h), -1);
	cr_assert(h.retry_after_s < 0);
	const char *str_retry = "{\"retry_in_seconds\":\"5\"}";
	cr_assert_eq(steno_error_from_response(429, str_retry, strlen(str_retry), NULL, &h), -1);
	cr_assert(h.retry_after_s < 0);
}

Test(error_body, retry_after_forms)
{
	cr_assert_float_eq(steno_retry_after_parse("120", 0), 120.0, 1e-9);
	cr_assert_float_eq(steno_retry_after_parse(" 1.5 ", 0), 1.5, 1e-9);
	cr_assert(steno_retry_after_parse("-1", 0) < 0);
	cr_assert(steno_retry_after_parse("12abc", 0) < 0);
	cr_assert(steno_retry_after_parse("", 0) < 0);
	cr_assert(steno_retry_after_parse(NULL, 0) < 0);
	/* 1994-11-06T08:49:37Z is 784111777 */
	cr_assert_float_eq(steno_retry_after_parse("Sun, 06 Nov 1994 08:49:37 GMT", 784111770), 7.0,
			   1e-9);
	cr_assert_float_eq(steno_retry_after_parse("Sun, 06 Nov 1994 08:49:37 GMT", 784111999), 0.0,
			   1e-9);
	cr_assert(steno_retry_after_parse("Sun, 06 Foo 1994 08:49:37 GMT", 0) < 0);
	cr_assert(steno_retry_after_parse("Sun, 31 Feb 1994 08:49:37 GMT", 0) < 0);
}

Test(error_body, null_err_is_allowed)
{
	cr_assert_eq(steno_error_from_response(500, "x", 1, NULL, NULL), -1);
}

/* Found by fuzz_error: a long message plus a long "errors" detail was cut inside a UTF-8
 * sequence when the two were joined. */
Test(error_body, long_message_is_cut_on_a_character_boundary)
{
	char body[2048];
	char msg[400], detail[400];
	memset(msg, 0, sizeof(msg));
	memset(detail, 0, sizeof(detail));
	for (size_t i = 0; i + 2 < 390; i += 2)
		memcpy(msg + i, "\xc3\xa9", 2);
	for (size_t i = 0; i + 3 < 390; i += 3)
		memcpy(detail + i, "\xe2\x82\xac", 3);
	snprintf(body, sizeof(body), "{\"message\":\"%s\",\"errors\":{\"f\":[\"x%s\"]}}", msg, detail);
	for (size_t shift = 0; shift < 4; shift++) {
		struct steno_error e;
		char shifted[2100];
		/* Move the cut point across every byte of a 3-byte character. */
		snprintf(shifted, sizeof(shifted), "{\"message\":\"%.*s%s\",\"errors\":{\"f\":[\"x%s\"]}}",
			 (int)shift, "abc", msg, detail);
		cr_assert_eq(steno_error_from_response(422, shifted, strlen(shifted), NULL, &e), -1);
		cr_assert(jget_utf8_valid(e.message, strlen(e.message)), "shift %zu", shift);
		cr_assert_gt(strlen(e.message), 400);
	}
	struct steno_error e;
	cr_assert_eq(steno_error_from_response(422, body, strlen(body), NULL, &e), -1);
	cr_assert(jget_utf8_valid(e.message, strlen(e.message)));
}

/* Issue 15: "fr is not available for the pro service (language: fr is not available for the
 * pro service)" said the same thing twice; the field is kept. An S3-style XML body gives its
 * Message and Code. */
Test(error_body, no_repeated_text_and_storage_xml)
{
	struct steno_error e = from_text(422, "{\"error\":\"validation_failed\",\"message\":\"fr is not "
					      "available for the pro service\",\"errors\":{\"language\":"
					      "[\"fr is not available for the pro service\"]}}");
	cr_assert_str_eq(e.message, "fr is not available for the pro service");
	cr_assert_str_eq(e.field, "language");
	e = from_text(403, "<?xml version=\"1.0\"?><Error><Code>SignatureDoesNotMatch</Code>"
			   "<Message>The signature does not match.</Message></Error>");
	cr_assert_str_eq(e.message, "The signature does not match.");
	cr_assert_str_eq(e.code, "SignatureDoesNotMatch");
}

/* Found by fuzz_error: a 429 message cut at 300 bytes inside a UTF-8 character. */
Test(error_body, rate_limited_message_cut_between_characters)
{
	char body[1024] = "{\"message\": \"";
	for (int i = 0; i < 200; i++)
		strcat(body, "\xc3\xa9");     /* é: 400 bytes of 2-byte characters */
	strcat(body, "x\"}");
	struct steno_error err;
	for (int shift = 0; shift < 2; shift++) {
		char b[sizeof body + 1];
		snprintf(b, sizeof b, "%.13s%s%s", body, shift ? "a" : "", body + 13);
		steno_error_from_response(429, b, strlen(b), NULL, &err);
		cr_assert(strstr(err.message, "rate limited by the server"), "%s", err.message);
		cr_assert(jget_utf8_valid(err.message, strlen(err.message)), "shift %d: %s", shift, err.message);
	}
}

/* Issue 22: a field name is kept whole (it was cut to 15 characters: "source_transcri"), and
 * one longer than the storage is cut on a character boundary. */
Test(error_body, field_names_are_whole)
{
	struct steno_error e = from_text(422, "{\"errors\":{\"source_transcription_id\":[\"is missing\"]}}");
	cr_assert_str_eq(e.field, "source_transcription_id");
	e = from_text(422, "{\"errors\":{\"caf\xc3\xa9_caf\xc3\xa9_caf\xc3\xa9_caf\xc3\xa9_caf\xc3\xa9_"
			   "caf\xc3\xa9_caf\xc3\xa9_caf\xc3\xa9_caf\xc3\xa9_caf\xc3\xa9_caf\xc3\xa9\":[\"x\"]}}");
	size_t n = strlen(e.field);
	cr_assert(n >= 60 && n < sizeof(e.field), "%zu: %s", n, e.field);
	cr_assert_neq((unsigned char)e.field[n - 1], 0xc3, "not cut inside a character: %s", e.field);
}

/* A body that starts as JSON and does not parse (the sandbox's `malformed` fault: half an
 * error object and junk) is not shown as it is: the status line read
 * `HTTP 404: {"error":"not_found","mess`. A plain sentence says what came instead. */
Test(error_body, a_json_body_that_does_not_parse_is_not_shown_raw)
{
	static const char *const bodies[] = {
		"{\"error\":\"not_found\",\"mess<!--}",
		"  {\"error\":\"not_found\",\"message\":\"no order bogus1\"",
		"[\"a\", ",
	};
	for (size_t i = 0; i < sizeof bodies / sizeof *bodies; i++) {
		struct steno_error e = from_text(404, bodies[i]);
		cr_assert_eq(e.kind, STENO_ERR_HTTP);
		cr_assert_null(strchr(e.message, '{'), "raw body shown: %s", e.message);
		cr_assert_null(strchr(e.message, '['), "raw body shown: %s", e.message);
		cr_assert_str_eq(e.message, "the answer's body is not valid JSON");
	}
	/* text that is not JSON is still the server's words */
	struct steno_error e = from_text(502, "Bad gateway {upstream}");
	cr_assert_str_eq(e.message, "Bad gateway {upstream}");
}
