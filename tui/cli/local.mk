# tui/cli: headless subcommands on api + core.
noinst_LIBRARIES += libsteno_cli.a
libsteno_cli_a_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) $(CURL_CFLAGS) $(SQLITE_CFLAGS)
libsteno_cli_a_SOURCES = \
	%reldir%/cli.c %reldir%/cli.h \
	%reldir%/ctx.c %reldir%/ctx.h %reldir%/wait.c %reldir%/errors.c %reldir%/errors.h %reldir%/complete.c \
	%reldir%/cmds.h \
	%reldir%/out.c %reldir%/out.h \
	%reldir%/cmd_ls.c %reldir%/cmd_ls.h %reldir%/cmd_ls_out.c %reldir%/cmd_show.c %reldir%/cmd_org.c \
	%reldir%/cmd_watch.c %reldir%/cmd_watch.h \
	%reldir%/cmd_create.c %reldir%/cmd_order.c %reldir%/cmd_export.c %reldir%/cmd_cache.c \
	%reldir%/cmd_search.c \
	%reldir%/cmd_folders.c

# steno --sandbox lives in core (the TUI uses it too).
libsteno_core_a_SOURCES += tui/core/sandbox_launch.c tui/core/sandbox_launch.h

dist_man_MANS += docs/steno.1

# Shell completion, made from the command table by the steno just built (steno completion
# SHELL), installed where bash-completion, zsh and fish look under $(datadir).
bashcompletiondir = $(datadir)/bash-completion/completions
zshcompletiondir = $(datadir)/zsh/site-functions
fishcompletiondir = $(datadir)/fish/vendor_completions.d
bashcompletion_DATA = completions/steno
zshcompletion_DATA = completions/_steno
fishcompletion_DATA = completions/steno.fish
CLEANFILES += completions/steno completions/_steno completions/steno.fish
completions/steno: steno$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) completions && ./steno$(EXEEXT) completion bash > $@.tmp && mv $@.tmp $@
completions/_steno: steno$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) completions && ./steno$(EXEEXT) completion zsh > $@.tmp && mv $@.tmp $@
completions/steno.fish: steno$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) completions && ./steno$(EXEEXT) completion fish > $@.tmp && mv $@.tmp $@
