#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "api/paging.h"
#include "api/url.h"
#include "api/utf8.h"

Test(engine_origin, same_origin_basic)
{
	cr_assert(steno_url_same_origin("https://api.example.com/api/v1", "https://api.example.com/api/v1/x?y=1"));
	cr_assert(steno_url_same_origin("http://127.0.0.1:8080/api/v1", "http://127.0.0.1:8080/other"));
}

Test(engine_origin, default_ports_and_case)
{
	cr_assert(steno_url_same_origin("https://API.Example.COM/api", "https://api.example.com:443/x"));
	cr_assert(steno_url_same_origin("HTTP://h.example/", "http://h.example:80/"));
	cr_assert_not(steno_url_same_origin("https://h.example/", "https://h.example:8443/"));
}

Test(engine_origin, scheme_host_port_differ)
{
	cr_assert_not(steno_url_same_origin("https://h.example/", "http://h.example/"));
	cr_assert_not(steno_url_same_origin("http://127.0.0.1:8080/", "http://127.0.0.1:8081/"));
	cr_assert_not(steno_url_same_origin("http://127.0.0.1:8080/", "http://localhost:8080/"));
	cr_assert_not(steno_url_same_origin("https://h.example/", "https://h.example.evil.com/"));
	cr_assert_not(steno_url_same_origin("https://h.example/", "https://evil.com/h.example/"));
}

Test(engine_origin, userinfo_tricks)
{
	/* The host is what follows the '@', whatever precedes it. */
	cr_assert_not(steno_url_same_origin("http://127.0.0.1:8080/", "http://127.0.0.1:8080@evil.com/"));
	cr_assert_not(steno_url_same_origin("https://h.example/", "https://h.example@evil.com/"));
	cr_assert_not(steno_url_same_origin("https://h.example/", "https://h.example:443@evil.com:443/"));
	cr_assert(steno_url_same_origin("https://h.example/", "https://user:pw@h.example/"));
}

Test(engine_origin, under_the_base)
{
	const char *base = "https://api.example.com/api/v1";
	cr_expect(steno_url_under(base, "https://api.example.com/api/v1"));
	cr_expect(steno_url_under(base, "https://api.example.com/api/v1/transcriptions?page=2"));
	cr_expect(steno_url_under("https://api.example.com/api/v1/",
				  "https://API.example.com:443/api/v1/x"));
	cr_expect(steno_url_under("http://127.0.0.1:8080", "http://127.0.0.1:8080/files/a.json"));
	cr_expect_not(steno_url_under(base, "https://api.example.com/api/v10/x"));
	cr_expect_not(steno_url_under(base, "https://api.example.com/files/x.json?signature=s"));
	cr_expect_not(steno_url_under(base, "https://bucket.example.com/api/v1/x"));
	cr_expect_not(steno_url_under(base, "http://api.example.com/api/v1/x"));
	cr_expect_not(steno_url_under(base, "not a url"));
}

Test(engine_origin, fails_closed)
{
	cr_assert_not(steno_url_same_origin("https://h.example/", NULL));
	cr_assert_not(steno_url_same_origin("https://h.example/", ""));
	cr_assert_not(steno_url_same_origin("https://h.example/", "/relative/path"));
	cr_assert_not(steno_url_same_origin("ftp://h.example/", "ftp://h.example/"));
	cr_assert_not(steno_url_same_origin("file:///etc/passwd", "file:///etc/passwd"));
	/* no IDN conversion: a non-ASCII host never matches, not even itself */
	cr_assert_not(steno_url_same_origin("https://b\xc3\xbc" "cher.example/", "https://b\xc3\xbc" "cher.example/"));
	cr_assert_not(steno_url_same_origin("https://xn--bcher-kva.example/", "https://b\xc3\xbc" "cher.example/"));
	/* judged as curl connects: curl decodes %2e in a host, so this is h.example itself */
	cr_assert(steno_url_same_origin("http://h.example/", "http://h%2eexample/"));
	cr_assert_not(steno_url_same_origin("http://h.example/", "http://h.example%2eevil.com/"));
}

Test(engine_redact, signature_params)
{
	char out[512];
	cr_assert_eq(steno_url_redact("https://s3.example/bucket/f.mp3?X-Amz-Algorithm=AWS4&X-Amz-Credential=AKIA%2F1&X-Amz-Signature=abcdef&X-Amz-Expires=900", out, sizeof(out)), 0);
	cr_assert_str_eq(out, "https://s3.example/bucket/f.mp3?X-Amz-Algorithm=AWS4&X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED&X-Amz-Expires=900");
	cr_assert_eq(steno_url_redact("http://127.0.0.1:9/u?sig=1&token=2&api_key=3&page=4&Policy=5", out, sizeof(out)), 0);
	cr_assert_str_eq(out, "http://127.0.0.1:9/u?sig=REDACTED&token=REDACTED&api_key=REDACTED&page=4&Policy=REDACTED");
}

Test(engine_redact, userinfo_and_fragment_removed)
{
	char out[512];
	cr_assert_eq(steno_url_redact("https://user:secret@h.example/a/b?x=1#frag", out, sizeof(out)), 0);
	cr_assert_str_eq(out, "https://h.example/a/b?x=1");
	cr_assert_null(strstr(out, "secret"));
}

Test(engine_redact, truncation_and_bad_url)
{
	char out[16];
	cr_assert_eq(steno_url_redact("https://h.example/a/very/long/path", out, sizeof(out)), 0);
	cr_assert_eq(strlen(out), 15);
	char big[64];
	cr_assert_eq(steno_url_redact("not a url", big, sizeof(big)), -1);
	cr_assert_str_eq(big, "<unparsable url>");
}

static void check_name(const char *in, const char *want)
{
	char out[256];
	struct steno_error err;
	steno_error_clear(&err);
	cr_assert_eq(steno_url_safe_basename(in, "download", out, sizeof(out), &err), 0, "%s", in);
	cr_assert_str_eq(out, want, "input %s", in);
}

Test(engine_basename, traversal_and_absolute)
{
	check_name("../../x", "x");
	check_name("/etc/passwd", "passwd");
	check_name("..\\..\\win.ini", "win.ini");
	check_name("a/b/", "download");
	check_name("export.docx", "export.docx");
}

Test(engine_basename, empty_and_dots)
{
	check_name("", "download");
	check_name(NULL, "download");
	check_name(".", "download");
	check_name("..", "download");
	check_name("...", "download");
	check_name(".bashrc", "_bashrc");
	check_name("..hidden.txt", "__hidden.txt");
	check_name("name.", "name");
}

Test(engine_basename, control_and_unsafe_chars)
{
	check_name("a\x1b[31mb.txt", "a_[31mb.txt");
	check_name("new\nline\r.txt", "new_line_.txt");
	check_name("a:b*c?d\"e<f>g|h.txt", "a_b_c_d_e_f_g_h.txt");
	check_name("caf\xc3\xa9.txt", "caf\xc3\xa9.txt");
}

Test(engine_basename, very_long_keeps_extension)
{
	char in[1000], out[256];
	memset(in, 'a', sizeof(in));
	memcpy(in + sizeof(in) - 5, ".pdf", 5);
	cr_assert_eq(steno_url_safe_basename(in, "download", out, sizeof(out), NULL), 0);
	cr_assert_leq(strlen(out), 200);
	cr_assert_eq(strcmp(out + strlen(out) - 4, ".pdf"), 0);
	/* UTF-8 is not cut inside a character */
	char u[600] = "";
	for (int i = 0; i < 250; i++)
		strcat(u, "\xc3\xa9");
	cr_assert_eq(steno_url_safe_basename(u, "download", out, sizeof(out), NULL), 0);
	cr_assert_leq(strlen(out), 200);
	cr_assert_eq(strlen(out) % 2, 0);
}

/* Found by fuzzing (tests/fuzz/fuzz_http_meta): a long name of UTF-8 continuation bytes was
 * cut to nothing, and "" came back as the basename (or ".ext" with an extension). */
Test(engine_basename, long_invalid_utf8_is_not_emptied)
{
	char in[400], out[256];
	memset(in, 0xa3, sizeof(in));
	in[0] = '!';
	in[sizeof(in) - 1] = '\0';
	cr_assert_eq(steno_url_safe_basename(in, "download", out, sizeof(out), NULL), 0);
	cr_assert_gt(strlen(out), 100);
	cr_assert_leq(strlen(out), 200);
	memcpy(in + sizeof(in) - 5, ".pdf", 5);
	cr_assert_eq(steno_url_safe_basename(in, "download", out, sizeof(out), NULL), 0);
	cr_assert_neq(out[0], '.');
	cr_assert_gt(strlen(out), 100);
}

Test(engine_basename, small_buffer_is_error)
{
	char out[4];
	struct steno_error err;
	steno_error_clear(&err);
	cr_assert_eq(steno_url_safe_basename("abcdef", NULL, out, sizeof(out), &err), -1);
	cr_assert_eq(err.kind, STENO_ERR_INVALID);
	cr_assert_eq(steno_url_safe_basename("..", "", out, sizeof(out), &err), -1);
}

Test(engine_urlbuild, params_escaped)
{
	struct steno_url_builder b;
	steno_url_builder_init(&b, "http://127.0.0.1:1/api/v1/", "/transcriptions");
	steno_url_builder_param(&b, "organization_id", "42");
	steno_url_builder_param(&b, "folder_id", NULL);
	steno_url_builder_param(&b, "tags", "a b,c&d");
	char *u = steno_url_builder_take(&b);
	cr_assert_str_eq(u, "http://127.0.0.1:1/api/v1/transcriptions?organization_id=42&tags=a%20b%2Cc%26d");
	free(u);
	steno_url_builder_init(&b, "http://h/api", "/exports");
	steno_url_builder_segment(&b, "../x/y");
	u = steno_url_builder_take(&b);
	cr_assert_str_eq(u, "http://h/api/exports/..%2Fx%2Fy");
	free(u);
	steno_url_builder_init(&b, "http://h/api", "/exports");
	steno_url_builder_segment(&b, "..");
	u = steno_url_builder_take(&b);
	cr_assert_str_eq(u, "http://h/api/exports/%2E%2E");
	free(u);
}

/* Issue 13 item 5: C1 controls (U+009B is a CSI in 8-bit terminals), bidi overrides (U+202E
 * turns "exe.txt" around on screen), format characters and invalid UTF-8 reached file names;
 * names that start with '-' read as options to the next tool. */
Test(engine_basename, c1_bidi_format_and_invalid_utf8_replaced)
{
	check_name("a\xc2\x9b" "31mb.txt", "a_31mb.txt");
	check_name("report\xe2\x80\xae" "txt.exe", "report_txt.exe");
	check_name("x\xe2\x81\xa6y\xe2\x81\xa9z.txt", "x_y_z.txt");
	check_name("zero\xe2\x80\x8bwidth\xef\xbb\xbf.txt", "zero_width_.txt");
	check_name("soft\xc2\xad" "hyphen.txt", "soft_hyphen.txt");
	check_name("lone\x9b\x9d.txt", "lone__.txt");
	check_name("tag\xf3\xa0\x80\x81.txt", "tag_.txt");
	check_name("arabic\xd8\x9cmark.txt", "arabic_mark.txt");
	/* kept: letters of any script, emoji */
	check_name("\xe6\x97\xa5\xe6\x9c\xac.txt", "\xe6\x97\xa5\xe6\x9c\xac.txt");
	check_name("n\xc2\xb0" "4 \xe2\x80\x94 ok.srt", "n\xc2\xb0" "4 \xe2\x80\x94 ok.srt");
}

Test(engine_basename, no_leading_dash_or_dot)
{
	check_name("-rf.txt", "_rf.txt");
	check_name("--help.txt", "__help.txt");
	check_name("dir/-x", "_x");
	check_name(" -x.txt", "__x.txt");
	check_name("a-b.txt", "a-b.txt");
}

/* Issue 15: the real service's next links carry no organization_id; page 2 then asked for
 * another list (401 mid-way through `ls --all`). */
Test(engine_pager, next_link_gets_the_first_requests_parameters_back)
{
	struct steno_pager p;
	struct steno_error err;
	char *u = NULL;
	steno_pager_init(&p, 0);
	cr_assert_eq(steno_pager_keep(&p, "organization_id", "42"), 0);
	cr_assert_eq(steno_pager_keep(&p, "folder_id", NULL), 0);
	cr_assert_eq(steno_pager_keep(&p, "tags", "a b,c"), 0);
	cr_assert_eq(steno_pager_next(&p, "http://h/api/v1/transcriptions?page=2", &u, &err), 1);
	cr_expect_str_eq(u, "http://h/api/v1/transcriptions?page=2&organization_id=42&tags=a%20b%2cc");
	free(u);
	/* what the link carries itself is left alone */
	cr_assert_eq(steno_pager_next(&p, "http://h/t?organization_id=7&tags=x&page=3", &u, &err), 1);
	cr_expect_str_eq(u, "http://h/t?organization_id=7&tags=x&page=3");
	free(u);
	cr_assert_eq(steno_pager_next(&p, NULL, &u, &err), 0);
	cr_expect_null(u);
	steno_pager_free(&p);
}

/* Issue 13 item 4: endless next pages. */
Test(engine_pager, a_repeated_link_or_the_page_limit_stops_the_walk)
{
	struct steno_pager p;
	struct steno_error err;
	char *u = NULL;
	steno_pager_init(&p, 3);
	cr_assert_eq(steno_pager_next(&p, "http://h/t?cursor=a", &u, &err), 1);
	free(u);
	cr_assert_eq(steno_pager_next(&p, "http://h/t?cursor=b", &u, &err), 1);
	free(u);
	steno_error_clear(&err);
	cr_assert_eq(steno_pager_next(&p, "http://h/t?cursor=c", &u, &err), -1);
	cr_expect_null(u);
	cr_expect_str_eq(err.code, STENO_CODE_PAGE_LIMIT);
	cr_expect(strstr(err.message, "3 pages"), "%s", err.message);
	steno_pager_free(&p);

	steno_pager_init(&p, 0);
	cr_assert_eq(steno_pager_next(&p, "http://h/t?cursor=a", &u, &err), 1);
	free(u);
	cr_assert_eq(steno_pager_next(&p, "http://h/t?cursor=b", &u, &err), 1);
	free(u);
	steno_error_clear(&err);
	cr_assert_eq(steno_pager_next(&p, "http://h/t?cursor=a", &u, &err), -1);
	cr_expect_str_eq(err.code, STENO_CODE_PAGE_LOOP);
	cr_expect_eq(err.kind, STENO_ERR_PARSE);
	/* numbered pages count against the same limit */
	steno_pager_free(&p);
	steno_pager_init(&p, 2);
	cr_expect_eq(steno_pager_count(&p, &err), 0);
	cr_expect_eq(steno_pager_count(&p, &err), 0);
	cr_expect_eq(steno_pager_count(&p, &err), -1);
	steno_pager_free(&p);
}

/* A name cut for a message ends between characters at every length: CJK, a combining mark
 * (kept whole: its own character), emoji, a malformed byte. */
Test(utf8, a_prefix_never_ends_inside_a_character)
{
	static const char *const names[] = { "注文の録音", "Zoë", "e\xcc\x81t\xc3\xa9", "🎙️ talk",
					     ("a\xff" "b") };
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		const char *s = names[k];
		size_t len = strlen(s);
		for (size_t max = 0; max <= len + 1; max++) {
			size_t n = steno_utf8_prefix(s, max);
			cr_assert_leq(n, max < len ? max : len, "%s at %zu", s, max);
			cr_assert(n == len || steno_utf8_valid(s, n) || strchr(s, '\xff'),
				  "%s cut inside a character at %zu: %zu", s, max, n);
			if (n < len && s[n] != '\xff')
				cr_assert_gt(steno_utf8_seq((const unsigned char *)s + n, len - n) + n,
					     max, "%s: a whole character more fits in %zu", s, max);
		}
	}
	cr_assert_eq(steno_utf8_prefix("注文", 5), 3);
	cr_assert_eq(steno_utf8_prefix("注文", 6), 6);
}

/* A buffer cut at every length ends where its last whole character ends (a cut message). */
Test(utf8, uncut_drops_a_character_cut_at_the_end)
{
	static const char *const texts[] = {"abc", "é日🎙x", "日本語", "🎙🎙", "a\xffz"};
	for (size_t k = 0; k < sizeof texts / sizeof *texts; k++) {
		const char *s = texts[k];
		size_t len = strlen(s);
		for (size_t cut = 0; cut <= len; cut++) {
			size_t n = steno_utf8_uncut(s, cut);
			cr_assert_leq(n, cut);
			cr_assert(steno_utf8_valid(s, n) || strchr(s, '\xff'), "%s at %zu: %zu", s, cut, n);
			cr_assert_eq(n, steno_utf8_prefix(s, cut), "%s at %zu", s, cut);
		}
	}
	cr_assert_eq(steno_utf8_uncut("日本", 5), 3);
	cr_assert_eq(steno_utf8_uncut("日本", 6), 6);
	cr_assert_eq(steno_utf8_uncut("\x80\x80\x80\x80", 4), 4); /* no lead byte: nothing to drop */
}
