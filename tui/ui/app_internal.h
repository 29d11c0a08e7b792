#ifndef STENO_UI_APP_INTERNAL_H
#define STENO_UI_APP_INTERNAL_H

/* struct app, shared by app*.c and the panes (pane_*.c). Nobody else includes this:
 * dialogs use the accessors of ui/app.h. */

#include "ui/app.h"

#include "core/conf.h"
#include "core/jobs.h"
#include "core/paths.h"
#include "core/scheduler.h"
#include "core/state.h"
#include "core/store.h"
#include "ui/listview.h"
#include "ui/session.h"

/* One entry of the organizations pane. Ownership: the app's (app_orgs_free). */
struct app_place {
	char *label;          /* "acme", "  media" ... (may come from the state file) */
	char *org_id;
	char *folder_id;      /* NULL: the organization's root */
	int is_org;           /* a heading line (selects the whole organization) */
};

/* The transcriptions pane's query, kept in the app so the dialogs see the marks. */
struct app_list {
	char filter[128];
	char tag[64];
	enum store_sort sort;
	bool descending;
	char **marks;         /* malloc'd ids */
	size_t n_marks, cap_marks;
	size_t *rows;         /* store_view_select result (indices into the view) */
	long n_rows;
	bool load_all;        /* move-bottom: keep loading pages */
	char *selected;       /* id under the cursor, malloc'd */
	bool stale;           /* the store changed: rows must be selected again */
	struct listview lv;   /* cursor and scrolling of the transcriptions pane */
};

#define APP_LOG_LINES 400

/* A request in flight. Ownership: the app's pending list; freed on completion or at exit. */
struct app_req {
	struct app *app;
	struct app_req *prev, *next;
	int kind;                 /* enum app_req_kind (app_data.c) */
	char *key;                /* refresh key (view key, id, "order:ID") */
	char *id;
	char *org, *folder, *tags; /* list loads: the view (looked up again on completion) */
	bool first;
	int64_t started_ms;
	char what[160];           /* for the log */
};

struct app {
	struct ui_options opts;
	struct ui_session ses;
	struct steno_http *http;
	struct steno_store *store;
	struct scheduler *sched;
	struct steno_jobs *jobs;
	struct steno_config own_config;   /* defaults when opts.config is NULL */
	const struct steno_config *config;
	struct steno_paths paths;
	bool have_paths;
	struct steno_state state;
	char *state_path;

	struct app_place *places;
	size_t n_places;
	char *org_id, *folder_id;         /* the current place (malloc'd) */

	struct app_list list;
	int *watched_jobs;
	size_t n_watched_jobs;

	struct app_req *reqs;             /* requests in flight */
	int64_t list_retry_at;            /* a failed list load is tried again then (0: no) */
	int64_t list_retry_ms;            /* its backoff */
	bool list_retry_first;
	int listener;

	/* the log pane's lines (a ring) */
	char *log[APP_LOG_LINES];
	size_t log_head, log_count;

	struct pane *orgs, *tlist, *details, *activity, *logp;
	int animating;                    /* ms between redraws of a countdown (0: none) */
	int quit;
};

/* app_data.c: requests and polling */
struct store_view *app_view(struct app *app, bool create);   /* the current list */
int app_load_view(struct app *app, bool first);
int app_load_next_page(struct app *app);
/* The rows loaded do not fill the transcriptions pane (app->list.lv.rows) and a next page
 * exists: loads it, one page at a time (each answer calls this again). */
void app_list_fill(struct app *app);
void app_fetch_details(struct app *app, const char *id, bool force);
void app_poll_due(struct app *app);
bool app_poll_full(const struct app *app);   /* our refreshes use every slot */
void app_retry_list(struct app *app);        /* runs a due list retry */
void app_reqs_free(struct app *app);
void app_on_retry(void *ud, const struct steno_http_response *resp, long delay_ms);
/* Every completed request of this run (the browser's, the jobs', the dialogs') goes to the
 * log pane as the engine's trace line. */
void app_on_trace(void *ud, const char *line);
void app_store_changed(void *ud, const struct store_event *ev);
void app_store_failed(void *ud, const struct store_event *ev);
void app_note_ok(struct app *app);
void app_note_error(struct app *app, const struct steno_error *err, const char *what);

/* app_list.c: the query over the current view */
void app_list_update(struct app *app);
const struct store_transcription *app_list_item(struct app *app, long i);  /* shown row i */
void app_sync_selected(struct app *app);   /* selection := the row under the cursor */
bool app_is_marked(const struct app *app, const char *id);
int app_toggle_mark(struct app *app, const char *id);
void app_set_selected(struct app *app, const char *id);
void app_marks_free(struct app *app);

/* app_places.c */
int app_places_build(struct app *app);
/* An organization the key can access (pane_orgs.c), with its known folders; 0 or -1. */
int app_places_add_org(struct app *app, const char *label, const char *org_id);
void app_places_free(struct app *app);
int app_select_place(struct app *app, size_t i);

/* app_watch.c */
void app_on_job(void *ud, const struct steno_job *job);   /* the jobs' event callback */
/* The watched items of the state file (this origin and organization): back in the store and
 * refreshed once (then polled until final). */
void app_restore_watched(struct app *app);
/* Notes in the state file that a watched item reached a final state. */
void app_remember_final(struct app *app, enum store_activity_kind kind, const char *id);

/* app.c */
void app_notify_dialogs(struct app *app);   /* an open dialog follows its job */
void app_show_side(struct app *app, bool activity);   /* activity or details on the right */
void app_log(struct app *app, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
unsigned app_action(struct app *app, enum action_id act);
long app_wait_timeout(struct app *app);
void app_after_wait(struct app *app);
void app_refresh_status(struct app *app);

/* app_draw.c: what every pane of the app draws alike */
void app_draw_title(struct pane *p, const char *title);
/* Centred lines of a message (empty states, errors) from row y down. */
void app_draw_message(struct pane *p, int y, const char *const *lines, size_t n);
unsigned app_text_flags(const struct pane *p);

/* app_input.c: a one-line text input on the last line (filter, tag). On Enter the
 * callback gets the text ("" clears); Esc cancels without calling it. */
typedef void (*app_input_fn)(struct app *app, const char *text);
void app_input_open(struct app *app, const char *label, const char *initial, app_input_fn fn);

#endif
