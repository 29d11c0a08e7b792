/* faults: injected failures. Spec: comma-separated KIND=PROB, PROB in [0,1]; KIND one of
 * 500, 503, 429, truncate, malformed, drop, drop_post (drop on POST routes only), and
 * latency=PROB:MSms (added delay).
 * Example: 500=0.2,503=0.05,latency=0.1:2000ms. "" or "none" clears. */
#ifndef SB_FAULTS_H
#define SB_FAULTS_H

#include <stddef.h>

enum fault_kind {
	FAULT_NONE,
	FAULT_500,
	FAULT_503,
	FAULT_429,
	FAULT_DROP,
	FAULT_TRUNCATE,
	FAULT_MALFORMED,
	FAULT_DROP_POST, /* drawn on POST requests only */
	FAULT_KINDS
};

struct fault_roll {
	enum fault_kind kind;
	int latency_ms;
};

/* Replaces the active spec. 0, or -1 with a message in err. */
int faults_set(const char *spec, char *err, size_t errlen);
/* Draws this request's faults: at most one kind (tried in the order of the enum) plus latency;
 * drop_post only when is_post. */
void faults_roll(struct fault_roll *out, int is_post);
/* Draws the latency alone (milliseconds, 0 for none): the signed-URL routes (/storage,
 * /files) take only this fault. */
int faults_roll_latency(void);
/* The spec name of a kind ("500", "drop_post"...); "" for FAULT_NONE. */
const char *faults_kind_name(enum fault_kind kind);
/* Active spec in canonical text (caller frees). */
char *faults_describe(void);

#endif
