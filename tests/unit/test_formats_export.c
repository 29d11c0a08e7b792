/* Export formats, part 1: text and subtitle formats, STL, JSON, ZIP, determinism. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "formats/export.h"
#include "formats/transcript.h"
#include "test_formats_util.h"

static const char *const all_formats[] = { "txt", "docx", "pdf", "srt", "vtt", "stl", "avid",
                                           "html", "premiere", "maxqda", "json", "fcp" };

Test(export, every_format_is_deterministic)
{
	struct sb_transcript t;
	struct sb_export_options o = { .show_timestamps = 1, .show_speakers = 1, .show_comments = 1,
	                               .show_highlights = 1, .timestamps_frequency_s = 10 };
	tf_generate(&t, 11, 40, "en");
	for (size_t i = 0; i < sizeof all_formats / sizeof all_formats[0]; i++) {
		size_t la, lb;
		unsigned char *a = tf_render(all_formats[i], &t, "Talk", &o, &la);
		unsigned char *b = tf_render(all_formats[i], &t, "Talk", &o, &lb);
		cr_assert(la == lb && memcmp(a, b, la) == 0, "%s differs between two renders", all_formats[i]);
		free(a);
		free(b);
	}
	sb_transcript_free(&t);
}

Test(export, unknown_format_fails)
{
	struct sb_transcript t;
	static unsigned char sentinel[1];
	unsigned char *out = sentinel;
	size_t len = 9;
	char err[128] = "";
	tf_generate(&t, 1, 5, "en");
	cr_assert_lt(sb_export_render("doc", &t, "n", NULL, &out, &len, err, sizeof err), 0);
	cr_assert_null(out);
	cr_assert_not_null(strstr(err, "doc"));
	sb_transcript_free(&t);
}

Test(export, txt_plain_has_no_timestamps_or_speakers)
{
	struct sb_transcript t;
	struct sb_export_options o = { 0 };
	size_t len;
	tf_generate(&t, 3, 30, "en");
	char *s = (char *)tf_render("txt", &t, "n", &o, &len);
	cr_assert_null(strstr(s, "[00:"));
	cr_assert_null(strstr(s, "Speaker"));
	cr_assert_null(strstr(s, "Comment"));
	char *text = sb_transcript_text(&t);
	cr_assert_eq(strncmp(s, text, strcspn(text, "\n")), 0, "first block text comes first");
	free(text);
	free(s);
	sb_transcript_free(&t);
}

Test(export, txt_timestamps_speakers_form)
{
	struct sb_transcript t;
	struct sb_export_options o = { .show_timestamps = 1, .show_speakers = 1 };
	size_t len;
	tf_generate(&t, 3, 30, "en");
	char *s = (char *)tf_render("txt", &t, "n", &o, &len);
	char head[64];
	snprintf(head, sizeof head, "[00:00:00.000] - %s\n", t.blocks[0].speaker);
	cr_assert_eq(strncmp(s, head, strlen(head)), 0, "got: %.60s", s);
	cr_assert_eq(strcmp(s + len - 2, "\n\n"), 0);
	/* every block gets its header */
	size_t headers = 0;
	for (const char *p = s; (p = strstr(p, "] - Speaker ")); p++)
		headers++;
	cr_assert_eq(headers, t.n_blocks);
	free(s);
	o = (struct sb_export_options){ .show_speakers = 1 };
	s = (char *)tf_render("txt", &t, "n", &o, &len);
	cr_assert_null(strstr(s, "[00:"));
	cr_assert_eq(strncmp(s, t.blocks[0].speaker, strlen(t.blocks[0].speaker)), 0);
	free(s);
	sb_transcript_free(&t);
}

Test(export, txt_inline_timecodes_every_frequency)
{
	struct sb_transcript t;
	struct sb_export_options o = { .timestamps_frequency_s = 10 };
	size_t len;
	tf_generate(&t, 3, 60, "en");
	char *s = (char *)tf_render("txt", &t, "n", &o, &len);
	int marks = 0;
	for (const char *p = s; (p = strstr(p, "[00:0")); p++)
		marks++;
	cr_assert(marks >= 6 && marks <= 7, "%d inline timecodes for 60 s every 10 s", marks);
	cr_assert_not_null(strstr(s, "[00:00:1"));
	free(s);
	sb_transcript_free(&t);
}

Test(export, txt_comments_only_when_asked)
{
	struct sb_transcript t;
	struct sb_export_options o = { .show_comments = 1 };
	size_t len;
	tf_tricky(&t);
	char *s = (char *)tf_render("txt", &t, "n", &o, &len);
	cr_assert_not_null(strstr(s, "[Comment: a <note> & more]"));
	cr_assert_null(strchr(s, '\x01'), "control characters are dropped");
	free(s);
	sb_transcript_free(&t);
}

/* Strict SRT/VTT cue checker: numbered cues, valid increasing times, text. */
static double parse_time(const char *p, char sep)
{
	int h, m, s, ms;
	char c;
	cr_assert_eq(sscanf(p, "%2d:%2d:%2d%c%3d", &h, &m, &s, &c, &ms), 5, "time %.12s", p);
	cr_assert_eq(c, sep);
	cr_assert(m < 60 && s < 60 && p[2] == ':' && p[5] == ':');
	return h * 3600 + m * 60 + s + ms / 1000.0;
}

static size_t check_cues(const char *s, char sep)
{
	size_t n = 0;
	double prev = 0;
	while (*s) {
		char *end;
		unsigned long idx = strtoul(s, &end, 10);
		cr_assert_eq(idx, n + 1, "cue number");
		cr_assert_eq(*end, '\n');
		s = end + 1;
		double a = parse_time(s, sep);
		cr_assert_eq(strncmp(s + 12, " --> ", 5), 0);
		double b = parse_time(s + 17, sep);
		cr_assert_eq(s[29], '\n');
		cr_assert(a >= prev && b > a, "cue %zu times %f %f", n + 1, a, b);
		prev = b;
		s += 30;
		const char *nl = strchr(s, '\n');
		cr_assert(nl && nl > s, "cue text");
		for (const char *q = s; q < nl; q++)
			cr_assert((unsigned char)*q >= 0x20, "control byte in cue text");
		cr_assert_null(memmem(s, (size_t)(nl - s), "-->", 3));
		cr_assert_eq(nl[1], '\n', "blank line after cue");
		s = nl + 2;
		n++;
	}
	return n;
}

Test(export, srt_and_vtt_parse)
{
	struct sb_transcript t;
	size_t len;
	tf_generate(&t, 4, 75, "de");
	char *srt = (char *)tf_render("srt", &t, "n", NULL, &len);
	size_t n = check_cues(srt, ',');
	cr_assert_gt(n, 10);
	char *vtt = (char *)tf_render("vtt", &t, "n", NULL, &len);
	cr_assert_eq(strncmp(vtt, "WEBVTT\n\n", 8), 0);
	cr_assert_eq(check_cues(vtt + 8, '.'), n);
	free(srt);
	free(vtt);
	sb_transcript_free(&t);
	tf_tricky(&t);
	vtt = (char *)tf_render("vtt", &t, "n", NULL, &len);
	check_cues(vtt + 8, '.');
	cr_assert_not_null(strstr(vtt, "\n<v Anne &lt;&amp;&gt; \"Ré\">&lt;b&gt;Été"), "%s", vtt);
	free(vtt);
	srt = (char *)tf_render("srt", &t, "n", NULL, &len);
	check_cues(srt, ',');
	free(srt);
	sb_transcript_free(&t);
}

static void check_gsi_num(const unsigned char *g, size_t off, size_t len, long want)
{
	char tmp[16] = { 0 };
	memcpy(tmp, g + off, len);
	for (size_t i = 0; i < len; i++)
		cr_assert(tmp[i] >= '0' && tmp[i] <= '9', "GSI %zu not digits: %s", off, tmp);
	cr_assert_eq(strtol(tmp, NULL, 10), want, "GSI field at %zu", off);
}

Test(export, stl_gsi_and_tti_blocks)
{
	struct sb_transcript t;
	struct sb_export_options o = { .created_unix = 1700000000 }; /* 2023-11-14 */
	size_t len;
	tf_generate(&t, 8, 50, "en");
	unsigned char *s = tf_render("stl", &t, "Interview", &o, &len);
	cr_assert_eq((len - 1024) % 128, 0);
	size_t n = (len - 1024) / 128;
	cr_assert_gt(n, 5);
	cr_assert_eq(memcmp(s, "850", 3), 0);
	cr_assert_eq(memcmp(s + 3, "STL25.01", 8), 0);
	cr_assert_eq(s[11], '1');
	cr_assert_eq(memcmp(s + 12, "00", 2), 0);
	cr_assert_eq(memcmp(s + 14, "09", 2), 0);
	cr_assert_eq(memcmp(s + 16, "Interview ", 10), 0);
	cr_assert_eq(memcmp(s + 224, "231114231114", 12), 0);
	check_gsi_num(s, 238, 5, (long)n);
	check_gsi_num(s, 243, 5, (long)n);
	check_gsi_num(s, 248, 3, 1);
	check_gsi_num(s, 251, 2, 40);
	check_gsi_num(s, 253, 2, 23);
	cr_assert_eq(s[255], '1');
	check_gsi_num(s, 256, 8, 0);
	check_gsi_num(s, 264, 8, 0);
	cr_assert_eq(memcmp(s + 274, "GBR", 3), 0);
	for (size_t i = 0; i < n; i++) {
		const unsigned char *b = s + 1024 + i * 128;
		cr_assert_eq(b[1] | b[2] << 8, (int)i, "subtitle number");
		cr_assert_eq(b[3], 0xff);
		cr_assert(b[5] < 24 && b[6] < 60 && b[7] < 60 && b[8] < 25);
		int in = ((b[5] * 60 + b[6]) * 60 + b[7]) * 25 + b[8];
		int out = ((b[9] * 60 + b[10]) * 60 + b[11]) * 25 + b[12];
		cr_assert_geq(out, in);
		cr_assert(b[16] >= 0x20 && b[16] < 0x7f, "text starts with a letter");
		for (size_t k = 16; k < 128; k++)
			cr_assert(b[k] >= 0x20 || b[k] == 0x8a, "control byte in TTI text");
		cr_assert_eq(b[127], 0x8f, "text padded with 0x8F");
	}
	free(s);
	sb_transcript_free(&t);
}

Test(export, stl_encodes_latin_and_replaces_cjk)
{
	struct sb_transcript t;
	size_t len;
	tf_tricky(&t);
	unsigned char *s = tf_render("stl", &t, "n", NULL, &len);
	cr_assert_eq(memcmp(s + 14, "0F", 2), 0, "French");
	const unsigned char *tf = s + 1024 + 16;
	cr_assert_eq(memcmp(tf, "<b>\xC2" "Et\xC2" "e", 7), 0, "É/é as acute + letter");
	cr_assert_not_null(memmem(s + 1024, len - 1024, "stra\xFB" "e", 6), "ß is 0xFB");
	cr_assert_not_null(memmem(s + 1024, len - 1024, "\xA4" "5", 2), "$ is 0xA4");
	cr_assert_not_null(memmem(s + 1024, len - 1024, "???]]>??.", 9), "CJK replaced");
	free(s);
	sb_transcript_free(&t);
}

Test(export, avid_and_maxqda_lines)
{
	struct sb_transcript t;
	size_t len;
	tf_generate(&t, 2, 20, "en");
	char *s = (char *)tf_render("avid", &t, "n", NULL, &len);
	int h, m, sec, f;
	char user[16], track[8], color[16];
	cr_assert_eq(sscanf(s, "%15[^\t]\t%2d:%2d:%2d:%2d\t%7[^\t]\t%15[^\t]\t", user, &h, &m, &sec, &f,
	                    track, color), 7, "%.80s", s);
	cr_assert_str_eq(track, "V1");
	for (char *line = s; *line; line = strchr(line, '\n') + 1) {
		int tabs = 0;
		for (char *p = line; *p != '\n'; p++)
			tabs += *p == '\t';
		cr_assert_eq(tabs, 5, "avid line has 6 fields");
	}
	free(s);
	s = (char *)tf_render("maxqda", &t, "n", NULL, &len);
	cr_assert_eq(strncmp(s, "#00:00:00-0# Speaker ", 21), 0, "%.40s", s);
	free(s);
	sb_transcript_free(&t);
}

Test(export, json_matches_transcript_json)
{
	struct sb_transcript t;
	size_t len;
	tf_generate(&t, 2, 20, "en");
	char *s = (char *)tf_render("json", &t, "n", NULL, &len);
	char *want = sb_transcript_to_json(&t, SB_JSON_EXPORT);
	cr_assert_str_eq(s, want);
	free(want);
	free(s);
	sb_transcript_free(&t);
}

Test(export, zip_of_several_has_one_entry_each, .fini = tf_cleanup)
{
	struct sb_transcript a, b, c;
	tf_generate(&a, 1, 10, "en");
	tf_generate(&b, 2, 10, "fr");
	tf_generate(&c, 3, 10, "ja");
	const struct sb_transcript *ts[] = { &a, &b, &c };
	const char *names[] = { "../A/b", "../a/B", NULL };
	unsigned char *zipb;
	size_t len;
	char err[128] = "";
	cr_assert_eq(sb_export_render_zip("srt", ts, names, 3, NULL, &zipb, &len, err, sizeof err), 0, "%s", err);
	zip_error_t ze;
	zip_error_init(&ze);
	zip_source_t *src = zip_source_buffer_create(zipb, len, 0, &ze);
	zip_t *z = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
	cr_assert_not_null(z, "%s", zip_error_strerror(&ze));
	cr_assert_eq(zip_get_num_entries(z, 0), 3);
	cr_assert_str_eq(zip_get_name(z, 0, 0), "_A_b.srt");
	cr_assert_str_eq(zip_get_name(z, 1, 0), "_a_B (2).srt");
	cr_assert_str_eq(zip_get_name(z, 2, 0), "transcription.srt");
	zip_close(z);
	zip_error_fini(&ze);
	if (tf_have("unzip")) {
		char cmd[600];
		snprintf(cmd, sizeof cmd, "unzip -tq '%s'", tf_write("several.zip", zipb, len));
		cr_assert_eq(tf_run(cmd, NULL), 0, "unzip -t");
	}
	free(zipb);
	cr_assert_lt(sb_export_render_zip("srt", ts, names, 0, NULL, &zipb, &len, err, sizeof err), 0);
	sb_transcript_free(&a);
	sb_transcript_free(&b);
	sb_transcript_free(&c);
}
