#include "config.h"
#include "api/retry.h"

#include <curl/curl.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

void steno_retry_policy_default(struct steno_retry_policy *p)
{
	p->max_tries = 5;
	p->base_ms = 500;
	p->max_delay_ms = 30000;
}

int steno_retry_method_idempotent(const char *method)
{
	return method && (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0 ||
			  strcmp(method, "DELETE") == 0);
}

int steno_retry_should(const struct steno_retry_policy *p, const char *method,
		       enum steno_retry_outcome outcome, long status, int tries_done)
{
	if (tries_done >= p->max_tries)
		return 0;
	/* A 429 says the server did not act on the request: sending it again is safe for any
	 * method. Nothing else is retried for POST/PUT/PATCH: it may have been acted on. */
	if (!steno_retry_method_idempotent(method))
		return outcome == STENO_OUTCOME_HTTP && status == 429;
	switch (outcome) {
	case STENO_OUTCOME_HTTP:
		return status == 429 || (status >= 500 && status <= 599);
	case STENO_OUTCOME_CONNECT:
	case STENO_OUTCOME_NETWORK:
	case STENO_OUTCOME_TIMEOUT:
		return 1;
	case STENO_OUTCOME_OTHER:
		return 0;
	}
	return 0;
}

long steno_retry_backoff_ms(const struct steno_retry_policy *p, int tries_done, double rand01)
{
	if (tries_done < 1)
		tries_done = 1;
	if (rand01 < 0 || rand01 >= 1)
		rand01 = 0.5;
	double window = (double)p->base_ms;
	for (int i = 1; i < tries_done && window < (double)p->max_delay_ms; i++)
		window *= 2;
	if (window > (double)p->max_delay_ms)
		window = (double)p->max_delay_ms;
	long d = (long)(window / 2 + rand01 * window / 2);
	if (d < 0)
		d = 0;
	if (d > p->max_delay_ms)
		d = p->max_delay_ms;
	return d;
}

long steno_retry_delay_ms(const struct steno_retry_policy *p, int tries_done, double rand01,
			  double server_after_s)
{
	if (server_after_s >= 0) {
		double ms = server_after_s * 1000.0;
		return ms > (double)p->max_delay_ms ? p->max_delay_ms : (long)ms;
	}
	return steno_retry_backoff_ms(p, tries_done, rand01);
}

int steno_retry_parse_after(const char *value, time_t now, double *seconds)
{
	if (!value)
		return -1;
	while (*value == ' ' || *value == '\t')
		value++;
	if (*value == '\0')
		return -1;
	if (isdigit((unsigned char)*value)) {
		char *end;
		double v = strtod(value, &end);
		while (*end == ' ' || *end == '\t')
			end++;
		/* delta-seconds is an integer; a bare number that strtod stopped inside is a date */
		if (*end == '\0' && v >= 0) {
			*seconds = v;
			return 0;
		}
	}
	/* HTTP-dates must name a weekday first: refuse curl_getdate's looser forms. */
	if (!isalpha((unsigned char)*value))
		return -1;
	time_t t = curl_getdate(value, NULL);
	if (t == -1)
		return -1;
	*seconds = t > now ? (double)(t - now) : 0;
	return 0;
}
