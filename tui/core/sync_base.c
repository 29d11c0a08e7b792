/* The sync engine's ground floor: its clock, its log, the server's health as its reads and
 * the http engine's retries see it. */
#include "config.h"

#include "core/sync_internal.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/http.h"
#include "api/url.h"

char *sync_strdup0(const char *s)
{
	return s ? strdup(s) : NULL;
}

int64_t sync_now_ms(struct steno_sync *s)
{
	struct timespec ts;

	if (s->cfg.clock_ms)
		return s->cfg.clock_ms(s->cfg.clock_ud);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void sync_log(struct steno_sync *s, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!s->cfg.listener.log)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	s->cfg.listener.log(s->cfg.listener.ud, line);
}

static void sync_set_health(struct steno_sync *s, enum sync_health h, double rate_wait_s)
{
	if (s->health == h && s->rate_wait_s == rate_wait_s)
		return;
	s->health = h;
	s->rate_wait_s = rate_wait_s;
	if (s->cfg.listener.health)
		s->cfg.listener.health(s->cfg.listener.ud, h, rate_wait_s);
}

void sync_note_ok(struct steno_sync *s)
{
	sync_set_health(s, SYNC_ONLINE, 0);
}

void sync_note_error(struct steno_sync *s, const struct steno_error *err)
{
	enum sync_health h = s->health;
	double wait = s->rate_wait_s;

	if (err->kind == STENO_ERR_NETWORK || err->kind == STENO_ERR_TIMEOUT)
		h = SYNC_OFFLINE;
	else if (err->kind == STENO_ERR_HTTP && (err->http_status >= 500 || err->http_status == 429))
		h = SYNC_SLOW;
	else if (h == SYNC_UNKNOWN || h == SYNC_OFFLINE)
		h = SYNC_ONLINE;   /* the server answered */
	if (err->kind == STENO_ERR_HTTP && err->http_status == 429 && err->retry_after_s > 0) {
		wait = err->retry_after_s;
		scheduler_rate_gate(s->sched, sync_now_ms(s) + (int64_t)(err->retry_after_s * 1000));
	}
	sync_set_health(s, h, wait);
	sync_tell_error(s, err);
}

void sync_tell_error(struct steno_sync *s, const struct steno_error *err)
{
	if (s->cfg.listener.error)
		s->cfg.listener.error(s->cfg.listener.ud, err);
}

static void sync_on_trace(void *ud, const char *line)
{
	struct steno_sync *s = ud;

	sync_log(s, "%s", line);
}

static void sync_on_retry(void *ud, const struct steno_http_response *resp, long delay_ms)
{
	struct steno_sync *s = ud;
	char url[512];

	if (steno_url_redact(resp->url ? resp->url : "", url, sizeof url) < 0)
		snprintf(url, sizeof url, "(url)");
	if (resp->status)
		sync_log(s, "retry %s after HTTP %ld (in %ldms)", url, resp->status, delay_ms);
	else
		sync_log(s, "retry %s: no answer (in %ldms)", url, delay_ms);
	if (resp->status == 429)
		sync_set_health(s, SYNC_SLOW, (double)delay_ms / 1000.0);
	else if (resp->status == 0)
		sync_set_health(s, SYNC_OFFLINE, s->rate_wait_s);
}

void sync_listen_http(struct steno_sync *s)
{
	steno_http_set_retry_listener(s->cfg.http, sync_on_retry, s);
	steno_http_set_trace_listener(s->cfg.http, sync_on_trace, s);
}
