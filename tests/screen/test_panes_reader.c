/* The reader (ui/pane_reader.c) on a transcript of the local store: search inside with every
 * match highlighted, n/N, `:t` jumps to a time, `y` copies the paragraph with its time code
 * (the OSC 52 bytes are read back), `|` sends the text to $PAGER. And the results pane of
 * `F` / `:search` in the browser, on transcripts the browser read into the store itself:
 * hits grouped by transcription, Enter opens the reader at the hit. */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/content_db.h"
#include "core/localdb.h"
#include "harness.h"
#include "panes_fixture.h"
#include "ui/app.h"
#include "ui/app_content.h"
#include "ui/pane_reader.h"

static struct scr s;
static char dir[256];
static struct localdb *ldb;

/* 40 paragraphs, 30 s apart: "Speaker N" alternating; paragraph 25 (12:30) speaks of the
 * garden, and so do 3 and 31. */
static void fill_store(void)
{
	struct steno_error err;
	char cache[300], json[65536];
	size_t o = 0;
	snprintf(dir, sizeof dir, "/tmp/steno-reader-XXXXXX");
	cr_assert(mkdtemp(dir));
	snprintf(cache, sizeof cache, "%s/cache", dir);
	struct localdb_options lo = { .cache_dir = cache, .base_url = "http://127.0.0.1:9/api/v1" };
	cr_assert_eq(localdb_open(&lo, &ldb, NULL, &err), 0, "%s", err.message);
	o += (size_t)snprintf(json + o, sizeof json - o, "[");
	for (int p = 0; p < 40; p++) {
		const char *text = p == 25 ? "The garden by the river was quiet that morning." :
			p == 3 || p == 31 ? "We walked to the garden again." :
			"Nothing much was said about the budget or the weather.";
		double t = p * 30.0;
		o += (size_t)snprintf(json + o, sizeof json - o,
				      "%s{\"speaker\":\"Speaker %d\",\"data_start\":%.1f,\"words\":["
				      "{\"text\":\"%s\",\"type\":\"word\",\"data_start\":%.1f,"
				      "\"data_end\":%.1f}]}", p ? "," : "", p % 2 + 1, t, text, t, t + 20);
	}
	snprintf(json + o, sizeof json - o, "]");
	struct steno_transcript tr;
	cr_assert_eq(steno_transcript_parse(json, strlen(json), &tr, &err), 0, "%s", err.message);
	sqlite3 *db = localdb_handle(ldb);
	/* as the store writes what the list said (its transcriptions table) */
	cr_assert_eq(sqlite3_exec(db, "INSERT INTO transcriptions(id, org_id, name, state, data,"
				  " updated_ms) VALUES ('tr1', '1', 'Walks and talks',"
				  " 'automatic_done', '{}', 1)", NULL, NULL, NULL), SQLITE_OK);
	cr_assert_eq(content_db_put(db, "tr1", "1", &tr, 1700000000, &err), 0, "%s", err.message);
	steno_transcript_free(&tr);
}

static void teardown(void)
{
	char cmd[300];
	scr_close(&s);
	localdb_close(ldb);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_expect_eq(system(cmd), 0);
}

/* The screen's line holding needle (malloc'd copy) or NULL. */
static char *line_with(const char *needle)
{
	char *text = scr_text(), *l = strstr(text, needle), *copy = NULL;
	if (l) {
		char *b = l;
		while (b > text && b[-1] != '\n')
			b--;
		copy = strndup(b, strcspn(b, "\n"));
	}
	free(text);
	return copy;
}

/* The row of the screen where the cursor mark stands, -1 if none. */
static int cursor_row(void)
{
	char *text = scr_text();
	int row = 0, found = -1;
	for (char *l = text; l && *l; row++) {
		if (!strncmp(l, "\u25b8", strlen("\u25b8"))) {
			found = row;
			break;
		}
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	free(text);
	return found;
}

static int b64val(char c)
{
	static const char t[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = strchr(t, c);
	return c && p ? (int)(p - t) : -1;
}

/* The file a pager or an editor was given, read into buf: the whole text, paragraphs with
 * their time codes, from the first. */
static void expect_whole_text(const char *path, const char *missing, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	cr_assert(f, "%s", missing);
	size_t n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	cr_expect(!strncmp(buf, "[0:00] Speaker 1: Nothing much", 30), "%.80s", buf);
	cr_expect(strstr(buf, "\n\n[12:30] Speaker 2: The garden by the river"), "%s", buf);
}

/* The text of the (one) OSC 52 sequence in buf, decoded (malloc'd), or NULL. */
static char *osc52_text(const char *buf)
{
	const char *p = strstr(buf, "\033]52;c;");
	if (!p)
		return NULL;
	p += 7;
	char *out = calloc(1, strlen(p)), *o = out;
	unsigned acc = 0;
	int bits = 0;
	for (; *p && *p != '\a' && *p != '\033'; p++) {
		int v = b64val(*p);
		if (v < 0)
			continue;
		acc = acc << 6 | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			*o++ = (char)(acc >> bits & 0xff);
		}
	}
	return out;
}

Test(reader, search_inside_jump_and_copy, .fini = teardown)
{
	fill_store();
	struct scr_opts so = { .rows = 20, .cols = 80, .no_color = 1 };   /* matches: reverse */
	scr_open(&s, &so);
	char clip_path[300], msg[200];
	snprintf(clip_path, sizeof clip_path, "%s/clip", dir);
	FILE *clip = fopen(clip_path, "w+");
	cr_assert(clip);
	struct reader_arg a = { .db = localdb_handle(ldb), .id = "tr1", .at = -1, .tty = clip,
		.clipboard = CLIPBOARD_OSC52 };
	cr_assert_eq(reader_open(&s.ui.frame, &a, msg, sizeof msg), 0, "%s", msg);
	scr_keys(&s, "");
	char *l = line_with("Walks and talks");
	cr_assert(l, "no status line");
	cr_expect(strstr(l, "0:00 / 19:50") && strstr(l, "0%") && strstr(l, "fetched "), "%s", l);
	free(l);
	l = line_with("0:00  Speaker 1");
	cr_expect(l, "the first paragraph's header");
	free(l);

	/* :t 12:30 goes to the paragraph said then */
	scr_keys(&s, ": t <Space> 1 2 : 3 0 <Enter>");
	l = line_with("Walks and talks");
	cr_expect(l && strstr(l, "12:30 / 19:50"), "%s", l);
	free(l);
	l = line_with("12:30  Speaker 2");
	cr_expect(l && !strncmp(l, "\u25b8", strlen("\u25b8")), "cursor on 12:30: %s", l);
	free(l);

	/* / garden: every match on screen highlighted, the cursor on the next one */
	scr_keys(&s, "g / g a r d e n <Enter>");
	int first = cursor_row();
	char *text = scr_text(), *attrs = scr_attrs();
	int hl = 0, row = 0;
	for (char *t = text, *at = attrs; t && at; row++) {
		int col = scr_cell_col(t, "garden");
		if (col >= 0) {
			cr_expect(strchr("89abcdef", at[col]) != NULL, "row %d col %d not reverse: %c",
				  row, col, at[col]);
			hl++;
		}
		t = strchr(t, '\n');
		at = strchr(at, '\n');
		t = t ? t + 1 : NULL;
		at = at ? at + 1 : NULL;
	}
	free(text);
	free(attrs);
	cr_expect_geq(hl, 1, "no match on screen");
	l = line_with("Walks and talks");
	cr_expect(l && strstr(l, "1:30 / "), "the first match is at 1:30: %s", l);
	free(l);
	scr_keys(&s, "n");
	l = line_with("Walks and talks");
	cr_expect(l && strstr(l, "12:30 / "), "n: the next at 12:30: %s", l);
	free(l);
	scr_keys(&s, "n N");
	l = line_with("Walks and talks");
	cr_expect(l && strstr(l, "12:30 / "), "n then N: back at 12:30: %s", l);
	free(l);
	(void)first;

	/* y: the paragraph under the cursor with its time code, as OSC 52 */
	scr_keys(&s, "y");
	l = line_with("copied the paragraph at 12:30");
	cr_expect(l, "the status line says it was copied");
	free(l);
	fflush(clip);
	char buf[4096] = "";
	rewind(clip);
	size_t n = fread(buf, 1, sizeof buf - 1, clip);
	buf[n] = '\0';
	fclose(clip);
	char *copied = osc52_text(buf);
	cr_assert(copied, "no OSC 52 written: %s", buf);
	cr_expect_str_eq(copied, "[12:30] Speaker 2: The garden by the river was quiet that morning.");
	free(copied);
}

Test(reader, pipe_sends_the_whole_text_to_the_pager, .fini = teardown)
{
	fill_store();
	struct scr_opts so = { .rows = 20, .cols = 80 };
	scr_open(&s, &so);
	char out[300], pager[400], msg[200];
	snprintf(out, sizeof out, "%s/paged", dir);
	snprintf(pager, sizeof pager, "cat > '%s'", out);
	setenv("PAGER", pager, 1);
	struct reader_arg a = { .db = localdb_handle(ldb), .id = "tr1", .at = 750 };
	cr_assert_eq(reader_open(&s.ui.frame, &a, msg, sizeof msg), 0, "%s", msg);
	scr_keys(&s, "|");
	char buf[8192];
	expect_whole_text(out, "the pager did not run", buf, sizeof buf);
	cr_expect(strstr(buf, "[19:30] Speaker 2: "), "the last paragraph");
	/* back on screen where it was */
	char *l = line_with("Walks and talks");
	cr_expect(l && strstr(l, "12:30 / "), "%s", l);
	free(l);
}

/* E: the whole text in $EDITOR as a read-only copy (mode 0400) in $TMPDIR, removed after;
 * the reader is back where it was. */
Test(reader, edit_opens_a_read_only_copy_in_the_editor, .fini = teardown)
{
	fill_store();
	struct scr_opts so = { .rows = 20, .cols = 80 };
	scr_open(&s, &so);
	char tmp[300], out[400], editor[1200], msg[200];
	snprintf(tmp, sizeof tmp, "%s/tmp", dir);
	cr_assert_eq(mkdir(tmp, 0700), 0);
	snprintf(out, sizeof out, "%s/edited", dir);
	/* the "editor" keeps what it was given and the file's mode */
	snprintf(editor, sizeof editor, "sh -c 'cp \"$0\" %s; stat -c %%a \"$0\" > %s.mode'", out,
		 out);
	setenv("TMPDIR", tmp, 1);
	unsetenv("VISUAL");
	setenv("EDITOR", editor, 1);
	struct reader_arg a = { .db = localdb_handle(ldb), .id = "tr1", .at = 750 };
	cr_assert_eq(reader_open(&s.ui.frame, &a, msg, sizeof msg), 0, "%s", msg);
	scr_keys(&s, "E");
	unsetenv("TMPDIR");
	char buf[8192];
	expect_whole_text(out, "the editor did not run", buf, sizeof buf);
	char mode_path[500], mode[16] = "";
	snprintf(mode_path, sizeof mode_path, "%s.mode", out);
	FILE *f = fopen(mode_path, "r");
	cr_assert(f);
	cr_expect(fgets(mode, sizeof mode, f));
	fclose(f);
	cr_expect_eq(strtol(mode, NULL, 8), 0400, "the copy is not read-only: %s", mode);
	DIR *d = opendir(tmp);
	cr_assert(d);
	int left = 0;
	for (struct dirent *e; (e = readdir(d));)
		left += e->d_name[0] != '.';
	closedir(d);
	cr_expect_eq(left, 0, "the copy was left in TMPDIR");
	char *l = line_with("Walks and talks");
	cr_expect(l && strstr(l, "12:30 / "), "%s", l);
	free(l);
}

/* ---- in the browser: F, the results, Enter ---- */

static struct pf f;

static void pf_teardown(void)
{
	pf_close(&f);
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Runs the browser (120 s at most: valgrind) until nothing waits to be read into the store
 * and no request runs. */
static void wait_indexed(void)
{
	double end = mono_s() + 120;
	for (;;) {
		f.quit |= app_step(f.app, 50);
		char *text = scr_text();
		bool busy = strstr(text, "indexing") != NULL || app_busy(f.app);
		free(text);
		/* not before the list's first answer has shown what there is to index */
		long held = 0, waiting = 0;
		struct steno_error err;
		sqlite3 *db = app_content_db(f.app);
		if (!busy && db && content_db_counts(db, NULL, &held, &waiting, &err) == 0 &&
		    held > 0 && waiting == 0)
			return;
		cr_assert(mono_s() < end, "still indexing after 120 s");
	}
}

Test(reader, results_pane_groups_hits_and_opens_the_reader_at_one, .fini = pf_teardown)
{
	static const char *const seed[] = { "--seed-demo", "6", NULL };
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = seed, .index = 1 };
	pf_open(&f, &o);
	wait_indexed();
	pf_keys(&f, "F b u d g");   /* as you type: "budg" is a prefix */
	pf_expect(&f, "search every transcript: budg_");
	char *text = scr_text();
	char *hits = strstr(text, " hits");
	cr_assert(hits, "%s", text);
	/* the first row is a transcription's heading, its hits under it with time codes */
	char *l3 = strchr(strchr(text, '\n') + 1, '\n') + 1;
	cr_expect(strstr(l3, "(") && strstr(l3, ")"), "a heading: %.100s", l3);
	char *l4 = strchr(l3, '\n') + 1;
	cr_expect(strstr(l4, "Speaker") && strchr(l4, ':'), "a hit: %.100s", l4);
	int h, m, sec;
	cr_assert_eq(sscanf(l4, " %d:%d", &m, &sec), 2, "%.60s", l4);
	h = m * 60 + sec;
	free(text);
	pf_keys(&f, "<Down> <Enter>");
	/* the reader, at the hit: its paragraph started at or before the hit's time */
	char *r = scr_text();
	char *status = strstr(r, " / ");
	cr_assert(status && strstr(r, "fetched "), "%s", r);
	char *b = status;
	while (b > r && b[-1] != ' ')
		b--;
	cr_assert_eq(sscanf(b, "%d:%d", &m, &sec), 2, "%.40s", b);
	cr_expect_leq(m * 60 + sec, h);
	cr_expect_geq(m * 60 + sec, h - 60, "the hit's paragraph, not far before it");
	free(r);
	pf_keys(&f, "q");
	pf_reject(&f, "fetched ");
}

/* `F` searches the organization on screen only (as steno search --org): a transcription of
 * another organization in the same store is not among the hits. */
Test(reader, search_keeps_to_the_organization_on_screen, .fini = pf_teardown)
{
	static const char *const seed[] = { "--seed-demo", "6", NULL };
	struct pf_opts o = { .rows = 30, .cols = 120, .sandbox_args = seed, .index = 1 };
	pf_open(&f, &o);
	wait_indexed();
	sqlite3 *db = app_content_db(f.app);
	struct steno_error err;
	cr_assert_eq(sqlite3_exec(db, "INSERT INTO transcriptions(id, org_id, name, state, data,"
				  " updated_ms) VALUES ('elsewhere1', 'another-org', 'Elsewhere',"
				  " 'automatic_done', '{}', 1)", NULL, NULL, NULL), SQLITE_OK);
	/* a word no demo transcript says */
	static const char json[] = "[{\"speaker\":\"Far\",\"words\":[{\"text\":\"Zanzibar\","
		"\"type\":\"word\",\"data_start\":1,\"data_end\":2}]}]";
	struct steno_transcript t;
	cr_assert_eq(steno_transcript_parse(json, strlen(json), &t, &err), 0, "%s", err.message);
	cr_assert_eq(content_db_put(db, "elsewhere1", "1", &t, 1700000000, &err), 0, "%s",
		     err.message);
	steno_transcript_free(&t);
	pf_keys(&f, "F z a n z i b a r");
	pf_expect(&f, "search every transcript: zanzibar_");
	char *text = scr_text();
	cr_expect(strstr(text, " 0 hits"), "%s", text);
	cr_expect(!strstr(text, "Elsewhere"), "another organization's hit: %s", text);
	free(text);
	/* the same store searched for every organization finds it */
	struct content_hit *h;
	size_t n;
	struct content_query cq = { .text = "zanzibar" };
	cr_assert_eq(content_db_search(db, &cq, &h, &n, &err), 0, "%s", err.message);
	cr_expect_eq(n, 1);
	content_hits_free(h, n);
}

/* At 80 columns a hit's snippet is wider than its room: it is drawn from the words before its
 * first match ("…" first), so every hit row shows the word searched (one said late in its
 * passage was cut off). */
Test(reader, every_hit_shows_its_match_at_80_columns, .fini = pf_teardown)
{
	static const char *const seed[] = { "--seed-demo", "6", NULL };
	struct pf_opts o = { .rows = 24, .cols = 80, .sandbox_args = seed, .index = 1 };
	pf_open(&f, &o);
	wait_indexed();
	pf_keys(&f, "F b u d g e t");
	pf_expect(&f, "search every transcript: budget_");
	char *text = scr_text();
	int hits = 0;
	for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t n = strcspn(l, "\n");
		char row[512];
		snprintf(row, sizeof row, "%.*s", (int)(n < sizeof row ? n : sizeof row - 1), l);
		if (!strstr(row, "Speaker"))
			continue;
		hits++;
		cr_expect(strcasestr(row, "budget"), "the match is not on screen: %s", row);
	}
	cr_expect_geq(hits, 10, "%s", text);
	free(text);
}
