#include "config.h"

#include "cli/cli.h"

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_watch.h"
#include "cli/cmds.h"

/* The command table and dispatch. Every command parses its own options (getopt_long, with
 * argv[0] set to "steno NAME" so getopt's messages name it) before it reads any config. */

struct cli_cmd {
	const char *name;
	int (*run)(const struct cli_globals *g, int argc, char **argv);
	const char *summary;
};

static const struct cli_cmd cmds[] = {
	{"ls", cmd_ls, "list transcriptions (--all: every page)"},
	{"show", cmd_show, "show one transcription"},
	{"upload", cmd_upload, "upload a media file, print its signed URL"},
	{"transcribe", cmd_transcribe, "create a transcription from a file or URL"},
	{"rm", cmd_rm, "delete a transcription"},
	{"export", cmd_export, "export transcriptions and download the file"},
	{"download", cmd_download, "download the file of an existing export"},
	{"translate", cmd_translate, "translate a transcription (order or --task)"},
	{"order", cmd_order, "orders: create, translation, show, confirm, watch"},
	{"watch", cmd_watch, "follow items' states until they settle (--list: the list too)"},
	{"orgs", cmd_orgs, "list the organizations the key can access"},
	{"glossaries", cmd_glossaries, "list the organization's glossaries"},
	{"style-guides", cmd_style_guides, "list the organization's style guides"},
	{"config", cmd_config, "config paths: every path steno reads or writes"},
	{"languages", cmd_languages, "language codes (--pro, --translation)"},
	{"index", cmd_index, "fill the local store with the transcripts' content"},
	{"search", cmd_search, "search the words of every transcript (local)"},
};

static const struct cli_cmd order_cmds[] = {
	{"create", cmd_order_create, "create a transcription or subtitling order"},
	{"translation", cmd_order_translation, "create a translation order"},
	{"show", cmd_order_show, "show an order"},
	{"confirm", cmd_order_confirm, "confirm an incomplete order"},
	{"watch", cmd_order_watch, "follow an order's state until it is final"},
};

#define N_CMDS (sizeof(cmds) / sizeof(cmds[0]))
#define N_ORDER (sizeof(order_cmds) / sizeof(order_cmds[0]))

int cmd_help(const char *usage)
{
	fputs(usage, stdout);
	fputs("\nGlobal options (before the command) and exit codes: steno --help, man steno.\n",
	      stdout);
	return CLI_EXIT_OK;
}

long cmd_parse_long(const char *s)
{
	if (!s || !*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 15)
		return -1;
	errno = 0;
	long v = strtol(s, NULL, 10);
	return errno ? -1 : v;
}

bool cli_is_command(const char *name)
{
	for (size_t i = 0; i < N_CMDS; i++)
		if (strcmp(cmds[i].name, name) == 0)
			return true;
	return false;
}

void cli_print_commands(FILE *out)
{
	for (size_t i = 0; i < N_CMDS; i++)
		fprintf(out, "  %-13s %s\n", cmds[i].name, cmds[i].summary);
	/* Run by main.c (it reads the browser's table), listed here with the others. */
	fprintf(out, "  %-13s %s\n", "keys", "the browser's actions and their keys (--roff)");
}

static int run_named(const struct cli_cmd *c, const char *prefix, const struct cli_globals *g,
		     int argc, char **argv)
{
	char name[64];
	snprintf(name, sizeof(name), "steno %s%s", prefix, c->name);
	char *saved = argv[0];
	argv[0] = name;
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--json") == 0)
			cli_json_errors(true);
	int rc = c->run(g, argc, argv);
	argv[0] = saved;
	fflush(stdout);
	return rc;
}

int cmd_order(const struct cli_globals *g, int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		FILE *out = argc < 2 ? stderr : stdout;
		fputs("Usage: steno order SUBCOMMAND [ARGS]\n", out);
		for (size_t i = 0; i < N_ORDER; i++)
			fprintf(out, "  %-12s %s\n", order_cmds[i].name, order_cmds[i].summary);
		return argc < 2 ? CLI_EXIT_USAGE : CLI_EXIT_OK;
	}
	for (size_t i = 0; i < N_ORDER; i++)
		if (strcmp(order_cmds[i].name, argv[1]) == 0)
			return run_named(&order_cmds[i], "order ", g, argc - 1, argv + 1);
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

int cli_run(const struct cli_globals *g, int argc, char **argv)
{
	cli_locale();
	out_progress_init();
	cli_signals_install();
	for (size_t i = 0; i < N_CMDS; i++)
		if (strcmp(cmds[i].name, argv[0]) == 0)
			return run_named(&cmds[i], "", g, argc, argv);
	fprintf(stderr, "steno: unknown command '%s'\nTry 'steno --help'.\n", argv[0]);
	return CLI_EXIT_USAGE;
}
