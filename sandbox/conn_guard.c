/* conn_guard: header deadline for libmicrohttpd connections (see conn_guard.h). */
#include "config.h"

#include "conn_guard.h"

#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* One per open connection: libmicrohttpd notifies the close before it closes the socket, and
 * both that notification and the watchdog's shutdown() hold guard_lock, so a socket number is
 * never shut down after it was closed (and perhaps reused). */
struct guard_conn {
	int fd;
	int waiting;  /* for the headers of a request */
	int dropped;  /* shut down by the guard, not closed yet */
	double since; /* start of that wait (monotonic) */
	unsigned char addr[16]; /* the peer's address (IPv4 in the first 4 bytes) */
	struct guard_conn *next, *prev;
};

static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t guard_wake = PTHREAD_COND_INITIALIZER;
static struct guard_conn *guard_list;
static pthread_t guard_thread;
static int guard_running;

static double mono_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Called with guard_lock held: ends g's connection (libmicrohttpd then closes it). */
static void guard_drop(struct guard_conn *g)
{
	shutdown(g->fd, SHUT_RDWR);
	g->waiting = 0;
	g->dropped = 1;
}

static void peer_address(struct MHD_Connection *conn, unsigned char out[16])
{
	const union MHD_ConnectionInfo *ci =
		MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	memset(out, 0, 16);
	if (!ci || !ci->client_addr)
		return;
	if (ci->client_addr->sa_family == AF_INET)
		memcpy(out, &((const struct sockaddr_in *)(const void *)ci->client_addr)->sin_addr, 4);
	else if (ci->client_addr->sa_family == AF_INET6)
		memcpy(out, &((const struct sockaddr_in6 *)(const void *)ci->client_addr)->sin6_addr, 16);
}

/* Called with guard_lock held, for a new connection g (not in the list yet). Every local
 * client shares 127.0.0.1, so a limit that refuses newcomers would let slow sockets lock them
 * all out: instead, at the limit, the oldest connection still waiting for its headers goes
 * (of g's address at GUARD_PER_ADDRESS, of any at GUARD_MAX_WAITING). A client that sends its
 * request whole is waiting for a few milliseconds only, so it is never the oldest; when every
 * connection of the address has a request running, the newcomer goes. */
static void guard_make_room(struct guard_conn *g)
{
	struct guard_conn *old_same = NULL, *old_any = NULL;
	unsigned same = 0, waiting = 0;
	for (struct guard_conn *c = guard_list; c; c = c->next) {
		if (c->dropped)
			continue;
		int mine = !memcmp(c->addr, g->addr, sizeof c->addr);
		same += mine;
		if (!c->waiting)
			continue;
		waiting++;
		if (!old_any || c->since < old_any->since)
			old_any = c;
		if (mine && (!old_same || c->since < old_same->since))
			old_same = c;
	}
	if (same >= GUARD_PER_ADDRESS) {
		guard_drop(old_same ? old_same : g);
		if (old_same == old_any)
			old_any = NULL;
		if (!old_same)
			return;
		waiting--;
	}
	if (waiting >= GUARD_MAX_WAITING && old_any)
		guard_drop(old_any);
}

void guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
		  enum MHD_ConnectionNotificationCode code)
{
	(void)cls;
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
		struct guard_conn *g = info ? calloc(1, sizeof *g) : NULL;
		*socket_context = g;
		if (!g)
			return;
		g->fd = info->connect_fd;
		g->waiting = 1;
		g->since = mono_now();
		peer_address(conn, g->addr);
		pthread_mutex_lock(&guard_lock);
		guard_make_room(g);
		g->next = guard_list;
		if (guard_list)
			guard_list->prev = g;
		guard_list = g;
		pthread_mutex_unlock(&guard_lock);
		return;
	}
	struct guard_conn *g = *socket_context;
	if (!g)
		return;
	pthread_mutex_lock(&guard_lock);
	if (g->prev)
		g->prev->next = g->next;
	else
		guard_list = g->next;
	if (g->next)
		g->next->prev = g->prev;
	pthread_mutex_unlock(&guard_lock);
	free(g);
	*socket_context = NULL;
}

static struct guard_conn *guard_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo *info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return info ? info->socket_context : NULL;
}

void *guard_request_line(void *cls, const char *uri, struct MHD_Connection *conn)
{
	(void)cls;
	(void)uri;
	struct guard_conn *g = guard_of(conn);
	if (g) {
		pthread_mutex_lock(&guard_lock);
		if (!g->waiting) {
			g->waiting = 1;
			g->since = mono_now();
		}
		pthread_mutex_unlock(&guard_lock);
	}
	return NULL;
}

void guard_headers_done(struct MHD_Connection *conn)
{
	struct guard_conn *g = guard_of(conn);
	if (g) {
		pthread_mutex_lock(&guard_lock);
		g->waiting = 0;
		pthread_mutex_unlock(&guard_lock);
	}
}

static void *guard_loop(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&guard_lock);
	while (guard_running) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 250 * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&guard_wake, &guard_lock, &ts);
		double now = mono_now();
		for (struct guard_conn *g = guard_list; g; g = g->next)
			if (g->waiting && now - g->since > GUARD_HEADER_SECONDS)
				guard_drop(g);
	}
	pthread_mutex_unlock(&guard_lock);
	return NULL;
}

int guard_start(void)
{
	guard_running = 1;
	if (pthread_create(&guard_thread, NULL, guard_loop, NULL) != 0) {
		guard_running = 0;
		return -1;
	}
	return 0;
}

void guard_stop(void)
{
	pthread_mutex_lock(&guard_lock);
	int was = guard_running;
	guard_running = 0;
	pthread_cond_signal(&guard_wake);
	pthread_mutex_unlock(&guard_lock);
	if (was)
		pthread_join(guard_thread, NULL);
}
