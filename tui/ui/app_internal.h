#ifndef STENO_UI_APP_INTERNAL_H
#define STENO_UI_APP_INTERNAL_H

/* The app's files above its ground floor (ui/app_access.h: struct app), for app*.c and the
 * panes (pane_*.c). Nobody else includes this: dialogs use the accessors of ui/app.h.
 * Listed from the bottom up: each file calls only those listed before it (and reaches
 * app.c through struct app_hooks). */

#include "ui/app_access.h"

/* app_draw.c: what every pane of the app draws alike */
void app_draw_title(struct pane *p, const char *title);
/* Centred lines of a message (empty states, errors) from row y down. */
void app_draw_message(struct pane *p, int y, const char *const *lines, size_t n);
unsigned app_text_flags(const struct pane *p);
/* A time shown `seconds` away from now (when - now: negative in the past; relative date,
 * time in state, countdown): *tick_ms becomes the shortest period at which such texts are
 * drawn again (0 when none shown yet; fmt_span_tick_ms), so the loop wakes as rarely as the
 * finest text allows: once a second while seconds show, else once a minute however many
 * times are on screen (once an hour past a day). */
void app_time_tick(int *tick_ms, long long seconds);
/* Milliseconds until times drawn at drawn_ms with period tick_ms are due to be drawn again
 * (0: now), -1 when no time was drawn (tick_ms 0): a pass of the loop before then (a key,
 * an answer) leaves them as they are. */
long app_tick_wait_ms(int tick_ms, int64_t drawn_ms, int64_t now_ms);
/* A "label  value" field: the label muted in label_w columns, the value wrapped at spaces
 * over as many rows as it needs (one, cut, with `cut`), in elem (the whole row in
 * list.selected when selected). Content row `row`, rows above `skip` scrolled out, window
 * rows from top_y down. Returns the rows it takes. */
struct app_field {
	const char *label, *value;
	int label_w;
	enum theme_elem elem;
	bool cut, selected;
};
int app_draw_field(struct pane *p, const struct app_field *f, int row, int skip, int top_y);

/* app_list.c: the current view, the query over it, the marks and the selection */
struct store_view *app_view(struct app *app, bool create);   /* the current list */
void app_list_update(struct app *app);
const struct store_transcription *app_list_item(struct app *app, long i);  /* shown row i */
void app_sync_selected(struct app *app);   /* selection := the row under the cursor */
bool app_is_marked(const struct app *app, const char *id);
int app_toggle_mark(struct app *app, const char *id);
void app_set_selected(struct app *app, const char *id);
void app_marks_free(struct app *app);
void app_list_free(struct app *app);   /* marks, rows, selection, filter (app_close) */
/* The `/` filter: text parsed with query_parse (core/query.h) and in force at the next
 * draw; 0, or -1 with the parse error in err while the filter in force stays. */
int app_list_set_filter(struct app *app, const char *text, char *err, size_t size);
/* The current list is missing pages: loaded items and a next page on the server. */
bool app_list_partial(struct app *app);
/* How many items of the current list are loaded. */
size_t app_list_loaded(struct app *app);

/* app_data.c: what the browser asks of the sync engine, and its listeners */
/* Page 1 (first: also makes it the live view) or the next page of the current list. */
int app_load_view(struct app *app, bool first);
int app_load_next_page(struct app *app);
/* Loads every page of the current list (sort and filter then see them all); the status
 * line tells the progress until the last page came (app_load_progress). */
void app_load_all(struct app *app);
/* The rows loaded do not fill the transcriptions pane (app->list.lv.rows) and a next page
 * exists: loads it, one page at a time (each answer calls this again). */
void app_list_fill(struct app *app);
void app_sync_listener(struct app *app, struct sync_listener *l);
void app_store_changed(void *ud, const struct store_event *ev);
void app_store_failed(void *ud, const struct store_event *ev);

/* app_places.c: the organizations pane's entries and the current place */
int app_places_build(struct app *app);
/* The key's organizations (pane_orgs.c) are kept and the places built again with them:
 * each with its known folders, and one known by its id alone takes the server's name.
 * Takes the n found (their strings too); 0, or -1 (out of memory). */
int app_places_found(struct app *app, struct app_org_found *found, size_t n);
void app_places_free(struct app *app);
/* The places and the organizations found (when the app ends). */
void app_places_free_all(struct app *app);
int app_select_place(struct app *app, size_t i);

/* app_watch.c: watched items and jobs, the right side */
void app_on_job(void *ud, const struct steno_job *job);   /* the jobs' event callback */
void app_show_side(struct app *app, bool activity);   /* activity or details on the right */
/* The frame's before_quit (ud: the app): with jobs not done, the quit question (what would
 * be lost, dialog_quit_ops) opened and its result; 0 when nothing runs. */
unsigned app_before_quit(void *ud);
/* Downloads asked for before a restart (an export job's, state_watch_download) start once
 * their export is ready: one per call; returns whether any still waits. */
bool app_resume_downloads(struct app *app);

/* pane_activity.c: puts the activity pane's cursor on an order, export or task it lists */
void app_activity_select(struct app *app, enum store_activity_kind kind, const char *id);

/* app_input.c: a one-line text input on the last line (filter, tag, order id), with the
 * readline keys and history of ui/line_input.h. On Enter `submit` gets the text ("" clears;
 * the line goes into the history); Esc calls `cancel` (may be NULL). A live input also calls
 * `changed` after each edit, `key` first with each key (true: used, e.g. Tab), and draws
 * `hint` after the line (a count, or an error in the error style). */
typedef void (*app_input_fn)(struct app *app, const char *text);
struct app_input {
	const char *label;                 /* static */
	const char *initial;               /* copied; may be NULL */
	app_input_fn submit, changed, cancel;
	bool (*key)(struct app *app, ui_key key);
	void (*hint)(struct app *app, char *buf, size_t size, bool *error);
	/* Tab: the line completed from text into out (true), the candidates said by the owner;
	 * NULL: Tab is the line's own */
	bool (*complete)(struct app *app, const char *text, char *out, size_t size);
	struct line_history *history;      /* borrowed; may be NULL */
};
void app_input_start(struct app *app, const struct app_input *spec);
void app_input_open(struct app *app, const char *label, const char *initial, app_input_fn fn);
struct pane *app_input_pane(struct app *app);   /* the input open on top, or NULL */

/* org_lists.c: `:glossaries` / `:style-guides`, read and shown in a popup */
void app_show_org_lists(struct app *app, bool style_guides);

/* app.c: set-up, the loop's hooks, app-wide actions */
unsigned app_action(struct app *app, enum action_id act);
long app_wait_timeout(struct app *app);
void app_after_wait(struct app *app);

#endif
