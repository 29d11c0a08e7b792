/* ratelimit: a token bucket per API key (in memory). */
#ifndef SB_RATELIMIT_H
#define SB_RATELIMIT_H

/* rate tokens/s, burst capacity; rate <= 0 disables limiting. */
void ratelimit_init(double rate, double burst);
/* 1 when the request may proceed; else 0 and *retry_secs (>= 1). */
int ratelimit_take(const char *key, int *retry_secs);
void ratelimit_free(void);

#endif
