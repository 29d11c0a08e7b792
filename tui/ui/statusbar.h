#ifndef STENO_UI_STATUSBAR_H
#define STENO_UI_STATUSBAR_H

/* The status bar (last line): profile, organization, connection health, requests in
 * flight, rate-limit state and the last error or notice. It shows a plain struct the
 * owner fills (no API data types), so it works before the store exists. */

#include <stddef.h>

#include "ui/pane.h"

enum status_health { STATUS_UNKNOWN, STATUS_ONLINE, STATUS_SLOW, STATUS_OFFLINE };

/* Ownership: the caller's; the pane keeps a pointer (it must outlive the pane).
 * Strings may come from the server: they are sanitized when drawn. After a change
 * mark the status pane dirty. */
struct status_info {
	char profile[64];
	char org[128];
	char folder[128];
	enum status_health health;
	int in_flight;                 /* requests running */
	double rate_wait_s;            /* > 0: rate-limited, retrying in this many seconds */
	double rate_asked_s;           /* what the server asked for (> rate_wait_s: capped), or < 0 */
	char error[256];               /* last error, "" for none */
	char notice[256];              /* a notification (order finished ...), "" for none */
	char cache[96];                /* rows from the local store: "cached 3m ago, refreshing" */
	int read_only;
	char indexing[64];             /* "indexing 340 of 1,200" (transcript content), or "" */
};

/* The pane: pane_new(&statusbar_pane_ops, ctx, info). */
extern const struct pane_ops statusbar_pane_ops;

/* How much of the left part shows: all of it, without the place (organization and folder),
 * or only the profile, the health and the rate limit. A long message takes the room of what
 * is left out, in that order. */
enum status_left { STATUS_LEFT_ALL, STATUS_LEFT_NO_PLACE, STATUS_LEFT_HEALTH };

/* The left part as text: " work > acme / media  * online  3 req  rate-limited 12s (server
 * asked 3600s, R: retry now)  read-only", as much of it as `part` says.
 * ascii picks ">" and "*" over "›" and "●". Returns buf. */
char *statusbar_left(const struct status_info *s, int ascii, enum status_left part, char *buf,
		     size_t size);

#endif
