#ifndef STENO_UI_ORDER_PRICE_H
#define STENO_UI_ORDER_PRICE_H

/* An order's price as text lines, for the confirm dialog and the order's describe view: one
 * line per item naming its input, operation and languages (source -> target), the addons'
 * totals, the sum of the items, the minimum charge and why the total differs from the sum,
 * whether the order can be submitted, and the turnaround. Pure formatting, no curses. */

#include <stddef.h>

#include "api/order.h"

#define ORDER_PRICE_WIDTH 160

/* The lines into lines[] (each ORDER_PRICE_WIDTH bytes); returns the count (at most max). */
size_t order_price_lines(const struct steno_order *o, char lines[][ORDER_PRICE_WIDTH], size_t max);

#endif
