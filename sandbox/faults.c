/* faults: parse and draw injected failures. */
#include "config.h"

#include "faults.h"

#include "util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fault_spec {
	double p[FAULT_KINDS];
	double latency_p;
	int latency_ms;
};

static const char *const fault_names[FAULT_KINDS] = {"", "500", "503", "429", "drop", "truncate", "malformed", "drop_post"};

static pthread_mutex_t faults_lock = PTHREAD_MUTEX_INITIALIZER;
static struct fault_spec faults_active;

static int parse_prob(const char *s, double *out, char **end)
{
	*out = strtod(s, end);
	/* Written so that NaN fails too: it compares false with everything. */
	return (*end != s && *out >= 0.0 && *out <= 1.0) ? 0 : -1;
}

static int parse_item(struct fault_spec *fs, char *item, char *err, size_t errlen)
{
	char *eq = strchr(item, '=');
	char *end = NULL;
	if (!eq) {
		snprintf(err, errlen, "fault '%s': expected KIND=PROBABILITY", item);
		return -1;
	}
	*eq = '\0';
	const char *kind = item, *val = eq + 1;
	if (strcmp(kind, "latency") == 0) {
		if (parse_prob(val, &fs->latency_p, &end) != 0 || *end != ':') {
			snprintf(err, errlen, "latency: expected latency=PROB:MSms");
			return -1;
		}
		const char *digits = end + 1;
		long ms = strtol(digits, &end, 10);
		if (end == digits || ms < 0 || ms > 60000 || (strcmp(end, "ms") != 0 && *end != '\0')) {
			snprintf(err, errlen, "latency: delay must be 0..60000ms");
			return -1;
		}
		fs->latency_ms = (int)ms;
		return 0;
	}
	for (int k = FAULT_500; k < FAULT_KINDS; k++) {
		if (strcmp(kind, fault_names[k]) != 0)
			continue;
		if (parse_prob(val, &fs->p[k], &end) != 0 || *end) {
			snprintf(err, errlen, "fault %s: probability must be a number in [0,1]", kind);
			return -1;
		}
		return 0;
	}
	snprintf(err, errlen, "unknown fault kind '%s' (500, 503, 429, latency, truncate, malformed, drop, drop_post)", kind);
	return -1;
}

int faults_set(const char *spec, char *err, size_t errlen)
{
	struct fault_spec fs;
	memset(&fs, 0, sizeof fs);
	if (spec && *spec && strcmp(spec, "none") != 0) {
		char *copy = strdup(spec);
		if (!copy) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		char *save = NULL;
		for (char *item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
			if (parse_item(&fs, item, err, errlen) != 0) {
				free(copy);
				return -1;
			}
		}
		free(copy);
	}
	pthread_mutex_lock(&faults_lock);
	faults_active = fs;
	pthread_mutex_unlock(&faults_lock);
	return 0;
}

const char *faults_kind_name(enum fault_kind kind)
{
	return kind >= FAULT_NONE && kind < FAULT_KINDS ? fault_names[kind] : "";
}

int faults_roll_latency(void)
{
	struct fault_spec fs;
	pthread_mutex_lock(&faults_lock);
	fs = faults_active;
	pthread_mutex_unlock(&faults_lock);
	return fs.latency_p > 0 && util_rand01() < fs.latency_p ? fs.latency_ms : 0;
}

void faults_roll(struct fault_roll *out, int is_post)
{
	struct fault_spec fs;
	pthread_mutex_lock(&faults_lock);
	fs = faults_active;
	pthread_mutex_unlock(&faults_lock);
	out->kind = FAULT_NONE;
	out->latency_ms = faults_roll_latency();
	for (int k = FAULT_500; k < FAULT_KINDS; k++) {
		if (k == FAULT_DROP_POST && !is_post)
			continue;
		if (fs.p[k] > 0 && util_rand01() < fs.p[k]) {
			out->kind = (enum fault_kind)k;
			return;
		}
	}
}

char *faults_describe(void)
{
	struct fault_spec fs;
	pthread_mutex_lock(&faults_lock);
	fs = faults_active;
	pthread_mutex_unlock(&faults_lock);
	char buf[512] = "";
	size_t len = 0;
	for (int k = FAULT_500; k < FAULT_KINDS; k++)
		if (fs.p[k] > 0)
			len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s=%g", len ? "," : "", fault_names[k],
						fs.p[k]);
	if (fs.latency_p > 0)
		snprintf(buf + len, sizeof buf - len, "%slatency=%g:%dms", len ? "," : "", fs.latency_p, fs.latency_ms);
	return strdup(buf);
}
