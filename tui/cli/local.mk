# tui/cli: headless subcommands on api + core.
noinst_LIBRARIES += libsteno_cli.a
libsteno_cli_a_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
libsteno_cli_a_SOURCES = \
	%reldir%/placeholder.c
