#ifndef STENO_UI_DIALOG_COMMON_H
#define STENO_UI_DIALOG_COMMON_H

/* What every dialog works with (struct dialog_env, filled by ui/dialogs.c from the app, or
 * by a screen test directly) and the pieces dialogs share: the job progress line (bar,
 * bytes, speed, ETA), the pricing of an order, wrapping text. */

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api/order.h"
#include "core/choices.h"
#include "core/jobs.h"
#include "core/recent.h"
#include "core/store.h"
#include "ui/pane.h"

struct steno_http;
struct steno_config;
struct steno_state;

/* Calls back into the app; every hook may be NULL (screen tests). */
struct dialog_hooks {
	void (*watch_job)(void *ud, int job_id);          /* follow it in the activity pane */
	void (*watch)(void *ud, enum store_activity_kind kind, const char *id);
	void (*status)(void *ud, const char *msg);        /* a status-bar message */
	void (*reload)(void *ud);                         /* reload the list (create, delete) */
	void (*unmark)(void *ud);                         /* marks were used */
	/* a dialog was submitted with these choices (the app remembers them, core/choices) */
	void (*remember)(void *ud, const struct choice_report *r);
	void *ud;
};

/* Ownership: dialog_env_copy deep-copies (ids); dialog_env_free frees the copy. Engine,
 * jobs, store, state and config are borrowed and outlive every dialog (the app's). */
struct dialog_env {
	struct steno_http *http;
	struct steno_jobs *jobs;
	struct steno_store *store;
	const struct steno_state *state;      /* learned folders, remembered choices; may be NULL */
	const struct steno_config *config;    /* may be NULL: defaults */
	char org_id[64];
	char folder_id[64];
	char cache_dir[1024];                 /* where the preview's export is written ("" : none) */
	FILE *tty;                            /* where OSC 52 goes; NULL: stdout */
	bool display;                         /* $DISPLAY or $WAYLAND_DISPLAY set */
	char **ids;                           /* the marked transcriptions, else the selection */
	size_t n_ids;
	char activity_id[64];                 /* the order/export selected in the activity pane */
	/* Languages submitted before on this server and organization, most recent first
	 * (core/choices, from the state): offered first by the language pickers. */
	struct recent_list recent_languages;
	struct dialog_hooks hooks;
};

int dialog_env_copy(struct dialog_env *dst, const struct dialog_env *src);
void dialog_env_free(struct dialog_env *env);
/* Replaces env's ids with a copy of ids. 0 or -1. */
int dialog_env_set_ids(struct dialog_env *env, const char *const *ids, size_t n);

/* Hook helpers (no-ops when the hook is NULL). */
void dialog_watch_job(const struct dialog_env *env, int job_id);
void dialog_status(const struct dialog_env *env, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void dialog_refresh(const struct dialog_env *env);

/* The name of a transcription for messages: its name in the store, else its id. */
const char *dialog_tr_name(const struct dialog_env *env, const char *id);

/* "uploading  ████▌     42%  1.2 MiB of 2.9 MiB  350.0 KiB/s  ETA 5s" into buf. */
void dialog_progress_text(const struct steno_job *job, int64_t now_ms, int bar_cols, bool ascii,
			  char *buf, size_t size);
/* Draws it at (y, x) within cols. */
void dialog_draw_job(WINDOW *w, int y, int x, int cols, const struct steno_job *job, bool ascii);

/* Why a locked order is stuck and what to do, for the dialog. */
const char *dialog_locked_text(void);

/* Splits "a, b,c" in place into trimmed non-empty words; returns the count (at most max). */
size_t dialog_split_list(char *buf, const char **out, size_t max);

/* Adds every transcription language of the spec to a PICK field, labelled with its names
 * ("ja-JP       Japanese (Japan) · 日本語 (日本)", core/lang_names.h; the value line shows
 * "ja-JP  Japanese (Japan)"), note "pro" where the human service exists or "auto only".
 * The recent choices come first (note "recent · ..."), and the most recent is chosen;
 * without any, `dflt`. recent may be NULL. 0 or -1. */
struct form;
int dialog_add_languages(struct form *f, const char *key, const char *dflt,
			 const struct recent_list *recent);
/* The same for a MULTI field of translation target languages (value line: the codes). */
int dialog_add_target_languages(struct form *f, const char *key, const struct recent_list *recent);
/* Adds the organization's learned folders (state) to a PICK field, after "(none)". */
int dialog_add_folders(struct form *f, const char *key, const struct dialog_env *env);
/* The learned folder chosen: its id or path (one of them set), from the option value. */
void dialog_folder_choice(const char *value, const char **folder_id, const char **path);

/* Sets the form's fields to what dialog d was last submitted with on this server
 * (env->state, core/choices); a field absent from the form, or a value it no longer offers,
 * is left as it is. While a folder is browsed (env->folder_id), that folder stays chosen. */
void dialog_apply_choices(struct form *f, const struct dialog_env *env, enum choice_dialog d);
/* Reports what dialog d was submitted with (the remember hook): the values of the fields
 * core/choices keeps. */
void dialog_report_choices(const struct form *f, const struct dialog_env *env, enum choice_dialog d);

/* Runs the configured opener (config->opener, else xdg-open) on path, detached, when a
 * display is available (env->display). Returns 0, or -1 with the reason in msg. */
int dialog_run_opener(const struct dialog_env *env, const char *path, char *msg, size_t size);

/* The body rectangle inside the border (one column of padding). */
static inline int dialog_body_rows(const struct pane *p) { return p->rows - 2; }
static inline int dialog_body_cols(const struct pane *p) { return p->cols - 4; }

#endif
