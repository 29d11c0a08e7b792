# tui/core: state and policy. No curses, no curl calls of its own.
noinst_LIBRARIES += libsteno_core.a
libsteno_core_a_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) $(INIH_CFLAGS)
libsteno_core_a_SOURCES = \
	%reldir%/paths.c %reldir%/paths.h \
	%reldir%/secret.c %reldir%/secret.h \
	%reldir%/conf.c %reldir%/conf.h %reldir%/conf_internal.h \
	%reldir%/conf_load.c \
	%reldir%/account.c \
	%reldir%/scheduler.c %reldir%/scheduler.h \
	%reldir%/state.c %reldir%/state.h %reldir%/state_internal.h %reldir%/state_file.c \
	%reldir%/store.c %reldir%/store.h %reldir%/store_internal.h \
	%reldir%/store_view.c %reldir%/store_activity.c \
	%reldir%/jobs.c %reldir%/jobs.h %reldir%/jobs_internal.h %reldir%/jobs_start.c \
	%reldir%/jobs_resolve.c \
	%reldir%/transcript_fetch.c %reldir%/transcript_fetch.h

dist_man_MANS += docs/steno.conf.5
