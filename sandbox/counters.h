/* counters: what the sandbox received and injected, kept in its own database so that a test
 * counts on the server's side (issue 10): one row per request on a route that changes
 * something (every POST, the storage PUT, DELETE), and the faults injected by kind. Read on
 * GET /_sandbox/counters. Reads (GET on an API or file route) are counted apart, in memory since
 * the process started: per route, received and refused (answered 4xx or 5xx). */
#ifndef SB_COUNTERS_H
#define SB_COUNTERS_H

#include <json-c/json.h>

struct sb_req;

/* Counts one injected fault of kind (a faults spec name, or "latency"). */
void counters_fault(const char *kind);
/* Records a request once its answer is decided: fault is the injected kind ("" for none),
 * processed whether the route's handler ran. A GET is counted as a read; admin routes and
 * unknown routes are not recorded. */
void counters_request(const struct sb_req *r, const char *fault, int processed);
/* {"requests":[...],"faults":{...},"repeated":[...],"reads":[...]}; NULL on a database error. */
json_object *counters_json(void);

#endif
