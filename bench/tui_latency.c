/* tui_latency: key-to-screen latency of the TUI while N transfers run in its engine.
 *
 *   STENO_BASE_URL=... STENO_API_KEY=... STENO_ORG_ID=... STENO_ADMIN_KEY=... \
 *   tui_latency N_TRANSFERS N_KEYS
 *   tui_latency 0 N_KEYS large    (a large list: see below)
 *
 * The app runs in this process on a headless 30x120 terminal (output to /dev/null, as the
 * screen tests do) with the real engine, store and panes. Once the first page is on screen,
 * the sandbox is told to delay every answer by 30 s (PUT /_sandbox/faults) and N GET
 * requests are submitted to the app's engine (connections raised to N so that all of them
 * are on the wire). Then `j`/`k` are pushed one at a time; the latency is from pushing the
 * key to the end of the doupdate() that shows the moved cursor (one app_step: engine
 * poll + perform of the running transfers, key dispatch, draw). Prints median and p99 ms.
 *
 * `large`: no transfer; once the first page is on screen, `A` loads every page of the list
 * (page_limit 5000; the local store as configured by XDG_CACHE_HOME, off when
 * TUI_LATENCY_CACHE_OFF is set), then three rounds of N_KEYS keys that scroll down (nine `j`
 * then one PgDn, over and over, so that the cursor crosses the list's windows), each key timed
 * as above: on the list as the server orders it, sorted by name (`s name Enter`), and
 * filtered (`/lang:fr Enter`, the sort kept). The keys that sort and filter are timed too
 * (each key of the filter is applied as it is typed). */
#include "config.h"

#include <curl/curl.h>
#include <curses.h>
#include <locale.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/endpoints.h"
#include "core/conf.h"
#include "ui/app.h"
#include "ui/session.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int set_faults(const char *spec)
{
	const char *base = getenv("STENO_BASE_URL"), *admin = getenv("STENO_ADMIN_KEY");
	char url[512], auth[256], body[256];
	CURL *c = curl_easy_init();
	struct curl_slist *h = NULL;
	long status = 0;

	if (!c || !base || !admin)
		return -1;
	/* the admin routes hang off the origin, not off /api/v1 */
	snprintf(url, sizeof url, "%.*s/_sandbox/faults", (int)(strstr(base, "/api/") ?
		 (size_t)(strstr(base, "/api/") - base) : strlen(base)), base);
	snprintf(auth, sizeof auth, "Authorization: Bearer %s", admin);
	snprintf(body, sizeof body, "{\"spec\":\"%s\"}", spec);
	h = curl_slist_append(h, auth);
	h = curl_slist_append(h, "Content-Type: application/json");
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "PUT");
	curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, fwrite);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, stderr);
	CURLcode rc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(h);
	curl_easy_cleanup(c);
	return rc == CURLE_OK && status == 200 ? 0 : -1;
}

static int done_count;

static void on_done(void *ud, struct steno_transcription *res, const struct steno_error *err)
{
	(void)ud;
	(void)res;
	(void)err;
	done_count++;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void settle(struct app *app)
{
	double end = now_ms() + 20000;

	while (app_busy(app) && now_ms() < end)
		app_step(app, 50);
	app_step(app, 0);
}

/* One key pushed and shown; its ms. */
static double press(struct app *app, int key)
{
	ungetch(key);
	double t0 = now_ms();
	app_step(app, 0);
	return now_ms() - t0;
}

static void report(const char *what, double *lat, int keys)
{
	qsort(lat, (size_t)keys, sizeof *lat, cmp_double);
	printf("%s_median_ms %.3f\n", what, lat[keys / 2]);
	printf("%s_p99_ms %.3f\n", what, lat[(keys * 99) / 100]);
}

/* Types keys (each shown, then the app settled); prints the slowest one as what_max_ms. */
static void type_keys(struct app *app, const char *what, const char *keys, double limit_ms)
{
	double worst = 0;
	for (const char *k = keys; *k; k++) {
		double ms = press(app, (unsigned char)*k);
		worst = ms > worst ? ms : worst;
		double end = now_ms() + limit_ms;
		while (app_busy(app) && now_ms() < end)
			app_step(app, 50);
		app_step(app, 0);
	}
	printf("%s_max_ms %.3f\n", what, worst);
}

/* Rounds of scrolling a large list: as listed, sorted, filtered. */
static int large(struct app *app, int keys)
{
	double *lat = calloc((size_t)keys, sizeof *lat);
	double t0 = now_ms();
	if (!lat)
		return 1;
	type_keys(app, "load_all_key", "A", 900000);
	printf("load_all_ms %.1f\n", now_ms() - t0);
	static const char *const setup[] = { "", "sname\n", "/lang:fr\n" };
	static const char *const names[] = { "scroll_server", "scroll_sorted", "scroll_filtered" };
	for (int round = 0; round < 3; round++) {
		if (round)
			type_keys(app, round == 1 ? "sort_key" : "filter_key", setup[round], 60000);
		press(app, 'g');   /* from the top */
		for (int i = 0; i < keys; i++) {
			lat[i] = press(app, i % 10 == 9 ? KEY_NPAGE : 'j');
			app_step(app, 5);
		}
		report(names[round], lat, keys);
	}
	free(lat);
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100, keys = argc > 2 ? atoi(argv[2]) : 200;
	bool big = argc > 3 && !strcmp(argv[3], "large");
	struct steno_config cfg;
	struct steno_error err;
	char msg[640];

	setlocale(LC_ALL, "C.UTF-8");
	setvbuf(stdout, NULL, _IOLBF, 0);   /* each figure as it comes (a bench may stop it) */
	signal(SIGPIPE, SIG_IGN);
	setenv("LINES", "30", 1);
	setenv("COLUMNS", "120", 1);
	curl_global_init(CURL_GLOBAL_DEFAULT);
	if (config_init_defaults(&cfg, &err) < 0)
		return 1;
	cfg.connections = n > 0 ? n : 1;
	if (big) {
		cfg.page_limit = 5000;
		cfg.cache_off = getenv("TUI_LATENCY_CACHE_OFF") != NULL;
	}
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	struct ui_options o = { .base_url = getenv("STENO_BASE_URL"),
		.api_key = getenv("STENO_API_KEY"), .org_id = getenv("STENO_ORG_ID"),
		.profile = "bench", .config = &cfg, .term = "xterm-256color", .in = in, .out = out };
	struct app *app = app_new(&o, msg, sizeof msg);
	if (!app) {
		fprintf(stderr, "%s\n", msg);
		return 1;
	}
	settle(app);
	if (big) {
		int rc = large(app, keys);
		app_destroy(app);
		config_free(&cfg);
		fclose(out);
		fclose(in);
		curl_global_cleanup();
		return rc;
	}
	if (n > 0 && set_faults("latency=1.0:30000ms") < 0) {
		fprintf(stderr, "tui_latency: cannot set the sandbox's faults\n");
		return 1;
	}
	const char *id = app_selected_id(app);
	char tid[128];
	snprintf(tid, sizeof tid, "%s", id ? id : "x");
	for (int i = 0; i < n; i++)
		if (steno_api_transcription_retrieve(app_http(app), tid, on_done, NULL, &err) < 0)
			return 1;
	/* let every transfer connect and send its request */
	for (int i = 0; i < 20; i++)
		app_step(app, 10);
	double *lat = calloc((size_t)keys, sizeof *lat);
	for (int i = 0; i < keys; i++) {
		ungetch(i % 2 ? 'k' : 'j');
		double t0 = now_ms();
		app_step(app, 0);
		lat[i] = now_ms() - t0;
		app_step(app, 5);   /* the transfers keep running between keys */
	}
	qsort(lat, (size_t)keys, sizeof *lat, cmp_double);
	printf("transfers_running %u\n", (unsigned)(n - done_count));
	printf("key_latency_median_ms %.3f\n", lat[keys / 2]);
	printf("key_latency_p99_ms %.3f\n", lat[(keys * 99) / 100]);
	free(lat);
	if (n > 0)
		set_faults("");
	app_destroy(app);
	config_free(&cfg);
	fclose(out);
	fclose(in);
	curl_global_cleanup();
	return 0;
}
