# tui/cli: headless subcommands on api + core.
noinst_LIBRARIES += libsteno_cli.a
libsteno_cli_a_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) $(CURL_CFLAGS) $(SQLITE_CFLAGS)
libsteno_cli_a_SOURCES = \
	%reldir%/cli.c %reldir%/cli.h \
	%reldir%/ctx.c %reldir%/ctx.h %reldir%/wait.c \
	%reldir%/cmds.h \
	%reldir%/out.c %reldir%/out.h \
	%reldir%/cmd_ls.c %reldir%/cmd_ls.h %reldir%/cmd_ls_out.c %reldir%/cmd_show.c %reldir%/cmd_org.c \
	%reldir%/cmd_watch.c %reldir%/cmd_watch.h \
	%reldir%/cmd_create.c %reldir%/cmd_order.c %reldir%/cmd_export.c \
	%reldir%/cmd_search.c

# steno --sandbox lives in core (the TUI uses it too).
libsteno_core_a_SOURCES += tui/core/sandbox_launch.c tui/core/sandbox_launch.h

dist_man_MANS += docs/steno.1
