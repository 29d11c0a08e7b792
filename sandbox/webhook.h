/* webhook: a ticker thread that notices order state changes (computed from the clock) and
 * POSTs {"event":"order.state_changed","order":<Order>} to the order's webhook_url, up to 5
 * tries with backoff 1, 2, 4, 8 s on the sandbox clock, loopback only unless allowed. */
#ifndef SB_WEBHOOK_H
#define SB_WEBHOOK_H

#include <json-c/json.h>

int webhook_start(void);
void webhook_stop(void);
/* Delivery log (newest first), optionally of one order. Caller puts. */
json_object *webhook_log(const char *order_id);

#endif
