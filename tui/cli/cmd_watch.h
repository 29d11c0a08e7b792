#ifndef STENO_CLI_CMD_WATCH_H
#define STENO_CLI_CMD_WATCH_H

/* steno watch, and the watch under `order watch`: the sync engine headless. */

#include <stdbool.h>

#include "cli/cli.h"
#include "cli/ctx.h"

int cmd_watch(const struct cli_globals *g, int argc, char **argv);
/* Follows an order until it settles, printing each state it goes through on a line (to
 * stderr under --json). Exit code: CLI_EXIT_FAIL when it ended failed, waits for action
 * (incomplete, locked: as order confirm --wait) or was not found. */
int cmd_watch_order(struct cli_ctx *c, const char *id, bool json);

#endif
