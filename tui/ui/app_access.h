#ifndef STENO_UI_APP_ACCESS_H
#define STENO_UI_APP_ACCESS_H

/* struct app: the browser's state, each part with one owner (noted per field). This is the
 * ground floor of the app: app_access.c holds the accessors and the messages (status bar,
 * log) and calls nothing above it; the files above (app_list, app_data, app_places,
 * app_watch, the panes, the dialogs, app.c) reach what lies above them only through the
 * hooks, which app.c sets. Nobody outside ui/app*.c and the panes includes it. */

#include "ui/app_api.h"
#include "ui/ui_options.h"

#include "core/conf.h"
#include "core/jobs.h"
#include "core/query.h"
#include "core/paths.h"
#include "core/scheduler.h"
#include "core/state.h"
#include "core/store.h"
#include "core/sync.h"
#include "ui/actions.h"
#include "ui/line_input.h"
#include "ui/listview.h"
#include "ui/session.h"

/* One entry of the organizations pane. Ownership: the app's (app_orgs_free). */
struct app_place {
	char *label;          /* "acme", "  media" ... (may come from the state file) */
	char *org_id;
	char *folder_id;      /* NULL: the organization's root */
	int is_org;           /* a heading line (selects the whole organization) */
};

/* An organization the key can access, as the server named it (strings malloc'd). */
struct app_org_found {
	char *id;
	char *name;           /* the id when the server gave no name */
};

/* The transcriptions pane's query, kept in the app so the dialogs see the marks. */
struct app_list {
	char filter[256];     /* the `/` filter's text, parsed into `where` */
	struct query where;   /* core/query.h; no terms: every item */
	struct line_history filter_history;   /* the `/` lines entered, this run */
	bool announce_all;    /* load-all asked: the status line tells the pages' progress */
	char tag[64];
	enum store_sort sort;
	bool descending;
	char **marks;         /* malloc'd ids */
	size_t n_marks, cap_marks;
	struct store_list *shown;   /* the view filtered and sorted (core/store_list.h) */
	long n_rows;          /* its count */
	bool load_all;        /* move-bottom: keep loading pages */
	char *selected;       /* id under the cursor, malloc'd */
	bool stale;           /* the store changed: rows must be selected again */
	struct listview lv;   /* cursor and scrolling of the transcriptions pane */
	unsigned columns;     /* the pane's columns shown (core/columns.h bits; pane_list.c) */
};

#define APP_LOG_LINES 400
#define APP_HISTORY_LINES 50

/* What app.c hands the files below it (listeners back up). */
struct app_hooks {
	unsigned (*action)(struct app *app, enum action_id act);   /* app-wide actions */
	void (*changed)(struct app *app);        /* jobs or store moved: the dialog follows */
};

struct app {
	struct ui_options opts;
	struct ui_session ses;
	struct steno_http *http;
	struct steno_store *store;
	struct steno_sync *sync;          /* every read of the server (core/sync.h) */
	struct steno_jobs *jobs;
	struct steno_config own_config;   /* defaults when opts.config is NULL */
	const struct steno_config *config;
	struct steno_paths paths;
	bool have_paths;
	struct steno_state state;
	char *state_path;

	struct app_place *places;
	size_t n_places;
	struct app_org_found *orgs_found; /* the key's organizations (GET /organizations), kept
					   * for each rebuild of places */
	size_t n_orgs_found;
	bool orgs_asking;                 /* GET /organizations on its way */
	char *org_id, *folder_id;         /* the current place (malloc'd) */

	struct app_list list;
	int *watched_jobs;
	size_t n_watched_jobs;

	int listener;

	/* the activity pane's history: what watched items did, newest last (a ring) */
	char *history[APP_HISTORY_LINES];
	size_t history_head, history_count;

	/* the log pane's lines (a ring) */
	char *log[APP_LOG_LINES];
	size_t log_head, log_count;

	struct pane *orgs, *tlist, *details, *activity, *logp;
	char open_order[SCHED_ID_MAX];    /* `:order ID` opens it after the input closed */
	char confirm_order[SCHED_ID_MAX]; /* c in its describe view: confirm it after it closed */
	int animating;                    /* ms between redraws of the details' times (0: none) */
	int64_t animating_drawn_ms;       /* the details' last draw (app_now_ms) */
	int list_tick;                    /* ms between redraws of the list's times (0: none) */
	int64_t list_drawn_ms;            /* the list's last draw */
	int64_t list_fresh_until;         /* a fresh row's mark goes then (0: none shown) */
	int store_check;                  /* the store's pages: 0 unchecked, 1 checking, 2 done */
	int quit;
	bool resume_downloads;            /* the state holds downloads asked before a restart */
	struct app_hooks hooks;           /* set by app.c */
	struct app_content *content;      /* transcript content (ui/app_content.h); NULL: none */
};

/* The app's listeners back up (to app.c): a pane's action it does not handle, a change the
 * open dialog may follow. */
unsigned app_pass_action(struct app *app, enum action_id act);
void app_notify_dialogs(struct app *app);


void app_log(struct app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void app_refresh_status(struct app *app);
/* Adds a line to the activity history (copied; the oldest goes when full). */
void app_history_add(struct app *app, const char *line);
/* Line i of the history, 0 = the oldest kept; NULL past the end. */
const char *app_history_at(const struct app *app, size_t i);

#endif
