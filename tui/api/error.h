#ifndef STENO_API_ERROR_H
#define STENO_API_ERROR_H

/* The one error type of steno's api/, core/ and cli/ rooms. Functions return 0 on success
 * or a negative value and fill a caller-owned struct steno_error (which may be NULL).
 * Ownership: plain fixed-size storage, nothing to free. */

#include <stdarg.h>

enum steno_error_kind {
	STENO_ERR_NONE = 0,
	STENO_ERR_INVALID,   /* a value the caller gave breaks a rule (field names it) */
	STENO_ERR_NOMEM,
	STENO_ERR_NETWORK,   /* could not connect, connection dropped, TLS failure */
	STENO_ERR_TIMEOUT,
	STENO_ERR_HTTP,      /* the server answered with a 4xx/5xx status */
	STENO_ERR_PARSE,     /* the server's body is not what the spec says */
	STENO_ERR_IO,        /* local file system */
	STENO_ERR_CANCELLED,
	STENO_ERR_CONFIG,
	STENO_ERR_JOB,       /* asynchronous work reported failure on the resource */
};

struct steno_error {
	enum steno_error_kind kind;
	long http_status;      /* 0 unless kind == STENO_ERR_HTTP */
	char code[64];         /* machine code: the server's "error" value, a failureReason ... */
	char field[64];        /* the request field a validation error is about, else "" */
	char message[512];     /* for people; already free of control characters */
	double retry_after_s;  /* from Retry-After or retry_in_seconds, < 0 when not given */
};

/* err->code of a non-idempotent request (a POST) whose answer was lost after it went out:
 * the server may or may not have acted on it. Never retried; callers look for what it made. */
#define STENO_CODE_OUTCOME_UNKNOWN "outcome_unknown"
int steno_error_outcome_unknown(const struct steno_error *err);
/* err->code once the lost request's work was found on the server (core/jobs_resolve.c). */
#define STENO_CODE_OUTCOME_FOUND "outcome_found"

void steno_error_clear(struct steno_error *err);

/* Sets kind and a printf-style message; keeps http_status, code and field as they are.
 * Returns -1 so callers can write `return steno_error_set(err, ...);`. NULL err is allowed. */
int steno_error_set(struct steno_error *err, enum steno_error_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Like steno_error_set, for a validation failure about `field`. Returns -1. */
int steno_error_invalid(struct steno_error *err, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A short lowercase name of the kind ("network", "http" ...). */
const char *steno_error_kind_name(enum steno_error_kind kind);

#endif
