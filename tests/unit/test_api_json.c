#include "config.h"

#include <criterion/criterion.h>
#include <json-c/json.h>

#include <stdlib.h>
#include <string.h>

#include "api/jget.h"
#include "api/timestamp.h"
#include "api/transcription.h"

static struct json_object *parse_ok(const char *s)
{
	struct json_object *o = NULL;
	struct steno_error err;
	steno_error_clear(&err);
	cr_assert_eq(jget_parse(s, strlen(s), &o, &err), 0, "%s: %s", s, err.message);
	return o;
}

static void parse_fails(const char *s, size_t len, const char *what)
{
	struct json_object *o = NULL;
	struct steno_error err;
	steno_error_clear(&err);
	cr_assert_eq(jget_parse(s, len, &o, &err), -1, "accepted: %s", what);
	cr_assert_null(o);
	cr_assert_eq(err.kind, STENO_ERR_PARSE, "%s", what);
	cr_assert_neq(err.message[0], '\0');
}

Test(jget, parse_rejects_hostile_documents)
{
	parse_fails("", 0, "empty body");
	parse_fails(NULL, 5, "NULL body");
	parse_fails("   \n", 4, "only whitespace");
	parse_fails("{\"a\":1} x", 9, "trailing garbage");
	parse_fails("{\"a\":1}{}", 9, "two documents");
	parse_fails("[1", 2, "truncated");
	parse_fails("{\"a\":", 5, "truncated object");
	parse_fails("{\"a\":1}\0junk", 12, "NUL then junk");
}

Test(jget, parse_accepts_whitespace_and_top_level_scalars)
{
	struct json_object *o = parse_ok("  {\"a\": 1}\r\n\t ");
	cr_assert(json_object_is_type(o, json_type_object));
	json_object_put(o);
	o = parse_ok("42");
	cr_assert(json_object_is_type(o, json_type_int));
	json_object_put(o);
	/* Top-level null: 0 with NULL, the resource parsers then refuse it. */
	cr_assert_null(parse_ok("null"));
}

static char *nested(size_t depth)
{
	char *s = malloc(2 * depth + 1);
	cr_assert(s);
	memset(s, '[', depth);
	memset(s + depth, ']', depth);
	s[2 * depth] = '\0';
	return s;
}

Test(jget, depth_limit)
{
	char *ok = nested(JGET_MAX_DEPTH - 1);
	json_object_put(parse_ok(ok));
	free(ok);
	char *deep = nested(100000);
	struct json_object *o;
	struct steno_error err;
	steno_error_clear(&err);
	cr_assert_eq(jget_parse(deep, strlen(deep), &o, &err), -1);
	cr_assert(strstr(err.message, "deeper"), "%s", err.message);
	free(deep);
}

Test(jget, getters_tell_missing_null_wrong_and_present)
{
	struct json_object *o = parse_ok("{\"s\":\"x\",\"n\":null,\"i\":7,\"b\":true,\"d\":2.5,"
					 "\"arr\":[1,\"two\",3]}");
	char *s;
	int64_t i;
	bool b;
	double d;
	cr_assert_eq(jget_string(o, "s", &s), JGET_OK);
	cr_assert_str_eq(s, "x");
	free(s);
	cr_assert_eq(jget_string(o, "missing", &s), JGET_MISSING);
	cr_assert_eq(jget_string(o, "n", &s), JGET_NULL);
	cr_assert_eq(jget_string(o, "i", &s), JGET_WRONG_TYPE);
	cr_assert_null(s);
	cr_assert_eq(jget_int(o, "s", &i), JGET_WRONG_TYPE);
	cr_assert_eq(jget_int(o, "b", &i), JGET_WRONG_TYPE);   /* json-c would coerce: we do not */
	cr_assert_eq(jget_bool(o, "i", &b), JGET_WRONG_TYPE);
	cr_assert_eq(jget_bool(o, "b", &b), JGET_OK);
	cr_assert(b);
	cr_assert_eq(jget_double(o, "i", &d), JGET_OK);
	cr_assert_float_eq(d, 7.0, 1e-9);
	cr_assert_eq(jget_int(o, "d", &i), JGET_WRONG_TYPE);   /* 2.5 is not an integer */
	cr_assert_eq(jget_id(o, "i", &s), JGET_OK);
	cr_assert_str_eq(s, "7");
	free(s);
	struct steno_ints ints;
	jget_opt_ints(o, "arr", &ints);
	cr_assert_eq(ints.st, STENO_PRESENT);
	cr_assert_eq(ints.n, 2);
	cr_assert_eq(ints.skipped, 1);
	steno_ints_free(&ints);
	/* Not an object at all. */
	cr_assert_eq(jget_string(NULL, "s", &s), JGET_MISSING);
	json_object_put(o);
}

Test(jget, numbers_int_double_and_range)
{
	struct json_object *o = parse_ok(
		"{\"whole\":100.0,\"big\":99999999999999999999,\"neg\":-99999999999999999999,"
		"\"max\":9223372036854775807,\"ok\":9223372036854775806,\"huge\":1e400,"
		"\"bigd\":1e19,\"frac\":1.5,\"nan\":NaN}");
	struct steno_int i;
	struct steno_num n;
	jget_opt_int(o, "whole", &i);
	cr_assert_eq(i.st, STENO_PRESENT);
	cr_assert_eq(i.v, 100);
	jget_opt_int(o, "big", &i);
	cr_assert_eq(i.st, STENO_BAD_TYPE, "past int64 must not be clamped or wrapped");
	cr_assert_eq(i.v, 0);
	jget_opt_int(o, "neg", &i);
	cr_assert_eq(i.st, STENO_BAD_TYPE);
	jget_opt_int(o, "max", &i);
	cr_assert_eq(i.st, STENO_BAD_TYPE);
	jget_opt_int(o, "ok", &i);
	cr_assert_eq(i.st, STENO_PRESENT);
	cr_assert_eq(i.v, INT64_C(9223372036854775806));
	jget_opt_int(o, "bigd", &i);
	cr_assert_eq(i.st, STENO_BAD_TYPE);
	jget_opt_int(o, "frac", &i);
	cr_assert_eq(i.st, STENO_BAD_TYPE);
	jget_opt_num(o, "frac", &n);
	cr_assert_eq(n.st, STENO_PRESENT);
	cr_assert_float_eq(n.v, 1.5, 1e-9);
	jget_opt_num(o, "huge", &n);
	cr_assert_eq(n.st, STENO_BAD_TYPE);
	jget_opt_num(o, "nan", &n);
	cr_assert_eq(n.st, STENO_BAD_TYPE);
	jget_opt_num(o, "nothing", &n);
	cr_assert_eq(n.st, STENO_MISSING);
	json_object_put(o);
}

Test(jget, strings_with_nul_and_invalid_utf8_are_repaired)
{
	const char doc[] = "{\"nul\":\"ab\\u0000cd\",\"bad\":\"x\xff\xfey\",\"over\":\"\xc0\x80\","
			   "\"surr\":\"\xed\xa0\x80\",\"ok\":\"\xc3\xa7" "a \xe2\x82\xac \xf0\x9f\x98\x80\","
			   "\"cut\":\"\xe2\x82\"}";
	struct json_object *o = parse_ok(doc);
	char *s;
	cr_assert_eq(jget_string(o, "nul", &s), JGET_OK);
	cr_assert_str_eq(s, "ab\xef\xbf\xbd" "cd", "an embedded NUL must not shorten the string");
	free(s);
	cr_assert_eq(jget_string(o, "bad", &s), JGET_OK);
	cr_assert_str_eq(s, "x\xef\xbf\xbd\xef\xbf\xbdy");
	free(s);
	cr_assert_eq(jget_string(o, "over", &s), JGET_OK);
	cr_assert_str_eq(s, "\xef\xbf\xbd\xef\xbf\xbd");
	free(s);
	cr_assert_eq(jget_string(o, "surr", &s), JGET_OK);
	cr_assert(jget_utf8_valid(s, strlen(s)));
	cr_assert_null(strstr(s, "\xed\xa0"));
	free(s);
	cr_assert_eq(jget_string(o, "ok", &s), JGET_OK);
	cr_assert_str_eq(s, "\xc3\xa7" "a \xe2\x82\xac \xf0\x9f\x98\x80");
	free(s);
	cr_assert_eq(jget_string(o, "cut", &s), JGET_OK);
	cr_assert(jget_utf8_valid(s, strlen(s)));
	free(s);
	json_object_put(o);
	cr_assert_not(jget_utf8_valid("\xf4\x90\x80\x80", 4));   /* past U+10FFFF */
	cr_assert(jget_utf8_valid("\xf4\x8f\xbf\xbf", 4));
}

Test(jget, ten_megabyte_string)
{
	size_t n = 10u * 1024u * 1024u;
	const char *pre = "{\"id\":\"x\",\"name\":\"";
	const char *post = "\"}";
	size_t len = strlen(pre) + n + strlen(post);
	char *doc = malloc(len + 1);
	cr_assert(doc);
	strcpy(doc, pre);
	memset(doc + strlen(pre), 'a', n);
	strcpy(doc + strlen(pre) + n, post);
	struct steno_transcription t;
	struct steno_error err;
	steno_error_clear(&err);
	cr_assert_eq(steno_transcription_parse(doc, len, &t, &err), 0, "%s", err.message);
	cr_assert_eq(strlen(t.name), n);
	steno_transcription_free(&t);
	free(doc);
}

static int64_t ts(const char *s)
{
	int64_t ms = -1;
	cr_assert_eq(steno_timestamp_parse(s, &ms), 0, "rejected %s", s);
	return ms;
}

Test(timestamp, valid_forms_to_utc)
{
	cr_assert_eq(ts("1970-01-01T00:00:00Z"), 0);
	cr_assert_eq(ts("2024-05-01T12:30:45Z"), INT64_C(1714566645000));
	cr_assert_eq(ts("2024-05-01T12:30:45.123Z"), INT64_C(1714566645123));
	cr_assert_eq(ts("2024-05-01T12:30:45.123456789Z"), INT64_C(1714566645123));
	cr_assert_eq(ts("2024-05-01T12:30:45.5Z"), INT64_C(1714566645500));
	cr_assert_eq(ts("2024-05-01T14:30:45+02:00"), INT64_C(1714566645000));
	cr_assert_eq(ts("2024-05-01T07:00:45-05:30"), INT64_C(1714566645000));
	cr_assert_eq(ts("2024-05-01T14:30:45+0200"), INT64_C(1714566645000));
	cr_assert_eq(ts("2024-05-01T14:30:45+02"), INT64_C(1714566645000));
	cr_assert_eq(ts("2024-05-01 12:30:45z"), INT64_C(1714566645000));
	cr_assert_eq(ts("2024-05-01T12:30:45"), INT64_C(1714566645000));
	cr_assert_eq(ts("2024-05-01"), INT64_C(1714521600000));
	cr_assert_eq(ts("2024-02-29T00:00:00Z"), INT64_C(1709164800000));
	cr_assert_eq(ts("1969-12-31T23:59:59Z"), -1000);
	cr_assert_eq(ts("2016-12-31T23:59:60Z"), INT64_C(1483228799999));
}

Test(timestamp, invalid_forms_are_unknown)
{
	const char *bad[] = {"", "2024", "2024-13-01T00:00:00Z", "2024-00-10", "2023-02-29",
			     "2024-04-31", "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z",
			     "2024-05-01T12:30:45+25:00", "2024-05-01T12:30:45Zjunk",
			     "2024-05-01T12:30:45.Z", "yesterday", "2024-5-1", "2024-05-01T",
			     "2024-05-01T12:30:45 +02:00", "２０２４-05-01"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int64_t ms = 7;
		cr_assert_eq(steno_timestamp_parse(bad[i], &ms), -1, "accepted %s", bad[i]);
		cr_assert_eq(ms, 7);
	}
	int64_t ms;
	cr_assert_eq(steno_timestamp_parse(NULL, &ms), -1);
	cr_assert_eq(steno_timestamp_parse_n("2024-05-01T12:30:45Z\0junk", 25, &ms), -1);
}

Test(timestamp, format_round_trip)
{
	char buf[32];
	cr_assert_eq(steno_timestamp_format(INT64_C(1714566645123), buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "2024-05-01T12:30:45.123Z");
	cr_assert_eq(steno_timestamp_format(-1, buf, sizeof(buf)), 0);
	cr_assert_str_eq(buf, "1969-12-31T23:59:59.999Z");
	cr_assert_eq(ts(buf), -1);
	cr_assert_eq(steno_timestamp_format(0, buf, 10), -1);
	cr_assert_eq(steno_timestamp_format(INT64_MAX, buf, sizeof(buf)), -1);
	cr_assert_eq(steno_timestamp_format(INT64_MIN, buf, sizeof(buf)), -1);
}

Test(timestamp, model_field_states)
{
	struct json_object *o = parse_ok("{\"a\":\"2024-05-01T12:30:45Z\",\"b\":\"soon\",\"c\":5,"
					 "\"d\":null}");
	struct steno_time t;
	jget_opt_time(o, "a", &t);
	cr_assert_eq(t.st, STENO_PRESENT);
	jget_opt_time(o, "b", &t);
	cr_assert_eq(t.st, STENO_BAD_TYPE);
	jget_opt_time(o, "c", &t);
	cr_assert_eq(t.st, STENO_BAD_TYPE);
	jget_opt_time(o, "d", &t);
	cr_assert_eq(t.st, STENO_NULL);
	jget_opt_time(o, "e", &t);
	cr_assert_eq(t.st, STENO_MISSING);
	json_object_put(o);
}
