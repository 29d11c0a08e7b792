#include "config.h"

#include <stdio.h>
#include <string.h>

#include <getopt.h>
#include <stdbool.h>

#include "cli/cli.h"
#include "cli/ctx.h"
#include "keys_cmd.h"
#include "ui/help.h"
#include "ui/keymap.h"

/* `steno keys`: the actions table with the keys in effect (the defaults plus the config's
 * bind lines), as text or as the man page's roff. The man page's KEYS section is the
 * --roff output of an empty config, checked by tests/integration/test_cli_keys.
 * It lives beside main.c, not in cli/: it reads both the config (through cli/ctx.h) and
 * the browser's actions table (ui/), and only the entry point may depend on both rooms. */

static const char keys_usage[] =
	"Usage: steno keys [--roff]\n"
	"Print every action of the browser with its keys (the defaults changed by the\n"
	"config's bind and unbind lines) and its help.\n"
	"      --roff   print the man page's roff form instead\n"
	"  -h, --help   show this help and exit\n";

static int keys_parse_args(int argc, char **argv, bool *roff)
{
	static const struct option lo[] = {
		{"roff", no_argument, NULL, 'r'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int ch;
	optind = 0;
	while ((ch = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
		if (ch == 'r')
			*roff = true;
		else if (ch == 'h')
			return -1;
		else
			return CLI_EXIT_USAGE;
	}
	if (optind < argc)
		return cli_usage("keys", "unexpected argument '%s'", argv[optind]);
	return 0;
}

/* The config's bind lines on top of the defaults; bad lines are reported, not fatal
 * (the browser starts with them too). */
static void keys_apply_config(struct keymap *km, const struct cli_ctx *c)
{
	struct ui_diag d;
	ui_diag_clear(&d);
	for (size_t i = 0; i < c->cfg.n_bindings; i++) {
		const struct config_binding *b = &c->cfg.bindings[i];
		char line[512];
		snprintf(line, sizeof line, "bind %s %s", b->key, b->action);
		keymap_apply_line(km, line, "config", b->line, &d);
	}
	for (int i = 0; i < d.count; i++)
		fprintf(stderr, "steno keys: %s\n", d.msg[i]);
}

int keys_cmd_run(const struct cli_globals *g, int argc, char **argv)
{
	bool roff = false;
	char name[] = "steno keys"; /* getopt names the program in its messages */
	char *saved = argv[0];
	argv[0] = name;
	int rc = keys_parse_args(argc, argv, &roff);
	argv[0] = saved;
	if (rc != 0)
		return rc < 0 ? (fputs(keys_usage, stdout), CLI_EXIT_OK) : rc;
	struct cli_ctx c;
	rc = cli_ctx_open(&c, g, "keys");
	struct keymap km = {0};
	if (rc == 0 && keymap_init(&km) < 0) {
		fprintf(stderr, "steno keys: out of memory\n");
		rc = CLI_EXIT_FAIL;
	}
	if (rc == 0) {
		keys_apply_config(&km, &c);
		if (help_write(stdout, &km, roff ? HELP_OUT_ROFF : HELP_OUT_TEXT) < 0 ||
		    fflush(stdout) != 0) {
			fprintf(stderr, "steno keys: cannot write the table\n");
			rc = CLI_EXIT_FAIL;
		}
	}
	keymap_free(&km);
	cli_ctx_close(&c);
	return rc;
}
