/* model_order: order rows, their state (derived from their transcriptions), pricing
 * (details), credit charge, and the Order JSON. */
#ifndef SB_MODEL_ORDER_H
#define SB_MODEL_ORDER_H

#include <json-c/json.h>
#include <stdint.h>

/* One orders row; strings malloc'ed, freed by order_row_free. */
struct order_row {
	char id[40];
	int64_t org_id, folder_id, source_rid, style_guide_id;
	char *kind, *service, *language, *url, *webhook_url, *glossary_ids, *addons, *name, *tags;
	char *target_languages, *fixed_state, *last_notified;
	int boost, is_subtitle, locked, charged, has_style_guide, has_submitted;
	double created_at, submitted_at;
};

int order_load(const char *id, struct order_row *o);
void order_row_free(struct order_row *o);
/* State at now. */
const char *order_state(const struct order_row *o, double now);
/* The Order response object. */
json_object *order_json(const struct order_row *o, double now);
/* Total price in cents (with minimum charge). */
int64_t order_total_cents(const struct order_row *o);
/* Charges the order's total once: 0 charged (now or before), 1 locked, -1 error.
 * Must run inside a write transaction. */
int order_charge(const char *order_id, double now);
/* Turnaround in minutes of an operation. */
int64_t order_turnaround_minutes(const char *service, int translation, int boost, int64_t seconds);

#endif
