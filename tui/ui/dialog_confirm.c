/* Confirming an order after its pricing was shown. */
#include "config.h"

#include "ui/dialog_confirm.h"

#include <stdlib.h>
#include <string.h>

#include "api/spec_tables.h"
#include "core/jobs_extra.h"
#include "ui/draw.h"
#include "ui/form_draw.h"
#include "ui/order_price.h"
#include "ui/style.h"

#define PRICING_MAX 24

static const struct store_activity *order_of(const struct dconfirm *c)
{
	return c->env->store ? store_activity_find(c->env->store, STORE_ACT_ORDER, c->order_id) : NULL;
}

static void on_order(void *ud, struct steno_order *res, const struct steno_error *err)
{
	struct dconfirm *c = ud;
	c->loading = false;
	if (err) {
		c->msg_error = true;
		snprintf(c->msg, sizeof c->msg, "cannot read order %s: %s", c->order_id, err->message);
	} else if (c->env->store) {
		store_order_put(c->env->store, res, false, jobs_extra_now_ms(), NULL);
	}
	pane_dirty(c->pane);
}

void dconfirm_init(struct dconfirm *c, struct dialog_env *env, const char *order_id, void *owner,
		   struct pane *pane)
{
	memset(c, 0, sizeof *c);
	c->env = env;
	c->owner = owner;
	c->pane = pane;
	snprintf(c->order_id, sizeof c->order_id, "%s", order_id ? order_id : "");
	/* always read it again: the price known so far may predate the media's ingestion */
	if (!c->order_id[0] || !env->http)
		return;
	struct steno_error err;
	steno_error_clear(&err);
	/* the owner tag is the dialog, so closing it cancels the read */
	if (jobs_extra_order_get(env->http, c->order_id, on_order, c, &err) == 0) {
		c->loading = true;
	} else {
		c->msg_error = true;
		snprintf(c->msg, sizeof c->msg, "%s", err.message);
	}
}

void dconfirm_cancel(struct dconfirm *c)
{
	if (c->env && c->env->http)
		jobs_extra_cancel(c->env->http, c);
}

static bool offerable(const struct dconfirm *c, const struct store_activity *a)
{
	return !c->loading && a && a->order.details.present && a->state &&
	       strcmp(a->state, "incomplete") == 0;
}

/* Follows the confirm job. */
static void dconfirm_sync(struct dconfirm *c)
{
	if (c->mode != DCONFIRM_RUNNING)
		return;
	const struct steno_job *j = jobs_get(c->env->jobs, c->job);
	if (!j || j->step == JOB_STEP_CREATING || j->step == JOB_STEP_WAITING)
		return;
	c->mode = DCONFIRM_DONE;
	if (j->step == JOB_STEP_FAILED) {
		c->msg_error = true;
		snprintf(c->msg, sizeof c->msg, "not confirmed: %s", j->error.message);
		return;
	}
	const char *st = j->state ? j->state : "?";
	c->msg_error = strcmp(st, "locked") == 0;
	if (c->msg_error)
		snprintf(c->msg, sizeof c->msg, "Order %s is locked. %s", c->order_id, dialog_locked_text());
	else
		snprintf(c->msg, sizeof c->msg, "Order %s confirmed: %s. The activity pane follows it.",
			 c->order_id, st);
	if (c->env->hooks.watch)
		c->env->hooks.watch(c->env->hooks.ud, STORE_ACT_ORDER, c->order_id);
}

unsigned dconfirm_key(struct dconfirm *c, enum action_id act, ui_key key)
{
	dconfirm_sync(c);
	if (act == ACT_CANCEL || (act == ACT_SUBMIT && c->mode != DCONFIRM_RUNNING))
		return PANE_HANDLED | PANE_CLOSE;
	if (key != 'c' || c->mode != DCONFIRM_VIEW)
		return PANE_HANDLED;
	if (!offerable(c, order_of(c))) {
		c->msg_error = true;
		snprintf(c->msg, sizeof c->msg, "nothing to confirm: the order is not incomplete");
		return PANE_HANDLED | PANE_REDRAW;
	}
	struct steno_error err;
	steno_error_clear(&err);
	int id = jobs_confirm(c->env->jobs, c->order_id, false, &err);
	if (id < 0) {
		c->msg_error = true;
		snprintf(c->msg, sizeof c->msg, "%s", err.message);
		return PANE_HANDLED | PANE_REDRAW;
	}
	c->job = id;
	c->mode = DCONFIRM_RUNNING;
	c->msg[0] = '\0';
	dialog_watch_job(c->env, id);
	return PANE_HANDLED | PANE_REDRAW;
}

void dconfirm_draw(struct dconfirm *c, WINDOW *w, int y, int x, int rows, int cols, bool ascii)
{
	unsigned flags = ascii ? TEXT_ASCII : 0;
	char line[200], lines[PRICING_MAX][ORDER_PRICE_WIDTH];
	const struct store_activity *a = order_of(c);
	int end = y + rows;
	dconfirm_sync(c);
	snprintf(line, sizeof line, "Order %s   state: %s", c->order_id, a && a->state ? a->state :
		 c->loading ? "loading..." : "?");
	style_set(w, THEME_DIALOG_TITLE);
	draw_text(w, y++, x, cols, line, TEXT_LEFT, flags);
	size_t n = a ? order_price_lines(&a->order, lines, PRICING_MAX) : 0;
	style_set(w, THEME_DIALOG);
	for (size_t i = 0; i < n && y < end - 3; i++)
		draw_text(w, y++, x, cols, lines[i], TEXT_LEFT, flags);
	y++;
	if (a && a->state && strcmp(a->state, "locked") == 0 && c->mode == DCONFIRM_VIEW) {
		style_set(w, THEME_DIALOG_ERROR);
		y += form_draw_wrapped(w, y, x, cols, end - y, dialog_locked_text(), ascii);
	}
	if (c->mode == DCONFIRM_RUNNING) {
		const struct steno_job *j = jobs_get(c->env->jobs, c->job);
		if (j && y < end)
			dialog_draw_job(w, y++, x, cols, j, ascii);
	} else if (c->mode == DCONFIRM_VIEW && offerable(c, a) && y < end) {
		style_set(w, THEME_NOTICE);
		draw_text(w, y++, x, cols, "c: confirm this order now    Esc: later (it stays incomplete)",
			  TEXT_LEFT, flags);
	}
	if (c->msg[0] && y < end) {
		style_set(w, c->msg_error ? THEME_DIALOG_ERROR : THEME_DIALOG);
		form_draw_wrapped(w, y, x, cols, end - y, c->msg, ascii);
	}
	style_set(w, THEME_DIALOG);
}

/* ---- the dialog of its own ---- */

/* Ownership: the pane's data. */
struct dconf_pane {
	struct dialog_env env;
	struct dconfirm c;
};

static int dcp_open(struct pane *p, void *arg)
{
	struct dconf_pane *d = calloc(1, sizeof *d);
	if (!d || dialog_env_copy(&d->env, arg) != 0) {
		free(d);
		return -1;
	}
	const char *id = d->env.activity_id[0] ? d->env.activity_id :
		d->env.n_ids ? d->env.ids[0] : "";
	p->data = d;
	dconfirm_init(&d->c, &d->env, id, d, p);
	return 0;
}

static void dcp_close(struct pane *p)
{
	struct dconf_pane *d = p->data;
	if (!d)
		return;
	dconfirm_cancel(&d->c);
	dialog_env_free(&d->env);
	free(d);
	p->data = NULL;
}

static unsigned dcp_key(struct pane *p, enum action_id act, ui_key key)
{
	struct dconf_pane *d = p->data;
	return dconfirm_key(&d->c, act, key) | PANE_REDRAW;
}

static void dcp_draw(struct pane *p)
{
	struct dconf_pane *d = p->data;
	form_draw_frame(p->win, "Confirm order", "c: confirm  Esc: close", p->ctx->ascii);
	dconfirm_draw(&d->c, p->win, 1, 2, dialog_body_rows(p), dialog_body_cols(p), p->ctx->ascii);
}

const struct pane_ops dialog_confirm_ops = {
	.name = "confirm-order",
	.scope = SCOPE_DIALOG,
	.place = PANE_PLACE_OVERLAY,
	.open = dcp_open,
	.draw = dcp_draw,
	.key = dcp_key,
	.close = dcp_close,
};
