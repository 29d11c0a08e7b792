# tui/ui: ncurses only. Safe text, formatting, layout, actions and keys, themes,
# terminal care, the pane framework and the panes that need no API data.
noinst_LIBRARIES += libsteno_ui.a
libsteno_ui_a_CFLAGS = $(AM_CFLAGS) $(NCURSESW_CFLAGS) $(SQLITE_CFLAGS)
libsteno_ui_a_SOURCES = \
	%reldir%/actions.c %reldir%/actions.h %reldir%/actions.def \
	%reldir%/diag.c %reldir%/diag.h \
	%reldir%/draw.c %reldir%/draw.h \
	%reldir%/format.c %reldir%/format.h \
	%reldir%/frame.c %reldir%/frame.h \
	%reldir%/help.c %reldir%/help.h \
	%reldir%/help_pane.c %reldir%/help_pane.h \
	%reldir%/order_price.c %reldir%/order_price.h \
	%reldir%/keymap.c %reldir%/keymap.h \
	%reldir%/keys.c %reldir%/keys.h \
	%reldir%/layout.c %reldir%/layout.h \
	%reldir%/listview.c %reldir%/listview.h \
	%reldir%/loop.c %reldir%/loop.h \
	%reldir%/pane.c %reldir%/pane.h \
	%reldir%/prompt.c %reldir%/prompt.h \
	%reldir%/line_input.c %reldir%/line_input.h \
	%reldir%/session.c %reldir%/session.h \
	%reldir%/statusbar.c %reldir%/statusbar.h \
	%reldir%/style.c %reldir%/style.h \
	%reldir%/table.c %reldir%/table.h \
	%reldir%/term.c %reldir%/term.h \
	%reldir%/text.c %reldir%/text.h \
	%reldir%/theme.c %reldir%/theme_color.c %reldir%/theme.h
# Every bundled theme compiled in (tig's builtin config): steno works uninstalled; theme
# files on disk override them. The default comes first in dist_theme_DATA (themes/local.mk).
nodist_libsteno_ui_a_SOURCES = %reldir%/theme_builtin.c
CLEANFILES += %reldir%/theme_builtin.c
EXTRA_DIST += %reldir%/embed-themes.sh

%reldir%/theme_builtin.c: $(dist_theme_DATA) $(top_srcdir)/%reldir%/embed-themes.sh
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(SHELL) $(top_srcdir)/%reldir%/embed-themes.sh $(top_srcdir) $(dist_theme_DATA) > $@-t && mv $@-t $@
include %reldir%/dialogs.mk
include %reldir%/panes.mk
