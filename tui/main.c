/* steno: entry point. Parses global options and chooses the mode. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "api/version.h"

static void print_usage(FILE *out)
{
	fprintf(out,
		"Usage: steno [OPTION]...\n"
		"A terminal browser for a speech-to-text service's REST API.\n"
		"\n"
		"  -h, --help     show this help and exit\n"
		"  -V, --version  show the version and exit\n");
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			print_usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version")) {
			printf("steno %s\n", steno_version());
			return 0;
		}
		fprintf(stderr, "steno: unknown option '%s'\n", argv[i]);
		print_usage(stderr);
		return 2;
	}
	print_usage(stderr);
	return 2;
}
