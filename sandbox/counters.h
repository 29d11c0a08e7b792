/* counters: what the sandbox received and injected, kept in its own database so that a test
 * counts on the server's side (issue 10): one row per request on a route that changes
 * something (every POST, the storage PUT, DELETE), and the faults injected by kind. Read on
 * GET /_sandbox/counters. */
#ifndef SB_COUNTERS_H
#define SB_COUNTERS_H

#include <json-c/json.h>

struct sb_req;

/* Counts one injected fault of kind (a faults spec name, or "latency"). */
void counters_fault(const char *kind);
/* Records a request once its answer is decided: fault is the injected kind ("" for none),
 * processed whether the route's handler ran. Requests that cannot change anything (GET,
 * admin routes, unknown routes) are not recorded. */
void counters_request(const struct sb_req *r, const char *fault, int processed);
/* {"requests":[...],"faults":{...},"repeated":[...]}; NULL on a database error. */
json_object *counters_json(void);

#endif
