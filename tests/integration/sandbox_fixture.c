/* sandbox_fixture: process control and HTTP helpers for tests against steno-sandbox. */
#include "config.h"

#include "sandbox_fixture.h"

#include <curl/curl.h>
#include <microhttpd.h>
#include <pthread.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SBX_READY_TIMEOUT_MS 30000

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Reads one line from fd within the deadline. */
static int read_line(int fd, char *buf, size_t n, long long deadline_ms)
{
	size_t len = 0;
	while (len + 1 < n) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		long long now = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
		if (now >= deadline_ms)
			return -1;
		struct pollfd p = {.fd = fd, .events = POLLIN};
		int rc = poll(&p, 1, (int)(deadline_ms - now));
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc <= 0)
			return -1;
		char ch;
		ssize_t r = read(fd, &ch, 1);
		if (r <= 0)
			return -1;
		if (ch == '\n')
			break;
		buf[len++] = ch;
	}
	buf[len] = '\0';
	return 0;
}

static int take(const char *line, const char *prefix, char *out, size_t n)
{
	size_t pl = strlen(prefix);
	if (strncmp(line, prefix, pl) != 0)
		return -1;
	size_t len = strlen(line + pl);
	if (len >= n)
		return -1;
	memcpy(out, line + pl, len + 1);
	return 0;
}

static int sbx_spawn(struct sbx *s, const char *const *extra)
{
	const char *bin = getenv("STENO_SANDBOX_BIN");
	if (!bin)
		bin = "./steno-sandbox";
	const char *argv[64];
	int argc = 0;
	argv[argc++] = bin;
	argv[argc++] = "--port";
	argv[argc++] = "0";
	argv[argc++] = "--data";
	argv[argc++] = s->dir;
	argv[argc++] = "--rate-limit";
	argv[argc++] = "off";
	/* Exact invented text for every test unless it asks for recognition (a later --asr on). */
	argv[argc++] = "--asr";
	argv[argc++] = "off";
	for (int i = 0; extra && extra[i] && argc < 62; i++)
		argv[argc++] = extra[i];
	argv[argc] = NULL;
	int pfd[2];
	if (pipe(pfd) != 0)
		return -1;
	s->pid = fork();
	if (s->pid < 0)
		return -1;
	if (s->pid == 0) {
		/* A test process that dies (timeout, crash) takes its sandbox with it. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		execv(bin, (char *const *)(void *)argv);
		_exit(127);
	}
	close(pfd[1]);
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	long long deadline = (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + SBX_READY_TIMEOUT_MS;
	char line[512];
	int rc = 0;
	rc |= read_line(pfd[0], line, sizeof line, deadline) || take(line, "STENO_BASE_URL=", s->base_url, sizeof s->base_url);
	rc |= read_line(pfd[0], line, sizeof line, deadline) || take(line, "STENO_API_KEY=", s->api_key, sizeof s->api_key);
	rc |= read_line(pfd[0], line, sizeof line, deadline) ||
	      take(line, "STENO_ADMIN_KEY=", s->admin_key, sizeof s->admin_key);
	rc |= read_line(pfd[0], line, sizeof line, deadline) || take(line, "STENO_ORG_ID=", s->org_id, sizeof s->org_id);
	close(pfd[0]);
	if (rc) {
		kill(s->pid, SIGKILL);
		waitpid(s->pid, NULL, 0);
		s->pid = 0;
		return -1;
	}
	snprintf(s->origin, sizeof s->origin, "%s", s->base_url);
	char *api = strstr(s->origin, "/api/v1");
	if (api)
		*api = '\0';
	return 0;
}

int sbx_start(struct sbx *s, const char *const *extra)
{
	memset(s, 0, sizeof *s);
	const char *tmp = getenv("TMPDIR");
	snprintf(s->dir, sizeof s->dir, "%s/sbx-test-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(s->dir))
		return -1;
	s->own_dir = 1;
	if (sbx_spawn(s, extra) != 0) {
		nftw(s->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
		return -1;
	}
	return 0;
}

int sbx_start_dir(struct sbx *s, const char *dir, const char *const *extra)
{
	memset(s, 0, sizeof *s);
	snprintf(s->dir, sizeof s->dir, "%s", dir);
	return sbx_spawn(s, extra);
}

int sbx_stop_keep(struct sbx *s)
{
	int status = -1;
	if (s->pid > 0) {
		kill(s->pid, SIGTERM);
		if (waitpid(s->pid, &status, 0) == s->pid)
			status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		s->pid = 0;
	}
	return status;
}

int sbx_stop(struct sbx *s)
{
	int status = sbx_stop_keep(s);
	if (s->own_dir && s->dir[0])
		nftw(s->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	s->own_dir = 0;
	return status;
}

void sbx_kill9(struct sbx *s)
{
	if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		waitpid(s->pid, NULL, 0);
		s->pid = 0;
	}
}

struct grow {
	char *data;
	size_t len;
};

static size_t grow_write(char *p, size_t size, size_t nmemb, void *cls)
{
	struct grow *g = cls;
	size_t n = size * nmemb;
	char *nd = realloc(g->data, g->len + n + 1);
	if (!nd)
		return 0;
	g->data = nd;
	memcpy(g->data + g->len, p, n);
	g->len += n;
	g->data[g->len] = '\0';
	return n;
}

int sbx_request(const struct sbx *s, const char *method, const char *target, const char *key, const char *body,
		const char *extra_header, struct sbx_resp *out)
{
	char url[4096], auth[256];
	memset(out, 0, sizeof *out);
	if (strncmp(target, "http", 4) == 0)
		snprintf(url, sizeof url, "%s", target);
	else if (target[0] == '/')
		snprintf(url, sizeof url, "%s%s", s->origin, target);
	else
		snprintf(url, sizeof url, "%s/%s", s->base_url, target);
	CURL *c = curl_easy_init();
	if (!c)
		return -1;
	struct grow b = {0}, h = {0};
	struct curl_slist *hdrs = curl_slist_append(NULL, "Expect:");
	if (key) {
		snprintf(auth, sizeof auth, "Authorization: Bearer %s", key);
		hdrs = curl_slist_append(hdrs, auth);
	}
	/* a test's own Content-Type (or "Content-Type:" for none) replaces the JSON one */
	if (body && !(extra_header && !strncasecmp(extra_header, "Content-Type:", 13)))
		hdrs = curl_slist_append(hdrs, "Content-Type: application/json");
	if (extra_header)
		hdrs = curl_slist_append(hdrs, extra_header);
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT, 30L);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, grow_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
	curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, grow_write);
	curl_easy_setopt(c, CURLOPT_HEADERDATA, &h);
	if (body) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(body));
	}
	CURLcode rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out->status);
	curl_slist_free_all(hdrs);
	curl_easy_cleanup(c);
	out->curl_code = (int)rc;
	out->body = b.data ? b.data : calloc(1, 1);
	out->len = b.len;
	out->headers = h.data ? h.data : calloc(1, 1);
	return out->status > 0 ? 0 : -1;
}

void sbx_resp_free(struct sbx_resp *r)
{
	free(r->body);
	free(r->headers);
	r->body = r->headers = NULL;
}

const char *sbx_resp_header(const struct sbx_resp *r, const char *name, char *buf, size_t n)
{
	size_t nl = strlen(name);
	for (const char *p = r->headers; p && *p;) {
		const char *eol = strchr(p, '\n');
		if (strncasecmp(p, name, nl) == 0 && p[nl] == ':') {
			const char *v = p + nl + 1;
			while (*v == ' ')
				v++;
			size_t len = eol ? (size_t)(eol - v) : strlen(v);
			while (len > 0 && (v[len - 1] == '\r' || v[len - 1] == '\n'))
				len--;
			snprintf(buf, n, "%.*s", (int)len, v);
			return buf;
		}
		p = eol ? eol + 1 : NULL;
	}
	return NULL;
}

json_object *sbx_json(const struct sbx_resp *r)
{
	return r->body && r->len ? json_tokener_parse(r->body) : NULL;
}

json_object *sbx_call(const struct sbx *s, const char *method, const char *target, const char *body, long *status)
{
	struct sbx_resp r;
	sbx_request(s, method, target, s->api_key, body, NULL, &r);
	if (status)
		*status = r.status;
	json_object *o = sbx_json(&r);
	sbx_resp_free(&r);
	return o;
}

json_object *sbx_get(json_object *o, const char *path)
{
	char key[128];
	while (o && *path) {
		const char *dot = strchr(path, '.');
		size_t len = dot ? (size_t)(dot - path) : strlen(path);
		snprintf(key, sizeof key, "%.*s", (int)len, path);
		json_object *next = NULL;
		if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &next))
			return NULL;
		o = next;
		path += len + (dot ? 1 : 0);
	}
	return o;
}

const char *sbx_str(json_object *o, const char *path)
{
	json_object *v = sbx_get(o, path);
	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

int sbx_advance(const struct sbx *s, double seconds)
{
	char body[64];
	struct sbx_resp r;
	snprintf(body, sizeof body, "{\"seconds\":%.3f}", seconds);
	sbx_request(s, "POST", "/_sandbox/clock/advance", s->admin_key, body, NULL, &r);
	int ok = r.status == 200;
	sbx_resp_free(&r);
	return ok ? 0 : -1;
}

int sbx_set_faults(const struct sbx *s, const char *spec)
{
	char body[512];
	struct sbx_resp r;
	snprintf(body, sizeof body, "{\"spec\":\"%s\"}", spec);
	if (sbx_request(s, "PUT", "/_sandbox/faults", s->admin_key, body, NULL, &r) != 0)
		return -1;
	int ok = r.status == 200;
	sbx_resp_free(&r);
	return ok ? 0 : -1;
}

long sbx_reads(const struct sbx *s, const char *route, const char *what)
{
	struct sbx_resp r;
	if (sbx_request(s, "GET", "/_sandbox/counters", s->admin_key, NULL, NULL, &r) != 0)
		return -1;
	json_object *o = r.status == 200 ? sbx_json(&r) : NULL, *arr = sbx_get(o, "reads");
	sbx_resp_free(&r);
	long n = o ? 0 : -1;
	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		json_object *e = json_object_array_get_idx(arr, i), *v = sbx_get(e, what);
		if (strcmp(sbx_str(e, "route"), route) == 0 && v)
			n = (long)json_object_get_int64(v);
	}
	json_object_put(o);
	return n;
}

int sbx_set_credit(const struct sbx *s, const char *org, long long cents)
{
	char body[64], path[128];
	struct sbx_resp r;
	snprintf(body, sizeof body, "{\"credit_cents\":%lld}", cents);
	snprintf(path, sizeof path, "/_sandbox/organizations/%s/credit", org);
	sbx_request(s, "PUT", path, s->admin_key, body, NULL, &r);
	int ok = r.status == 200;
	sbx_resp_free(&r);
	return ok ? 0 : -1;
}

int sbx_upload(const struct sbx *s, const char *filename, const void *data, size_t len, char *url, size_t n)
{
	char path[512];
	snprintf(path, sizeof path, "uploads/new?filename=%s", filename);
	long status = 0;
	json_object *o = sbx_call(s, "GET", path, NULL, &status);
	const char *u = sbx_str(o, "signedUrl");
	if (status != 200 || !u) {
		json_object_put(o);
		return -1;
	}
	snprintf(url, n, "%s", u);
	json_object_put(o);
	CURL *c = curl_easy_init();
	if (!c)
		return -1;
	struct grow b = {0};
	struct curl_slist *h = curl_slist_append(NULL, "Expect:");
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "PUT");
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, data);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, grow_write);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, &b);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	CURLcode rc = curl_easy_perform(c);
	long code = 0;
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	curl_slist_free_all(h);
	curl_easy_cleanup(c);
	free(b.data);
	return rc == CURLE_OK && code == 200 ? 0 : -1;
}

static void put_le(unsigned char *p, unsigned v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

void *sbx_make_wav(double seconds, size_t *len)
{
	unsigned rate = 8000, samples = (unsigned)(seconds * rate), data = samples * 2;
	unsigned char *w = calloc(1, 44 + (size_t)data);
	if (!w)
		return NULL;
	memcpy(w, "RIFF", 4);
	put_le(w + 4, 36 + data, 4);
	memcpy(w + 8, "WAVEfmt ", 8);
	put_le(w + 16, 16, 4);
	put_le(w + 20, 1, 2);
	put_le(w + 22, 1, 2);
	put_le(w + 24, rate, 4);
	put_le(w + 28, rate * 2, 4);
	put_le(w + 32, 2, 2);
	put_le(w + 34, 16, 2);
	memcpy(w + 36, "data", 4);
	put_le(w + 40, data, 4);
	for (unsigned i = 0; i < samples; i++)
		put_le(w + 44 + 2 * i, (i * 37u) & 0x3fffu, 2);
	*len = 44 + (size_t)data;
	return w;
}

/* ---- the loopback receiver ------------------------------------------------ */

#define RECV_MAX_POSTS 64

struct sbx_receiver {
	struct MHD_Daemon *d;
	char origin[64];
	void *wav;
	size_t wav_len;
	char *doc;
	int statuses[16];
	size_t nstatuses;
	pthread_mutex_t mx;
	char *posts[RECV_MAX_POSTS];
	size_t nposts;
};

struct recv_req {
	char *body;
	size_t len;
};

static enum MHD_Result recv_reply(struct MHD_Connection *c, unsigned status, const void *data, size_t len,
				  const char *ctype)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)(uintptr_t)data, MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	if (ctype)
		MHD_add_response_header(r, "Content-Type", ctype);
	enum MHD_Result ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

static enum MHD_Result recv_get(struct sbx_receiver *rv, struct MHD_Connection *c, const char *url)
{
	if (strcmp(url, "/media.wav") == 0)
		return recv_reply(c, 200, rv->wav, rv->wav_len, "audio/wav");
	if (strcmp(url, "/slow.wav") == 0) {
		/* Holds the fetch long enough to observe an ingestion in progress. */
		usleep(1500000);
		return recv_reply(c, 200, rv->wav, rv->wav_len, "audio/wav");
	}
	if (strcmp(url, "/doc.txt") == 0 && rv->doc)
		return recv_reply(c, 200, rv->doc, strlen(rv->doc), "text/plain");
	return recv_reply(c, 404, "not found", 9, "text/plain");
}

static enum MHD_Result recv_access(void *cls, struct MHD_Connection *c, const char *url, const char *method,
				   const char *version, const char *data, size_t *size, void **con_cls)
{
	(void)version;
	struct sbx_receiver *rv = cls;
	struct recv_req *rq = *con_cls;
	if (!rq) {
		rq = calloc(1, sizeof *rq);
		*con_cls = rq;
		return rq ? MHD_YES : MHD_NO;
	}
	if (strcmp(method, "POST") != 0)
		return recv_get(rv, c, url);
	if (*size) {
		char *nb = realloc(rq->body, rq->len + *size + 1);
		if (!nb)
			return MHD_NO;
		rq->body = nb;
		memcpy(rq->body + rq->len, data, *size);
		rq->len += *size;
		rq->body[rq->len] = '\0';
		*size = 0;
		return MHD_YES;
	}
	pthread_mutex_lock(&rv->mx);
	size_t i = rv->nposts;
	unsigned status = i < rv->nstatuses ? (unsigned)rv->statuses[i] : 200;
	if (i < RECV_MAX_POSTS) {
		rv->posts[i] = rq->body ? strdup(rq->body) : strdup("");
		rv->nposts++;
	}
	pthread_mutex_unlock(&rv->mx);
	return recv_reply(c, status, "{}", 2, "application/json");
}

static void recv_done(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
	(void)cls;
	(void)c;
	(void)toe;
	struct recv_req *rq = *con_cls;
	if (rq) {
		free(rq->body);
		free(rq);
	}
	*con_cls = NULL;
}

struct sbx_receiver *sbx_receiver_start(double media_seconds, const char *doc_text, const int *statuses,
					 size_t nstatuses)
{
	struct sbx_receiver *rv = calloc(1, sizeof *rv);
	if (!rv)
		return NULL;
	pthread_mutex_init(&rv->mx, NULL);
	rv->wav = sbx_make_wav(media_seconds, &rv->wav_len);
	rv->doc = doc_text ? strdup(doc_text) : NULL;
	for (size_t i = 0; i < nstatuses && i < 16; i++)
		rv->statuses[rv->nstatuses++] = statuses[i];
	struct sockaddr_in sa;
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rv->d = MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO, 0, NULL, NULL, recv_access, rv,
				 MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sa, MHD_OPTION_THREAD_POOL_SIZE, 2u,
				 MHD_OPTION_NOTIFY_COMPLETED, recv_done, NULL, MHD_OPTION_END);
	if (!rv->d) {
		free(rv->wav);
		free(rv->doc);
		free(rv);
		return NULL;
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(rv->d, MHD_DAEMON_INFO_BIND_PORT);
	snprintf(rv->origin, sizeof rv->origin, "http://127.0.0.1:%u", info ? (unsigned)info->port : 0u);
	return rv;
}

const char *sbx_receiver_origin(const struct sbx_receiver *r)
{
	return r->origin;
}

size_t sbx_receiver_posts(struct sbx_receiver *r)
{
	pthread_mutex_lock(&r->mx);
	size_t n = r->nposts;
	pthread_mutex_unlock(&r->mx);
	return n;
}

char *sbx_receiver_post_body(struct sbx_receiver *r, size_t i)
{
	pthread_mutex_lock(&r->mx);
	char *b = i < r->nposts && r->posts[i] ? strdup(r->posts[i]) : NULL;
	pthread_mutex_unlock(&r->mx);
	return b;
}

void sbx_receiver_stop(struct sbx_receiver *r)
{
	if (!r)
		return;
	MHD_stop_daemon(r->d);
	for (size_t i = 0; i < r->nposts; i++)
		free(r->posts[i]);
	pthread_mutex_destroy(&r->mx);
	free(r->wav);
	free(r->doc);
	free(r);
}

void sbx_child_env(const struct sbx *s, const char *dir)
{
	static const char *const xdg[][2] = {
		{"XDG_STATE_HOME", "state"}, {"XDG_CONFIG_HOME", "config"}, {"XDG_CACHE_HOME", "cache"},
	};
	char path[512];

	setenv("TERM", "xterm-256color", 1);
	setenv("LANG", "C.UTF-8", 1);
	setenv("LC_ALL", "C.UTF-8", 1);
	unsetenv("NO_COLOR");
	for (size_t i = 0; i < sizeof xdg / sizeof xdg[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, xdg[i][1]);
		setenv(xdg[i][0], path, 1);
	}
	unsetenv("STENO_CONFIG");
	unsetenv("STENO_PROFILE");
	if (s) {
		setenv("STENO_BASE_URL", s->base_url, 1);
		setenv("STENO_API_KEY", s->api_key, 1);
		setenv("STENO_ORG_ID", s->org_id, 1);
	} else {
		unsetenv("STENO_BASE_URL");
		unsetenv("STENO_API_KEY");
		unsetenv("STENO_ORG_ID");
	}
}
