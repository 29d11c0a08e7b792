#ifndef STENO_KEYS_CMD_H
#define STENO_KEYS_CMD_H

/* `steno keys [--roff]`: prints the browser's actions with their keys. Dispatched by main.c
 * (it needs both cli/ for the config and ui/ for the actions table). Returns an exit code. */

#include "cli/cli.h"

int keys_cmd_run(const struct cli_globals *g, int argc, char **argv);

#endif
