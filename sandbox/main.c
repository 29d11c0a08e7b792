/* steno-sandbox: entry point. Flags, data directory, first-run setup (organizations, keys,
 * demo seed), the ready lines, then serve until SIGINT/SIGTERM. */
#include "config.h"

#include "asr.h"
#include "auth.h"
#include "clock.h"
#include "db.h"
#include "faults.h"
#include "fetch.h"
#include "ratelimit.h"
#include "routes.h"
#include "sandbox.h"
#include "seed.h"
#include "server.h"
#include "util.h"
#include "webhook.h"
#include "work.h"

#include <arpa/inet.h>
#include <getopt.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sb_config sb_cfg;

static void usage(FILE *f)
{
	fprintf(f, "Usage: steno-sandbox [OPTION]...\n"
		   "A local, persistent implementation of the transcription API (see steno-sandbox(1)).\n\n"
		   "  --port N             listen port (default 0: a free port)\n"
		   "  --bind ADDR          listen address (default 127.0.0.1)\n"
		   "  --data DIR           data directory (default: a fresh temp dir, removed on exit)\n"
		   "  --seed-demo N        seed demo data with N transcriptions (first run of a data dir)\n"
		   "  --clock-speed X      sandbox clock runs X times real time (default 1)\n"
		   "  --page-size N        transcriptions per list page (default 20)\n"
		   "  --rate-limit R/B     token bucket per key: R requests/s, burst B (default 10/50; off)\n"
		   "  --api-form FORM      current (default) or legacy response form\n"
		   "  --faults SPEC        inject faults, e.g. 500=0.2,503=0.05,429=0.05,latency=0.1:2000ms,\n"
		   "                       truncate=0.05,malformed=0.05,drop=0.02,drop_post=0.05\n"
		   "  --allow-remote-fetch fetch media and call webhooks beyond loopback\n"
		   "  --asr on|off         recognise the speech of English (en, en-*) media (default: on when\n"
		   "                       built with pocketsphinx); off, and for other languages: invented text\n"
		   "  --asr-threads N      decoder threads, about 100 MB each (default 1, at most 16)\n"
		   "  --help, --version\n\n"
		   "When ready, prints STENO_BASE_URL, STENO_API_KEY, STENO_ADMIN_KEY and STENO_ORG_ID lines.\n");
	fprintf(f, "%s\n", asr_built() ? "Speech recognition: built in (pocketsphinx, English)."
				       : "Speech recognition: not built in (no pocketsphinx): --asr off only.");
}

static int bad_flag(const char *flag, const char *why)
{
	fprintf(stderr, "steno-sandbox: %s: %s\n", flag, why);
	fprintf(stderr, "Try 'steno-sandbox --help'.\n");
	return 2;
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
	char *end = NULL;
	*out = strtod(s, &end);
	return end != s && *end == '\0' && *out >= lo && *out <= hi ? 0 : -1;
}

static int parse_rate(const char *s)
{
	if (strcmp(s, "off") == 0 || strcmp(s, "0") == 0) {
		sb_cfg.rate = 0;
		return 0;
	}
	char *end = NULL;
	sb_cfg.rate = strtod(s, &end);
	/* written so that NaN fails too (found by fuzzing: "nan/5" was accepted) */
	if (end == s || *end != '/' || !(sb_cfg.rate > 0 && sb_cfg.rate <= 1e9))
		return -1;
	return parse_double(end + 1, 1, 1e9, &sb_cfg.burst);
}

static int bind_is_ip(const char *s)
{
	unsigned char buf[sizeof(struct in6_addr)];
	return strcmp(s, "localhost") == 0 || inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1;
}

enum { OPT_PORT = 256, OPT_BIND, OPT_DATA, OPT_SEED, OPT_SPEED, OPT_PAGE, OPT_RATE, OPT_FORM, OPT_FAULTS, OPT_REMOTE,
       OPT_ASR, OPT_ASR_THREADS, OPT_HELP, OPT_VERSION };

static int parse_one(int opt, const char *arg, const char *flag)
{
	double d;
	char err[256];
	switch (opt) {
	case OPT_PORT:
		if (parse_double(arg, 0, 65535, &d) != 0 || d != (int)d)
			return bad_flag(flag, "expected a port number 0-65535");
		sb_cfg.port = (int)d;
		return 0;
	case OPT_BIND:
		if (strlen(arg) >= sizeof sb_cfg.bind || !bind_is_ip(arg))
			return bad_flag(flag, "expected an IPv4 or IPv6 address (or localhost)");
		snprintf(sb_cfg.bind, sizeof sb_cfg.bind, "%s", arg);
		return 0;
	case OPT_DATA:
		free(sb_cfg.data_dir);
		sb_cfg.data_dir = strdup(arg);
		return sb_cfg.data_dir ? 0 : 1;
	case OPT_SEED:
		if (parse_double(arg, 0, 1000000, &d) != 0 || d != (long)d)
			return bad_flag(flag, "expected a count 0-1000000");
		sb_cfg.seed_demo = (long)d;
		return 0;
	case OPT_SPEED:
		if (parse_double(arg, 0.001, 1e6, &sb_cfg.clock_speed) != 0)
			return bad_flag(flag, "expected a number from 0.001 to 1000000");
		return 0;
	case OPT_PAGE:
		if (parse_double(arg, 1, 1000, &d) != 0 || d != (int)d)
			return bad_flag(flag, "expected a page size 1-1000");
		sb_cfg.page_size = (int)d;
		return 0;
	case OPT_RATE:
		return parse_rate(arg) == 0 ? 0 : bad_flag(flag, "expected RATE/BURST (e.g. 10/50) or off");
	case OPT_FORM:
		if (strcmp(arg, "current") != 0 && strcmp(arg, "legacy") != 0)
			return bad_flag(flag, "expected current or legacy");
		sb_cfg.legacy = strcmp(arg, "legacy") == 0;
		return 0;
	case OPT_FAULTS:
		if (faults_set(arg, err, sizeof err) != 0)
			return bad_flag(flag, err);
		return 0;
	case OPT_REMOTE:
		sb_cfg.allow_remote = 1;
		return 0;
	case OPT_ASR:
		if (strcmp(arg, "on") != 0 && strcmp(arg, "off") != 0)
			return bad_flag(flag, "expected on or off");
		if (strcmp(arg, "on") == 0 && !asr_built())
			return bad_flag(flag, "this steno-sandbox was built without speech recognition (pocketsphinx)");
		sb_cfg.asr = strcmp(arg, "on") == 0;
		return 0;
	case OPT_ASR_THREADS:
		if (parse_double(arg, 1, 16, &d) != 0 || d != (int)d)
			return bad_flag(flag, "expected a thread count 1-16");
		sb_cfg.asr_threads = (int)d;
		return 0;
	default:
		return 2;
	}
}

/* 0 to run, -1 to exit 0 (help/version), else the exit status. */
static int parse_args(int argc, char **argv)
{
	static const struct option opts[] = {
		{"port", required_argument, NULL, OPT_PORT}, {"bind", required_argument, NULL, OPT_BIND},
		{"data", required_argument, NULL, OPT_DATA}, {"seed-demo", required_argument, NULL, OPT_SEED},
		{"clock-speed", required_argument, NULL, OPT_SPEED}, {"page-size", required_argument, NULL, OPT_PAGE},
		{"rate-limit", required_argument, NULL, OPT_RATE}, {"api-form", required_argument, NULL, OPT_FORM},
		{"faults", required_argument, NULL, OPT_FAULTS}, {"allow-remote-fetch", no_argument, NULL, OPT_REMOTE},
		{"asr", required_argument, NULL, OPT_ASR}, {"asr-threads", required_argument, NULL, OPT_ASR_THREADS},
		{"help", no_argument, NULL, OPT_HELP}, {"version", no_argument, NULL, OPT_VERSION},
		{NULL, 0, NULL, 0}};
	int opt;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (opt == OPT_HELP) {
			usage(stdout);
			return -1;
		}
		if (opt == OPT_VERSION) {
			printf("steno-sandbox %s\n", PACKAGE_VERSION);
			return -1;
		}
		if (opt == '?' || opt == ':') {
			const char *flag = argv[optind - 1];
			return bad_flag(flag, opt == ':' || (optopt && strchr("", optopt)) ? "missing argument" :
					"unknown option or missing argument");
		}
		int rc = parse_one(opt, optarg, argv[optind - 1]);
		if (rc != 0)
			return rc;
	}
	if (optind < argc)
		return bad_flag(argv[optind], "unexpected argument");
	return 0;
}

static int data_dir_prepare(void)
{
	if (!sb_cfg.data_dir) {
		char tmpl[] = "/tmp/steno-sandbox-XXXXXX";
		const char *tmpdir = getenv("TMPDIR");
		char *t = util_printf("%s/steno-sandbox-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
		if (!t || !mkdtemp(t)) {
			free(t);
			if (!mkdtemp(tmpl))
				return -1;
			t = strdup(tmpl);
		}
		sb_cfg.data_dir = t;
		sb_cfg.created_dir = 1;
	}
	static const char *const subs[] = {"", "/uploads", "/media", "/exports"};
	for (size_t i = 0; i < 4; i++) {
		char *p = util_printf("%s%s", sb_cfg.data_dir, subs[i]);
		int rc = p ? util_mkdir_p(p) : -1;
		free(p);
		if (rc != 0) {
			fprintf(stderr, "steno-sandbox: cannot create the data directory %s\n", sb_cfg.data_dir);
			return -1;
		}
	}
	return 0;
}

/* First run of a data dir: secret, admin key, the demo and second organizations. */
static int first_run(void)
{
	char *secret = db_meta_get("secret");
	if (secret) {
		snprintf(sb_cfg.secret, sizeof sb_cfg.secret, "%s", secret);
		free(secret);
		return 0;
	}
	char key[64], buf[32];
	util_random_hex(sb_cfg.secret, 32);
	int64_t demo = auth_org_create("Demo Organization — Démo 演示", 1000000);
	int64_t second = auth_org_create("Zweite Organisation — 第二", 50000);
	if (demo < 0 || second < 0 || auth_key_create(0, 1, key) != 0 || db_meta_set("admin_key", key) != 0 ||
	    auth_key_create(demo, 0, key) != 0 || db_meta_set("demo_key", key) != 0 ||
	    auth_key_create(second, 0, key) != 0 || db_meta_set("second_key", key) != 0)
		return -1;
	snprintf(buf, sizeof buf, "%lld", (long long)demo);
	db_meta_set("demo_org", buf);
	snprintf(buf, sizeof buf, "%lld", (long long)second);
	db_meta_set("second_org", buf);
	return db_meta_set("secret", sb_cfg.secret);
}

static int maybe_seed(void)
{
	if (sb_cfg.seed_demo < 0)
		return 0;
	char *done = db_meta_get("seeded");
	free(done);
	if (done)
		return 0;
	char *demo = db_meta_get("demo_org"), *second = db_meta_get("second_org");
	int rc = demo && second ? seed_demo(atoll(demo), atoll(second), sb_cfg.seed_demo) : -1;
	free(demo);
	free(second);
	return rc == 0 ? db_meta_set("seeded", "1") : -1;
}

static void print_ready(void)
{
	char *key = db_meta_get("demo_key"), *admin = db_meta_get("admin_key"), *org = db_meta_get("demo_org");
	printf("STENO_BASE_URL=%s/api/v1\nSTENO_API_KEY=%s\nSTENO_ADMIN_KEY=%s\nSTENO_ORG_ID=%s\n", sb_cfg.origin,
	       key ? key : "", admin ? admin : "", org ? org : "");
	fflush(stdout);
	free(key);
	free(admin);
	free(org);
}

static int setup(void)
{
	if (data_dir_prepare() != 0 || db_init(sb_cfg.data_dir) != 0)
		return -1;
	char *off = db_meta_get("clock_offset");
	clock_init(sb_cfg.clock_speed, off ? atof(off) : 0.0);
	free(off);
	if (first_run() != 0 || maybe_seed() != 0) {
		fprintf(stderr, "steno-sandbox: cannot initialise the database\n");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	snprintf(sb_cfg.bind, sizeof sb_cfg.bind, "127.0.0.1");
	sb_cfg.seed_demo = -1;
	sb_cfg.clock_speed = 1.0;
	sb_cfg.page_size = 20;
	sb_cfg.rate = 10;
	sb_cfg.burst = 50;
	sb_cfg.asr = asr_built();
	sb_cfg.asr_threads = 1;
	int rc = parse_args(argc, argv);
	if (rc != 0) {
		free(sb_cfg.data_dir);
		return rc < 0 ? 0 : rc;
	}
	/* Signals are taken synchronously by sigwait in this thread; every thread inherits the mask. */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* a file-size limit (ulimit -f) makes a write fail with EFBIG, answered 507 as a full
	 * disk, instead of killing the server */
	signal(SIGXFSZ, SIG_IGN);
	fetch_global_init();
	ratelimit_init(sb_cfg.rate, sb_cfg.burst);
	int status = 1;
	if (setup() == 0 && server_start() == 0) {
		if (work_start() == 0 && webhook_start() == 0 && asr_start() == 0) {
			print_ready();
			int sig = 0;
			sigwait(&set, &sig);
			status = 0;
		}
		server_stop();
		asr_stop();
		webhook_stop();
		work_stop();
		clock_save();
	}
	ratelimit_free();
	db_shutdown();
	fetch_global_cleanup();
	if (sb_cfg.created_dir)
		util_rm_rf(sb_cfg.data_dir);
	free(sb_cfg.data_dir);
	return status;
}
