/* ratelimit: token buckets keyed by API key, in a small chained hash table. */
#include "config.h"

#include "ratelimit.h"

#include "util.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define RL_BUCKETS 256

struct rl_entry {
	char *key;
	double tokens;
	double last;
	struct rl_entry *next;
};

static pthread_mutex_t rl_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rl_entry *rl_table[RL_BUCKETS];
static double rl_rate, rl_burst;

void ratelimit_init(double rate, double burst)
{
	rl_rate = rate;
	rl_burst = burst < 1 ? 1 : burst;
}

static unsigned rl_hash(const char *s)
{
	unsigned h = 5381;
	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % RL_BUCKETS;
}

static struct rl_entry *rl_get(const char *key, double now)
{
	unsigned h = rl_hash(key);
	for (struct rl_entry *e = rl_table[h]; e; e = e->next)
		if (strcmp(e->key, key) == 0)
			return e;
	struct rl_entry *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	e->key = strdup(key);
	if (!e->key) {
		free(e);
		return NULL;
	}
	e->tokens = rl_burst;
	e->last = now;
	e->next = rl_table[h];
	rl_table[h] = e;
	return e;
}

int ratelimit_take(const char *key, int *retry_secs)
{
	if (rl_rate <= 0)
		return 1;
	/* Real time on purpose: the limit protects the process, not the simulated clock. */
	double now = util_real_now();
	int ok = 1;
	pthread_mutex_lock(&rl_lock);
	struct rl_entry *e = rl_get(key, now);
	if (e) {
		e->tokens = fmin(rl_burst, e->tokens + (now - e->last) * rl_rate);
		e->last = now;
		if (e->tokens >= 1.0) {
			e->tokens -= 1.0;
		} else {
			ok = 0;
			/* capped before the conversion: a tiny rate (--rate-limit 1e-300/1) overflowed int */
			double wait = ceil((1.0 - e->tokens) / rl_rate);
			*retry_secs = wait > 86400 ? 86400 : wait < 1 ? 1 : (int)wait;
		}
	}
	pthread_mutex_unlock(&rl_lock);
	return ok;
}

void ratelimit_free(void)
{
	pthread_mutex_lock(&rl_lock);
	for (int i = 0; i < RL_BUCKETS; i++) {
		struct rl_entry *e = rl_table[i];
		while (e) {
			struct rl_entry *n = e->next;
			free(e->key);
			free(e);
			e = n;
		}
		rl_table[i] = NULL;
	}
	pthread_mutex_unlock(&rl_lock);
}
