/* The dialogs hook of the app: builds a dialog_env from the app and opens the dialog. */
#include "config.h"

#include "ui/dialogs.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/choices.h"
#include "core/columns.h"
#include "core/conf.h"
#include "core/paths.h"
#include "ui/app_api.h"
#include "ui/ui_options.h"
#include "ui/app_content.h"
#include "ui/clipboard.h"
#include "ui/dialog_base.h"
#include "ui/dialog_columns.h"
#include "ui/dialog_confirm.h"
#include "ui/dialog_delete.h"
#include "ui/dialog_export.h"
#include "ui/dialog_order.h"
#include "ui/dialog_popup.h"
#include "ui/dialog_transcribe.h"
#include "ui/dialog_translate.h"
#include "ui/frame.h"
#include "ui/pane_list.h"
#include "ui/pane_preview.h"
#include "ui/text.h"

static void hook_watch_job(void *ud, int job_id)
{
	app_watch_job(ud, job_id);
}

static void hook_watch(void *ud, enum store_activity_kind kind, const char *id)
{
	app_watch(ud, kind, id);
}

static void hook_status(void *ud, const char *msg)
{
	app_status(ud, "%s", msg);
}

static void hook_reload(void *ud)
{
	app_request_refresh(ud);
}

static void hook_unmark(void *ud)
{
	app_unmark_all(ud);
}

/* What a dialog was submitted with goes into the state, saved at once, for next time. */
static void hook_remember(void *ud, const struct choice_report *r)
{
	struct steno_error err;
	if (choices_record(app_state(ud), r, app_wall_ms(ud), &err) != 0)
		app_status(ud, "not remembered: %s", err.message);
	else
		app_save_state(ud);
}

static void env_cache_dir(struct app *app, struct dialog_env *env)
{
	const struct steno_paths *p = app_options(app)->paths;
	struct steno_paths own;
	struct steno_error err;
	if (p) {
		snprintf(env->cache_dir, sizeof env->cache_dir, "%s", p->cache_dir ? p->cache_dir : "");
		return;
	}
	memset(&own, 0, sizeof own);
	if (paths_resolve(&own, &err) == 0 && own.cache_dir)
		snprintf(env->cache_dir, sizeof env->cache_dir, "%s", own.cache_dir);
	paths_free(&own);
}

/* The env of every dialog; ids = the marks, else the selection. */
static int env_from_app(struct app *app, struct dialog_env *env)
{
	memset(env, 0, sizeof *env);
	env->http = app_http(app);
	env->jobs = app_jobs(app);
	env->store = app_store(app);
	env->state = app_state(app);
	env->config = app_config(app);
	snprintf(env->org_id, sizeof env->org_id, "%s", app_org_id(app) ? app_org_id(app) : "");
	snprintf(env->folder_id, sizeof env->folder_id, "%s", app_folder_id(app) ? app_folder_id(app) : "");
	env_cache_dir(app, env);
	env->tty = app_options(app)->out;
	const char *d = getenv("DISPLAY"), *wd = getenv("WAYLAND_DISPLAY");
	env->display = (d && d[0]) || (wd && wd[0]);
	env->hooks = (struct dialog_hooks){ hook_watch_job, hook_watch, hook_status, hook_reload,
					    hook_unmark, hook_remember, app };
	choices_recent_languages(env->state, env->org_id, &env->recent_languages);
	size_t n = 0;
	const char *const *marked = app_marked(app, &n);
	if (n)
		return dialog_env_set_ids(env, marked, n);
	const char *sel = app_selected_id(app);
	return sel ? dialog_env_set_ids(env, &sel, 1) : 0;
}

/* The activity item of `kind` the user means: the one under the activity pane's cursor when
 * that pane has the focus, else the newest in `state`. *other: the cursor is on an item of
 * that kind in another state (the caller says why it cannot act on it). */
static const char *pick_activity(struct app *app, bool focused, enum store_activity_kind kind,
				 const char *state, const struct store_activity **other)
{
	struct steno_store *st = app_store(app);
	enum store_activity_kind k;
	*other = NULL;
	const char *sel = focused ? app_selected_activity(app, &k) : NULL;
	if (sel && k == kind) {
		const struct store_activity *a = store_activity_find(st, kind, sel);
		if (a && a->state && strcmp(a->state, state) == 0)
			return a->id;
		*other = a;
		return a ? NULL : sel;   /* not in the store yet: the dialog reads it */
	}
	for (size_t i = store_activity_count(st); i-- > 0;) {
		const struct store_activity *a = store_activity_at(st, i);
		if (a->kind == kind && a->state && strcmp(a->state, state) == 0)
			return a->id;
	}
	return NULL;
}

/* Form dialogs and popups take the height of their content; the preview and the order's
 * pricing (a long list) take the whole screen. */
static frame_fit_fn overlay_fit_of(const struct pane_ops *ops)
{
	if (ops == &dialog_popup_ops)
		return dialog_popup_fit;
	if (ops == &dialog_transcribe_ops || ops == &dialog_order_ops || ops == &dialog_translate_ops ||
	    ops == &dialog_export_ops || ops == &dialog_delete_ops || ops == &dialog_columns_ops)
		return dialog_fit_rows;
	return NULL;
}

static unsigned open_dialog(struct app *app, const struct pane_ops *ops, const void *arg)
{
	struct pane *p = pane_new(ops, &app_frame(app)->ctx, (void *)(uintptr_t)arg);
	if (!p) {
		app_status(app, "cannot open %s: out of memory", ops->name);
		return PANE_HANDLED | PANE_REDRAW_ALL;
	}
	frame_open_overlay_fit(app_frame(app), p, overlay_fit_of(ops));
	return PANE_HANDLED | PANE_REDRAW_ALL;
}

static unsigned popup(struct app *app, const char *title, const char *text)
{
	struct dialog_popup_arg a = { title, text };
	return open_dialog(app, &dialog_popup_ops, &a);
}

/* Copies only what the screen would show as it is; says what went where, or why not. */
static unsigned copy_text(struct app *app, const struct dialog_env *env, const char *what,
			  const char *text, bool url)
{
	char how[160], shown[TEXT_FIT_CAP(60) * 4];
	enum config_clipboard m = env->config ? env->config->clipboard : CLIPBOARD_AUTO;
	if (clipboard_copy(env->tty, m, text, url, how, sizeof how) == 0) {
		/* 60 cells at most: whole characters, "…" when cut */
		if (text_fit_utf8(shown, sizeof shown, text, 60, false) < 0)
			shown[0] = '\0';
		app_status(app, "copied the %s %s (%s)", what, shown, how);
		return PANE_HANDLED;
	}
	char why[160];
	if (!clipboard_check(text, url, why, sizeof why)) {
		app_status(app, "not copied: the %s is refused: %s", what, why);
		return PANE_HANDLED;
	}
	app_status(app, "not copied (%s): the %s is shown instead", how, what);
	return popup(app, what, text);
}

static unsigned copy_action(struct app *app, const struct dialog_env *env, int url)
{
	if (!env->n_ids) {
		app_status(app, "select a transcription first");
		return PANE_HANDLED;
	}
	if (!url) {
		size_t size = env->n_ids * 160 + 1;
		char *buf = calloc(1, size);
		if (!buf)
			return PANE_HANDLED;
		for (size_t i = 0, o = 0; i < env->n_ids && o < size; i++)
			o += (size_t)snprintf(buf + o, size - o, "%s%s", i ? " " : "", env->ids[i]);
		unsigned r = copy_text(app, env, env->n_ids > 1 ? "ids" : "id", buf, false);
		free(buf);
		return r;
	}
	const struct store_transcription *t = store_transcription_get(env->store, env->ids[0]);
	const char *link = t ? (t->t.editor_url ? t->t.editor_url : t->t.self_url) : NULL;
	if (!link) {
		app_status(app, "no editor URL known for %s", env->ids[0]);
		return PANE_HANDLED;
	}
	return copy_text(app, env, "editor URL", link, true);
}

static bool in_activity(struct app *app)
{
	struct pane *p = frame_focused(app_frame(app));
	return p && (p->ops->scope & SCOPE_ACTIVITY);
}

static unsigned needs_ids(struct app *app, const struct dialog_env *env, const struct pane_ops *ops)
{
	if (!env->n_ids) {
		app_status(app, "select or mark a transcription first");
		return PANE_HANDLED;
	}
	return open_dialog(app, ops, env);
}

static void columns_apply(void *ud, unsigned shown)
{
	pane_list_set_columns(ud, shown);
}

/* `:columns` opens the chooser; `:columns NAME,...` shows and saves those at once. */
static unsigned columns(struct app *app, const struct dialog_env *env)
{
	struct dialog_columns_arg a = { *env, pane_list_columns(app), columns_apply, app };
	const char *arg = app_frame(app)->ctx.pending_arg;
	unsigned shown;
	char bad[64];

	if (!arg[0])
		return open_dialog(app, &dialog_columns_ops, &a);
	if (listcol_parse(arg, &shown, bad, sizeof bad) != 0) {
		app_status(app, "columns: \"%s\" is not one of name, state, language, length, cost, "
			   "created, tags", bad);
		return PANE_HANDLED;
	}
	dialog_columns_apply(&a, shown);
	return PANE_HANDLED | PANE_REDRAW_ALL;
}

static unsigned dispatch(struct app *app, struct dialog_env *env, int action_id)
{
	const char *act;
	const struct store_activity *other;
	switch (action_id) {
	case ACT_NEW_TRANSCRIPTION: return open_dialog(app, &dialog_transcribe_ops, env);
	case ACT_NEW_ORDER: return open_dialog(app, &dialog_order_ops, env);
	case ACT_CONFIRM_ORDER:
		act = pick_activity(app, in_activity(app), STORE_ACT_ORDER, "incomplete", &other);
		if (!act) {
			if (other)
				app_status(app, "order %s is %s: only an incomplete order can be confirmed",
					   other->id, other->state ? other->state : "in an unknown state");
			else
				app_status(app, "no unconfirmed order to confirm");
			return PANE_HANDLED;
		}
		snprintf(env->activity_id, sizeof env->activity_id, "%s", act);
		return open_dialog(app, &dialog_confirm_ops, env);
	case ACT_TRANSLATE: return needs_ids(app, env, &dialog_translate_ops);
	case ACT_EXPORT: return needs_ids(app, env, &dialog_export_ops);
	case ACT_DOWNLOAD:
		if (!in_activity(app) && app_read_only(app)) {
			app_status(app, "read-only: a transcription needs a new export; see activity (4)");
			return PANE_HANDLED;
		}
		if (!in_activity(app))
			return needs_ids(app, env, &dialog_export_ops);
		act = pick_activity(app, true, STORE_ACT_EXPORT, "ready", &other);
		if (!act) {
			if (other)
				app_status(app, "export %s is %s: not ready to download yet", other->id,
					   other->state ? other->state : "in an unknown state");
			else
				app_status(app, "no ready export to download");
			return PANE_HANDLED;
		}
		snprintf(env->activity_id, sizeof env->activity_id, "%s", act);
		return open_dialog(app, &dialog_export_ops, env);
	case ACT_OPEN_FILE: return (unsigned)dialogs_open_file(app, app_selected_file(app));
	case ACT_DELETE: return needs_ids(app, env, &dialog_delete_ops);
	case ACT_PREVIEW:
		if (app_content_read(app, app_selected_id(app), -1, NULL) == 0)
			return PANE_HANDLED | PANE_REDRAW_ALL;   /* the reader, from the local store */
		if (env->n_ids > 1) {
			const char *sel = app_selected_id(app);
			if (sel && dialog_env_set_ids(env, &sel, 1) != 0)
				return PANE_HANDLED;
		}
		return needs_ids(app, env, &pane_preview_ops);
	case ACT_COPY_URL: return copy_action(app, env, 1);
	case ACT_COPY_ID: return copy_action(app, env, 0);
	case ACT_COLUMNS: return columns(app, env);
	default: return PANE_IGNORED;
	}
}

int dialogs_handle_action(struct app *app, int action_id)
{
	struct dialog_env env;
	if (env_from_app(app, &env) != 0) {
		app_status(app, "out of memory");
		return PANE_HANDLED;
	}
	unsigned r = dispatch(app, &env, action_id);
	dialog_env_free(&env);
	return (int)r;
}

void dialogs_notify(struct app *app)
{
	struct ui_frame *f = app_frame(app);
	if (f->overlay)
		pane_dirty(f->overlay);
}

int dialogs_open_file(struct app *app, const char *path)
{
	struct dialog_env env;
	char msg[600];
	if (!path || !path[0]) {
		app_status(app, "no downloaded file to open");
		return PANE_HANDLED;
	}
	if (env_from_app(app, &env) != 0) {
		app_status(app, "out of memory");
		return PANE_HANDLED;
	}
	dialog_run_opener(&env, path, msg, sizeof msg);
	dialog_env_free(&env);
	app_status(app, "%s", msg);
	return PANE_HANDLED;
}
