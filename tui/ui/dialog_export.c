/* The export dialog: one or several transcriptions (a ZIP for several), a format picker
 * that offers only the options valid for the chosen format, waiting with progress, then the
 * download into a chosen directory with progress, and `o` to open the file. With an export
 * selected in the activity pane (env->activity_id) it only downloads that export. */
#include "config.h"

#include "ui/dialog_export.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "api/request.h"
#include "api/spec_tables.h"
#include "core/conf.h"
#include "core/jobs_extra.h"
#include "ui/draw.h"
#include "ui/form.h"
#include "ui/form_draw.h"
#include "ui/style.h"

enum dex_mode { DEX_EDIT, DEX_RUNNING, DEX_DONE };

/* Ownership: the pane's data; dex_close frees it and cancels a direct download. */
struct dex {
	struct dialog_env env;
	struct form form;
	struct pane *pane;
	enum dex_mode mode;
	bool download_only;        /* an existing export (activity_id) */
	int job;                   /* the export job, 0 for a direct download */
	struct steno_job dl;       /* progress of a direct download (only the counters) */
	char file[4096];
	char result[4400];
	bool result_error;
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

static int dex_build(struct dex *d)
{
	struct form *f = &d->form;
	int rc = 0;
	char note[600];
	size_t o = 0;
	if (d->download_only)
		snprintf(note, sizeof note, "export %s", d->env.activity_id);
	for (size_t i = 0; !d->download_only && i < d->env.n_ids && o < sizeof note; i++)
		o += (size_t)snprintf(note + o, sizeof note - o, "%s%s", i ? ", " : "",
				      dialog_tr_name(&d->env, d->env.ids[i]));
	rc |= form_add(f, FORM_NOTE, "sources transcription_ids", d->download_only ? "Download" : "Export") < 0;
	rc |= form_set_text(f, "sources", d->download_only || d->env.n_ids ? note : "(nothing selected)");
	if (!d->download_only)
		rc |= dex_build_formats(f);
	rc |= form_add(f, FORM_TEXT, "dir", "To directory") < 0;
	const char *dir = d->env.config && d->env.config->download_dir ? d->env.config->download_dir : ".";
	rc |= form_set_text(f, "dir", dir);
	rc |= form_add(f, FORM_CHECK, "overwrite", "Overwrite") < 0;
	rc |= form_add(f, FORM_BUTTON, "go", d->download_only ? "Download" : "Export") < 0;
	rc |= form_add(f, FORM_BUTTON, "cancel", "Cancel") < 0;
	form_focus(f, d->download_only ? "dir" : "format");
	return rc ? -1 : 0;
}

/* Only the options the chosen format accepts are shown (and sent). */
static void dex_update(struct dex *d)
{
	if (d->download_only)
		return;
	const char *fmt = form_choice(&d->form, "format");
	for (size_t i = 0; i < sizeof option_keys / sizeof *option_keys; i++)
		form_set_hidden(&d->form, option_keys[i], !spec_export_option_allowed(fmt, option_keys[i]));
	form_set_hidden(&d->form, "timestamps_frequency",
			!spec_export_option_allowed(fmt, "timestamps_frequency"));
}

static int dex_open(struct pane *p, void *arg)
{
	struct dex *d = calloc(1, sizeof *d);
	if (!d)
		return -1;
	form_init(&d->form);
	d->pane = p;
	if (dialog_env_copy(&d->env, arg) != 0) {
		free(d);
		return -1;
	}
	d->download_only = d->env.activity_id[0] != '\0';
	if (dex_build(d) != 0) {
		form_free(&d->form);
		dialog_env_free(&d->env);
		free(d);
		return -1;
	}
	dex_update(d);
	p->data = d;
	return 0;
}

static void dex_close(struct pane *p)
{
	struct dex *d = p->data;
	if (!d)
		return;
	if (d->env.http)
		jobs_extra_cancel(d->env.http, d);
	form_free(&d->form);
	dialog_env_free(&d->env);
	free(d);
	p->data = NULL;
}

static void dex_done(struct dex *d, const char *file)
{
	d->mode = DEX_DONE;
	snprintf(d->file, sizeof d->file, "%s", file ? file : "");
	snprintf(d->result, sizeof d->result, "Saved %s", d->file);
	d->result_error = false;
	dialog_status(&d->env, "saved %s", d->file);
}

static void dex_sync(struct dex *d)
{
	if (d->mode != DEX_RUNNING || !d->job)
		return;
	const struct steno_job *j = jobs_get(d->env.jobs, d->job);
	if (!j || j->step == JOB_STEP_FAILED || j->step == JOB_STEP_CANCELLED) {
		d->mode = DEX_EDIT;
		if (j && j->resource_id)
			form_set_message(&d->form, true, "%s. Submit again for a new export.",
					 j->error.message);
		else if (j)
			form_show_error(&d->form, &j->error);
		return;
	}
	if (j->step == JOB_STEP_DONE)
		dex_done(d, j->file);
}

static void on_dl_progress(void *ud, uint64_t now, uint64_t total)
{
	struct dex *d = ud;
	d->dl.bytes_done = now;
	d->dl.bytes_total = total;
	pane_dirty(d->pane);
}

static void on_dl_done(void *ud, const char *path, const struct steno_http_response *resp,
		       const struct steno_error *err)
{
	struct dex *d = ud;
	(void)resp;
	if (err) {
		d->mode = DEX_EDIT;
		form_show_error(&d->form, err);
	} else {
		dex_done(d, path);
	}
	pane_dirty(d->pane);
}

static int dex_check_dir(struct dex *d, char *dir, size_t size)
{
	struct stat st;
	form_text(&d->form, "dir", dir, size);
	if (!dir[0] || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		form_set_error(&d->form, "dir", "not a directory");
		form_focus_first_error(&d->form);
		return -1;
	}
	return 0;
}

static void dex_download_only(struct dex *d, const char *dir)
{
	struct steno_error err;
	steno_error_clear(&err);
	const struct store_activity *a = d->env.store ?
		store_activity_find(d->env.store, STORE_ACT_EXPORT, d->env.activity_id) : NULL;
	if (!a || !a->export_.download_link) {
		form_set_message(&d->form, true, "export %s is not ready (no download link yet)",
				 d->env.activity_id);
		return;
	}
	memset(&d->dl, 0, sizeof d->dl);
	d->dl.step = JOB_STEP_DOWNLOADING;
	d->dl.step_ms = jobs_extra_now_ms();
	if (jobs_extra_download(d->env.http, &a->export_, dir, form_checked(&d->form, "overwrite"),
				on_dl_progress, on_dl_done, d, &err) != 0) {
		form_show_error(&d->form, &err);
		return;
	}
	d->mode = DEX_RUNNING;
}

/* The file's name: the transcription's name and the format's extension, or a ZIP named
 * after the first id for several (the link's own name has no extension). The engine
 * reduces it to a safe basename. */
static void dex_file_name(const struct dex *d, const char *fmt, char *buf, size_t size)
{
	const struct spec_export_format *x = spec_export_format_find(fmt);
	if (d->env.n_ids > 1) {
		snprintf(buf, size, "steno-export-%.40s-%zu.zip", d->env.ids[0], d->env.n_ids);
		return;
	}
	char base[200];
	snprintf(base, sizeof base, "%s", d->env.n_ids ? dialog_tr_name(&d->env, d->env.ids[0]) : "export");
	for (char *p = base; *p; p++)
		if (*p == '/' || *p == '\\' || (unsigned char)*p < 32)
			*p = '_';
	snprintf(buf, size, "%s.%s", base, x ? x->extension : "out");
}

static void dex_submit(struct dex *d)
{
	char dir[4096];
	struct steno_error err;
	steno_error_clear(&err);
	form_clear_errors(&d->form);
	if (dex_check_dir(d, dir, sizeof dir) != 0)
		return;
	if (d->download_only) {
		dex_download_only(d, dir);
		return;
	}
	struct steno_export_create_req req = { 0 };
	const char *fmt = form_choice(&d->form, "format");
	const char *freq = form_choice(&d->form, "timestamps_frequency");
	req.format = fmt;
	req.transcription_ids = (const char *const *)d->env.ids;
	req.n_transcription_ids = d->env.n_ids;
	bool *opts[] = { &req.show_timestamps, &req.show_speakers, &req.show_comments,
			 &req.show_highlights, &req.show_highlights_only };
	for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
		*opts[i] = !form_field(&d->form, option_keys[i])->hidden && form_checked(&d->form, option_keys[i]);
	if (freq && freq[0] && !form_field(&d->form, "timestamps_frequency")->hidden)
		req.timestamps_frequency = freq;
	if (!d->env.n_ids) {
		form_set_error(&d->form, "sources", "select or mark a transcription first");
		return;
	}
	if (steno_validate_export_create(&req, &err) != 0) {
		form_show_error(&d->form, &err);
		return;
	}
	char name[300];
	dex_file_name(d, fmt, name, sizeof name);
	int id = jobs_export(d->env.jobs, &req, dir, name, form_checked(&d->form, "overwrite"), &err);
	if (id < 0) {
		form_show_error(&d->form, &err);
		return;
	}
	d->job = id;
	d->mode = DEX_RUNNING;
	dialog_watch_job(&d->env, id);
	if (d->env.hooks.unmark && d->env.n_ids > 1)
		d->env.hooks.unmark(d->env.hooks.ud);
}

static unsigned dex_result_key(struct dex *d, enum action_id act, ui_key key)
{
	if (act == ACT_CANCEL || act == ACT_SUBMIT)
		return PANE_HANDLED | PANE_CLOSE;
	if (key == 'o' && d->file[0]) {
		d->result_error = dialog_run_opener(&d->env, d->file, d->result, sizeof d->result) != 0;
		return PANE_HANDLED | PANE_REDRAW;
	}
	return PANE_HANDLED;
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
		if (d->job)
			return PANE_HANDLED | PANE_CLOSE;
		jobs_extra_cancel(d->env.http, d);
		d->mode = DEX_EDIT;
		form_set_message(&d->form, true, "download cancelled");
		return PANE_HANDLED | PANE_REDRAW;
	}
	switch (form_key(&d->form, act, key)) {
	case FORM_EV_CANCEL:
		return PANE_HANDLED | PANE_CLOSE;
	case FORM_EV_BUTTON:
		if (strcmp(d->form.pressed, "cancel") == 0)
			return PANE_HANDLED | PANE_CLOSE;
		dex_submit(d);
		break;
	case FORM_EV_SUBMIT:
		dex_submit(d);
		break;
	case FORM_EV_USED:
	case FORM_EV_NONE:
		break;
	}
	dex_update(d);
	return PANE_HANDLED | PANE_REDRAW;
}

static void dex_draw(struct pane *p)
{
	struct dex *d = p->data;
	bool ascii = p->ctx->ascii;
	int rows = dialog_body_rows(p), cols = dialog_body_cols(p);
	dex_sync(d);
	const char *hint = d->mode == DEX_EDIT ? "Tab: next  Enter: start  Esc: cancel" :
		d->mode == DEX_RUNNING ? "Esc: close (the export goes on in the activity pane)" :
		d->env.display ? "o: open  Enter/Esc: close" : "Enter/Esc: close";
	form_draw_frame(p->win, d->download_only ? "Download export" : "Export", hint, ascii);
	if (d->mode == DEX_EDIT) {
		form_draw(&d->form, p->win, 1, 2, rows, cols, ascii);
		return;
	}
	char src[600];
	style_set(p->win, THEME_DIALOG);
	draw_text(p->win, 1, 2, cols, form_text(&d->form, "sources", src, sizeof src), TEXT_LEFT,
		  ascii ? TEXT_ASCII : 0);
	if (d->mode == DEX_RUNNING) {
		const struct steno_job *j = d->job ? jobs_get(d->env.jobs, d->job) : &d->dl;
		if (j)
			dialog_draw_job(p->win, 3, 2, cols, j, ascii);
		return;
	}
	style_set(p->win, d->result_error ? THEME_DIALOG_ERROR : THEME_DIALOG);
	form_draw_wrapped(p->win, 3, 2, cols, rows - 3, d->result, ascii);
	style_set(p->win, THEME_DIALOG);
}

const struct pane_ops dialog_export_ops = {
	.name = "export",
	.scope = SCOPE_DIALOG,
	.place = PANE_PLACE_OVERLAY,
	.open = dex_open,
	.draw = dex_draw,
	.key = dex_key,
	.close = dex_close,
};
