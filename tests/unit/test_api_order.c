#include "config.h"

#include <criterion/criterion.h>

#include <stdlib.h>
#include <string.h>

#include "api/order.h"

char *api_fixture(const char *name, size_t *len);

static struct steno_order parse_fixture(const char *name)
{
	struct steno_order o;
	struct steno_error err;
	size_t len;
	char *body = api_fixture(name, &len);
	steno_error_clear(&err);
	cr_assert_eq(steno_order_parse(body, len, &o, &err), 0, "%s: %s", name, err.message);
	free(body);
	return o;
}

Test(order, create_with_details_and_addons)
{
	struct steno_order o = parse_fixture("order_create.json");
	cr_assert_str_eq(o.id, "3f2b9a1e-8c4d-4e5f-9a6b-7c8d9e0f1a2b");
	cr_assert_eq(o.folder_id.v, 5501);
	cr_assert_str_eq(o.state, "incomplete");
	cr_assert(o.can_be_submitted.v);
	cr_assert_eq(o.n_operations, 1);
	cr_assert_str_eq(o.operations[0].type, "pro");
	cr_assert_eq(o.operations[0].glossary_ids.n, 2);
	cr_assert_eq(o.operations[0].glossary_ids.v[1], 13);
	cr_assert_eq(o.operations[0].style_guide_id.v, 7);
	cr_assert_eq(o.operations[0].use_vocab.st, STENO_PRESENT);
	const struct steno_order_details *d = &o.details;
	cr_assert(d->present);
	cr_assert_eq(d->n_items, 2);
	cr_assert_float_eq(d->items[0].pricing_unit_count.v, 10.5, 1e-9);
	cr_assert(d->items[0].has_service);
	cr_assert_str_eq(d->items[0].service.language, "en-US");
	cr_assert_eq(d->items[0].addon_id.st, STENO_NULL);
	cr_assert_null(d->items[0].addon_name);
	cr_assert_eq(d->items[0].credits.st, STENO_NULL);
	cr_assert_eq(d->items[1].addon_id.v, 3);
	cr_assert_str_eq(d->items[1].addon_name, "verbatim");
	cr_assert_float_eq(d->items[1].credits.v, 1.5, 1e-9);
	cr_assert_eq(d->items[1].turnaround_minutes.v, 360);
	cr_assert_eq(d->total_cents.v, 1969);
	cr_assert_eq(d->total_credits.st, STENO_NULL);
	cr_assert_str_eq(d->currency_symbol, "\xe2\x82\xac");
	cr_assert_float_eq(d->minimum_charge.v, 100.0, 1e-9);
	cr_assert_eq(d->n_addons_total, 2);
	cr_assert_str_eq(d->addons_total[0].name, "verbatim");
	cr_assert_eq(d->addons_total[0].cents.v, 394);
	cr_assert_eq(o.n_addons, 1);
	cr_assert_str_eq(o.addons[0], "verbatim");
	cr_assert_eq(o.n_inputs, 1);
	cr_assert_str_eq(o.inputs[0], "0123456789abcdef0123456789abcdef");
	cr_assert_eq(o.n_transcriptions, 0);
	cr_assert_eq(o.n_ingestions, 1);
	cr_assert_str_eq(o.ingestions[0].state, "transferring");
	cr_assert_eq(o.outputs_ids.st, STENO_MISSING);
	steno_order_free(&o);
	cr_assert_null(o.id);
}

Test(order, translation_order)
{
	struct steno_order o = parse_fixture("order_translation.json");
	cr_assert_str_eq(o.state, "submitted");
	cr_assert_eq(o.n_operations, 2);
	cr_assert_str_eq(o.operations[1].target_language, "de");
	cr_assert_eq(o.details.n_addons_total, 0);
	cr_assert_float_eq(o.details.total_credits.v, 0.5, 1e-9);
	cr_assert_eq(o.outputs_ids.n, 2);
	steno_order_free(&o);
}

Test(order, fulfilled_with_unknowns)
{
	struct steno_order o = parse_fixture("order_fulfilled.json");
	cr_assert_eq(o.folder_id.st, STENO_PRESENT, "numeric string folder id accepted");
	cr_assert_eq(o.folder_id.v, 5501);
	cr_assert_eq(o.n_addons, 2);
	cr_assert_str_eq(o.addons[1], "teleportation");
	cr_assert_str_eq(o.inputs[0], "4242");
	cr_assert_eq(o.n_transcriptions, 2);
	cr_assert_eq(o.transcriptions[0].id.v, 31337);
	cr_assert_eq(o.transcriptions[0].estimated_at.st, STENO_PRESENT);
	cr_assert_eq(o.transcriptions[0].estimated_at.ms, INT64_C(1717232400500));
	cr_assert_str_eq(o.transcriptions[1].state, "brand_new_state");
	cr_assert_eq(o.transcriptions[1].estimated_at.st, STENO_BAD_TYPE);
	cr_assert(o.operations[0].use_vocab.v);
	cr_assert_eq(o.details.n_items, 0);
	cr_assert_eq(o.details.pricing_unit_total_count.st, STENO_MISSING);
	steno_order_free(&o);
}

Test(order, wrong_types_everywhere)
{
	const char *doc = "{\"id\":{},\"folder_id\":\"12x\",\"state\":5,\"operations\":{},"
			  "\"details\":{\"items\":[1,{\"service\":\"pro\",\"cents\":\"5\","
			  "\"credits\":\"1\"}],\"addons_total_cents\":{\"rush\":\"50\",\"sdh\":1e30},"
			  "\"total_cents\":99999999999999999999},\"addons\":[{\"name\":1},2],"
			  "\"inputs\":[{}],\"canBeSubmitted\":\"true\",\"outputsIds\":[1],"
			  "\"transcriptions\":[{\"id\":\"x\",\"uuid\":[]}],\"ingestions\":\"none\"}";
	struct steno_order o;
	struct steno_error err;
	steno_error_clear(&err);
	cr_assert_eq(steno_order_parse(doc, strlen(doc), &o, &err), 0, "%s", err.message);
	cr_assert_null(o.id);
	cr_assert_null(o.state);
	cr_assert_eq(o.folder_id.st, STENO_BAD_TYPE);
	cr_assert_eq(o.n_operations, 0);
	cr_assert_eq(o.details.n_items, 1);
	cr_assert_not(o.details.items[0].has_service);
	cr_assert_eq(o.details.items[0].cents.st, STENO_BAD_TYPE);
	cr_assert_eq(o.details.items[0].credits.st, STENO_BAD_TYPE);
	cr_assert_eq(o.details.total_cents.st, STENO_BAD_TYPE);
	cr_assert_eq(o.details.n_addons_total, 2);
	cr_assert_eq(o.details.addons_total[0].cents.st, STENO_BAD_TYPE);
	cr_assert_eq(o.details.addons_total[1].cents.st, STENO_BAD_TYPE);
	cr_assert_eq(o.n_addons, 0);
	cr_assert_eq(o.n_inputs, 0);
	cr_assert_eq(o.can_be_submitted.st, STENO_BAD_TYPE);
	cr_assert_eq(o.outputs_ids.n, 0);
	cr_assert_eq(o.outputs_ids.skipped, 1);
	cr_assert_eq(o.n_transcriptions, 1);
	cr_assert_eq(o.transcriptions[0].id.st, STENO_BAD_TYPE);
	cr_assert_null(o.transcriptions[0].uuid);
	cr_assert_eq(o.n_ingestions, 0);
	steno_order_free(&o);
}

Test(order, wrapper_and_non_objects)
{
	struct steno_order o;
	struct steno_error err;
	const char *wrapped = "{\"event\":\"order.state_changed\",\"order\":{\"id\":\"u\",\"state\":\"fulfilled\"}}";
	cr_assert_eq(steno_order_parse(wrapped, strlen(wrapped), &o, &err), 0);
	cr_assert_str_eq(o.state, "fulfilled");
	steno_order_free(&o);
	cr_assert_eq(steno_order_parse("[]", 2, &o, &err), -1);
	cr_assert_eq(steno_order_parse("null", 4, &o, &err), -1);
	cr_assert_eq(steno_order_parse("", 0, &o, &err), -1);
	cr_assert_eq(err.kind, STENO_ERR_PARSE);
}
