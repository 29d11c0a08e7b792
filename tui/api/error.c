#include "config.h"
#include "api/error.h"
#include "api/utf8.h"

#include <stdio.h>
#include <string.h>

void steno_error_clear(struct steno_error *err)
{
	if (!err)
		return;
	memset(err, 0, sizeof(*err));
	err->retry_after_s = -1;
}

__attribute__((format(printf, 2, 0)))
static void set_message(struct steno_error *err, const char *fmt, va_list ap)
{
	int n = vsnprintf(err->message, sizeof(err->message), fmt, ap);
	if (n >= (int)sizeof(err->message)) /* cut: not inside a character */
		err->message[steno_utf8_uncut(err->message, sizeof(err->message) - 1)] = '\0';
	/* Messages are shown on a terminal: no control characters may survive. */
	for (char *p = err->message; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
}

int steno_error_set(struct steno_error *err, enum steno_error_kind kind, const char *fmt, ...)
{
	if (!err)
		return -1;
	va_list ap;
	err->kind = kind;
	va_start(ap, fmt);
	set_message(err, fmt, ap);
	va_end(ap);
	return -1;
}

int steno_error_invalid(struct steno_error *err, const char *field, const char *fmt, ...)
{
	if (!err)
		return -1;
	va_list ap;
	err->kind = STENO_ERR_INVALID;
	snprintf(err->field, sizeof(err->field), "%s", field ? field : "");
	va_start(ap, fmt);
	set_message(err, fmt, ap);
	va_end(ap);
	return -1;
}

const char *steno_error_kind_name(enum steno_error_kind kind)
{
	switch (kind) {
	case STENO_ERR_NONE: return "none";
	case STENO_ERR_INVALID: return "invalid";
	case STENO_ERR_NOMEM: return "out of memory";
	case STENO_ERR_NETWORK: return "network";
	case STENO_ERR_TIMEOUT: return "timeout";
	case STENO_ERR_HTTP: return "http";
	case STENO_ERR_PARSE: return "parse";
	case STENO_ERR_IO: return "io";
	case STENO_ERR_CANCELLED: return "cancelled";
	case STENO_ERR_CONFIG: return "config";
	case STENO_ERR_JOB: return "job";
	}
	return "unknown";
}

int steno_error_outcome_unknown(const struct steno_error *err)
{
	return err && strcmp(err->code, STENO_CODE_OUTCOME_UNKNOWN) == 0;
}
