#ifndef STENO_CORE_DESCRIBE_H
#define STENO_CORE_DESCRIBE_H

/* What a describe view shows of one resource (a transcription, order, export or translation
 * task): every field of the server's last answer, flattened to "path = value" pairs
 * ("name", "_links.self.editorUrl", "transcriptions[0].id"), in the answer's order, and that
 * answer as pretty JSON text; an order's answer is also parsed (its price, for the view). The
 * ui draws them as text and never parses JSON.
 *
 * Ownership: describe_open fills a caller's struct; describe_close frees what is inside and
 * cancels a read in flight. Strings are the describe's. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/error.h"
#include "api/order.h"

struct steno_http;

enum describe_kind { DESCRIBE_TRANSCRIPTION, DESCRIBE_ORDER, DESCRIBE_EXPORT, DESCRIBE_TASK };

struct describe_field {
	char *key;    /* the path in the answer */
	char *value;  /* strings as they are, numbers and booleans as JSON writes them,
		       * null as "null"; never NULL */
};

struct steno_describe {
	enum describe_kind kind;
	char *id;
	struct describe_field *fields;
	size_t n;
	char *raw;                    /* the last answer, pretty JSON; NULL before one came */
	struct steno_order order;     /* DESCRIBE_ORDER: the last answer parsed, when has_order */
	bool has_order;
	bool loading;
	bool has_error;
	struct steno_error error;     /* of the last read, when has_error */
	/* private */
	struct steno_http *http;
	uint64_t req;                 /* read in flight (0: none) */
	void (*changed)(void *ud);    /* after every answer */
	void *ud;
};

/* Starts reading the resource. 0, or -1 with err (bad id, no memory). */
int describe_open(struct steno_describe *d, struct steno_http *http, enum describe_kind kind,
		  const char *id, void (*changed)(void *ud), void *ud, struct steno_error *err);
/* Reads it again (unless a read runs). 0 or -1 with err. */
int describe_refresh(struct steno_describe *d, struct steno_error *err);
void describe_close(struct steno_describe *d);
/* The kind's name ("transcription" ...). */
const char *describe_kind_name(enum describe_kind k);

#endif
