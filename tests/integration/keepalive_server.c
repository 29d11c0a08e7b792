#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "keepalive_server.h"

#define MAX_CONN 64

struct conn {
	struct keepalive_server *s;
	int fd;
	pthread_t thread;
	int used;
};

static struct conn conns[MAX_CONN];

static void count(struct keepalive_server *s, const char *method, const char *path)
{
	char key[160];
	snprintf(key, sizeof(key), "%s %s", method, path);
	pthread_mutex_lock(&s->mu);
	for (int i = 0; i < KEEPALIVE_SERVER_PATHS; i++) {
		if (s->paths[i].key[0] == '\0')
			snprintf(s->paths[i].key, sizeof(s->paths[i].key), "%s", key);
		if (strcmp(s->paths[i].key, key) == 0) {
			s->paths[i].hits++;
			break;
		}
	}
	pthread_mutex_unlock(&s->mu);
}

void keepalive_server_route(struct keepalive_server *s, const char *path, const char *body)
{
	for (int i = 0; i < 4; i++)
		if (!s->gets[i].path[0] || strcmp(s->gets[i].path, path) == 0) {
			snprintf(s->gets[i].path, sizeof(s->gets[i].path), "%s", path);
			snprintf(s->gets[i].body, sizeof(s->gets[i].body), "%s", body);
			return;
		}
}

int keepalive_server_hits(struct keepalive_server *s, const char *method, const char *path)
{
	char key[160];
	int n = 0;
	snprintf(key, sizeof(key), "%s %s", method, path);
	pthread_mutex_lock(&s->mu);
	for (int i = 0; i < KEEPALIVE_SERVER_PATHS; i++)
		if (strcmp(s->paths[i].key, key) == 0)
			n = s->paths[i].hits;
	pthread_mutex_unlock(&s->mu);
	return n;
}

/* Reads until the buffer holds a whole request (headers and Content-Length body); returns
 * its length, 0 on a closed connection, -1 on error or when stopping. */
static ssize_t read_request(struct keepalive_server *s, int fd, char *buf, size_t cap, size_t *have)
{
	for (;;) {
		buf[*have] = '\0';
		char *end = strstr(buf, "\r\n\r\n");
		if (end) {
			size_t head = (size_t)(end + 4 - buf), body = 0;
			for (char *h = strstr(buf, "\r\n"); h && h < end; h = strstr(h + 2, "\r\n"))
				if (strncasecmp(h + 2, "Content-Length:", 15) == 0)
					body = strtoul(h + 17, NULL, 10);
			if (head + body > cap - 1)
				return -1;
			if (*have >= head + body)
				return (ssize_t)(head + body);
		}
		if (*have >= cap - 1)
			return -1;
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int pr = poll(&p, 1, 100);
		if (s->stopping)
			return -1;
		if (pr <= 0)
			continue;
		ssize_t n = read(fd, buf + *have, cap - 1 - *have);
		if (n <= 0)
			return n == 0 ? 0 : -1;
		*have += (size_t)n;
	}
}

static void reply(int fd, int status, const char *body)
{
	char head[256];
	int n = snprintf(head, sizeof(head),
			 "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n"
			 "Connection: keep-alive\r\n\r\n",
			 status, status == 201 ? "Created" : "OK", strlen(body));
	if (write(fd, head, (size_t)n) < 0 || write(fd, body, strlen(body)) < 0)
		return;
}

static void *serve(void *arg)
{
	struct conn *c = arg;
	struct keepalive_server *s = c->s;
	static __thread char buf[65536];
	size_t have = 0;
	for (;;) {
		ssize_t len = read_request(s, c->fd, buf, sizeof(buf), &have);
		if (len <= 0)
			break;
		char method[16] = "", path[256] = "";
		if (sscanf(buf, "%15s %255s", method, path) != 2)
			break;
		char *q = strchr(path, '?');
		if (q)
			*q = '\0';
		count(s, method, path);
		int drop = 0;
		if (strcmp(method, "POST") == 0) {
			char *body = strstr(buf, "\r\n\r\n") + 4;
			pthread_mutex_lock(&s->mu);
			snprintf(s->last_post_body, sizeof(s->last_post_body), "%.*s",
				 (int)(len - (body - buf)), body);
			if (s->drop_posts > 0) {
				s->drop_posts--;
				drop = 1;
			}
			pthread_mutex_unlock(&s->mu);
			if (!drop)
				reply(c->fd, 201, s->canned_post[0] ? s->canned_post
					: "{\"id\":\"0123456789abcdef0123456789abcdef\"}");
		} else {
			const char *body = "{\"ok\":true}";
			for (int i = 0; i < 4 && strcmp(method, "GET") == 0; i++)
				if (strcmp(s->gets[i].path, path) == 0)
					body = s->gets[i].body;
			reply(c->fd, 200, body);
		}
		memmove(buf, buf + len, have - (size_t)len);
		have -= (size_t)len;
		if (drop)
			break;
	}
	shutdown(c->fd, SHUT_RDWR);
	close(c->fd);
	c->fd = -1;
	return NULL;
}

static void *accept_loop(void *arg)
{
	struct keepalive_server *s = arg;
	while (!s->stopping) {
		struct pollfd p = {.fd = s->listen_fd, .events = POLLIN};
		if (poll(&p, 1, 100) <= 0)
			continue;
		int fd = accept(s->listen_fd, NULL, NULL);
		if (fd < 0)
			continue;
		pthread_mutex_lock(&s->mu);
		int slot = s->connections < MAX_CONN ? s->connections++ : -1;
		pthread_mutex_unlock(&s->mu);
		if (slot < 0) {
			close(fd);
			continue;
		}
		conns[slot] = (struct conn){.s = s, .fd = fd, .used = 1};
		if (pthread_create(&conns[slot].thread, NULL, serve, &conns[slot]) != 0) {
			close(fd);
			conns[slot].used = 0;
		}
	}
	return NULL;
}

int keepalive_server_start(struct keepalive_server *s)
{
	memset(s, 0, sizeof(*s));
	memset(conns, 0, sizeof(conns));
	pthread_mutex_init(&s->mu, NULL);
	s->listen_fd = socket(AF_INET, SOCK_STREAM, 0);
	if (s->listen_fd < 0)
		return -1;
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t al = sizeof(a);
	if (bind(s->listen_fd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(s->listen_fd, 16) != 0 ||
	    getsockname(s->listen_fd, (struct sockaddr *)&a, &al) != 0) {
		close(s->listen_fd);
		return -1;
	}
	s->port = ntohs(a.sin_port);
	snprintf(s->base, sizeof(s->base), "http://127.0.0.1:%d/api/v1", s->port);
	if (pthread_create(&s->acceptor, NULL, accept_loop, s) != 0) {
		close(s->listen_fd);
		return -1;
	}
	return 0;
}

void keepalive_server_stop(struct keepalive_server *s)
{
	s->stopping = 1;
	pthread_join(s->acceptor, NULL);
	for (int i = 0; i < MAX_CONN; i++)
		if (conns[i].used)
			pthread_join(conns[i].thread, NULL);
	close(s->listen_fd);
	pthread_mutex_destroy(&s->mu);
}
