/* Messages that quote a long name cut it between characters, never inside one: a CJK or
 * emoji name at the cut length ends with its last whole character (the real binary, its
 * stderr and its --json document). */
#include "config.h"

#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test_cli_util.h"

static struct sbx sb;
static struct cli_home home;

static void setup(void)
{
	static const char *const fast[] = {"--clock-speed", "1000", "--seed-demo", "1", NULL};
	cr_assert_eq(cli_fixture_start(&sb, &home, fast, "refresh_interval = 1\nrefresh_max = 1\n"),
		     0, "sandbox did not start");
}

static void teardown(void)
{
	cli_fixture_stop(&sb, &home);
}

TestSuite(cli_cuts, .init = setup, .fini = teardown, .timeout = 120);

#define RUN(r, ...) \
	cr_assert_eq(cli_exec(r, &home, &sb, NULL, (const char *const[]){__VA_ARGS__, NULL}), 0)

/* n copies of s after prefix, in a static buffer per call site (copy it). */
static char *repeat(char *out, size_t cap, const char *prefix, const char *s, int n)
{
	size_t o = (size_t)snprintf(out, cap, "%s", prefix);
	for (int i = 0; i < n && o < cap; i++)
		o += (size_t)snprintf(out + o, cap - o, "%s", s);
	return out;
}

/* True when s is well-formed UTF-8 with no '?' (what the output's cleaning puts for a
 * malformed byte). */
static bool whole(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n = *p < 0x80 ? 1 : (*p & 0xE0) == 0xC0 ? 2 : (*p & 0xF0) == 0xE0 ? 3
			 : (*p & 0xF8) == 0xF0 ? 4 : 0;
		if (n == 0 || *p == '?')
			return false;
		for (size_t k = 1; k < n; k++)
			if ((p[k] & 0xC0) != 0x80)
				return false;
		p += n;
	}
	return true;
}

static json_object *document(const struct cli_result *r)
{
	json_object *o = json_tokener_parse(r->out);
	cr_assert(o, "not JSON: %s / %s", r->out, r->err);
	return o;
}

/* The --json message of `steno NAME` (an unknown command) is `want`. */
static void expect_unknown(const char *name, const char *want)
{
	struct cli_result r;
	RUN(&r, "--json", name);
	cr_expect_eq(r.code, 2, "%s", r.err);
	json_object *o = document(&r);
	cr_expect_str_eq(json_object_get_string(json_object_object_get(o, "message")), want);
	json_object_put(o);
	cli_result_free(&r);
}

/* The message quotes at most 200 bytes of the name; 66 CJK characters are 198 bytes, the
 * 67th would end at 201. */
Test(cli_cuts, an_unknown_cjk_command_is_cut_between_characters)
{
	char name[400], want[400];
	repeat(name, sizeof name, "", "日", 80);
	repeat(want, sizeof want, "unknown command '", "日", 66);
	expect_unknown(name, strcat(want, "'"));
}

/* 2 ASCII bytes then emoji of 4: the 50th emoji would span bytes 198..201. */
Test(cli_cuts, an_unknown_emoji_command_is_cut_between_characters)
{
	char name[400], want[400];
	repeat(name, sizeof name, "ab", "\xF0\x9F\x8E\x99", 60);
	repeat(want, sizeof want, "unknown command 'ab", "\xF0\x9F\x8E\x99", 49);
	expect_unknown(name, strcat(want, "'"));
}

/* A language that is not one is quoted up to 32 bytes: 10 CJK characters (30 bytes). */
Test(cli_cuts, a_cjk_language_is_cut_between_characters)
{
	char lang[200], want[200], wav[700];
	repeat(lang, sizeof lang, "", "語", 12);
	repeat(want, sizeof want, "\"", "語", 10);
	strcat(want, "\" is not a transcription language");
	cli_home_wav(&home, "a.wav", 1.0, wav, sizeof wav);
	struct cli_result r;
	RUN(&r, "transcribe", wav, "--language", lang);
	cr_expect_eq(r.code, 2, "%s", r.err);
	cr_expect(strstr(r.err, want) && whole(r.err), "%s", r.err);
	cli_result_free(&r);
	RUN(&r, "transcribe", wav, "--language", lang, "--json");
	json_object *o = document(&r);
	const char *m = json_object_get_string(json_object_object_get(o, "message"));
	cr_expect(m && strstr(m, want) && whole(m), "%s", r.out);
	json_object_put(o);
	cli_result_free(&r);
	cr_expect_eq(sbx_reads(&sb, "/api/v1/transcriptions", "received"), 0, "nothing was sent");
}

/* A message longer than an error's 512 bytes (a directory of 200 CJK characters that cannot
 * be made) ends with the last whole character: "cannot create x" is 15 bytes, 165 CJK
 * characters end at 510, the 166th would end at 513. */
Test(cli_cuts, a_long_message_is_cut_between_characters)
{
	char dir[800], want[800];
	repeat(dir, sizeof dir, "x", "日", 200);
	repeat(want, sizeof want, "cannot create x", "日", 165);
	struct cli_result r;
	RUN(&r, "export", "nope", "--format", "txt", "-o", dir, "--json");
	cr_expect_eq(r.code, 1, "%s", r.err);
	json_object *o = document(&r);
	cr_expect_str_eq(json_object_get_string(json_object_object_get(o, "message")), want);
	json_object_put(o);
	cr_expect(whole(r.err), "%s", r.err);
	cli_result_free(&r);
	struct stat st;
	char path[1400];
	snprintf(path, sizeof path, "%s/%s", home.dir, dir);
	cr_expect(stat(path, &st) != 0, "nothing made");
}
