# tui/core: state and policy. No curses, no curl calls of its own.
noinst_LIBRARIES += libsteno_core.a
libsteno_core_a_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) $(INIH_CFLAGS)
libsteno_core_a_SOURCES = \
	%reldir%/placeholder.c
