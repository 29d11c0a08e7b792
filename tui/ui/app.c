/* The TUI application: set-up, the loop's hooks, app-wide actions and accessors. */
#include "config.h"

#include "ui/app.h"
#include "ui/app_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/http.h"
#include "api/utf8.h"
#include "core/columns.h"
#include "core/jobs_extra.h"
#include "core/localdb.h"
#include "ui/app_content.h"
#include "core/quit_signal.h"
#include "ui/dialogs.h"
#include "ui/pane_activity.h"
#include "ui/pane_describe.h"
#include "ui/pane_details.h"
#include "ui/pane_list.h"
#include "ui/pane_log.h"
#include "ui/pane_orgs.h"
#include "ui/wait.h"
#include "ui/text.h"

static void app_dialogs_follow(struct app *app)
{
	dialogs_notify(app);
}

/* ---- actions no pane handled ---- */

static int app_is_dialog_action(enum action_id act)
{
	const struct action_info *a = action_info(act);

	if (a && (a->flags & ACTION_WRITES))
		return 1;
	return act == ACT_PREVIEW || act == ACT_COPY_URL || act == ACT_COPY_ID ||
	       act == ACT_EXPORT || act == ACT_DOWNLOAD || act == ACT_OPEN_FILE || act == ACT_COLUMNS;
}

/* `:order ID`, or `:order` then an id: the order's describe view; it joins the activity pane and the state
 * file (remembered per server). */
static void app_open_order(struct app *app, const char *text)
{
	char id[SCHED_ID_MAX];
	size_t n = strspn(text, " ");

	snprintf(id, sizeof id, "%.*s", (int)strcspn(text + n, " "), text + n);
	if (!id[0])
		return;
	sync_watch(app->sync, STORE_ACT_ORDER, id);
	pane_dirty(app->activity);
	/* opened once the input has closed (app_on_result): it is an overlay too */
	snprintf(app->open_order, sizeof app->open_order, "%s", id);
}

/* The `:` prompt's argument completion: the orders the activity pane knows for `:order`,
 * the bundled themes for `:theme`, the list's column names for `:columns` (after the last
 * comma). */
static size_t app_complete_arg(void *ud, int act, const char *prefix, const char **out,
			       size_t max)
{
	struct app *app = ud;
	size_t n = 0;

	if (act == ACT_OPEN_ORDER) {
		for (size_t i = 0; i < store_activity_count(app->store) && n < max; i++) {
			const struct store_activity *a = store_activity_at(app->store, i);
			if (a->kind == STORE_ACT_ORDER && !strncmp(a->id, prefix, strlen(prefix)))
				out[n++] = a->id;
		}
	} else if (act == ACT_THEME) {
		for (const struct theme_builtin *b = theme_builtins; b->name && n < max; b++)
			if (!strncmp(b->name, prefix, strlen(prefix)))
				out[n++] = b->name;
	} else if (act == ACT_COLUMNS) {
		const char *last = strrchr(prefix, ',');
		static char names[LISTCOL_COUNT][96];
		size_t head = last ? (size_t)(last - prefix) + 1 : 0;
		for (int c = 0; c < LISTCOL_COUNT && n < max; c++) {
			const char *name = listcol_name((enum list_column)c);
			if (name && !strncmp(name, prefix + head, strlen(prefix + head))) {
				text_format(names[n], sizeof names[n], "%.*s%s", (int)head, prefix, name);
				out[n] = names[n];
				n++;
			}
		}
	}
	return n;
}

unsigned app_action(struct app *app, enum action_id act)
{
	switch (act) {
	case ACT_GLOSSARIES: case ACT_STYLE_GUIDES:
		app_show_org_lists(app, act == ACT_STYLE_GUIDES);
		return PANE_HANDLED;
	case ACT_VIEW_ACTIVITY:
	case ACT_VIEW_DETAILS:
		/* the frame focuses it once it is shown */
		app_show_side(app, act == ACT_VIEW_ACTIVITY);
		return PANE_IGNORED;
	case ACT_REFRESH:
		app_request_refresh(app);
		if (app->list.selected)
			sync_fetch_transcription(app->sync, app->list.selected, true);
		app_status(app, "refreshing");
		return PANE_HANDLED;
	case ACT_OPEN_ORDER:
		if (app->ses.frame.ctx.pending_arg[0])   /* `:order ID` */
			app_open_order(app, app->ses.frame.ctx.pending_arg);
		else
			app_input_open(app, "order id: ", "", app_open_order);
		return PANE_HANDLED;
	case ACT_THEME: {   /* `:theme NAME`: this run only; `theme = NAME` in the config keeps it */
		char msg[300];
		struct steno_error e;
		if (ui_session_set_theme(&app->ses, app->ses.frame.ctx.pending_arg, msg,
					 sizeof msg) == 0) {
			app_status(app, "%s", msg);
		} else {
			steno_error_set(&e, STENO_ERR_INVALID, "%s", msg);
			app_error(app, &e);
		}
		return PANE_HANDLED;
	}
	case ACT_SEARCH_ALL:   /* `:search QUERY`, or F */
		return app_content_search(app, app->ses.frame.ctx.pending_arg);
	case ACT_FORCE_REFRESH:
		sync_force_all(app->sync); /* also past a rate limit's wait */
		app_request_refresh(app);
		if (app->list.selected)
			sync_fetch_transcription(app->sync, app->list.selected, true);
		app_status(app, "refreshing everything now");
		return PANE_HANDLED;
	default:
		break;
	}
	if (!app_is_dialog_action(act))
		return PANE_IGNORED;
	if (!action_allowed(act, app->opts.read_only || app->opts.offline))
		return PANE_HANDLED | PANE_REFUSED;
	return (unsigned)dialogs_handle_action(app, (int)act);
}

/* ---- the loop's hooks ---- */

/* The check of the store's pages waits for the first rows (core/localdb.h,
 * localdb_check_start: on 100,000 items it reads the whole file): started after the first
 * frame, its verdict said once; the file is set aside at the next start. */
static void app_store_check(struct app *app)
{
	struct localdb *ldb = store_localdb(app->store);
	const char *why;

	if (!ldb || app->store_check == 2)
		return;
	if (app->store_check == 0) {
		app->store_check = localdb_check_start(ldb) == 0 ? 1 : 2;
		return;
	}
	if (!(why = localdb_check_result(ldb)))
		return;
	snprintf(app->ses.status.error, sizeof app->ses.status.error,
		 "the local store is damaged (%.*s): it is set aside at the next start",
		 STENO_UTF8_CUT(why, 200));
	if (app->ses.status_pane)
		pane_dirty(app->ses.status_pane);
	app->store_check = 2;
}

static void app_timeout_merge(long *t, long wait)
{
	if (wait >= 0 && (*t < 0 || wait < *t))
		*t = wait;
}

long app_wait_timeout(struct app *app)
{
	long t = sync_timeout_ms(app->sync);
	int64_t now = app_now_ms(app);

	app_timeout_merge(&t, jobs_timeout_ms(app->jobs));
	app_timeout_merge(&t, app_content_timeout(app));
	/* a transfer's progress bar and a rate limit's countdown move each second, a time
	 * shown as often as its text, counted from the pane's last draw */
	if (jobs_active(app->jobs) || sync_rate_wait_ms(app->sync, NULL) > 0)
		app_timeout_merge(&t, 1000);
	app_timeout_merge(&t, app_tick_wait_ms(app->animating, app->animating_drawn_ms, now));
	app_timeout_merge(&t, app_tick_wait_ms(app->list_tick, app->list_drawn_ms, now));
	if (app->list_fresh_until)
		app_timeout_merge(&t, app->list_fresh_until > now ? (long)(app->list_fresh_until - now) : 0);
	return t;
}

void app_after_wait(struct app *app)
{
	steno_http_perform(app->http);
	jobs_tick(app->jobs);
	sync_run(app->sync);
	app_content_run(app);
	if (app->resume_downloads)
		app->resume_downloads = app_resume_downloads(app);
	if (jobs_active(app->jobs))
		pane_dirty(app->activity);
	int64_t now = app_now_ms(app);
	/* times shown are drawn again once their period has passed, not on every pass (a key
	 * would draw the list twice) */
	if (app_tick_wait_ms(app->animating, app->animating_drawn_ms, now) == 0)
		pane_dirty(app->details);
	if (app_tick_wait_ms(app->list_tick, app->list_drawn_ms, now) == 0 ||
	    (app->list_fresh_until && now >= app->list_fresh_until))
		pane_dirty(app->tlist);
	app_refresh_status(app);
	app_cache_status(app);
	app_store_check(app);
}

static long app_hook_timeout(void *ud) { return app_wait_timeout(ud); }
static void app_hook_after(void *ud) { app_after_wait(ud); }

static void app_on_result(void *ud, unsigned result)
{
	struct app *app = ud;

	sync_user_active(app->sync);
	ui_session_on_result(&app->ses, result);
	if (app->open_order[0]) {
		app_describe(app, DESCRIBE_ORDER, app->open_order);
		app->open_order[0] = '\0';
	}
	if (app->confirm_order[0]) {
		/* the confirm dialog acts on the order under the activity pane's cursor */
		app_show_side(app, true);
		frame_run(&app->ses.frame, ACT_VIEW_ACTIVITY, KEYS_NONE);
		app_activity_select(app, STORE_ACT_ORDER, app->confirm_order);
		app->confirm_order[0] = '\0';
		ui_session_on_result(&app->ses, frame_run(&app->ses.frame, ACT_CONFIRM_ORDER,
							  KEYS_NONE));
	}
}

/* ---- set-up ---- */

static char *app_key_lines(const struct steno_config *cfg)
{
	size_t len = 1;
	char *s, *p;

	for (size_t i = 0; i < cfg->n_bindings; i++)
		len += strlen(cfg->bindings[i].key) + strlen(cfg->bindings[i].action) + 8;
	s = p = malloc(len);
	if (!s)
		return NULL;
	*p = '\0';
	for (size_t i = 0; i < cfg->n_bindings; i++)
		p += sprintf(p, "bind %s %s\n", cfg->bindings[i].key, cfg->bindings[i].action);
	return s;
}

/* The local store on disk (core/localdb.h): what earlier runs read shows at once. Without
 * it (cache = off, or it cannot be opened) the store stays in memory; a file set aside or an
 * error is said in the status line. */
static void app_open_local_store(struct app *app)
{
	const struct steno_paths *p = app->opts.paths ? app->opts.paths
			: app->have_paths ? &app->paths : NULL;
	char *notice = NULL;
	struct steno_error e;

	steno_error_clear(&e);
	int rc = p ? store_open_local(app->store, app->config, p, app->opts.base_url,
				      app->opts.clock_ms, app->opts.clock_ud, &notice, &e) : 1;
	const char *why = notice ? notice : e.message;
	if (notice || rc < 0)
		snprintf(app->ses.status.error, sizeof app->ses.status.error, "%.*s",
			 STENO_UTF8_CUT(why, 250));
	free(notice);
}

static int app_open_core(struct app *app, struct steno_error *err)
{
	const struct steno_config *c = app->config;
	struct steno_http_config hc = {
		.base_url = app->opts.base_url, .api_key = app->opts.api_key,
		.timeout_ms = c->timeout_s > 0 ? c->timeout_s * 1000L : 0,
		.max_host_connections = c->connections > 0 ? c->connections : 0,
		.trace_path = app->opts.trace_path ? app->opts.trace_path : c->trace_file,
		.retry_max_wait_ms = (long)c->retry_max_wait_s * 1000,
		.low_speed_bytes = c->min_speed,
		.low_speed_time_s = c->stall_time_s,
		.download_max_bytes = c->download_max,
		.offline = app->opts.offline,
		.download_min_rate = c->download_min_rate,
		.request_deadline_ms = (long)c->request_deadline_s * 1000,
	};
	struct sched_policy pol;

	if (steno_http_new(&hc, &app->http, err) < 0)
		return -1;
	char warn[256];
	if (steno_http_proxy_warning(hc.base_url, warn, sizeof warn))
		app_log(app, "warning: %s", warn);
	app->store = store_new();
	if (!app->store)
		return steno_error_set(err, STENO_ERR_NOMEM, "out of memory");
	store_set_page_limit(app->store, c->page_limit);
	app_open_local_store(app);
	struct sync_config sc = { .http = app->http, .store = app->store, .state = &app->state,
		.base_url = app->opts.base_url, .org_id = app->opts.org_id,
		.live_ms = (int64_t)(c->live_refresh_s * 1000),
		.wall_ms = app->opts.clock_ms, .clock_ud = app->opts.clock_ud,
		.offline = app->opts.offline };
	scheduler_policy_default(&pol);
	pol.min_ms = (int64_t)(c->refresh_interval_s * 1000);
	pol.max_ms = (int64_t)(c->refresh_max_s * 1000);
	pol.requests_per_second = c->requests_per_second;
	sc.policy = pol;
	app_sync_listener(app, &sc.listener);
	if (!(app->sync = sync_new(&sc, err)))
		return -1;
	app->listener = store_listen(app->store, app_store_changed, app_store_failed, app);
	struct jobs_config jc = {
		.http = app->http, .store = app->store, .state = &app->state,
		.organization_id = app->opts.org_id, .state_path = app->state_path,
		.poll_min_ms = pol.min_ms, .poll_max_ms = pol.max_ms,
		.requests_per_second = c->requests_per_second,
		.on_event = app_on_job, .ud = app,
	};
	app->jobs = jobs_new(&jc, err);
	if (app->jobs)
		app_content_open(app);
	return app->jobs && app->listener > 0 ? 0 : -1;
}

static void app_open_state(struct app *app)
{
	struct steno_error err;

	state_init(&app->state);
	if (!app->opts.paths) {
		if (paths_resolve(&app->paths, &err) < 0)
			return;
		app->have_paths = true;
	}
	const struct steno_paths *p = app->opts.paths ? app->opts.paths : &app->paths;
	if (!p->state_file || !(app->state_path = strdup(p->state_file)))
		return;
	if (state_load(&app->state, app->state_path, &err) == 1)
		text_copy(app->ses.status.error, sizeof app->ses.status.error, err.message);
	char origin[512];   /* learned folders are per server */
	state_set_origin(&app->state, state_origin(app->opts.base_url, origin, sizeof origin),
			 app->opts.org_id);
}

static int app_open_ui(struct app *app)
{
	const struct steno_config *c = app->config;
	char *lines = app->opts.key_lines ? NULL : app_key_lines(c);
	struct ui_session_opts so = {
		.theme = app->opts.theme ? app->opts.theme : c->theme,
		.key_lines = app->opts.key_lines ? app->opts.key_lines : lines,
		.key_origin = app->opts.key_origin ? app->opts.key_origin : c->file,
		.read_only = app->opts.read_only || app->opts.offline, .ascii = app->opts.ascii,
		.mouse = app->opts.mouse, .term = app->opts.term,
		.out = app->opts.out, .in = app->opts.in,
	};
	/* what was said before the terminal opened (a store set aside, a state file that
	 * could not be read): the session starts blank */
	char early[sizeof app->ses.status.error];
	snprintf(early, sizeof early, "%s", app->ses.status.error);
	int rc = ui_session_open(&app->ses, &so);

	free(lines);
	if (rc == 0 && early[0])
		snprintf(app->ses.status.error, sizeof app->ses.status.error, "%s", early);
	if (rc == 0 && app->opts.offline) {
		/* writes are refused as under --read-only, with the reason; the bar says offline */
		app->ses.frame.ctx.offline = 1;
		app->ses.status.read_only = app->opts.read_only;
		app->ses.status.health = STATUS_OFFLINE;
	}
	return rc;
}

static int app_add_panes(struct app *app)
{
	struct ui_ctx *ctx = &app->ses.frame.ctx;

	app->orgs = pane_new(&orgs_pane_ops, ctx, app);
	if (!app->orgs || ui_session_add(&app->ses, app->orgs) < 0)
		return -1;
	app->orgs->weight = 2;
	app->tlist = pane_new(&list_pane_ops, ctx, app);
	if (!app->tlist || ui_session_add(&app->ses, app->tlist) < 0)
		return -1;
	app->tlist->weight = 6;
	app->details = pane_new(&details_pane_ops, ctx, app);
	if (!app->details || ui_session_add(&app->ses, app->details) < 0)
		return -1;
	app->details->weight = 3;
	app->activity = pane_new(&activity_pane_ops, ctx, app);
	if (!app->activity || ui_session_add(&app->ses, app->activity) < 0)
		return -1;
	app->activity->weight = 5;
	app->activity->hidden = 1;
	/* at 160 columns and more: under the list and the details, which stay */
	app->activity->stack_on = app->details;
	app->activity->stack_from = app->tlist;
	app->activity->stack_cols = 160;
	app->logp = pane_new(&log_pane_ops, ctx, app);
	if (!app->logp || ui_session_add(&app->ses, app->logp) < 0)
		return -1;
	app->logp->hidden = 1;
	frame_resize(&app->ses.frame);
	return 0;
}

static void app_free(struct app *app)
{
	struct steno_error err;

	app->quit = 1;
	if (app->ses.status_pane)
		ui_session_close(&app->ses);
	app_content_free(app);   /* before the engine and the store it borrows */
	if (app->jobs)
		jobs_free(app->jobs);
	if (app->http)
		steno_http_free(app->http);   /* drops what is in flight, contexts included */
	sync_free(app->sync);
	if (app->store && app->listener > 0)
		store_unlisten(app->store, app->listener);
	store_free(app->store);
	if (app->state.dirty && app->state_path)
		state_save(&app->state, app->state_path, &err);   /* at exit: nobody to tell */
	state_free(&app->state);
	free(app->state_path);
	if (app->have_paths)
		paths_free(&app->paths);
	app_places_free_all(app);
	app_list_free(app);
	free(app->org_id);
	free(app->folder_id);
	free(app->watched_jobs);
	for (size_t i = 0; i < app->log_count; i++)
		free(app->log[(app->log_head + i) % APP_LOG_LINES]);
	for (size_t i = 0; i < app->history_count; i++)
		free(app->history[(app->history_head + i) % APP_HISTORY_LINES]);
	config_free(&app->own_config);
	free(app);
}

/* Sets everything up; 0, or -1 with a message in msg. */
static int app_open(struct app *app, char *msg, size_t size)
{
	struct steno_error err = { 0 };

	if (!app->opts.config) {
		if (config_init_defaults(&app->own_config, &err) < 0) {
			snprintf(msg, size, "steno: %s", err.message);
			return -1;
		}
		app->config = &app->own_config;
	} else {
		app->config = app->opts.config;
	}
	if (!app->opts.base_url) {
		snprintf(msg, size, "steno: no API base URL");
		return -1;
	}
	app_open_state(app);
	if (app_open_core(app, &err) < 0) {
		snprintf(msg, size, "steno: %s", err.message);
		return -1;
	}
	if (app_open_ui(app) < 0) {
		snprintf(msg, size, "steno: %s", app->ses.term.why[0] ? app->ses.term.why :
			 "cannot open the terminal");
		return -1;
	}
	if (app_add_panes(app) < 0) {
		snprintf(msg, size, "steno: out of memory");
		return -1;
	}
	return 0;
}

static void app_start(struct app *app)
{
	struct status_info *s = &app->ses.status;

	snprintf(s->profile, sizeof s->profile, "%s", app->opts.profile ? app->opts.profile : "");
	s->health = app->opts.offline ? STATUS_OFFLINE : STATUS_UNKNOWN;
	app_places_build(app);
	/* the organizations (names) the store keeps, at once; none configured: the only one */
	bool configured = app->n_places > 0;
	pane_orgs_kept(app, !configured);
	sync_restore_watched(app->sync);
	app->resume_downloads = true;   /* app_resume_downloads says when none waits */
	pane_dirty(app->activity);
	pane_orgs_discover(app);   /* "no organization configured" when its answer says so */
	if (app->org_id || !configured)
		return;
	app_select_place(app, 0);
	/* the list is where people start */
	frame_run(&app->ses.frame, ACT_VIEW_TRANSCRIPTIONS, KEYS_NONE);
}

struct app *app_new(const struct ui_options *opts, char *msg, size_t size)
{
	struct app *app = calloc(1, sizeof *app);

	if (!app) {
		snprintf(msg, size, "steno: out of memory");
		return NULL;
	}
	app->opts = *opts;
	app->hooks = (struct app_hooks){ .action = app_action, .changed = app_dialogs_follow };
	if (app_open(app, msg, size) < 0) {
		app_free(app);
		return NULL;
	}
	app->ses.frame.ctx.complete_arg = app_complete_arg;
	app->ses.frame.ctx.complete_ud = app;
	app->ses.frame.before_quit = app_before_quit;
	app->ses.frame.before_quit_ud = app;
	app_start(app);
	return app;
}

void app_destroy(struct app *app)
{
	if (app)
		app_free(app);
}

bool app_busy(struct app *app)
{
	return steno_http_pending(app->http) > 0 || sync_in_flight(app->sync) || jobs_active(app->jobs) > 0;
}

static void app_loop_init(struct app *app, struct ui_engine_wait *w, struct ui_loop *l)
{
	*w = (struct ui_engine_wait){ .http = app->http, .due_ms = app_hook_timeout,
		.after = app_hook_after, .ud = app };
	*l = (struct ui_loop){
		.frame = &app->ses.frame, .in_fd = fileno(app->ses.term.in),
		.wait = ui_wait_engine, .wait_ctx = w, .timeout_ms = -1,
		.on_result = app_on_result, .result_ctx = app,
	};
}

int app_step(struct app *app, int max_ms)
{
	struct ui_engine_wait w;
	struct ui_loop l;

	app_loop_init(app, &w, &l);
	ui_wait_engine(&w, -1, max_ms);
	return ui_loop_step(&l, 0) == UI_LOOP_QUIT;
}

int ui_main(const struct ui_options *opts)
{
	char msg[640] = "";
	struct app *app;
	struct ui_engine_wait w;
	struct ui_loop l;
	int rc;

	/* before initscr, which then leaves SIGINT and SIGTERM alone */
	quit_signal_install();
	app = app_new(opts, msg, sizeof msg);
	if (!app) {
		fprintf(stderr, "%s\n", msg);
		return 2;
	}
	app_loop_init(app, &w, &l);
	rc = ui_loop_run(&l);
	app_free(app);   /* saves the state: a signal leaves as `q` does */
	if (quit_signal_caught())
		rc = 130;   /* as an interrupted command (steno(1) EXIT STATUS) */
	return rc;
}
