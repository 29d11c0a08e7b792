/* An order's price as text lines (see order_price.h). */
#include "config.h"

#include "ui/order_price.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ui/format.h"
#include "ui/text.h"

/* One line, cut to ORDER_PRICE_WIDTH bytes on whole characters (text_vformat): a long
 * file name or language may be cut, never inside a character or before its marks. */
__attribute__((format(printf, 2, 3)))
static void put(char *line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vformat(line, ORDER_PRICE_WIDTH, fmt, ap);
	va_end(ap);
}

static const char *sym(const struct steno_order_details *d)
{
	return d->currency_symbol ? d->currency_symbol : "";
}

/* "transcription auto en-US -> fr" or "addon rush" of one item. */
static void item_what(const struct steno_order_item *it, char *buf, size_t size)
{
	const struct steno_operation *op = it->has_service ? &it->service : NULL;

	text_format(buf, size, "%s%s%s%s %s %s%s%s", it->addon_name ? "addon " : "",
		    it->addon_name ? it->addon_name : "", it->addon_name ? ", " : "",
		    op && op->name ? op->name : "service", op && op->type ? op->type : "",
		    op && op->language ? op->language : "?",
		    op && op->target_language ? " -> " : "",
		    op && op->target_language ? op->target_language : "");
}

/* The total and, when it is not the items' sum, why. */
static void total_line(const struct steno_order_details *d, int64_t sum, char *line)
{
	char total[48], items[48], minimum[48];
	const char *cur = d->currency ? d->currency : "";
	bool has_min = steno_known(d->minimum_charge.st);
	int64_t min = has_min ? (int64_t)d->minimum_charge.v : 0;   /* cents (open-points.md) */

	fmt_money(total, sizeof total, d->total_cents.v, sym(d));
	fmt_money(items, sizeof items, sum, sym(d));
	fmt_money(minimum, sizeof minimum, min, sym(d));
	if (d->total_cents.v == sum)
		put(line, "total %s %s (the items' sum)", total, cur);
	else if (has_min && sum < min && d->total_cents.v == min)
		put(line,
			 "total %s %s: the minimum charge, as the items only sum to %s", total, cur, items);
	else
		put(line,
			 "total %s %s: the items sum to %s; the server priced the difference", total,
			 cur, items);
}

size_t order_price_lines(const struct steno_order *o, char lines[][ORDER_PRICE_WIDTH], size_t max)
{
	const struct steno_order_details *d = &o->details;
	size_t n = 0;
	char money[48], what[120], file[TEXT_FIT_CAP(20) * 4], units[64];
	int64_t sum = 0, turnaround = 0;

	if (!d->present) {
		if (max)
			put(lines[n++], "no pricing details yet");
		return n;
	}
	for (size_t i = 0; i < d->n_items; i++) {
		const struct steno_order_item *it = &d->items[i];
		sum += it->cents.v;
		if (it->turnaround_minutes.v > turnaround)
			turnaround = it->turnaround_minutes.v;
		if (n >= max)
			continue;
		fmt_money(money, sizeof money, it->cents.v, sym(d));
		item_what(it, what, sizeof what);
		/* the file's name in 20 cells, whole characters with their marks */
		if (text_fit_utf8(file, sizeof file, it->filename && *it->filename ? it->filename : "-",
				  20, true) < 0)
			snprintf(file, sizeof file, "%-20s", "?");
		fmt_count(units, sizeof units, it->pricing_unit_count.v, it->pricing_unit_name);
		put(lines[n++], "%s %s, %s: %s", file, what, units, money);
	}
	for (size_t i = 0; i < d->n_addons_total && n < max; i++) {
		fmt_money(money, sizeof money, d->addons_total[i].cents.v, sym(d));
		put(lines[n++], "addon %s in all: %s",
			 d->addons_total[i].name ? d->addons_total[i].name : "?", money);
	}
	if (n < max && steno_known(d->minimum_charge.st)) {
		fmt_money(money, sizeof money, (long long)d->minimum_charge.v, sym(d));
		put(lines[n++], "minimum charge %s per order", money);
	}
	if (n < max)
		total_line(d, sum, lines[n++]);
	if (n < max)
		put(lines[n++], "can be submitted: %s",
			 !steno_known(o->can_be_submitted.st) ? "not said" :
			 o->can_be_submitted.v ? "yes" : "no");
	if (n < max && turnaround > 0) {
		char turn[32];
		fmt_span(turn, sizeof turn, (long long)turnaround * 60);
		put(lines[n++], "turnaround about %s", turn);
	}
	return n;
}
