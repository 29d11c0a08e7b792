#include "config.h"

#include "api/order.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void fuzz_check_str(const char *s);
void fuzz_check_strings(const struct steno_strings *s);

static void check(const struct steno_order *o)
{
	fuzz_check_str(o->id);
	fuzz_check_str(o->state);
	for (size_t i = 0; i < o->n_operations; i++)
		fuzz_check_str(o->operations[i].name);
	for (size_t i = 0; i < o->details.n_items; i++)
		fuzz_check_str(o->details.items[i].addon_name);
	for (size_t i = 0; i < o->details.n_addons_total; i++)
		fuzz_check_str(o->details.addons_total[i].name);
	for (size_t i = 0; i < o->n_addons; i++)
		fuzz_check_str(o->addons[i]);
	for (size_t i = 0; i < o->n_inputs; i++)
		fuzz_check_str(o->inputs[i]);
	for (size_t i = 0; i < o->n_transcriptions; i++)
		fuzz_check_str(o->transcriptions[i].state);
	for (size_t i = 0; i < o->n_ingestions; i++)
		fuzz_check_str(o->ingestions[i].name);
	fuzz_check_strings(&o->outputs_ids);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct steno_error err;
	struct steno_order o;

	if (steno_order_parse((const char *)data, size, &o, &err) == 0) {
		check(&o);
		steno_order_free(&o);
	}
	return 0;
}
