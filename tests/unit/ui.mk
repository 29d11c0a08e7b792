# unit tests: ui (no terminal: strings, tables and parsers)
UI_UNIT_LIBS = libsteno_ui.a libsteno_core.a libsteno_api.a $(NCURSESW_LIBS) $(TEST_LIBS) -lm
UI_UNIT_CFLAGS = $(TEST_CFLAGS) $(NCURSESW_CFLAGS)

check_PROGRAMS += tests/unit/test_ui_text tests/unit/test_ui_format tests/unit/test_ui_layout \
	tests/unit/test_ui_actions tests/unit/test_ui_theme
TESTS += tests/unit/test_ui_text tests/unit/test_ui_format tests/unit/test_ui_layout \
	tests/unit/test_ui_actions tests/unit/test_ui_theme

tests_unit_test_ui_text_SOURCES = %reldir%/test_ui_text.c
tests_unit_test_ui_text_CFLAGS = $(UI_UNIT_CFLAGS)
tests_unit_test_ui_text_LDADD = $(UI_UNIT_LIBS)
tests_unit_test_ui_format_SOURCES = %reldir%/test_ui_format.c
tests_unit_test_ui_format_CFLAGS = $(UI_UNIT_CFLAGS)
tests_unit_test_ui_format_LDADD = $(UI_UNIT_LIBS)
tests_unit_test_ui_layout_SOURCES = %reldir%/test_ui_layout.c
tests_unit_test_ui_layout_CFLAGS = $(UI_UNIT_CFLAGS)
tests_unit_test_ui_layout_LDADD = $(UI_UNIT_LIBS)
tests_unit_test_ui_actions_SOURCES = %reldir%/test_ui_actions.c
tests_unit_test_ui_actions_CFLAGS = $(UI_UNIT_CFLAGS)
tests_unit_test_ui_actions_LDADD = $(UI_UNIT_LIBS)
tests_unit_test_ui_theme_SOURCES = %reldir%/test_ui_theme.c
tests_unit_test_ui_theme_CFLAGS = $(UI_UNIT_CFLAGS)
tests_unit_test_ui_theme_LDADD = $(UI_UNIT_LIBS)

check_PROGRAMS += tests/unit/test_ui_cut
TESTS += tests/unit/test_ui_cut
tests_unit_test_ui_cut_SOURCES = %reldir%/test_ui_cut.c
tests_unit_test_ui_cut_CFLAGS = $(UI_UNIT_CFLAGS)
tests_unit_test_ui_cut_LDADD = $(UI_UNIT_LIBS)
