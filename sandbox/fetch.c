/* fetch: libcurl transfers with a loopback guard in CURLOPT_OPENSOCKETFUNCTION, so redirects and
 * DNS answers cannot lead anywhere else. */
#include "config.h"

#include "fetch.h"

#include "sandbox.h"
#include "stopping.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define FETCH_TIMEOUT 30L
#define WEBHOOK_TIMEOUT 5L

struct fetch_sink {
	FILE *file;
	char *mem;
	size_t len, cap;
	long limit;
	int too_big;
};

void fetch_global_init(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

void fetch_global_cleanup(void)
{
	curl_global_cleanup();
}

static int addr_is_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)(const void *)sa;
		return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)(const void *)sa;
		return IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
	}
	return 0;
}

static curl_socket_t fetch_open_socket(void *cls, curlsocktype purpose, struct curl_sockaddr *addr)
{
	(void)cls;
	(void)purpose;
	if (!sb_cfg.allow_remote && !addr_is_loopback(&addr->addr))
		return CURL_SOCKET_BAD;
	return socket(addr->family, addr->socktype, addr->protocol);
}

static size_t fetch_write(char *data, size_t size, size_t nmemb, void *cls)
{
	struct fetch_sink *s = cls;
	size_t n = size * nmemb;
	if ((long)(s->len + n) > s->limit) {
		s->too_big = 1;
		return 0;
	}
	if (s->file) {
		if (fwrite(data, 1, n, s->file) != n)
			return 0;
		s->len += n;
		return n;
	}
	if (s->len + n + 1 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 65536;
		while (cap < s->len + n + 1)
			cap *= 2;
		char *nm = realloc(s->mem, cap);
		if (!nm)
			return 0;
		s->mem = nm;
		s->cap = cap;
	}
	memcpy(s->mem + s->len, data, n);
	s->len += n;
	s->mem[s->len] = '\0';
	return n;
}

/* libcurl calls this at least once a second, even with nothing on the wire: a transfer
 * ends within about a second of the sandbox's stop instead of holding its thread (and the
 * stop, which joins that thread) until its timeout. */
static int abort_when_stopping(void *cls, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow)
{
	(void)cls;
	(void)dltotal;
	(void)dlnow;
	(void)ultotal;
	(void)ulnow;
	return stopping_now();
}

static CURL *fetch_handle(const char *url, long timeout)
{
	CURL *c = curl_easy_init();
	if (!c)
		return NULL;
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 5L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, timeout);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT, 10L);
	curl_easy_setopt(c, CURLOPT_OPENSOCKETFUNCTION, fetch_open_socket);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, abort_when_stopping);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	/* Proxy variables in the environment (http_proxy, ALL_PROXY ...) are ignored: through a
	 * loopback proxy, the loopback guard above would let any host be reached. */
	curl_easy_setopt(c, CURLOPT_PROXY, "");
	curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
	curl_easy_setopt(c, CURLOPT_USERAGENT, "steno-sandbox/" PACKAGE_VERSION);
	return c;
}

static int fetch_run(const char *url, struct fetch_sink *s, char *err, size_t errlen)
{
	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0) {
		snprintf(err, errlen, "only http and https URLs can be fetched");
		return -1;
	}
	CURL *c = fetch_handle(url, FETCH_TIMEOUT);
	if (!c) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, fetch_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, s);
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)s->limit);
	CURLcode rc = curl_easy_perform(c);
	long status = 0;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(c);
	if (s->too_big || rc == CURLE_FILESIZE_EXCEEDED) {
		snprintf(err, errlen, "the file exceeds %ld bytes", s->limit);
		return -1;
	}
	if (rc == CURLE_COULDNT_CONNECT && !sb_cfg.allow_remote) {
		snprintf(err, errlen, "could not connect (only loopback addresses are fetched)");
		return -1;
	}
	if (rc != CURLE_OK) {
		snprintf(err, errlen, "%s", curl_easy_strerror(rc));
		return -1;
	}
	if (status < 200 || status > 299) {
		snprintf(err, errlen, "the server answered HTTP %ld", status);
		return -1;
	}
	return 0;
}

int fetch_to_file(const char *url, const char *path, long cap, char *err, size_t errlen)
{
	struct fetch_sink s = {0};
	s.limit = cap;
	s.file = fopen(path, "wb");
	if (!s.file) {
		snprintf(err, errlen, "cannot write the media file");
		return -1;
	}
	int rc = fetch_run(url, &s, err, errlen);
	if (fclose(s.file) != 0 && rc == 0) {
		snprintf(err, errlen, "cannot write the media file");
		rc = -1;
	}
	if (rc != 0)
		remove(path);
	return rc;
}

char *fetch_to_mem(const char *url, long cap, size_t *len, char *err, size_t errlen)
{
	struct fetch_sink s = {0};
	s.limit = cap;
	if (fetch_run(url, &s, err, errlen) != 0) {
		free(s.mem);
		return NULL;
	}
	if (!s.mem)
		s.mem = calloc(1, 1);
	if (len)
		*len = s.len;
	return s.mem;
}

static size_t discard(char *data, size_t size, size_t nmemb, void *cls)
{
	(void)data;
	(void)cls;
	return size * nmemb;
}

int fetch_post_json(const char *url, const char *body, char *err, size_t errlen)
{
	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0) {
		snprintf(err, errlen, "only http and https URLs are called");
		return -1;
	}
	CURL *c = fetch_handle(url, WEBHOOK_TIMEOUT);
	if (!c) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	struct curl_slist *h = curl_slist_append(NULL, "Content-Type: application/json");
	struct curl_slist *h2 = h ? curl_slist_append(h, "Expect:") : NULL;
	if (h2)
		h = h2;
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, discard);
	CURLcode rc = curl_easy_perform(c);
	long status = -1;
	if (rc == CURLE_OK)
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	else
		snprintf(err, errlen, "%s", curl_easy_strerror(rc));
	curl_slist_free_all(h);
	curl_easy_cleanup(c);
	return (int)status;
}
