/* The new-order and confirm dialogs against a sandbox: glossary and style-guide pickers
 * loaded from the API, the verbatim rule checked before sending, a 429 on submission that
 * creates nothing (and no duplicate later), pricing before the confirm key, a locked order. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_dialog_fixture.h"
#include "ui/dialog_confirm.h"
#include "ui/dialog_order.h"
#include "ui/dialog_popup.h"
#include "ui/frame.h"

static struct sbx_receiver *media;

static void stop_media(void);

/* The screen with the receiver's address (its port changes) replaced by a fixed name. */
static char *masked_text(void)
{
	char *t = dfx_text();
	const char *origin = media ? sbx_receiver_origin(media) : NULL;
	char *hit;
	while (origin && (hit = strstr(t, origin)) != NULL) {
		size_t ol = strlen(origin);
		char rep[64];
		snprintf(rep, sizeof rep, "%s", "http://receiver:00000000000000000000000000000");
		if (ol < sizeof rep)
			rep[ol] = '\0';
		size_t rl = strlen(rep);
		char *n = malloc(strlen(t) - ol + rl + 1);
		cr_assert_not_null(n);
		memcpy(n, t, (size_t)(hit - t));
		memcpy(n + (hit - t), rep, rl);
		strcpy(n + (hit - t) + rl, hit + ol);
		free(t);
		t = n;
	}
	return t;
}

static bool idle(struct dfx *x, const void *arg)
{
	(void)arg;
	return steno_http_pending(x->http) == 0;
}

/* Source URL: Tab from "Order" to the URL field. */
static void fill_url(struct dfx *x)
{
	char url[300];
	if (!media)
		media = sbx_receiver_start(30.0, NULL, NULL, 0);
	cr_assert_not_null(media);
	snprintf(url, sizeof url, "%s/media.wav", sbx_receiver_origin(media));
	dfx_keys(x, "<Tab> <Tab>");
	dfx_type(x, url);
}

Test(dialog_order, lists_loaded_and_rules_checked)
{
	struct dfx x;
	dfx_open(&x, 28, 90, 12);
	long orders = dfx_count(&x, "orders");
	dfx_dialog(&x, &dialog_order_ops);
	cr_assert(dfx_pump(&x, dfx_cond_shows, "Medical terms", 5000), "glossaries not loaded");
	cr_assert(dfx_pump(&x, idle, NULL, 5000));
	char *t = masked_text();
	scr_golden("dialog_order_lists", t);
	free(t);
	fill_url(&x);
	/* to the style guide: language, service, name, folder, path, tags, glossaries, guide */
	dfx_keys(&x, "<Tab> <Tab> <Tab> <Tab> <Tab> <Tab> <Tab> <Tab>");
	dfx_type(&x, "Verb");
	cr_assert(dfx_shows(&x, "Verbatim (strict)"));
	dfx_keys(&x, "<Enter> <F2>");
	t = masked_text();
	scr_golden("dialog_order_rules", t);
	cr_assert(strstr(t, "verbatim"), "%s", t);
	free(t);
	cr_assert_eq(dfx_count(&x, "orders"), orders, "nothing may be sent");
	/* the glossary picker: several at once, Space toggles */
	dfx_keys(&x, "<S-Tab> <Space> <Down> <Space> <Enter>");
	t = dfx_text();
	cr_assert(strstr(t, "Medical terms, Glossaire"), "%s", t);
	free(t);
	dfx_close(&x);
	stop_media();
}

Test(dialog_order, too_many_requests_creates_nothing_and_no_duplicate)
{
	struct dfx x;
	dfx_open(&x, 28, 90, 0);
	long orders = dfx_count(&x, "orders");
	dfx_dialog(&x, &dialog_order_ops);
	cr_assert(dfx_pump(&x, idle, NULL, 5000));
	fill_url(&x);
	dfx_faults(&x, "429=1");
	dfx_keys(&x, "<F2>");
	/* a 429 is sent again (the server did not act) up to five tries, then shown */
	cr_assert(dfx_pump(&x, dfx_cond_shows, "HTTP 429", 20000), "no 429 shown");
	char *t = masked_text();
	scr_golden("dialog_order_429", t);
	free(t);
	/* nothing is sent again behind the user's back */
	dfx_faults(&x, "");
	cr_assert(dfx_pump(&x, idle, NULL, 3000));
	cr_assert_eq(dfx_count(&x, "orders"), orders);
	/* the form is still there: Enter submits once more, and exactly one order exists */
	dfx_keys(&x, "<F2>");
	cr_assert(dfx_pump(&x, dfx_cond_shows, "c: confirm this order now", 5000), "no pricing");
	cr_assert_eq(dfx_count(&x, "orders"), orders + 1);
	t = dfx_text();
	cr_assert(strstr(t, "total") && strstr(t, "EUR") && strstr(t, "turnaround"), "%s", t);
	cr_assert(strstr(t, "state: incomplete"), "%s", t);
	free(t);
	dfx_keys(&x, "c");
	if (!dfx_pump(&x, dfx_cond_shows, "confirmed", 5000)) {
		t = dfx_text();
		cr_assert_fail("not confirmed:\n%s", t);
	}
	cr_assert_eq(dfx_count(&x, "orders"), orders + 1);
	dfx_keys(&x, "<Esc>");
	cr_assert_null(x.scr.ui.frame.overlay);
	dfx_close(&x);
	stop_media();
}

/* An order created unconfirmed through the API, confirmed from its own dialog with no
 * credit left: the dialog says why it is locked and what to do. */
Test(dialog_order, confirm_dialog_locked)
{
	struct dfx x;
	long status = 0;
	char body[400];
	dfx_open(&x, 28, 90, 0);
	struct sbx_receiver *rc = sbx_receiver_start(30.0, NULL, NULL, 0);
	cr_assert_not_null(rc);
	snprintf(body, sizeof body, "{\"order\":{\"url\":\"%s/media.wav\",\"language\":\"en-US\","
		 "\"organization_id\":\"%s\"}}", sbx_receiver_origin(rc), x.sb.org_id);
	json_object *o = sbx_call(&x.sb, "POST", "orders", body, &status);
	cr_assert(status == 200 || status == 201, "%ld", status);
	snprintf(x.env.activity_id, sizeof x.env.activity_id, "%s", sbx_str(o, "id"));
	json_object_put(o);
	/* the media must be ingested for the price (and the charge) to be known */
	char target[128];
	bool ingested = false;
	snprintf(target, sizeof target, "orders/%s", x.env.activity_id);
	for (int i = 0; i < 200 && !ingested; i++) {
		o = sbx_call(&x.sb, "GET", target, NULL, &status);
		const char *st = sbx_str(json_object_array_get_idx(sbx_get(o, "ingestions"), 0), "state");
		ingested = st && strcmp(st, "done") == 0;
		json_object_put(o);
		if (!ingested)
			cr_assert_eq(sbx_advance(&x.sb, 1), 0);
	}
	cr_assert(ingested, "the order's media was not ingested");
	cr_assert_eq(sbx_set_credit(&x.sb, x.sb.org_id, 0), 0);
	dfx_dialog(&x, &dialog_confirm_ops);
	cr_assert(dfx_pump(&x, dfx_cond_shows, "c: confirm this order now", 5000), "no pricing");
	dfx_keys(&x, "c");
	bool locked = dfx_pump(&x, dfx_cond_shows, "is locked", 8000);
	char *t = dfx_text();
	cr_assert(locked, "not locked:\n%s", t);
	cr_assert(strstr(t, "Top up or upgrade"), "%s", t);
	free(t);
	dfx_close(&x);
	sbx_receiver_stop(rc);
}

static void stop_media(void)
{
	if (media)
		sbx_receiver_stop(media);
	media = NULL;
}

/* The copy fallback: a popup with the URL (sanitized), any key closes it. */
Test(dialog_order, popup_with_the_url)
{
	struct dfx x;
	dfx_open(&x, 12, 60, 0);
	struct dialog_popup_arg a = { "editor URL", "https://example.test/editor/abc\033]52;c;eA==\a" };
	struct ui_frame *f = &x.scr.ui.frame;
	frame_open_overlay(f, pane_new(&dialog_popup_ops, &f->ctx, &a));
	f->all_dirty = 1;
	scr_draw(&x.scr);
	char *t = dfx_text();
	scr_golden("dialog_popup_url", t);
	cr_assert(strstr(t, "https://example.test/editor/abc") && !strstr(t, "\033"), "%s", t);
	free(t);
	dfx_keys(&x, "x");
	cr_assert_null(f->overlay);
	dfx_close(&x);
}
