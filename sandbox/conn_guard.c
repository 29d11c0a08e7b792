/* conn_guard: header deadline for libmicrohttpd connections (see conn_guard.h). */
#include "config.h"

#include "conn_guard.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* One per open connection: libmicrohttpd notifies the close before it closes the socket, and
 * both that notification and the watchdog's shutdown() hold guard_lock, so a socket number is
 * never shut down after it was closed (and perhaps reused). */
struct guard_conn {
	int fd;
	int waiting;  /* for the headers of a request */
	double since; /* start of that wait (monotonic) */
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
		pthread_mutex_lock(&guard_lock);
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
		for (struct guard_conn *g = guard_list; g; g = g->next) {
			if (g->waiting && now - g->since > GUARD_HEADER_SECONDS) {
				shutdown(g->fd, SHUT_RDWR);
				g->waiting = 0;
			}
		}
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
