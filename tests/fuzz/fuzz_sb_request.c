#include "config.h"

/* Fuzzes the sandbox's request parsing and routing without a running server: the pure
 * functions under libmicrohttpd's callbacks. The static ones are reached by including their
 * source files here (main.c with its main renamed: libFuzzer brings its own), so the
 * sandbox's files stay as they are. Byte 0 picks the part, the rest is its input:
 *   0 route:   "METHOD PATH" through route_find (the real routing table)
 *   1 body:    a request body through req_json_object/body_wrapper and the field readers
 *   2 faults:  a --faults / PUT /_sandbox/faults SPEC through faults_set
 *   3 rate:    a --rate RATE/BURST through parse_rate, then the token bucket
 *   4 signed:  "PATH\nEXPIRES\nSIGNATURE" through signed_url_check
 *   5 ids:     parse_digits, is_http_url, bind_is_ip (query values, URLs, --bind) */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define main sandbox_main_unused
#include "sandbox/main.c"
#undef main
#include "sandbox/server.c"
#include "sandbox/signed_url.c"
#include "sandbox/routes_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(sb_cfg.secret, sizeof sb_cfg.secret, "%064d", 7);
	snprintf(sb_cfg.origin, sizeof sb_cfg.origin, "http://127.0.0.1:8080");
	clock_init(1.0, 0);
	return 0;
}

/* Every reply the parsers make is a JSON object with an "error" string and a 4xx status. */
static void check_reply(struct sb_req *r, int ok)
{
	if (ok) {
		if (r->resp)
			abort();
		return;
	}
	if (r->status < 400 || r->status > 499 || !r->resp || !r->is_json)
		abort();
	json_object *o = json_tokener_parse(r->resp);
	json_object *e = NULL;
	if (!o || !json_object_object_get_ex(o, "error", &e) || !json_object_is_type(e, json_type_string))
		abort();
	json_object_put(o);
	free(r->resp);
	r->resp = NULL;
	r->status = 0;
}

static void fuzz_route(char *s)
{
	struct sb_req r;
	memset(&r, 0, sizeof r);
	char *sp = strchr(s, ' ');
	if (!sp)
		return;
	*sp = '\0';
	r.method = s;
	r.path = sp + 1;
	const struct sb_route *rt = route_find(&r);
	check_reply(&r, rt != NULL);
	if (!rt)
		return;
	if (strcmp(rt->method, r.method) != 0 || r.nparams < 0 || r.nparams > SB_MAX_PARAMS)
		abort();
	for (int i = 0; i < r.nparams; i++)
		if (!r.params[i][0] || strchr(r.params[i], '/') || !strstr(r.path, r.params[i]))
			abort();
}

static void fuzz_fields(struct sb_req *r, json_object *o)
{
	const char *str;
	int b = 0, present;
	int64_t id;
	json_object *arr;
	check_reply(r, field_string(r, o, "name", 0, &str) == 0);
	check_reply(r, field_string(r, o, "language", 1, &str) == 0);
	check_reply(r, field_bool(r, o, "is_subtitle", &b) == 0);
	if (field_id(r, o, "organization_id", 0, &id, &present) == 0) {
		check_reply(r, 1);
		if (present && id <= 0)
			abort();
	} else {
		check_reply(r, 0);
	}
	if (field_string_array(r, o, "transcription_ids", 0, &arr) == 0) {
		check_reply(r, 1);
		for (size_t i = 0; arr && i < json_object_array_length(arr); i++)
			if (!json_object_is_type(json_object_array_get_idx(arr, i), json_type_string))
				abort();
	} else {
		check_reply(r, 0);
	}
}

static void fuzz_body(const char *body, size_t len, int wrap)
{
	static const char *const wrappers[] = {NULL, "transcription", "export", "order", "task"};
	struct sb_req r;
	memset(&r, 0, sizeof r);
	r.body = (char *)(uintptr_t)body;
	r.body_len = len;
	json_object *root = NULL, *inner = NULL;
	int rc = body_wrapper(&r, wrappers[wrap % 5], &root, &inner);
	check_reply(&r, rc == 0);
	if (rc != 0)
		return;
	if (!root || !inner || !json_object_is_type(inner, json_type_object))
		abort();
	fuzz_fields(&r, inner);
	json_object_put(root);
}

static void fuzz_faults(const char *spec)
{
	char err[256] = "";
	if (faults_set(spec, err, sizeof err) != 0) {
		if (!err[0])
			abort(); /* a refusal says why */
		return;
	}
	char *d1 = faults_describe();
	if (!d1)
		return;
	/* the canonical form reads back to itself */
	if (faults_set(d1, err, sizeof err) != 0)
		abort();
	char *d2 = faults_describe();
	if (d2 && strcmp(d1, d2) != 0)
		abort();
	struct fault_roll roll;
	faults_roll(&roll, 1);
	if (roll.latency_ms < 0 || roll.latency_ms > 60000 || roll.kind >= FAULT_KINDS)
		abort();
	free(d2);
	free(d1);
	faults_set("none", err, sizeof err);
}

static void fuzz_rate(const char *s)
{
	sb_cfg.rate = sb_cfg.burst = 0;
	if (parse_rate(s) != 0)
		return;
	if (sb_cfg.rate != 0 && !(sb_cfg.rate > 0 && sb_cfg.burst >= 1 && sb_cfg.burst <= 1e9))
		abort();
	ratelimit_init(sb_cfg.rate, sb_cfg.burst);
	int retry = 0;
	for (int i = 0; i < 3; i++)
		if (!ratelimit_take("fuzz-key", &retry) && retry < 1)
			abort();
	ratelimit_free();
}

static void fuzz_signed(char *s)
{
	char *path = s, *exp = strchr(s, '\n'), *sig = NULL;
	if (exp) {
		*exp++ = '\0';
		sig = strchr(exp, '\n');
		if (sig)
			*sig++ = '\0';
	}
	/* only the real signature of this path and expiry passes (the fuzzer never sees it: see
	 * util_streq_ct below) */
	if (signed_url_check(path, exp, sig) != -1) {
		char real[65];
		if (!exp || !sig || sign(path, strtoll(exp, NULL, 10), real) != 0 || !util_streq_ct(real, sig))
			abort();
	}
	/* a real signature passes until its expiry, for its own path and expiry only */
	long long when = exp ? strtoll(exp, NULL, 10) : 0;
	char good[65], other[65], ebuf[32];
	if (sign(path, when, good) != 0) {
		/* too long to sign with this expiry (the check above refused it); a path that is too
		 * long for any expiry gets no URL at all */
		char *url = strlen(path) >= 1023 ? signed_url_make(path) : NULL;
		if (url)
			abort();
		return;
	}
	snprintf(ebuf, sizeof ebuf, "%lld", when);
	double before = clock_now();
	int rc = signed_url_check(path, ebuf, good);
	double after = clock_now();
	if ((double)when >= after ? rc != 0 : (double)when < before ? rc != -2 : rc == -1)
		abort();
	/* util_streq_ct, not strcmp: libFuzzer hooks strcmp and would learn the signature */
	if (sign(path, when ^ 1, other) != 0 || util_streq_ct(good, other))
		abort(); /* the expiry must be covered by the signature */
}

static void fuzz_ids(const char *s)
{
	int64_t v = parse_digits(s);
	size_t n = strlen(s);
	int digits = n > 0 && n <= 18 && strspn(s, "0123456789") == n;
	if ((v >= 0) != digits)
		abort();
	(void)is_http_url(s);
	(void)bind_is_ip(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	switch (data[0] % 6) {
	case 0: fuzz_route(s); break;
	case 1: fuzz_body((const char *)data + 1, size - 1, data[0] / 6); break;
	case 2: fuzz_faults(s); break;
	case 3: fuzz_rate(s); break;
	case 4: fuzz_signed(s); break;
	default: fuzz_ids(s); break;
	}
	free(s);
	return 0;
}
