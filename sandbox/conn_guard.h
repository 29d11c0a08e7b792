/* conn_guard: a deadline for request headers, which libmicrohttpd 0.9.75 lacks (its
 * connection timeout is an idle timeout, reset by every byte, so a client that sends a header
 * byte now and then holds a connection for ever: slowloris). A connection that has not
 * completed its request's headers GUARD_HEADER_SECONDS after it opened (or after its request
 * line, for the next request on a kept-alive connection) is shut down by a watchdog thread;
 * libmicrohttpd then closes it as any connection the peer ended. */
#ifndef SB_CONN_GUARD_H
#define SB_CONN_GUARD_H

#include <microhttpd.h>

#define GUARD_HEADER_SECONDS 5.0
/* Connections of one peer address at most; at the limit the address's oldest connection still
 * waiting for its headers is shut down to make room (the newcomer only when none waits). */
#define GUARD_PER_ADDRESS 64
/* Connections waiting for their headers at most, all addresses together (below the daemon's
 * connection limit: the rest is kept for requests that arrived whole); the oldest goes. */
#define GUARD_MAX_WAITING 256

/* MHD_OPTION_NOTIFY_CONNECTION callback: tracks each connection's socket. */
void guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
		  enum MHD_ConnectionNotificationCode code);
/* MHD_OPTION_URI_LOG_CALLBACK: a request line arrived; starts the deadline of a request that
 * follows another on the connection. Returns NULL (no request context). */
void *guard_request_line(void *cls, const char *uri, struct MHD_Connection *conn);
/* The request's headers are complete (first call of the access handler). */
void guard_headers_done(struct MHD_Connection *conn);
/* Starts / stops the watchdog thread. start: 0 or -1. */
int guard_start(void);
void guard_stop(void);

#endif
