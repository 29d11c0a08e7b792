/* What dialogs share: their environment, progress lines and order pricing. */
#include "config.h"

#include "ui/dialog_common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api/spec_tables.h"
#include "core/conf.h"
#include "core/lang_names.h"
#include "core/state.h"
#include "ui/draw.h"
#include "ui/form.h"
#include "ui/format.h"
#include "ui/style.h"
#include "ui/text.h"

int dialog_env_set_ids(struct dialog_env *env, const char *const *ids, size_t n)
{
	char **copy = n ? calloc(n, sizeof *copy) : NULL;
	if (n && !copy)
		return -1;
	for (size_t i = 0; i < n; i++) {
		copy[i] = strdup(ids[i] ? ids[i] : "");
		if (!copy[i]) {
			while (i--)
				free(copy[i]);
			free(copy);
			return -1;
		}
	}
	for (size_t i = 0; i < env->n_ids; i++)
		free(env->ids[i]);
	free(env->ids);
	env->ids = copy;
	env->n_ids = n;
	return 0;
}

int dialog_env_copy(struct dialog_env *dst, const struct dialog_env *src)
{
	*dst = *src;
	dst->ids = NULL;
	dst->n_ids = 0;
	return dialog_env_set_ids(dst, (const char *const *)src->ids, src->n_ids);
}

void dialog_env_free(struct dialog_env *env)
{
	dialog_env_set_ids(env, NULL, 0);
}

void dialog_watch_job(const struct dialog_env *env, int job_id)
{
	if (env->hooks.watch_job)
		env->hooks.watch_job(env->hooks.ud, job_id);
}

void dialog_status(const struct dialog_env *env, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	if (!env->hooks.status)
		return;
	va_start(ap, fmt);
	text_vformat(msg, sizeof msg, fmt, ap);
	va_end(ap);
	env->hooks.status(env->hooks.ud, msg);
}

void dialog_refresh(const struct dialog_env *env)
{
	if (env->hooks.reload)
		env->hooks.reload(env->hooks.ud);
}

const char *dialog_tr_name(const struct dialog_env *env, const char *id)
{
	const struct store_transcription *t = env->store ? store_transcription_get(env->store, id) : NULL;
	return t && t->t.name && t->t.name[0] ? t->t.name : id;
}

void dialog_progress_text(const struct steno_job *job, int64_t now_ms, int bar_cols, bool ascii,
			  char *buf, size_t size)
{
	char bar[512] = "", pct[16] = "", done[32] = "", total[32] = "", speed[32] = "", eta[32] = "";
	bool transfer = job->step == JOB_STEP_UPLOADING || job->step == JOB_STEP_DOWNLOADING;
	if (!transfer) {
		text_format(buf, size, "%s%s%s", jobs_step_name(job->step), job->state ? ": " : "",
			 job->state ? job->state : "");
		return;
	}
	double frac = job->bytes_total ? (double)job->bytes_done / (double)job->bytes_total : 0.0;
	fmt_progress(bar, sizeof bar, frac, bar_cols, ascii);
	fmt_percent(pct, sizeof pct, frac);
	fmt_bytes(done, sizeof done, job->bytes_done);
	fmt_bytes(total, sizeof total, job->bytes_total);
	double secs = (double)(now_ms - job->step_ms) / 1000.0;
	double bps = secs > 0.2 ? (double)job->bytes_done / secs : 0.0;
	if (bps > 0)
		fmt_speed(speed, sizeof speed, bps);
	if (bps > 0 && job->bytes_total > job->bytes_done) {
		char span[24];
		fmt_span(span, sizeof span, (long long)((double)(job->bytes_total - job->bytes_done) / bps + 0.5));
		snprintf(eta, sizeof eta, "ETA %s", span);
	}
	text_format(buf, size, "%s %s %s  %s of %s  %s  %s", jobs_step_name(job->step), bar, pct, done,
		 job->bytes_total ? total : "?", speed, eta);
}

/* The jobs' clock (CLOCK_MONOTONIC, like step_ms). */
static int64_t mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void dialog_draw_job(WINDOW *w, int y, int x, int cols, const struct steno_job *job, bool ascii)
{
	char line[1024];
	int bar = cols / 4 > 30 ? 30 : cols / 4;
	dialog_progress_text(job, mono_ms(), bar < 4 ? 4 : bar, ascii, line, sizeof line);
	style_set(w, job->step == JOB_STEP_FAILED ? THEME_DIALOG_ERROR : THEME_PROGRESS);
	draw_text(w, y, x, cols, line, TEXT_LEFT, ascii ? TEXT_ASCII : 0);
	style_set(w, THEME_DIALOG);
}

const char *dialog_locked_text(void)
{
	return "This order is locked: the organization has too little credit. Top up or upgrade "
	       "in the web application, then unlock the order there; steno keeps watching it.";
}

size_t dialog_split_list(char *buf, const char **out, size_t max)
{
	size_t n = 0;
	for (char *tok = buf; tok && n < max;) {
		char *comma = strchr(tok, ',');
		if (comma)
			*comma = '\0';
		while (*tok == ' ')
			tok++;
		size_t len = strlen(tok);
		while (len && tok[len - 1] == ' ')
			tok[--len] = '\0';
		if (len)
			out[n++] = tok;
		tok = comma ? comma + 1 : NULL;
	}
	return n;
}

/* Adds one language option: names in the label, the code and English name as summary. */
static int add_language(struct form *f, const char *key, const char *code, const char *note,
			bool recent, bool multi)
{
	const char *english = lang_name_english(code), *native = lang_name_native(code);
	char label[400], summary[200], full_note[64];
	snprintf(label, sizeof label, "%-11s  %s%s%s", code, english ? english : "",
		 native ? " · " : "", native ? native : "");
	snprintf(summary, sizeof summary, "%s%s%s", code, english && !multi ? "  " : "",
		 english && !multi ? english : "");
	snprintf(full_note, sizeof full_note, "%s%s%s", recent ? "recent" : "",
		 recent && note ? " · " : "", note ? note : "");
	if (form_add_option(f, key, code, label, full_note[0] ? full_note : NULL) != 0)
		return -1;
	return form_option_summary(f, key, summary);
}

/* Adds the valid recent choices first (most recent first). 0 or -1. */
static int add_recent_first(struct form *f, const char *key, const struct recent_list *recent,
			    bool (*valid)(const char *), const char *(*note_of)(const char *),
			    bool multi)
{
	for (size_t i = 0; recent && i < recent->n; i++)
		if (valid(recent->items[i]) &&
		    add_language(f, key, recent->items[i], note_of(recent->items[i]), true, multi) != 0)
			return -1;
	return 0;
}

static const char *pro_note(const char *code)
{
	return spec_language_is_pro(code) ? "pro" : "auto only";
}

static const char *no_note(const char *code)
{
	(void)code;
	return NULL;
}

int dialog_add_languages(struct form *f, const char *key, const char *dflt,
			 const struct recent_list *recent)
{
	if (add_recent_first(f, key, recent, spec_language_is_valid, pro_note, false) != 0)
		return -1;
	for (size_t i = 0; i < spec_language_count(); i++) {
		const struct spec_language *l = spec_language_at(i);
		if (recent_rank(recent, l->code) < 0 &&
		    add_language(f, key, l->code, pro_note(l->code), false, false) != 0)
			return -1;
	}
	size_t n_recent = 0;
	for (size_t i = 0; recent && i < recent->n; i++)
		n_recent += spec_language_is_valid(recent->items[i]);
	form_choose(f, key, n_recent ? form_field(f, key)->opts[0].value : dflt);
	return 0;
}

int dialog_add_target_languages(struct form *f, const char *key, const struct recent_list *recent)
{
	if (add_recent_first(f, key, recent, spec_target_language_is_valid, no_note, true) != 0)
		return -1;
	for (size_t i = 0; i < spec_target_language_count(); i++) {
		const char *code = spec_target_language_at(i);
		if (recent_rank(recent, code) < 0 && add_language(f, key, code, NULL, false, true) != 0)
			return -1;
	}
	return 0;
}

int dialog_add_folders(struct form *f, const char *key, const struct dialog_env *env)
{
	if (form_add_option(f, key, "", "(none: the workspace, or the path below)", NULL) != 0)
		return -1;
	form_choose(f, key, "");
	if (!env->state || !env->org_id[0])
		return 0;
	size_t *idx = NULL;
	long n = state_folders_of(env->state, env->org_id, &idx);
	if (n < 0)
		return -1;
	int rc = 0;
	for (long i = 0; i < n && rc == 0; i++) {
		const struct state_folder *sf = &env->state->folders[idx[i]];
		char value[1100], label[1100];
		if (sf->folder_id)
			snprintf(value, sizeof value, "id:%s", sf->folder_id);
		else
			snprintf(value, sizeof value, "path:%s", sf->path ? sf->path : "");
		snprintf(label, sizeof label, "%s%s%s", sf->path ? sf->path : "",
			 sf->path && sf->folder_id ? "  #" : sf->folder_id ? "#" : "",
			 sf->folder_id ? sf->folder_id : "");
		rc = form_add_option(f, key, value, label, NULL);
		if (rc == 0 && sf->folder_id && strcmp(sf->folder_id, env->folder_id) == 0)
			form_choose(f, key, value);
	}
	free(idx);
	return rc;
}

void dialog_folder_choice(const char *value, const char **folder_id, const char **path)
{
	*folder_id = *path = NULL;
	if (!value)
		return;
	if (strncmp(value, "id:", 3) == 0)
		*folder_id = value + 3;
	else if (strncmp(value, "path:", 5) == 0 && value[5])
		*path = value + 5;
}

/* A remembered value into a field of the form (by its kind). */
static void apply_value(struct form *f, struct form_field *fl, const char *name, const char *value)
{
	switch (fl->kind) {
	case FORM_TEXT:
	case FORM_FILE:
		form_set_text(f, name, value);
		break;
	case FORM_CHECK:
		form_set_checked(f, name, strcmp(value, "1") == 0);
		break;
	case FORM_RADIO:
	case FORM_PICK:
		form_choose(f, name, value);   /* an option gone since: the default stays */
		break;
	case FORM_MULTI: {
		char buf[4200];
		const char *v[64];
		snprintf(buf, sizeof buf, "%s", value);
		size_t n = dialog_split_list(buf, v, sizeof v / sizeof *v);
		for (size_t i = 0; i < fl->n_opts; i++)
			fl->selected[i] = false;
		for (size_t i = 0; i < n; i++)
			form_select(f, name, v[i], true);
		break;
	}
	case FORM_BUTTON:
	case FORM_NOTE:
		break;
	}
}

static bool browsed_folder_field(const struct dialog_env *env, const char *name)
{
	return env->folder_id[0] && (!strcmp(name, "folder_pick") || !strcmp(name, "folder"));
}

void dialog_apply_choices(struct form *f, const struct dialog_env *env, enum choice_dialog d)
{
	size_t n;
	const struct choice_field *cf = choices_fields(d, &n);
	for (size_t i = 0; env->state && i < n; i++) {
		const char *value = choices_get(env->state, env->org_id, d, cf[i].field);
		struct form_field *fl = form_field(f, cf[i].field);
		if (value && fl && !browsed_folder_field(env, cf[i].field))
			apply_value(f, fl, cf[i].field, value);
	}
}

void dialog_report_choices(const struct form *f, const struct dialog_env *env, enum choice_dialog d)
{
	if (!env->hooks.remember)
		return;
	size_t n;
	const struct choice_field *cf = choices_fields(d, &n);
	struct choice_report r = { .dialog = d, .org_id = env->org_id };
	char text[CHOICE_VALUES_MAX][4200];
	for (size_t i = 0; i < n && i < CHOICE_VALUES_MAX; i++) {
		const struct form_field *fl = form_field_c(f, cf[i].field);
		const char *value = NULL;
		if (!fl)
			continue;
		if (fl->kind == FORM_TEXT || fl->kind == FORM_FILE) {
			value = form_text(f, cf[i].field, text[i], sizeof text[i]);
		} else if (fl->kind == FORM_CHECK) {
			value = fl->checked ? "1" : "0";
		} else if (fl->kind == FORM_MULTI) {
			size_t o = 0;
			text[i][0] = '\0';
			for (size_t k = 0; k < fl->n_opts && o < sizeof text[i]; k++)
				if (fl->selected[k])
					o += (size_t)snprintf(text[i] + o, sizeof text[i] - o, "%s%s",
							      o ? "," : "", fl->opts[k].value);
			value = text[i];
		} else {
			value = form_choice(f, cf[i].field);
		}
		choices_report_add(&r, cf[i].field, value);
	}
	env->hooks.remember(env->hooks.ud, &r);
}

/* The grandchild runs the opener; the child exits at once so nothing is left to reap. */
static void opener_child(const char *cmd, const char *path)
{
	if (fork() != 0)
		_exit(0);
	setsid();
	int fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
	}
	char script[1200];
	snprintf(script, sizeof script, "%s \"$1\"", cmd);
	execl("/bin/sh", "sh", "-c", script, "sh", path, (char *)NULL);
	_exit(127);
}

int dialog_run_opener(const struct dialog_env *env, const char *path, char *msg, size_t size)
{
	const char *cmd = env->config && env->config->opener ? env->config->opener : NULL;
	if (!env->display && !cmd) {
		/* the path first: a narrow status bar cuts the end */
		snprintf(msg, size, "the file is at %s (not opened: no display, $DISPLAY / "
			 "$WAYLAND_DISPLAY unset, and no opener configured)", path);
		return -1;
	}
	if (!env->display) {
		snprintf(msg, size, "the file is at %s (not opened: no display, $DISPLAY / "
			 "$WAYLAND_DISPLAY unset)", path);
		return -1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(msg, size, "cannot start the opener: %s", strerror(errno));
		return -1;
	}
	if (pid == 0)
		opener_child(cmd ? cmd : "xdg-open", path);
	int st;
	waitpid(pid, &st, 0);
	snprintf(msg, size, "opening %s with %s", path, cmd ? cmd : "xdg-open");
	return 0;
}
