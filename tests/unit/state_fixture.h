#ifndef STENO_TEST_STATE_FIXTURE_H
#define STENO_TEST_STATE_FIXTURE_H

/* The fixture of the state file's tests: a private temp dir, the file's path in it, an
 * empty state, and two server origins. */

#include "core/paths.h"
#include "core/state.h"
#include "core_helpers.h"

#define A "https://api.example.com"
#define B "http://127.0.0.1:4000"

static char *dir;
static char file[512];
static struct steno_error err;
static struct steno_state st;

static void setup(void)
{
	dir = core_tmpdir();
	snprintf(file, sizeof file, "%s/state/steno/state.json", dir);
	steno_error_clear(&err);
	state_init(&st);
}

static void teardown(void)
{
	state_free(&st);
	core_rm_rf(dir);
}

#endif
