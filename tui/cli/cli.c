#include "config.h"

#include "api/utf8.h"

#include "cli/cli.h"

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_watch.h"
#include "cli/cmds.h"
#include "cli/errors.h"
#include "cli/out.h"

/* The command table and dispatch. Every command parses its own options (getopt_long, with
 * argv[0] set to "steno NAME" so getopt's messages name it) before it reads any config. */

const struct cli_cmd cli_order_cmds[] = {
	{"create", cmd_order_create, "create a transcription or subtitling order", NULL, 0},
	{"translation", cmd_order_translation, "create a translation order", NULL, 0},
	{"show", cmd_order_show, "show an order", NULL, 0},
	{"confirm", cmd_order_confirm, "confirm an incomplete order", NULL, 0},
	{"watch", cmd_order_watch, "follow an order's state until it is final", NULL, 0},
};

/* cache and config read their subcommand themselves: these run the command (its --help). */
static const struct cli_cmd cache_cmds[] = {
	{"info", cmd_cache, "where the store is, its size, what it keeps", NULL, 0},
	{"clear", cmd_cache, "forget everything, or with --org the lists of one organization", NULL, 0},
};
static const struct cli_cmd config_cmds[] = {
	{"paths", cmd_config, "every path steno reads or writes", NULL, 0},
};
#define SUBS(t) (t), sizeof(t) / sizeof((t)[0])

const char *(*cli_theme_name)(size_t i);

const struct cli_cmd cli_cmds[] = {
	{"ls", cmd_ls, "list transcriptions (--all: every page)", NULL, 0},
	{"show", cmd_show, "show one transcription", NULL, 0},
	{"upload", cmd_upload, "upload a media file, print its signed URL", NULL, 0},
	{"transcribe", cmd_transcribe, "create a transcription from a file or URL", NULL, 0},
	{"rm", cmd_rm, "delete a transcription", NULL, 0},
	{"export", cmd_export, "export transcriptions and download the file", NULL, 0},
	{"download", cmd_download, "download the file of an existing export", NULL, 0},
	{"translate", cmd_translate, "translate a transcription (order or --task)", NULL, 0},
	{"order", cmd_order, "orders: create, translation, show, confirm, watch",
	 SUBS(cli_order_cmds)},
	{"watch", cmd_watch, "follow items' states until they settle (--list: the list too)", NULL, 0},
	{"orgs", cmd_orgs, "list the organizations the key can access", NULL, 0},
	{"glossaries", cmd_glossaries, "list the organization's glossaries", NULL, 0},
	{"style-guides", cmd_style_guides, "list the organization's style guides", NULL, 0},
	{"config", cmd_config, "config paths: every path steno reads or writes", SUBS(config_cmds)},
	{"languages", cmd_languages, "language codes (--pro, --translation)", NULL, 0},
	{"cache", cmd_cache, "the local store: info, clear [--org ID]", SUBS(cache_cmds)},
	{"index", cmd_index, "fill the local store with the transcripts' content", NULL, 0},
	{"search", cmd_search, "search the words of every transcript (local)", NULL, 0},
	{"folders", cmd_folders, "the folders steno has learned, per organization", NULL, 0},
	{"help", cmd_help_command, "help of steno or of a command: steno help [CMD [SUB]]", NULL, 0},
	{"completion", cmd_completion, "shell completion: steno completion bash|zsh|fish", NULL, 0},
};

#define N_CMDS (sizeof(cli_cmds) / sizeof(cli_cmds[0]))
#define N_ORDER (sizeof(cli_order_cmds) / sizeof(cli_order_cmds[0]))
const size_t cli_n_cmds = N_CMDS, cli_n_order_cmds = N_ORDER;

static FILE *help_sink;   /* cli_help_text: --help written here instead of stdout */

FILE *cmd_help_out(void)
{
	return help_sink ? help_sink : stdout;
}

int cmd_help(const char *usage)
{
	fputs(usage, cmd_help_out());
	fputs("\nGlobal options (before the command) and exit codes: steno --help, man steno.\n",
	      cmd_help_out());
	return CLI_EXIT_OK;
}

char *cli_help_text(const struct cli_cmd *c, const char *prefix)
{
	char *text = NULL, name[64];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	snprintf(name, sizeof name, "steno %s%s", prefix, c->name);
	char help[] = "--help";
	char *argv[] = {name, help, NULL};
	struct cli_globals g;
	memset(&g, 0, sizeof g);
	help_sink = f;
	int saved = opterr;
	opterr = 0;
	c->run(&g, 2, argv);
	opterr = saved;
	help_sink = NULL;
	fclose(f);
	return text;
}

long cmd_parse_long(const char *s)
{
	if (!s || !*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 15)
		return -1;
	errno = 0;
	long v = strtol(s, NULL, 10);
	return errno ? -1 : v;
}

int cmd_parse_simple(const char *cmd, int argc, char **argv, const char **org, bool *json,
		     const char *const *flags, bool *flag_vals, int max_args)
{
	struct option lo[8] = {
		{"org", required_argument, NULL, 'o'},
		{"json", no_argument, NULL, OPT_JSON},
		{"help", no_argument, NULL, 'h'},
	};
	int n = 3;
	for (int i = 0; flags && flags[i] && n < 7; i++, n++)
		lo[n] = (struct option){flags[i], no_argument, NULL, 200 + i};
	lo[n] = (struct option){NULL, 0, NULL, 0};
	int ch;
	optind = 0;
	while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		if (ch == 'o' && org)
			*org = optarg;
		else if (ch == OPT_JSON && json)
			*json = true;
		else if (ch >= 200 && ch < 205)
			flag_vals[ch - 200] = true;
		else if (ch == 'h')
			return -1;
		else
			return CLI_EXIT_USAGE;
	}
	if (argc - optind > max_args)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind + max_args]);
	return 0;
}

bool cli_is_command(const char *name)
{
	for (size_t i = 0; i < N_CMDS; i++)
		if (strcmp(cli_cmds[i].name, name) == 0)
			return true;
	return false;
}

void cli_print_commands(FILE *out)
{
	for (size_t i = 0; i < N_CMDS; i++)
		fprintf(out, "  %-13s %s\n", cli_cmds[i].name, cli_cmds[i].summary);
	/* Run by main.c (it reads the browser's table), listed here with the others. */
	fprintf(out, "  %-13s %s\n", "keys", "the browser's actions and their keys (--roff)");
}

void cli_print_usage(FILE *out)
{
	fprintf(out,
		"Usage: steno [OPTION]... [COMMAND [ARGS]]\n"
		"A terminal browser for a speech-to-text service's REST API. Without a COMMAND\n"
		"the interactive browser starts.\n"
		"\n"
		"Options:\n"
		"      --profile NAME   use this profile of the config file\n"
		"      --sandbox        start a local steno-sandbox with demo data and use it\n"
		"      --base-url URL   the API's base URL (overrides config and environment)\n"
		"      --org ID         the organization (an id or a profile's org.NAME)\n"
		"      --trace FILE     append one line per HTTP request to FILE\n"
		"      --read-only      refuse everything that changes or spends\n"
		"      --offline        send nothing: browse and read from the local store\n"
		"      --json           the command's --json (steno --json ls is steno ls --json)\n"
		"      --theme NAME     the browser's colour theme\n"
		"      --config FILE    read FILE instead of the default config file\n"
		"  -h, --help           show this help and exit\n"
		"  -V, --version        show the version and exit\n"
		"\n"
		"Commands (steno COMMAND --help for each):\n");
	cli_print_commands(out);
	fprintf(out, "\nExit status: 0 success, 1 API, network, job or file failure, 2 usage error,\n"
		     "3 a create's outcome unknown or ambiguous, 130 interrupted, 141 stdout closed.\n"
		     "steno help CMD: a command's help. See steno(1) and steno.conf(5).\n");
}

static int take_timeout(int *argc, char **argv, const char *name);
static int take_select(int *argc, char **argv, const char *name);

static int run_named(const struct cli_cmd *c, const char *prefix, const struct cli_globals *g,
		     int argc, char **argv)
{
	char name[64];
	snprintf(name, sizeof(name), "steno %s%s", prefix, c->name);
	char *saved = argv[0];
	static int depth;   /* order's subcommands run inside `order` */
	argv[0] = name;
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--json") == 0)
			cli_json_errors(true);
	depth++;
	int rc = take_timeout(&argc, argv, name);
	if (rc == 0)
		rc = take_select(&argc, argv, name);
	if (rc == 0)
		rc = c->run(g, argc, argv);
	if (rc == 0 && out_select_bad()) {
		cli_json_error(0, "usage", NULL, "--fields named a column the table does not have",
			       NULL);
		rc = CLI_EXIT_USAGE;
	}
	out_select(false, NULL);
	depth--;
	if (rc == CLI_EXIT_USAGE && !cli_error_was_said()) {
		/* getopt said what (an unknown option, a missing argument) */
		fprintf(stderr, "Try '%s --help'.\n", name);
		cli_error_said();
	}
	argv[0] = saved;
	if (depth == 0)
		cli_json_finish(rc);
	fflush(stdout);
	return rc;
}

int cmd_order(const struct cli_globals *g, int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		FILE *out = argc < 2 ? stderr : cmd_help_out();
		fputs("Usage: steno order SUBCOMMAND [ARGS]\n", out);
		for (size_t i = 0; i < N_ORDER; i++)
			fprintf(out, "  %-12s %s\n", cli_order_cmds[i].name, cli_order_cmds[i].summary);
		if (argc < 2)
			return cli_usage("order", "a SUBCOMMAND is required");
		return CLI_EXIT_OK;
	}
	for (size_t i = 0; i < N_ORDER; i++)
		if (strcmp(cli_order_cmds[i].name, argv[1]) == 0)
			return run_named(&cli_order_cmds[i], "order ", g, argc - 1, argv + 1);
	return cli_usage("order", "unknown subcommand '%s'", argv[1]);
}

/* Widths need a UTF-8 LC_CTYPE; when the user's locale is not UTF-8, C.UTF-8 is used for
 * measuring only (the bytes printed are the same). */
static void cli_locale(void)
{
	const char *cs = nl_langinfo(CODESET);
	if (!cs || strcmp(cs, "UTF-8") != 0)
		setlocale(LC_CTYPE, "C.UTF-8");
}

/* A duration: N seconds, or N followed by s, m or h. -1 when malformed. */
static long parse_duration_ms(const char *s)
{
	char *end = NULL;
	long v = s && *s >= '0' && *s <= '9' ? strtol(s, &end, 10) : -1;
	if (v < 0 || v > 1000000 || !end)
		return -1;
	long unit = !*end ? 1000 : !strcmp(end, "s") ? 1000 : !strcmp(end, "m") ? 60000
		: !strcmp(end, "h") ? 3600000 : -1;
	return unit < 0 ? -1 : v * unit;
}

/* --timeout D of a --wait, taken out of argv (before the command's own parsing): every
 * command that waits has it. 0, or a usage error. */
static int take_timeout(int *argc, char **argv, const char *name)
{
	bool waits = false;
	const char *value = NULL;
	int o = 1;
	for (int i = 1; i < *argc; i++) {
		bool end = strcmp(argv[i], "--") == 0;
		if (!end && !strcmp(argv[i], "--timeout") && i + 1 < *argc) {
			value = argv[++i];
			continue;
		}
		if (!end && !strncmp(argv[i], "--timeout=", 10)) {
			value = argv[i] + 10;
			continue;
		}
		if (!end && (!strcmp(argv[i], "--timeout")))
			return cli_usage(name + 6, "--timeout wants a duration (90, 90s, 5m, 1h)");
		waits = waits || !strcmp(argv[i], "--wait") || (!strcmp(name, "steno export") &&
			(!strcmp(argv[i], "-o") || !strncmp(argv[i], "--output", 8)));
		argv[o++] = argv[i];
		if (end)
			while (++i < *argc)
				argv[o++] = argv[i];
	}
	argv[o] = NULL;
	*argc = o;
	if (!value)
		return 0;
	long ms = parse_duration_ms(value);
	if (ms <= 0)
		return cli_usage(name + 6, "--timeout wants a duration (90, 90s, 5m, 1h), not '%s'",
				 value);
	if (!waits)
		return cli_usage(name + 6, "--timeout goes with --wait");
	cli_set_wait_timeout(ms);
	return 0;
}

/* -q and --fields a,b of the list commands (ls parses its own), taken out of argv. */
static int take_select(int *argc, char **argv, const char *name)
{
	static const char *const lists[] = {"steno orgs", "steno glossaries", "steno style-guides",
					     "steno languages", "steno folders"};
	bool list = false, quiet = false, json = false;
	for (size_t i = 0; i < sizeof lists / sizeof *lists; i++)
		list = list || !strcmp(name, lists[i]);
	if (!list)
		return 0;
	const char *fields = NULL;
	int o = 1;
	for (int i = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "-q") || !strcmp(argv[i], "--quiet")) {
			quiet = true;
			continue;
		}
		if (!strcmp(argv[i], "--fields") && i + 1 < *argc) {
			fields = argv[++i];
			continue;
		}
		if (!strncmp(argv[i], "--fields=", 9)) {
			fields = argv[i] + 9;
			continue;
		}
		json = json || !strcmp(argv[i], "--json");
		argv[o++] = argv[i];
	}
	argv[o] = NULL;
	*argc = o;
	if (quiet && (json || fields))
		return cli_usage(name + 6, "-q prints the first column alone: not with --json or "
					   "--fields");
	out_select(quiet, fields);
	return 0;
}

/* argv with "--json" added before a "--" (or at the end): the global --json. NULL on no
 * memory. Ownership: the array is malloc'd, its strings borrowed. */
static char **with_json(int argc, char **argv)
{
	char **v = malloc(((size_t)argc + 2) * sizeof(*v));
	if (!v)
		return NULL;
	int at = 1;
	while (at < argc && strcmp(argv[at], "--") != 0)
		at++;
	static char json[] = "--json";
	memcpy(v, argv, (size_t)at * sizeof(*v));
	v[at] = json;
	memcpy(v + at + 1, argv + at, (size_t)(argc - at) * sizeof(*v));
	v[argc + 1] = NULL;
	return v;
}

int cli_run(const struct cli_globals *g, int argc, char **argv)
{
	cli_locale();
	out_progress_init();
	cli_signals_install();
	for (size_t i = 0; i < N_CMDS; i++) {
		if (strcmp(cli_cmds[i].name, argv[0]) != 0)
			continue;
		if (!g->json)
			return run_named(&cli_cmds[i], "", g, argc, argv);
		char **v = with_json(argc, argv);
		if (!v) {
			fprintf(stderr, "steno: out of memory\n");
			return CLI_EXIT_FAIL;
		}
		int rc = run_named(&cli_cmds[i], "", g, argc + 1, v);
		free(v);
		return rc;
	}
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--json") == 0)
			cli_json_errors(true);
	if (g->json)
		cli_json_errors(true);
	fprintf(stderr, "steno: unknown command '%s'\nTry 'steno --help'.\n", argv[0]);
	char msg[300];
	snprintf(msg, sizeof msg, "unknown command '%.*s'", STENO_UTF8_CUT(argv[0], 200));
	char *clean = out_clean(msg);
	cli_json_error(0, "usage", NULL, clean ? clean : "unknown command", NULL);
	free(clean);
	cli_json_finish(CLI_EXIT_USAGE);
	return CLI_EXIT_USAGE;
}
