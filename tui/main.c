/* steno: entry point. Parses the global options, starts a sandbox for --sandbox, and
 * chooses the mode: a command (tui/cli) or the interactive browser (tui/ui). */
#include "config.h"

#include <curl/curl.h>
#include <getopt.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "api/version.h"
#include "cli/cli.h"
#include "cli/cmds.h"
#include "cli/ctx.h"
#include "cli/errors.h"
#include "core/quit_signal.h"
#include "core/sandbox_launch.h"
#include "core/secret.h"
#include "keys_cmd.h"
#include "ui/app.h"
#include "ui/theme.h"

enum { OPT_PROFILE = 1, OPT_SANDBOX, OPT_BASE_URL, OPT_ORG, OPT_TRACE, OPT_READ_ONLY,
       OPT_THEME, OPT_CONFIG, OPT_JSON_GLOBAL, OPT_OFFLINE };

/* A bad global option (getopt said which): the hint, and with --json anywhere on the
 * command line the failure object on stdout, as every command's. */
static void global_usage_error(int argc, char **argv)
{
	fprintf(stderr, "Try 'steno --help'.\n");
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--json") == 0)
			cli_json_errors(true);
	cli_json_error(0, "usage", NULL, "bad global option (stderr says which; see steno --help)",
		       NULL);
	cli_json_finish(2);
}

/* Fills g from argv up to the command; returns the index of the command (argc when none),
 * or -1 after a usage message, or -2 when --help/--version was handled. */
static int parse_globals(int argc, char **argv, struct cli_globals *g, int *sandbox)
{
	static const struct option lo[] = {
		{"profile", required_argument, NULL, OPT_PROFILE},
		{"sandbox", no_argument, NULL, OPT_SANDBOX},
		{"base-url", required_argument, NULL, OPT_BASE_URL},
		{"org", required_argument, NULL, OPT_ORG},
		{"trace", required_argument, NULL, OPT_TRACE},
		{"read-only", no_argument, NULL, OPT_READ_ONLY},
		{"offline", no_argument, NULL, OPT_OFFLINE},
		{"json", no_argument, NULL, OPT_JSON_GLOBAL},
		{"theme", required_argument, NULL, OPT_THEME},
		{"config", required_argument, NULL, OPT_CONFIG},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int ch;
	while ((ch = getopt_long(argc, argv, "+hV", lo, NULL)) != -1) {
		switch (ch) {
		case OPT_PROFILE: g->profile = optarg; break;
		case OPT_SANDBOX: *sandbox = 1; break;
		case OPT_BASE_URL: g->base_url = optarg; break;
		case OPT_ORG: g->org = optarg; break;
		case OPT_TRACE: g->trace = optarg; break;
		case OPT_READ_ONLY: g->read_only = true; break;
		case OPT_OFFLINE: g->offline = true; break;
		case OPT_JSON_GLOBAL: g->json = true; break;
		case OPT_THEME: g->theme = optarg; break;
		case OPT_CONFIG: g->config_file = optarg; break;
		case 'h': cli_print_usage(stdout); return -2;
		case 'V': printf("steno %s\n", steno_version()); return -2;
		default: global_usage_error(argc, argv); return -1;
		}
	}
	return optind;
}

/* The interactive browser, on the same configuration and account as the commands. */
static int run_tui(const struct cli_globals *g)
{
	struct cli_ctx c;
	int rc = cli_ctx_open(&c, g, NULL);
	if (rc == 0)
		rc = cli_ctx_account(&c);
	if (rc == 0) {
		struct ui_options o = {
			.base_url = c.acct.base_url,
			.api_key = c.acct.api_key,
			.org_id = g->org ? cli_org(&c, NULL) : c.acct.org_id,
			.profile = c.acct.profile,
			.theme = g->theme,
			.read_only = g->read_only || c.cfg.read_only,
			.offline = g->offline || c.cfg.offline,
			.ascii = c.cfg.ascii,
			.mouse = c.cfg.mouse,
			.trace_path = g->trace,
			.config = &c.cfg,
			.paths = &c.paths,
			.index_content = c.cfg.index_content,
		};
		rc = ui_main(&o);
	}
	cli_ctx_close(&c);
	return rc;
}

static int run_mode(struct cli_globals *g, int argc, char **argv, int cmd)
{
	if (cmd >= argc)
		return run_tui(g);
	if (strcmp(argv[cmd], "keys") == 0)
		return keys_cmd_run(g, argc - cmd, argv + cmd);
	return cli_run(g, argc - cmd, argv + cmd);
}

/* The key is in this process's memory (and in its environment): no core dump may carry it
 * and no other process of the user may read it through ptrace or /proc/PID/mem, unless
 * STENO_ALLOW_CORE_DUMPS=1 asks for dumps to debug a crash. No child inherits
 * STENO_API_KEY. */
static void harden_process(void)
{
	const char *dumps = getenv("STENO_ALLOW_CORE_DUMPS");
	secret_env_take();
	if (dumps && strcmp(dumps, "1") == 0)
		return;
	struct rlimit none = {0, 0};
	setrlimit(RLIMIT_CORE, &none);
	prctl(PR_SET_DUMPABLE, 0L, 0L, 0L, 0L);
}

/* --theme's completion (cli/complete.c): ui's bundled themes, handed down from here. */
static const char *theme_name(size_t i)
{
	for (size_t k = 0; theme_builtins[k].name; k++)
		if (k == i)
			return theme_builtins[k].name;
	return NULL;
}

int main(int argc, char **argv)
{
	harden_process();
	cli_theme_name = theme_name;
	struct cli_globals g = {0};
	int sandbox = 0;
	int cmd = parse_globals(argc, argv, &g, &sandbox);
	if (cmd < 0) {
		secret_env_forget();
		return cmd == -2 ? 0 : 2;
	}
	setlocale(LC_ALL, "");
	signal(SIGPIPE, SIG_IGN);
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		fprintf(stderr, "steno: cannot initialise libcurl\n");
		return 1;
	}
	struct sandbox_launch sb = {.pid = 0, .out_fd = -1, .err_fd = -1};
	if (sandbox) {
		struct steno_error err;
		steno_error_clear(&err);
		/* a hang-up or SIGTERM from here on still stops the sandbox and removes its
		 * directory: the browser's loop and the commands' waits end on it */
		quit_signal_install();
		if (sandbox_launch_start(&sb, NULL, NULL, 0, &err) != 0) {
			fprintf(stderr, "steno: --sandbox: %s\n", err.message);
			curl_global_cleanup();
			return 1;
		}
		g.sandbox_base_url = sb.base_url;
		g.sandbox_api_key = sb.api_key;
		g.sandbox_org_id = sb.org_id;
		g.sandbox_state_file = sb.state_file;
		g.sandbox_cache_dir = sb.cache_dir;
	}
	int rc = run_mode(&g, argc, argv, cmd);
	if (sandbox)
		sandbox_launch_stop(&sb);
	curl_global_cleanup();
	secret_env_forget();
	return rc;
}
