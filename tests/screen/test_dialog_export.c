/* Export, download and preview against a sandbox: options offered per format, waiting then
 * downloading into a chosen directory, a ZIP for several, a failed export that keeps the
 * form, and the transcript preview fetched once then read from the cache. */
#include "config.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/content_db.h"
#include "core/localdb.h"
#include "core/store.h"
#include "test_dialog_fixture.h"
#include "ui/dialog_export.h"
#include "ui/pane_preview.h"

/* Waits until the export is being polled, then moves the sandbox clock past its work. */
static void advance_when_waiting(struct dfx *x)
{
	cr_assert(dfx_pump(x, dfx_cond_shows, "waiting", 5000), "the export was not created");
	cr_assert_eq(sbx_advance(&x->sb, 30), 0);
}

static void set_dir(struct dfx *x, const char *dir)
{
	dfx_keys(x, "<C-u>");
	dfx_type(x, dir);
}

/* Opens the export dialog on ids. */
static void open_export(struct dfx *x, const char **ids, size_t n)
{
	cr_assert_eq(dialog_env_set_ids(&x->env, ids, n), 0);
	dfx_dialog(x, &dialog_export_ops);
}

/* In the opened dialog, format txt (the default): to the directory field (timestamps,
 * speakers, comments, freq, dir), the temp dir, Enter; then on until the export works. */
static void export_into_tmp(struct dfx *x)
{
	dfx_keys(x, "<Tab> <Tab> <Tab> <Tab> <Tab>");
	set_dir(x, x->tmp);
	dfx_keys(x, "<F2>");
	advance_when_waiting(x);
}

static int count_files(const char *dir, const char *suffix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name), s = strlen(suffix);
		n += l > s && strcmp(e->d_name + l - s, suffix) == 0;
	}
	closedir(d);
	return n;
}

/* The export dialog on one finished transcription of 12 (80x24). */
static void open_export_of_done(struct dfx *x)
{
	dfx_open(x, 24, 80, 12);
	dfx_load(x);
	const char *id = dfx_find(x, "automatic_done");
	open_export(x, &id, 1);
}

Test(dialog_export, options_follow_the_format)
{
	struct dfx x;
	open_export_of_done(&x);
	char *t = dfx_text();
	cr_assert(strstr(t, "Timestamps") && strstr(t, "Speakers") && !strstr(t, "Highlights"), "%s", t);
	free(t);
	dfx_type(&x, "srt");
	dfx_keys(&x, "<Enter>");
	t = dfx_text();
	cr_assert(strstr(t, "srt") && !strstr(t, "Timestamps") && !strstr(t, "Speakers"), "%s", t);
	free(t);
	dfx_keys(&x, "<Space>");
	dfx_type(&x, "docx");
	dfx_keys(&x, "<Enter>");
	t = dfx_text();
	scr_golden("dialog_export_docx", t);
	cr_assert(strstr(t, "Highlights only") && strstr(t, "Inline times"), "%s", t);
	free(t);
	dfx_close(&x);
}

/* The format picker's descriptions are whole (they were cut to 12 columns). */
Test(dialog_export, format_descriptions_are_whole)
{
	struct dfx x;
	open_export_of_done(&x);
	dfx_keys(&x, "<Space>");
	cr_assert(dfx_shows(&x, "Interactive transcript"));
	cr_assert(dfx_shows(&x, "Premiere Pro (beta)"));
	cr_assert(dfx_shows(&x, "SubRip subtitles"));
	dfx_close(&x);
}

/* The checkbox on the line of `label` reads [x]. */
static bool checked_on_screen(const char *label)
{
	char *t = dfx_text();
	const char *l = strstr(t, label);
	const char *box = l ? strchr(l, '[') : NULL;
	bool on = box && box[1] == 'x';
	free(t);
	return on;
}

Test(dialog_export, highlights_and_highlights_only_exclude_each_other)
{
	struct dfx x;
	open_export_of_done(&x);
	dfx_type(&x, "docx");
	dfx_keys(&x, "<Enter>");
	/* Format, Timestamps, Speakers, Comments, Highlights */
	dfx_keys(&x, "<Tab> <Tab> <Tab> <Tab> <Space>");
	cr_assert(checked_on_screen("Highlights  "));
	dfx_keys(&x, "<Tab> <Space>");
	cr_assert(checked_on_screen("Highlights only"));
	cr_assert_not(checked_on_screen("Highlights  "), "checking one clears the other");
	dfx_keys(&x, "<S-Tab> <Space>");
	cr_assert(checked_on_screen("Highlights  "));
	cr_assert_not(checked_on_screen("Highlights only"));
	dfx_close(&x);
}

Test(dialog_export, export_then_download_and_zip)
{
	struct dfx x;
	dfx_open(&x, 24, 80, 12);
	dfx_load(&x);
	const char *one = dfx_find(&x, "automatic_done");
	open_export(&x, &one, 1);
	export_into_tmp(&x);
	cr_assert(dfx_pump(&x, dfx_cond_shows, "Saved", 8000), "not downloaded");
	cr_assert_eq(count_files(x.tmp, ".txt"), 1);
	cr_assert(dfx_shows(&x, "Enter/Esc: close"), "no display: no open key offered");
	dfx_keys(&x, "o");
	cr_assert(dfx_shows(&x, "no display"), "o without a display explains itself");
	/* where the file is comes first: a narrow status bar cuts the end of the message */
	cr_assert(dfx_shows(&x, "the file is at "), "the path is not first");
	dfx_keys(&x, "<Enter>");
	cr_assert_null(x.scr.ui.frame.overlay);

	/* two marked transcriptions: one ZIP */
	const char *two[2];
	char a[64];
	snprintf(a, sizeof a, "%s", one);
	two[0] = a;
	struct store_view *v = store_view_get(x.store, x.sb.org_id, NULL, NULL, false);
	cr_assert_not_null(v);
	two[1] = NULL;
	for (size_t i = 0; i < v->n && !two[1]; i++) {
		const struct store_transcription *t = store_view_item(x.store, v, i);
		if (t->t.state && strcmp(t->t.state, "automatic_done") == 0 && strcmp(t->t.id, a) != 0)
			two[1] = t->t.id;
	}
	cr_assert_not_null(two[1]);
	open_export(&x, two, 2);
	export_into_tmp(&x);
	cr_assert(dfx_pump(&x, dfx_cond_shows, "Saved", 8000), "zip not downloaded");
	cr_assert_eq(count_files(x.tmp, ".zip"), 1);
	cr_assert_eq(x.unmarks, 1, "the marks were used");
	dfx_close(&x);
}

static long exports_on_the_server(struct dfx *x)
{
	struct sbx_resp r;
	cr_assert_eq(sbx_request(&x->sb, "GET", "/_sandbox/state", x->sb.admin_key, NULL, NULL, &r), 0);
	json_object *o = sbx_json(&r);
	long n = o ? (long)json_object_get_int64(sbx_get(o, "counts.exports")) : -1;
	json_object_put(o);
	sbx_resp_free(&r);
	return n;
}

/* Issue 12 "Downloads": the file is named by download_name ({name}-{id}.{ext}) and a file
 * that exists is refused before the export is created (it was found after a 20 s export). */
Test(dialog_export, existing_file_is_refused_before_the_export)
{
	struct dfx x;
	char path[600];
	dfx_open(&x, 24, 80, 12);
	dfx_load(&x);
	const char *one = dfx_find(&x, "automatic_done");
	const struct store_transcription *t = store_transcription_get(x.store, one);
	cr_assert(t && t->t.name);
	snprintf(path, sizeof path, "%s/%s-%s.txt", x.tmp, t->t.name, one);
	FILE *f = fopen(path, "w");
	cr_assert(f, "%s", path);
	fclose(f);
	long before = exports_on_the_server(&x);
	open_export(&x, &one, 1);
	dfx_keys(&x, "<Tab> <Tab> <Tab> <Tab> <Tab>");
	set_dir(&x, x.tmp);
	dfx_keys(&x, "<F2>");
	char *txt = dfx_text();
	cr_assert(dfx_pump(&x, dfx_cond_shows, "exists", 3000), "the existing file is not named:\n%s", txt);
	free(txt);
	cr_assert_eq(exports_on_the_server(&x), before, "an export was created");
	dfx_close(&x);
}

Test(dialog_export, failed_export_keeps_the_form)
{
	struct dfx x;
	dfx_open(&x, 24, 80, 12);
	const char *bad = dfx_find(&x, "failed");
	open_export(&x, &bad, 1);
	export_into_tmp(&x);
	cr_assert(dfx_pump(&x, dfx_cond_shows, "failed", 8000), "no failure shown");
	char *t = dfx_text();
	cr_assert(strstr(t, "is failed. Submit again") && strstr(t, "Format"), "%s", t);
	free(t);
	cr_assert_eq(count_files(x.tmp, ".txt"), 0);
	/* a directory that cannot be made is refused next to its field */
	set_dir(&x, "/nonexistent/dir");
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_shows(&x, "! cannot create it: No such file or directory"));
	dfx_close(&x);
}

/* A missing export directory is made, as `steno export` makes it (it was refused here). */
Test(dialog_export, a_missing_directory_is_made)
{
	struct dfx x;
	char dir[400];
	open_export_of_done(&x);
	dfx_keys(&x, "<Tab> <Tab> <Tab> <Tab> <Tab>");
	snprintf(dir, sizeof dir, "%s/new", x.tmp);
	set_dir(&x, dir);
	dfx_keys(&x, "<F2>");
	cr_assert_not(dfx_shows(&x, "! not a directory"), "the missing directory was refused");
	struct stat st;
	cr_assert(stat(dir, &st) == 0 && S_ISDIR(st.st_mode), "%s was not made", dir);
	dfx_close(&x);
}

/* The fixture's store with a local store on disk (in its temp dir), as the browser's. */
static sqlite3 *attach_local_store(struct dfx *x)
{
	char cache[600];
	struct steno_error err;
	snprintf(cache, sizeof cache, "%s/cache", x->tmp);
	struct localdb_options o = { .cache_dir = cache, .base_url = x->sb.base_url };
	struct localdb *ldb;
	cr_assert_eq(localdb_open(&o, &ldb, NULL, &err), 0, "%s", err.message);
	cr_assert_eq(store_attach_db(x->store, ldb, NULL, NULL, &err), 0, "%s", err.message);
	return localdb_handle(ldb);
}

/* Files under dir (recursively) whose name ends in .json. */
static int json_files(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char path[1200];
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		size_t k = strlen(e->d_name);
		if (k > 5 && !strcmp(e->d_name + k - 5, ".json"))
			n++;
		struct stat st;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			n += json_files(path);
	}
	if (d)
		closedir(d);
	return n;
}

/* The preview reads the retrieve's downloadUrl: no export is made on the server (counted in
 * its database), the text comes and is kept in the local store (no file in the cache
 * directory), and the second open reads the store: no request at all. */
Test(dialog_export, preview_reads_the_download_url_once_then_the_store)
{
	struct dfx x;
	dfx_open(&x, 24, 80, 12);
	sqlite3 *db = attach_local_store(&x);
	dfx_load(&x);
	const char *id = dfx_find(&x, "automatic_done");
	cr_assert_eq(dialog_env_set_ids(&x.env, &id, 1), 0);
	long exports = dfx_count(&x, "exports");
	dfx_dialog(&x, &pane_preview_ops);
	cr_assert(dfx_pump(&x, dfx_cond_shows, "[00:00:", 8000), "no transcript");
	cr_assert(dfx_shows(&x, "Speaker"));
	cr_assert_not(dfx_shows(&x, "export"));
	cr_assert_eq(dfx_count(&x, "exports"), exports, "the preview made an export");
	/* search: / word Enter, then n */
	dfx_keys(&x, "/");
	dfx_type(&x, "Speaker");
	dfx_keys(&x, "<Enter> n N");
	cr_assert_not(dfx_shows(&x, "(not found)"));
	dfx_keys(&x, "/");
	dfx_type(&x, "zzqqxx");
	dfx_keys(&x, "<Enter>");
	cr_assert(dfx_shows(&x, "(not found)"));
	dfx_keys(&x, "q");
	cr_assert_null(x.scr.ui.frame.overlay);
	/* in the store, where the reader and search find it; no file of its own */
	struct content_doc d;
	struct steno_error err;
	cr_assert_eq(content_db_load(db, id, &d, &err), 1, "not in the local store");
	cr_expect_gt(d.n, 0);
	content_doc_free(&d);
	cr_expect_eq(json_files(x.env.cache_dir), 0, "a preview cache file was written");
	/* the second open needs no request at all */
	dfx_dialog(&x, &pane_preview_ops);
	cr_assert(dfx_shows(&x, "(from the local store)") && dfx_shows(&x, "[00:00:"));
	cr_assert_eq(steno_http_pending(x.http), 0);
	cr_assert_eq(dfx_count(&x, "exports"), exports);
	/* resize with the preview open: wrapped again */
	scr_resize(&x.scr, 16, 50);
	cr_assert(dfx_shows(&x, "(from the local store)"));
	dfx_close(&x);
}

/* An unfinished transcription has no content yet: said, and nothing is created. */
Test(dialog_export, preview_of_an_unfinished_transcription_says_so)
{
	struct dfx x;
	dfx_open(&x, 24, 80, 12);
	const char *id = dfx_find(&x, "ingesting");
	cr_assert_eq(dialog_env_set_ids(&x.env, &id, 1), 0);
	long exports = dfx_count(&x, "exports");
	dfx_dialog(&x, &pane_preview_ops);
	cr_assert(dfx_pump(&x, dfx_cond_shows, "no transcript yet", 5000));
	cr_assert_eq(dfx_count(&x, "exports"), exports);
	dfx_close(&x);
}

/* The earlier API form gives no downloadUrl: the preview falls back to a JSON export and
 * says so; under --read-only it refuses instead of creating that export. */
Test(dialog_export, preview_falls_back_to_an_export_on_the_earlier_form)
{
	static const char *const legacy[] = { "--api-form", "legacy", NULL };
	struct dfx x;
	dfx_open_ex(&x, 24, 100, 12, legacy, 0);
	dfx_load(&x);
	const char *id = dfx_find(&x, "automatic_done");
	cr_assert_eq(dialog_env_set_ids(&x.env, &id, 1), 0);
	long exports = dfx_count(&x, "exports");
	dfx_dialog(&x, &pane_preview_ops);
	advance_when_waiting(&x);
	cr_assert(dfx_pump(&x, dfx_cond_shows, "[00:00:", 8000), "no transcript");
	cr_assert(dfx_shows(&x, "no downloadUrl (earlier API form)"));
	cr_assert_eq(dfx_count(&x, "exports"), exports + 1);
	cr_expect_eq(json_files(x.env.cache_dir), 0, "the export's file stayed in the cache");
	dfx_close(&x);
}

Test(dialog_export, preview_under_read_only_never_creates_an_export)
{
	static const char *const legacy[] = { "--api-form", "legacy", NULL };
	struct dfx x;
	dfx_open_ex(&x, 24, 100, 12, legacy, 1);
	const char *id = dfx_find(&x, "automatic_done");
	cr_assert_eq(dialog_env_set_ids(&x.env, &id, 1), 0);
	long exports = dfx_count(&x, "exports");
	dfx_dialog(&x, &pane_preview_ops);
	cr_assert(dfx_pump(&x, dfx_cond_shows, "read-only", 5000), "not refused");
	cr_assert(!dfx_pump(&x, dfx_cond_shows, "waiting", 300), "an export was started");
	cr_assert_eq(dfx_count(&x, "exports"), exports);
	dfx_close(&x);
}

/* A transcription the store knows to be unfinished is refused next to the sources, before
 * anything is sent (its export would only fail later). */
Test(dialog_export, unfinished_transcription_is_refused_before_sending)
{
	struct dfx x;
	dfx_open(&x, 24, 80, 12);
	const char *id = dfx_find(&x, "ingesting");
	struct steno_transcription t = { 0 };
	t.id = strdup(id);
	t.name = strdup("Still coming");
	t.state = strdup("ingesting");
	cr_assert(t.id && t.name && t.state);
	cr_assert_geq(store_transcription_put(x.env.store, &t, true, 0, NULL), 0);
	open_export(&x, &id, 1);
	dfx_keys(&x, "<Tab> <Tab> <Tab> <Tab> <Tab>");
	set_dir(&x, x.tmp);
	dfx_keys(&x, "<F2>");
	char *scr = dfx_text();
	cr_assert(strstr(scr, "Still coming is ingesting: only a"), "not refused:\n%s", scr);
	free(scr);
	cr_assert(!dfx_pump(&x, dfx_cond_shows, "waiting", 300), "an export was started");
	dfx_close(&x);
}
