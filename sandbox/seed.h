/* seed: deterministic demo data (--seed-demo N and the admin seed route). */
#ifndef SB_SEED_H
#define SB_SEED_H

#include <stdint.h>

/* Folders, n transcriptions across every state, orders in every state, exports, tasks,
 * glossaries and style guides for the demo organization; a few for the second one. */
int seed_demo(int64_t demo_org, int64_t second_org, long n);
/* n transcriptions in org, across every state (one transaction). 0 or -1. */
int seed_transcriptions(int64_t org, long n);

#endif
