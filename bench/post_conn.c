/* post_conn: what a fresh connection per POST costs (issue 10 item 1). Since 1ac293f the
 * engine sets CURLOPT_FRESH_CONNECT on every request that is not idempotent, so a POST never
 * rides a pooled connection (libcurl resent POSTs on a pooled connection that died); before,
 * a POST reused the connection an earlier request had left in the pool. This program times
 * single POSTs both ways with the same libcurl options, alternating the two in rounds so that
 * the baseline (reuse) is measured in the same run, and prints the medians.
 *
 * Usage: post_conn [--url URL --body JSON [--auth KEY]] [--standin [--cert PEM --key PEM]]
 *                  [--cacert PEM] [--n POSTS_PER_ROUND] [--rounds R] [--label TEXT]
 * --standin serves POST with 201 {"id":"1"} on 127.0.0.1 (libmicrohttpd, HTTPS with --cert and
 * --key) and targets it; otherwise --url (the sandbox's POST /transcriptions in bench/post_conn.sh).
 * Prints one Markdown table row: label | fresh ms | reuse ms | fresh/reuse. */
#include "config.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct opts {
	const char *url, *body, *auth, *cacert, *cert, *key, *label;
	int standin, n, rounds;
};

static enum MHD_Result standin_answer(void *cls, struct MHD_Connection *c, const char *url, const char *method,
				      const char *version, const char *data, size_t *size, void **state)
{
	static char reply[] = "{\"id\":\"1\"}";
	static int marker;
	(void)cls;
	(void)url;
	(void)method;
	(void)version;
	(void)data;
	if (!*state) {
		*state = &marker;
		return MHD_YES;
	}
	if (*size) {
		*size = 0; /* the body is read and dropped */
		return MHD_YES;
	}
	struct MHD_Response *r = MHD_create_response_from_buffer(sizeof reply - 1, reply, MHD_RESPMEM_PERSISTENT);
	MHD_add_response_header(r, "Content-Type", "application/json");
	enum MHD_Result ret = MHD_queue_response(c, 201, r);
	MHD_destroy_response(r);
	return ret;
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = calloc(1, 1 << 16);
	size_t n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

static struct MHD_Daemon *standin_start(const struct opts *o, char *url, size_t n)
{
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO;
	char *cert = NULL, *key = NULL;
	if (o->cert) {
		cert = read_all(o->cert);
		key = read_all(o->key);
		if (!cert || !key) {
			fprintf(stderr, "post_conn: cannot read %s / %s\n", o->cert, o->key);
			return NULL;
		}
		flags |= MHD_USE_TLS;
	}
	struct MHD_Daemon *d =
		cert ? MHD_start_daemon(flags, 0, NULL, NULL, standin_answer, NULL, MHD_OPTION_SOCK_ADDR, &a,
					MHD_OPTION_HTTPS_MEM_CERT, cert, MHD_OPTION_HTTPS_MEM_KEY, key, MHD_OPTION_END)
		     : MHD_start_daemon(flags, 0, NULL, NULL, standin_answer, NULL, MHD_OPTION_SOCK_ADDR, &a,
					MHD_OPTION_END);
	/* libmicrohttpd copies neither: they live as long as the process. */
	const union MHD_DaemonInfo *info = d ? MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT) : NULL;
	if (!info) {
		fprintf(stderr, "post_conn: the stand-in did not start\n");
		return NULL;
	}
	snprintf(url, n, "%s://127.0.0.1:%u/api/v1/transcriptions", cert ? "https" : "http", info->port);
	return d;
}

static size_t sink(char *p, size_t s, size_t m, void *u)
{
	(void)p;
	(void)u;
	return s * m;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* One request on e, as the engine sets a POST up (fresh: CURLOPT_FRESH_CONNECT, today) or a
 * GET (the pool's earlier request). Its time in ms, or -1 when it failed. */
static double one(CURL *e, const struct opts *o, int post, int fresh)
{
	curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, fresh ? 1L : 0L);
	if (post) {
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, o->body);
	} else {
		curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
	}
	double t = now_ms();
	CURLcode rc = curl_easy_perform(e);
	t = now_ms() - t;
	long code = 0;
	curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &code);
	if (rc != CURLE_OK || (post && code != 201)) {
		fprintf(stderr, "post_conn: %s %s: %s, HTTP %ld\n", post ? "POST" : "GET", o->url, curl_easy_strerror(rc),
			code);
		return -1;
	}
	return t;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int parse(int argc, char **argv, struct opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(a, "--standin") == 0) {
			o->standin = 1;
			continue;
		}
		if (!v)
			return -1;
		i++;
		if (strcmp(a, "--url") == 0)
			o->url = v;
		else if (strcmp(a, "--body") == 0)
			o->body = v;
		else if (strcmp(a, "--auth") == 0)
			o->auth = v;
		else if (strcmp(a, "--cacert") == 0)
			o->cacert = v;
		else if (strcmp(a, "--cert") == 0)
			o->cert = v;
		else if (strcmp(a, "--key") == 0)
			o->key = v;
		else if (strcmp(a, "--label") == 0)
			o->label = v;
		else if (strcmp(a, "--n") == 0)
			o->n = atoi(v);
		else if (strcmp(a, "--rounds") == 0)
			o->rounds = atoi(v);
		else
			return -1;
	}
	return (o->standin || (o->url && o->body)) && o->n > 0 && o->rounds > 0 && (!o->cert == !o->key) ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct opts o = {.n = 50, .rounds = 10, .label = "POST", .body = "{\"transcription\":{\"name\":\"b\"}}"};
	char url[256], auth[300];
	if (parse(argc, argv, &o) != 0) {
		fprintf(stderr, "usage: see the head of bench/post_conn.c\n");
		return 2;
	}
	struct MHD_Daemon *d = NULL;
	if (o.standin) {
		if (!(d = standin_start(&o, url, sizeof url)))
			return 1;
		o.url = url;
	}
	curl_global_init(CURL_GLOBAL_DEFAULT);
	struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
	if (o.auth) {
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", o.auth);
		h = curl_slist_append(h, auth);
	}
	int total = o.n * o.rounds, nf = 0, nr = 0, failed = 0;
	double *fresh = calloc((size_t)total, sizeof *fresh), *reuse = calloc((size_t)total, sizeof *reuse);
	for (int round = 0; round < o.rounds && !failed; round++) {
		/* A B, then B A: neither way always goes first. */
		for (int k = 0; k < 2 && !failed; k++) {
			int way_fresh = (round + k) % 2 == 0;
			CURL *e = curl_easy_init();
			curl_easy_setopt(e, CURLOPT_URL, o.url);
			curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
			curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, sink);
			curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
			if (o.cacert)
				curl_easy_setopt(e, CURLOPT_CAINFO, o.cacert);
			for (int i = 0; i < o.n && !failed; i++) {
				/* Before each POST the pool holds a connection, as after any earlier request. */
				failed |= one(e, &o, 0, 0) < 0;
				double t = one(e, &o, 1, way_fresh);
				failed |= t < 0;
				if (way_fresh)
					fresh[nf++] = t;
				else
					reuse[nr++] = t;
			}
			curl_easy_cleanup(e);
		}
	}
	if (!failed) {
		double mf = median(fresh, nf), mr = median(reuse, nr);
		printf("| %s | %.3f | %.3f | %.2f |\n", o.label, mf, mr, mf / mr);
	}
	free(fresh);
	free(reuse);
	curl_slist_free_all(h);
	curl_global_cleanup();
	if (d)
		MHD_stop_daemon(d);
	return failed ? 1 : 0;
}
