/* The export dialog: one or several transcriptions (a ZIP for several), a format picker
 * that offers only the options valid for the chosen format, waiting with progress, then the
 * download into a chosen directory with progress, and `o` to open the file. With an export
 * selected in the activity pane (env->activity_id) it only downloads that export. */
#include "config.h"

#include "ui/dialog_export.h"

#include <errno.h>

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api/request.h"
#include "api/spec_tables.h"
#include "core/conf.h"
#include "core/download_name.h"
#include "core/jobs.h"
#include "ui/dialog_base.h"
#include "ui/draw.h"
#include "ui/form.h"
#include "ui/form_draw.h"
#include "ui/style.h"
#include "ui/text.h"

enum dex_mode { DEX_EDIT, DEX_RUNNING, DEX_DONE };

/* Ownership: the pane's data (dialog_new); dialog_close frees it.
 * b.job is the export job, or the download job of an existing export (core/jobs.h). */
struct dex {
	struct dialog_base b;
	enum dex_mode mode;
	bool download_only;        /* an existing export (activity_id) */
	char file[4096];
	char result[4400];
	bool result_error;
	bool highlights, highlights_only;   /* as last seen: which of the two was just checked */
};

static const char *const option_keys[] = {
	"show_timestamps", "show_speakers", "show_comments", "show_highlights", "show_highlights_only",
};
static const char *const option_labels[] = {
	"Timestamps", "Speakers", "Comments", "Highlights", "Highlights only",
};

static int dex_build_formats(struct form *f)
{
	int rc = form_add(f, FORM_PICK, "format", "Format") < 0;
	for (size_t i = 0; i < spec_export_format_count(); i++) {
		const struct spec_export_format *x = spec_export_format_at(i);
		rc |= form_add_option(f, "format", x->name, NULL, x->description);
	}
	rc |= form_choose(f, "format", "txt");
	for (size_t i = 0; i < sizeof option_keys / sizeof *option_keys; i++)
		rc |= form_add(f, FORM_CHECK, option_keys[i], option_labels[i]) < 0;
	rc |= form_add(f, FORM_PICK, "timestamps_frequency", "Inline times") < 0;
	rc |= form_add_option(f, "timestamps_frequency", "", "(none)", NULL);
	for (size_t i = 0; i < spec_timestamps_frequency_count(); i++)
		rc |= form_add_option(f, "timestamps_frequency", spec_timestamps_frequency_at(i), NULL, NULL);
	rc |= form_choose(f, "timestamps_frequency", "");
	return rc ? -1 : 0;
}

static int dex_build(void *arg)
{
	struct dex *d = arg;
	struct form *f = &d->b.form;
	int rc = 0;
	char note[600];
	d->download_only = d->b.env.activity_id[0] != '\0';
	d->b.enter_submits = d->download_only;   /* a download makes nothing on the server */
	if (d->download_only)
		text_format(note, sizeof note, "export %s", d->b.env.activity_id);
	else
		dialog_join_names(&d->b.env, note, sizeof note);
	rc |= form_add(f, FORM_NOTE, "sources transcription_ids", d->download_only ? "Download" : "Export") < 0;
	rc |= form_set_text(f, "sources", d->download_only || d->b.env.n_ids ? note : "(nothing selected)");
	if (!d->download_only)
		rc |= dex_build_formats(f);
	rc |= form_add(f, FORM_TEXT, "dir", "To directory") < 0;
	const char *dir = d->b.env.config && d->b.env.config->download_dir ? d->b.env.config->download_dir : ".";
	rc |= form_set_text(f, "dir", dir);
	rc |= form_add(f, FORM_CHECK, "overwrite", "Overwrite") < 0;
	rc |= form_add(f, FORM_BUTTON, "go", d->download_only ? "Download" : "Export") < 0;
	rc |= form_add(f, FORM_BUTTON, "cancel", "Cancel") < 0;
	dialog_apply_choices(f, &d->b.env, CHOICE_EXPORT);
	form_focus(f, d->download_only ? "dir" : "format");
	return rc ? -1 : 0;
}

/* "Highlights" (the transcript with its highlights marked) and "Highlights only" (nothing
 * but the highlights) exclude each other: checking one clears the other. */
static void dex_exclusive_highlights(struct dex *d)
{
	struct form *f = &d->b.form;
	bool hl = form_checked(f, "show_highlights"), only = form_checked(f, "show_highlights_only");
	if (hl && only)
		form_set_checked(f, d->highlights ? "show_highlights" : "show_highlights_only", false);
	d->highlights = form_checked(f, "show_highlights");
	d->highlights_only = form_checked(f, "show_highlights_only");
}

/* Only the options the chosen format accepts are shown (and sent). */
static void dex_update(void *arg)
{
	struct dex *d = arg;
	if (d->download_only)
		return;
	dex_exclusive_highlights(d);
	const char *fmt = form_choice(&d->b.form, "format");
	for (size_t i = 0; i < sizeof option_keys / sizeof *option_keys; i++)
		form_set_hidden(&d->b.form, option_keys[i], !spec_export_option_allowed(fmt, option_keys[i]));
	form_set_hidden(&d->b.form, "timestamps_frequency",
			!spec_export_option_allowed(fmt, "timestamps_frequency"));
}

static int dex_open(struct pane *p, void *arg)
{
	struct dex *d = dialog_new(p, sizeof *d, arg, dex_build);
	if (!d)
		return -1;
	dex_update(d);
	return 0;
}

/* The job's end says itself in the status line and the activity pane (app_on_job, the
 * export's row): the dialog shows the result. */
static void dex_done(struct dex *d, const char *file)
{
	d->mode = DEX_DONE;
	text_copy(d->file, sizeof d->file, file);
	text_format(d->result, sizeof d->result, "Saved %s", d->file);
	d->result_error = false;
}

static void dex_sync(struct dex *d)
{
	if (d->mode != DEX_RUNNING || !d->b.job)
		return;
	const struct steno_job *j = jobs_get(d->b.env.jobs, d->b.job);
	char text[STORE_JOB_END_MAX];
	if (!j || j->step == JOB_STEP_FAILED || j->step == JOB_STEP_CANCELLED) {
		d->mode = DEX_EDIT;
		/* a download of an existing export: Enter downloads it again */
		if (j && j->kind == JOB_DOWNLOAD)
			form_set_message(&d->b.form, true, "%s", jobs_end_text(j, text, sizeof text));
		else if (j && j->resource_id)
			form_set_message(&d->b.form, true, "%s. Submit again for a new export.",
					 j->error.message);
		else if (j)
			form_show_error(&d->b.form, &j->error);
		return;
	}
	if (j->step == JOB_STEP_DONE)
		dex_done(d, j->file);
}

/* The directory, made when missing (as `steno export` makes it: one level, in a parent that
 * exists); a path that is something else, or cannot be made, is refused next to its field. */
static int dex_check_dir(struct dex *d, char *dir, size_t size)
{
	struct stat st;
	char msg[256];
	form_text(&d->b.form, "dir", dir, size);
	msg[0] = '\0';
	if (!dir[0])
		text_copy(msg, sizeof msg, "not a directory");
	else if (stat(dir, &st) != 0 && errno == ENOENT && mkdir(dir, 0777) != 0)
		text_format(msg, sizeof msg, "cannot create it: %s", strerror(errno));
	else if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		text_copy(msg, sizeof msg, "not a directory");
	if (msg[0]) {
		form_set_error(&d->b.form, "dir", msg);
		form_focus_first_error(&d->b.form);
		return -1;
	}
	return 0;
}

static int dex_file_name(struct dex *d, const char *fmt, const char *first, size_t count,
			 const char *dir, char *buf, size_t size);

static void dex_download_only(struct dex *d, const char *dir)
{
	struct steno_error err;
	steno_error_clear(&err);
	const struct store_activity *a = d->b.env.store ?
		store_activity_find(d->b.env.store, STORE_ACT_EXPORT, d->b.env.activity_id) : NULL;
	if (!a || !a->export_.download_link) {
		form_set_message(&d->b.form, true, "export %s is not ready (no download link yet)",
				 d->b.env.activity_id);
		return;
	}
	const struct steno_export *e = &a->export_;
	char name[300];
	if (dex_file_name(d, e->format, e->transcription_ids.n ? e->transcription_ids.v[0] : e->id,
			  e->transcription_ids.n, dir, name, sizeof name) != 0)
		return;
	int id = jobs_download(d->b.env.jobs, e, dir, name, form_checked(&d->b.form, "overwrite"), &err);
	if (!dialog_job_started(&d->b, id, &err))
		return;
	dialog_report_choices(&d->b.form, &d->b.env, CHOICE_EXPORT);
	d->mode = DEX_RUNNING;
}

/* The file's name under the configuration's download_name (core/download_name.h), the same
 * pattern as steno export and steno download; then, before any server work, the destination:
 * a file that exists is refused unless Overwrite is ticked. */
static int dex_file_name(struct dex *d, const char *fmt, const char *first, size_t count,
			 const char *dir, char *buf, size_t size)
{
	const struct store_transcription *t = first && d->b.env.store ?
		store_transcription_get(d->b.env.store, first) : NULL;
	struct download_name_req r = {
		.pattern = d->b.env.config ? d->b.env.config->download_name : NULL,
		.name = t ? t->t.name : NULL, .id = first, .count = count, .format = fmt };
	struct steno_error err;
	steno_error_clear(&err);
	if (download_name_make(&r, buf, size, &err) == 0 &&
	    download_dest_check(dir, buf, form_checked(&d->b.form, "overwrite"), &err) == 0)
		return 0;
	if (strcmp(err.code, DOWNLOAD_CODE_EXISTS) == 0)
		/* what to do first: a long name is cut at the end, not the advice */
		text_format(err.message, sizeof err.message, "exists (Overwrite replaces it): %s", buf);
	form_set_error(&d->b.form, "dir", err.message);
	form_focus_first_error(&d->b.form);
	return -1;
}

/* Only a finished transcription has a transcript to export: one still being made (or that
 * failed) would only give a failed export later. Unknown states are left to the server. */
static bool dex_sources_ready(struct dex *d)
{
	for (size_t i = 0; i < d->b.env.n_ids; i++) {
		const struct store_transcription *t = d->b.env.store ?
			store_transcription_get(d->b.env.store, d->b.env.ids[i]) : NULL;
		const char *st = t ? t->t.state : NULL;
		if (!st || (spec_state_is_final(SPEC_STATE_TRANSCRIPTION, st) &&
			    !spec_state_is_failure(SPEC_STATE_TRANSCRIPTION, st)))
			continue;
		char msg[256];
		text_format(msg, sizeof msg, "%s is %s: only a finished transcription can be exported",
			 dialog_tr_name(&d->b.env, d->b.env.ids[i]), st);
		form_set_error(&d->b.form, "sources", msg);
		return false;
	}
	return true;
}

static void dex_submit(void *arg)
{
	struct dex *d = arg;
	char dir[4096];
	struct steno_error err;
	steno_error_clear(&err);
	form_clear_errors(&d->b.form);
	if (dex_check_dir(d, dir, sizeof dir) != 0)
		return;
	if (d->download_only) {
		dex_download_only(d, dir);
		return;
	}
	struct steno_export_create_req req = { 0 };
	const char *fmt = form_choice(&d->b.form, "format");
	const char *freq = form_choice(&d->b.form, "timestamps_frequency");
	req.format = fmt;
	req.transcription_ids = (const char *const *)d->b.env.ids;
	req.n_transcription_ids = d->b.env.n_ids;
	bool *opts[] = { &req.show_timestamps, &req.show_speakers, &req.show_comments,
			 &req.show_highlights, &req.show_highlights_only };
	for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
		*opts[i] = !form_field(&d->b.form, option_keys[i])->hidden && form_checked(&d->b.form, option_keys[i]);
	if (freq && freq[0] && !form_field(&d->b.form, "timestamps_frequency")->hidden)
		req.timestamps_frequency = freq;
	if (!d->b.env.n_ids) {
		form_set_error(&d->b.form, "sources", "select or mark a transcription first");
		return;
	}
	if (!dex_sources_ready(d))
		return;
	if (steno_validate_export_create(&req, &err) != 0) {
		form_show_error(&d->b.form, &err);
		return;
	}
	char name[300];
	if (dex_file_name(d, fmt, d->b.env.ids[0], d->b.env.n_ids, dir, name, sizeof name) != 0)
		return;
	int id = jobs_export(d->b.env.jobs, &req, dir, name, form_checked(&d->b.form, "overwrite"), &err);
	if (!dialog_job_started(&d->b, id, &err))
		return;
	dialog_report_choices(&d->b.form, &d->b.env, CHOICE_EXPORT);
	d->mode = DEX_RUNNING;
	if (d->b.env.hooks.unmark && d->b.env.n_ids > 1)
		d->b.env.hooks.unmark(d->b.env.hooks.ud);
}

static unsigned dex_result_key(struct dex *d, enum action_id act, ui_key key)
{
	if (act == ACT_CANCEL || act == ACT_SUBMIT)
		return PANE_HANDLED | PANE_CLOSE;
	if (key == 'o' && d->file[0]) {
		d->result_error = dialog_run_opener(&d->b.env, d->file, d->result, sizeof d->result) != 0;
		return PANE_HANDLED | PANE_REDRAW;
	}
	return PANE_HANDLED;
}

/* The job followed is the download of an existing export (Esc cancels it). */
static bool dex_downloading_only(const struct dex *d)
{
	const struct steno_job *j = jobs_get(d->b.env.jobs, d->b.job);
	return j && j->kind == JOB_DOWNLOAD;
}

static unsigned dex_key(struct pane *p, enum action_id act, ui_key key)
{
	struct dex *d = p->data;
	dex_sync(d);
	if (d->mode == DEX_DONE)
		return dex_result_key(d, act, key);
	if (d->mode == DEX_RUNNING) {
		if (act != ACT_CANCEL)
			return PANE_HANDLED;
		/* leaving does not stop the export: the activity pane keeps following it */
		if (!dex_downloading_only(d))
			return PANE_HANDLED | PANE_CLOSE;
		/* Esc stops the download of an existing export (the job removes the .part) */
		jobs_cancel(d->b.env.jobs, d->b.job);
		dex_sync(d);
		return PANE_HANDLED | PANE_REDRAW;
	}
	return dialog_form_key(&d->b, act, key, dex_submit, dex_update);
}

static void dex_draw(struct pane *p)
{
	struct dex *d = p->data;
	bool ascii = p->ctx->ascii;
	int rows = dialog_body_rows(p), cols = dialog_body_cols(p);
	dex_sync(d);
	const char *hint = d->mode == DEX_EDIT && d->download_only ? "Tab: next  Enter/F2: start  Esc: cancel" :
		d->mode == DEX_EDIT ? "Tab/Enter: next  F2: start  Esc: cancel" :
		d->mode == DEX_RUNNING && dex_downloading_only(d) ? "Esc: cancel the download" :
		d->mode == DEX_RUNNING ? "Esc: close (the export goes on in the activity pane)" :
		d->b.env.display ? "o: open  Enter/Esc: close" : "Enter/Esc: close";
	if (dialog_draw_form(p, &d->b, d->download_only ? "Download export" : "Export", hint, d->mode == DEX_EDIT))
		return;
	char src[600];
	style_set(p->win, THEME_DIALOG);
	draw_text(p->win, 1, 2, cols, form_text(&d->b.form, "sources", src, sizeof src), TEXT_LEFT,
		  ascii ? TEXT_ASCII : 0);
	if (d->mode == DEX_RUNNING) {
		const struct steno_job *j = jobs_get(d->b.env.jobs, d->b.job);
		if (j)
			dialog_draw_job(p->win, 3, 2, cols, j, ascii);
		return;
	}
	dialog_draw_text(p, 3, rows - 3, d->result, d->result_error);
}

const struct pane_ops dialog_export_ops = {
	.name = "export",
	.scope = SCOPE_DIALOG,
	.place = PANE_PLACE_OVERLAY,
	.open = dex_open,
	.draw = dex_draw,
	.key = dex_key,
	.close = dialog_close,
};
