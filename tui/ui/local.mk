# tui/ui: ncurses only.
noinst_LIBRARIES += libsteno_ui.a
libsteno_ui_a_CFLAGS = $(AM_CFLAGS) $(NCURSESW_CFLAGS)
libsteno_ui_a_SOURCES = \
	%reldir%/placeholder.c
