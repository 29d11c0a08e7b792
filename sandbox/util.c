/* util: ids, time text, files. */
#include "config.h"

#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void hex_encode(const unsigned char *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
}

void util_random_hex(char *out, size_t nbytes)
{
	unsigned char buf[64];
	if (nbytes > sizeof buf)
		nbytes = sizeof buf;
	if (RAND_bytes(buf, (int)nbytes) != 1) {
		/* RAND_bytes only fails without entropy; fall back to time-mixed rand. */
		for (size_t i = 0; i < nbytes; i++)
			buf[i] = (unsigned char)(util_rand01() * 256.0);
	}
	hex_encode(buf, nbytes, out);
}

void util_uuid4(char out[37])
{
	char h[33];
	util_random_hex(h, 16);
	h[12] = '4';
	h[16] = "89ab"[h[16] % 4];
	snprintf(out, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", h, h + 8, h + 12, h + 16, h + 20);
}

void util_det_hex(const char *label, long n, char out[33])
{
	char in[128];
	unsigned char md[SHA256_DIGEST_LENGTH];
	int len = snprintf(in, sizeof in, "%s:%ld", label, n);
	SHA256((const unsigned char *)in, (size_t)len, md);
	hex_encode(md, 16, out);
}

void util_iso8601(double t, char out[32])
{
	time_t secs = (time_t)t;
	int ms = (int)((t - (double)secs) * 1000.0);
	struct tm tm;
	if (ms < 0)
		ms = 0;
	if (ms > 999)
		ms = 999;
	char tmp[96];
	gmtime_r(&secs, &tm);
	snprintf(tmp, sizeof tmp, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
	tmp[31] = '\0';
	memcpy(out, tmp, strlen(tmp) + 1);
}

char *util_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return NULL;
	char *s = malloc((size_t)n + 1);
	if (!s)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

int util_mkdir_p(const char *path)
{
	char buf[4096];
	if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
		return -1;
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0700) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	if (mkdir(buf, 0700) != 0 && errno != EEXIST)
		return -1;
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int util_rm_rf(const char *path)
{
	return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

double util_real_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static pthread_mutex_t rand_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t rand_state;

double util_rand01(void)
{
	pthread_mutex_lock(&rand_lock);
	if (rand_state == 0) {
		unsigned char b[8];
		if (RAND_bytes(b, 8) == 1)
			memcpy(&rand_state, b, 8);
		rand_state |= 1;
	}
	/* xorshift64*: fast, good enough for fault dice */
	rand_state ^= rand_state >> 12;
	rand_state ^= rand_state << 25;
	rand_state ^= rand_state >> 27;
	uint64_t v = rand_state * 2685821657736338717ULL;
	pthread_mutex_unlock(&rand_lock);
	return (double)(v >> 11) / 9007199254740992.0;
}

char *util_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap + 1);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap)
			break;
		cap *= 2;
		char *nb = realloc(buf, cap + 1);
		if (!nb) {
			free(buf);
			buf = NULL;
		} else {
			buf = nb;
		}
	}
	fclose(f);
	if (!buf)
		return NULL;
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

int util_write_file(const char *path, const void *data, size_t len)
{
	char *tmp = util_printf("%s.tmp", path);
	if (!tmp)
		return -1;
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int rc = -1;
	if (fd >= 0) {
		const char *p = data;
		size_t left = len;
		while (left > 0) {
			ssize_t w = write(fd, p, left);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				break;
			p += w;
			left -= (size_t)w;
		}
		if (left == 0 && fsync(fd) == 0)
			rc = 0;
		close(fd);
		if (rc == 0 && rename(tmp, path) != 0)
			rc = -1;
		if (rc != 0)
			unlink(tmp);
	}
	free(tmp);
	return rc;
}

int util_streq_ct(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char d = (unsigned char)(la != lb);
	for (size_t i = 0; i < la && i < lb; i++)
		d |= (unsigned char)(a[i] ^ b[i]);
	return d == 0;
}
