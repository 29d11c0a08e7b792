/* model_order: orders. */
#include "config.h"

#include "model_order.h"

#include "db.h"
#include "http.h"
#include "model.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char order_columns[] =
	"id, org_id, folder_id, source_rid, style_guide_id, kind, service, language, url, webhook_url, glossary_ids,"
	" addons, name, tags, target_languages, fixed_state, last_notified, boost, is_subtitle, locked, charged,"
	" created_at, submitted_at";

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? strdup((const char *)s) : NULL;
}

int order_load(const char *id, struct order_row *o)
{
	char *sql = util_printf("SELECT %s FROM orders WHERE id=?", order_columns);
	sqlite3_stmt *st = sql ? db_prep(sql) : NULL;
	free(sql);
	if (!st)
		return -1;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	int rc = -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		memset(o, 0, sizeof *o);
		snprintf(o->id, sizeof o->id, "%s", (const char *)sqlite3_column_text(st, 0));
		o->org_id = sqlite3_column_int64(st, 1);
		o->folder_id = sqlite3_column_int64(st, 2);
		o->source_rid = sqlite3_column_int64(st, 3);
		o->has_style_guide = sqlite3_column_type(st, 4) != SQLITE_NULL;
		o->style_guide_id = sqlite3_column_int64(st, 4);
		char **strs[] = {&o->kind, &o->service, &o->language, &o->url, &o->webhook_url, &o->glossary_ids,
				 &o->addons, &o->name, &o->tags, &o->target_languages, &o->fixed_state,
				 &o->last_notified};
		for (int i = 0; i < 12; i++)
			*strs[i] = col_dup(st, 5 + i);
		o->boost = sqlite3_column_int(st, 17);
		o->is_subtitle = sqlite3_column_int(st, 18);
		o->locked = sqlite3_column_int(st, 19);
		o->charged = sqlite3_column_int(st, 20);
		o->created_at = sqlite3_column_double(st, 21);
		o->has_submitted = sqlite3_column_type(st, 22) != SQLITE_NULL;
		o->submitted_at = sqlite3_column_double(st, 22);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

void order_row_free(struct order_row *o)
{
	char **strs[] = {&o->kind, &o->service, &o->language, &o->url, &o->webhook_url, &o->glossary_ids,
			 &o->addons, &o->name, &o->tags, &o->target_languages, &o->fixed_state, &o->last_notified};
	for (int i = 0; i < 12; i++) {
		free(*strs[i]);
		*strs[i] = NULL;
	}
}

/* The transcriptions an order produces (transcription order: its one file). Caller frees each. */
static size_t order_outputs(const char *id, struct tr_row *out, size_t max)
{
	char *sql = util_printf("SELECT %s FROM transcriptions WHERE order_id=? ORDER BY rid", tr_columns);
	sqlite3_stmt *st = sql ? db_prep(sql) : NULL;
	free(sql);
	size_t n = 0;
	if (!st)
		return 0;
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	while (n < max && sqlite3_step(st) == SQLITE_ROW)
		tr_from_stmt(st, &out[n++]);
	sqlite3_finalize(st);
	return n;
}

#define ORDER_MAX_OUT 80

static const char *state_from_outputs(const struct tr_row *outs, size_t n, double now)
{
	size_t done = 0;
	for (size_t i = 0; i < n; i++) {
		const char *s = tr_state(&outs[i], now);
		if (strcmp(s, "failed") == 0)
			return "failed";
		if (strcmp(s, "locked") == 0)
			return "locked";
		if (strcmp(s, "automatic_done") == 0)
			done++;
	}
	return n > 0 && done == n ? "fulfilled" : "submitted";
}

static const char *order_state_with(const struct order_row *o, const struct tr_row *outs, size_t n, double now)
{
	if (o->fixed_state)
		return o->fixed_state;
	if (!o->has_submitted)
		return "incomplete";
	if (o->locked)
		return "locked";
	return state_from_outputs(outs, n, now);
}

const char *order_state(const struct order_row *o, double now)
{
	struct tr_row outs[ORDER_MAX_OUT];
	size_t n = order_outputs(o->id, outs, ORDER_MAX_OUT);
	const char *s = order_state_with(o, outs, n, now);
	for (size_t i = 0; i < n; i++)
		tr_row_free(&outs[i]);
	return s;
}

int64_t order_turnaround_minutes(const char *service, int translation, int boost, int64_t seconds)
{
	double secs;
	if (translation)
		secs = strcmp(service, "pro") == 0 ? 3 * 86400.0 : 5.0;
	else
		secs = 2.0 + work_seconds(service, boost, (double)seconds);
	return (int64_t)ceil(secs / 60.0);
}

struct addon_def {
	const char *name;
	int id, percent;
};

static const struct addon_def addon_defs[] = {
	{"rush", 1, 50}, {"verbatim", 2, 25}, {"light_human", 3, 20}, {"sdh", 4, 25}};

static const struct addon_def *addon_find(const char *name)
{
	for (size_t i = 0; i < sizeof addon_defs / sizeof addon_defs[0]; i++)
		if (strcmp(addon_defs[i].name, name) == 0)
			return &addon_defs[i];
	return NULL;
}

static json_object *parse_array(const char *text)
{
	json_object *a = text ? json_tokener_parse(text) : NULL;
	if (!a || !json_object_is_type(a, json_type_array)) {
		json_object_put(a);
		a = json_object_new_array();
	}
	return a;
}

static json_object *operation_json(const struct order_row *o, const char *target)
{
	json_object *op = json_object_new_object();
	int translation = strcmp(o->kind, "translation") == 0;
	json_object_object_add(op, "name", json_object_new_string(translation ? "transcription_translation" :
								  o->is_subtitle ? "subtitles" : "transcription"));
	json_object_object_add(op, "type", json_object_new_string(o->service));
	json_object_object_add(op, "language", json_object_new_string(o->language ? o->language : ""));
	if (translation)
		json_object_object_add(op, "target_language", json_object_new_string(target ? target : ""));
	json_object_object_add(op, "glossary_ids", parse_array(o->glossary_ids));
	json_object_object_add(op, "style_guide_id",
			       o->has_style_guide ? json_object_new_int64(o->style_guide_id) : NULL);
	json_object_object_add(op, "use_vocab", json_object_new_boolean(0));
	return op;
}

struct pricing {
	json_object *items;
	json_object *addons_total;
	int64_t sum, units;
};

static json_object *item_json(int64_t input_id, const char *filename, int64_t units, json_object *service,
			      const struct addon_def *addon, int64_t turnaround, int64_t cpu, int64_t cents)
{
	json_object *it = json_object_new_object();
	json_object_object_add(it, "input_id", json_object_new_int64(input_id));
	json_object_object_add(it, "filename", json_object_new_string(filename ? filename : ""));
	json_object_object_add(it, "pricing_unit_name", json_object_new_string("minute"));
	json_object_object_add(it, "pricing_unit_count", json_object_new_int64(units));
	json_object_object_add(it, "service", service);
	json_object_object_add(it, "addon_id", addon ? json_object_new_int(addon->id) : NULL);
	json_object_object_add(it, "addon_name", addon ? json_object_new_string(addon->name) : NULL);
	json_object_object_add(it, "turnaround_minutes", json_object_new_int64(turnaround));
	json_object_object_add(it, "cents_per_unit", json_object_new_int64(cpu));
	json_object_object_add(it, "cents", json_object_new_int64(cents));
	json_object_object_add(it, "credits", NULL);
	return it;
}

/* Items for one priced operation of one input, plus one per addon. */
static void price_operation(struct pricing *p, const struct order_row *o, const struct tr_row *input,
			    const char *target)
{
	int translation = strcmp(o->kind, "translation") == 0;
	int64_t secs = input->audio_seconds;
	int64_t units = secs > 0 ? media_minutes(secs) : 0;
	int64_t cpu = price_cents_per_minute(o->service, translation);
	int64_t turnaround = order_turnaround_minutes(o->service, translation, o->boost, secs);
	int64_t base = units * cpu;
	json_object_array_add(p->items, item_json(input->rid, input->name, units, operation_json(o, target), NULL,
						  turnaround, cpu, base));
	p->sum += base;
	p->units += units;
	json_object *addons = parse_array(o->addons);
	for (size_t i = 0; i < json_object_array_length(addons); i++) {
		const struct addon_def *a = addon_find(json_object_get_string(json_object_array_get_idx(addons, i)));
		if (!a)
			continue;
		int64_t cents = (base * a->percent + 50) / 100;
		json_object_array_add(p->items, item_json(input->rid, input->name, units, operation_json(o, target),
							  a, turnaround, (cpu * a->percent + 50) / 100, cents));
		p->sum += cents;
		json_object *prev = NULL;
		int64_t before = json_object_object_get_ex(p->addons_total, a->name, &prev) ?
					 json_object_get_int64(prev) : 0;
		json_object_object_add(p->addons_total, a->name, json_object_new_int64(before + cents));
	}
	json_object_put(addons);
}

/* The priced inputs: the source (translation) or the order's own files. */
static void order_price(const struct order_row *o, struct pricing *p)
{
	p->items = json_object_new_array();
	p->addons_total = json_object_new_object();
	p->sum = p->units = 0;
	if (strcmp(o->kind, "translation") == 0) {
		struct tr_row src;
		if (tr_load_rid(o->source_rid, &src) != 0)
			return;
		json_object *targets = parse_array(o->target_languages);
		for (size_t i = 0; i < json_object_array_length(targets); i++)
			price_operation(p, o, &src,
					json_object_get_string(json_object_array_get_idx(targets, i)));
		json_object_put(targets);
		tr_row_free(&src);
		return;
	}
	struct tr_row outs[ORDER_MAX_OUT];
	size_t n = order_outputs(o->id, outs, ORDER_MAX_OUT);
	for (size_t i = 0; i < n; i++) {
		price_operation(p, o, &outs[i], NULL);
		tr_row_free(&outs[i]);
	}
}

#define MINIMUM_CHARGE 100

int64_t order_total_cents(const struct order_row *o)
{
	struct pricing p;
	order_price(o, &p);
	json_object_put(p.items);
	json_object_put(p.addons_total);
	return p.sum < MINIMUM_CHARGE ? MINIMUM_CHARGE : p.sum;
}

static json_object *details_json(const struct order_row *o)
{
	struct pricing p;
	order_price(o, &p);
	json_object *d = json_object_new_object();
	json_object_object_add(d, "items", p.items);
	json_object_object_add(d, "pricing_unit_name", json_object_new_string("minute"));
	json_object_object_add(d, "pricing_unit_total_count", json_object_new_int64(p.units));
	json_object_object_add(d, "total_cents", json_object_new_int64(p.sum < MINIMUM_CHARGE ? MINIMUM_CHARGE : p.sum));
	json_object_object_add(d, "total_credits", NULL);
	json_object_object_add(d, "currency", json_object_new_string("EUR"));
	json_object_object_add(d, "currency_symbol", json_object_new_string("\xe2\x82\xac"));
	json_object_object_add(d, "addons_total_cents", p.addons_total);
	json_object_object_add(d, "minimum_charge", json_object_new_int(MINIMUM_CHARGE));
	return d;
}

int order_charge(const char *order_id, double now)
{
	(void)now;
	struct order_row o;
	if (order_load(order_id, &o) != 0)
		return -1;
	int rc = o.charged == 2 ? 1 : 0;
	if (o.charged == 0) {
		int64_t total = order_total_cents(&o);
		sqlite3_stmt *st = db_prep("UPDATE orgs SET credit_cents=credit_cents-?1 WHERE id=?2 AND credit_cents>=?1");
		if (st) {
			sqlite3_bind_int64(st, 1, total);
			sqlite3_bind_int64(st, 2, o.org_id);
			db_step_done(st);
		}
		rc = sqlite3_changes(db_conn()) == 1 ? 0 : 1;
		st = db_prep("UPDATE orders SET charged=?, locked=? WHERE id=?");
		if (st) {
			sqlite3_bind_int(st, 1, rc ? 2 : 1);
			sqlite3_bind_int(st, 2, rc);
			sqlite3_bind_text(st, 3, order_id, -1, SQLITE_STATIC);
			db_step_done(st);
		}
		st = db_prep("UPDATE transcriptions SET cost_cents=?/MAX(1,(SELECT COUNT(*) FROM transcriptions"
			     " WHERE order_id=?2)) WHERE order_id=?2");
		if (st && !rc) {
			sqlite3_bind_int64(st, 1, total);
			sqlite3_bind_text(st, 2, order_id, -1, SQLITE_STATIC);
			db_step_done(st);
		} else if (st) {
			sqlite3_finalize(st);
		}
	}
	order_row_free(&o);
	return rc;
}

static json_object *transcription_item(const struct tr_row *t, double now)
{
	char buf[32];
	json_object *it = json_object_new_object();
	json_object_object_add(it, "id", json_object_new_int64(t->rid));
	json_object_object_add(it, "uuid", json_object_new_string(t->id));
	json_object_object_add(it, "name", json_object_new_string(t->name ? t->name : ""));
	json_object_object_add(it, "state", json_object_new_string(tr_state(t, now)));
	json_object_object_add(it, "language", json_object_new_string(t->language ? t->language : ""));
	util_iso8601(tr_estimate(t, now), buf);
	json_object_object_add(it, "estimated_at", json_object_new_string(buf));
	return it;
}

static const char *ingestion_state(const struct tr_row *t)
{
	return t->fetch == 0 ? "transferring" : t->fetch == 1 ? "done" : "failed";
}

static void add_lists(json_object *j, const struct order_row *o, const struct tr_row *outs, size_t n,
		      const char *state, double now)
{
	int translation = strcmp(o->kind, "translation") == 0;
	json_object *inputs = json_object_new_array(), *trs = json_object_new_array();
	json_object *ings = json_object_new_array(), *ids = json_object_new_array();
	int ready = 1;
	if (translation) {
		struct tr_row src;
		if (tr_load_rid(o->source_rid, &src) == 0) {
			json_object *in = json_object_new_object();
			json_object_object_add(in, "transcription_id", json_object_new_string(src.id));
			json_object_array_add(inputs, in);
			tr_row_free(&src);
		}
	}
	for (size_t i = 0; i < n; i++) {
		json_object_array_add(trs, transcription_item(&outs[i], now));
		json_object_array_add(ids, json_object_new_string(outs[i].id));
		if (translation)
			continue;
		json_object *in = json_object_new_object();
		json_object_object_add(in, "transcription_id", json_object_new_string(outs[i].id));
		json_object_array_add(inputs, in);
		json_object *ing = json_object_new_object();
		json_object_object_add(ing, "id", json_object_new_int64(outs[i].rid));
		json_object_object_add(ing, "name", json_object_new_string(outs[i].tmp_url ? outs[i].tmp_url : ""));
		json_object_object_add(ing, "state", json_object_new_string(ingestion_state(&outs[i])));
		json_object_array_add(ings, ing);
		if (outs[i].fetch != 1)
			ready = 0;
	}
	json_object_object_add(j, "inputs", inputs);
	json_object_object_add(j, "canBeSubmitted", json_object_new_boolean(ready && strcmp(state, "incomplete") == 0));
	if (translation || strcmp(state, "fulfilled") == 0)
		json_object_object_add(j, "outputsIds", ids);
	else
		json_object_put(ids);
	json_object_object_add(j, "transcriptions", trs);
	json_object_object_add(j, "ingestions", ings);
}

json_object *order_json(const struct order_row *o, double now)
{
	struct tr_row outs[ORDER_MAX_OUT];
	size_t n = order_outputs(o->id, outs, ORDER_MAX_OUT);
	const char *state = order_state_with(o, outs, n, now);
	json_object *j = json_object_new_object();
	json_object_object_add(j, "id", json_object_new_string(o->id));
	json_object_object_add(j, "folder_id", json_object_new_int64(o->folder_id));
	json_object_object_add(j, "state", json_object_new_string(state));
	json_object *ops = json_object_new_array();
	if (strcmp(o->kind, "translation") == 0) {
		json_object *targets = parse_array(o->target_languages);
		for (size_t i = 0; i < json_object_array_length(targets); i++)
			json_object_array_add(ops, operation_json(o, json_object_get_string(
								       json_object_array_get_idx(targets, i))));
		json_object_put(targets);
	} else {
		json_object_array_add(ops, operation_json(o, NULL));
	}
	json_object_object_add(j, "operations", ops);
	json_object_object_add(j, "details", details_json(o));
	json_object *addons = parse_array(o->addons), *aj = json_object_new_array();
	for (size_t i = 0; i < json_object_array_length(addons); i++) {
		json_object *a = json_object_new_object();
		json_object_object_add(a, "name", json_object_get(json_object_array_get_idx(addons, i)));
		json_object_array_add(aj, a);
	}
	json_object_put(addons);
	json_object_object_add(j, "addons", aj);
	add_lists(j, o, outs, n, state, now);
	for (size_t i = 0; i < n; i++)
		tr_row_free(&outs[i]);
	return j;
}
