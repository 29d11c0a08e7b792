/* The life of a form dialog: what every dialog did the same way, kept once. */
#include "config.h"

#include "ui/dialog_base.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/jobs_extra.h"
#include "ui/form_draw.h"
#include "ui/style.h"
#include "ui/text.h"

void *dialog_new(struct pane *p, size_t size, const struct dialog_env *env, int (*build)(void *dialog))
{
	struct dialog_base *b = calloc(1, size);
	if (!b)
		return NULL;
	form_init(&b->form);
	b->pane = p;
	if (dialog_env_copy(&b->env, env) != 0 || build(b) != 0) {
		form_free(&b->form);
		dialog_env_free(&b->env);
		free(b);
		return NULL;
	}
	p->data = b;
	return b;
}

void dialog_close(struct pane *p)
{
	struct dialog_base *b = p->data;
	if (!b)
		return;
	if (b->env.http)
		jobs_extra_cancel(b->env.http, b);
	form_free(&b->form);
	dialog_env_free(&b->env);
	free(b);
	p->data = NULL;
}

unsigned dialog_form_key(struct dialog_base *b, enum action_id act, ui_key key,
			 void (*submit)(void *dialog), void (*update)(void *dialog))
{
	enum form_event ev = form_key(&b->form, act, key);
	if (ev == FORM_EV_USED && b->check && form_has_checked_error(&b->form)) {
		struct steno_error now;
		steno_error_clear(&now);
		b->check(b, &now);
		form_recheck(&b->form, &now);
	}
	switch (ev) {
	case FORM_EV_CANCEL:
		return PANE_HANDLED | PANE_CLOSE;
	case FORM_EV_BUTTON:
		if (strcmp(b->form.pressed, "cancel") == 0)
			return PANE_HANDLED | PANE_CLOSE;
		submit(b);
		break;
	case FORM_EV_SUBMIT:
		/* these forms create (and may spend): Enter inside a field goes to the next one,
		 * down to the button; the button or submit-form (F2) submits */
		if (act == ACT_SUBMIT && !b->enter_submits)
			form_key(&b->form, ACT_FIELD_NEXT, KEYS_NONE);
		else
			submit(b);
		break;
	case FORM_EV_USED:
	case FORM_EV_NONE:
		break;
	}
	if (update)
		update(b);
	return PANE_HANDLED | PANE_REDRAW;
}

unsigned dialog_result_key(enum action_id act)
{
	return act == ACT_SUBMIT || act == ACT_CANCEL ? PANE_HANDLED | PANE_CLOSE : PANE_HANDLED;
}

/* What form_draw gives a field (form_draw.c): notes wrap over at most three lines, an error
 * takes one more. */
static int fit_field_lines(const struct form_field *fl, int vw)
{
	if (fl->hidden)
		return 0;
	int lines = 1;
	if (fl->kind == FORM_NOTE && fl->text && vw > 0) {
		int w = text_width(fl->text);
		lines = w > vw ? (w + vw - 1) / vw : 1;
		lines = lines > 3 ? 3 : lines;
	}
	return lines + (fl->error[0] ? 1 : 0);
}

int dialog_fit_rows(const struct pane *p, int cols)
{
	const struct dialog_base *b = p->data;
	if (!b || b->form.pick.active)
		return 0;   /* a picker lists as much as the screen holds */
	int vw = cols - 4 - FORM_LABEL_COLS - 1, rows = 2 + DIALOG_FIT_MESSAGE_ROWS;
	for (size_t i = 0; i < b->form.n; i++)
		rows += fit_field_lines(&b->form.fields[i], vw);
	return rows < DIALOG_FIT_MIN_ROWS ? DIALOG_FIT_MIN_ROWS : rows;
}

bool dialog_draw_form(struct pane *p, struct dialog_base *b, const char *title, const char *hint, bool edit)
{
	bool ascii = p->ctx->ascii;
	form_draw_frame(p->win, title, hint, ascii);
	if (edit)
		form_draw(&b->form, p->win, 1, 2, dialog_body_rows(p), dialog_body_cols(p), ascii);
	return edit;
}

int dialog_draw_text(struct pane *p, int y, int max_lines, const char *text, bool error)
{
	style_set(p->win, error ? THEME_DIALOG_ERROR : THEME_DIALOG);
	int n = form_draw_wrapped(p->win, y, 2, dialog_body_cols(p), max_lines, text, p->ctx->ascii);
	style_set(p->win, THEME_DIALOG);
	return n;
}

void *dialog_request_new(struct dialog_base *b, size_t size, struct steno_error *err)
{
	void *r = calloc(1, size);
	steno_error_clear(err);
	form_clear_errors(&b->form);
	if (!r)
		form_set_message(&b->form, true, "out of memory");
	return r;
}

bool dialog_job_started(struct dialog_base *b, int id, const struct steno_error *err)
{
	if (id < 0) {
		form_show_error(&b->form, err);
		return false;
	}
	b->job = id;
	dialog_watch_job(&b->env, id);
	return true;
}

const struct steno_job *dialog_job_alive(struct dialog_base *b, const char *cancelled)
{
	const struct steno_job *j = jobs_get(b->env.jobs, b->job);
	if (!j || j->step == JOB_STEP_FAILED) {
		if (j)
			form_show_error(&b->form, &j->error);
		return NULL;
	}
	if (j->step == JOB_STEP_CANCELLED) {
		form_set_message(&b->form, true, "%s", cancelled);
		return NULL;
	}
	return j;
}

bool dialog_cancel_upload(struct dialog_base *b)
{
	const struct steno_job *j = jobs_get(b->env.jobs, b->job);
	if (!j || (j->step != JOB_STEP_UPLOAD_URL && j->step != JOB_STEP_UPLOADING))
		return false;
	jobs_cancel(b->env.jobs, b->job);
	return true;
}

bool dialog_update_source(struct form *f)
{
	const char *src = form_choice(f, "source");
	bool file = src && strcmp(src, "file") == 0;
	form_set_hidden(f, "url", file);
	form_set_hidden(f, "file", !file);
	return file;
}

int dialog_upload_file(struct form *f, const char *file, const char **upload)
{
	const char *src = form_choice(f, "source");
	struct stat st;
	*upload = NULL;
	if (!src || strcmp(src, "file") != 0)
		return 0;
	if (!file[0] || stat(file, &st) != 0 || !S_ISREG(st.st_mode)) {
		form_set_error(f, "file", file[0] ? "not a readable file" : "choose a file (C-o)");
		form_focus_first_error(f);
		return -1;
	}
	*upload = file;
	return 1;
}

void dialog_fill_folder(struct form *f, char *buf, size_t size, const char **folder, const char **folder_id)
{
	const char *fid, *fpath;
	*folder = *folder_id = NULL;
	dialog_folder_choice(form_choice(f, "folder_pick"), &fid, &fpath);
	form_text(f, "folder", buf, size);
	const char *typed = buf[0] == '/' ? buf + 1 : buf;
	if (typed[0])
		*folder = typed;
	else if (fpath)
		*folder = fpath[0] == '/' ? fpath + 1 : fpath;
	else if (fid)
		*folder_id = fid;
}

size_t dialog_fill_tags(struct form *f, char *buf, size_t size, const char **v, size_t max,
			const char *const **tags)
{
	form_text(f, "tags", buf, size);
	size_t n = dialog_split_list(buf, v, max);
	*tags = n ? v : NULL;
	return n;
}

void dialog_join_names(const struct dialog_env *env, char *buf, size_t size)
{
	size_t o = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < env->n_ids && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? ", " : "", dialog_tr_name(env, env->ids[i]));
}
