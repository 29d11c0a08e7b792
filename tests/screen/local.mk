# Screen tests: the ui framework on a fixed-size headless terminal (newterm on
# /dev/null, keys pushed into ncurses' queue, curscr dumped and compared with
# golden files in golden/; STENO_UPDATE_GOLDEN=1 rewrites them).
SCREEN_TEST_SOURCES = %reldir%/harness.c %reldir%/harness.h %reldir%/fake_panes.c %reldir%/fake_panes.h
SCREEN_TEST_LIBS = libsteno_ui.a libsteno_core.a libsteno_api.a $(NCURSESW_LIBS) $(TEST_LIBS) -lm
SCREEN_TEST_CFLAGS = $(TEST_CFLAGS) $(NCURSESW_CFLAGS)

check_PROGRAMS += tests/screen/test_screen_frame tests/screen/test_screen_term tests/screen/test_screen_loop
TESTS += tests/screen/test_screen_frame tests/screen/test_screen_term tests/screen/test_screen_loop

tests_screen_test_screen_frame_SOURCES = %reldir%/test_screen_frame.c $(SCREEN_TEST_SOURCES)
tests_screen_test_screen_frame_CFLAGS = $(SCREEN_TEST_CFLAGS)
tests_screen_test_screen_frame_LDADD = $(SCREEN_TEST_LIBS)
tests_screen_test_screen_term_SOURCES = %reldir%/test_screen_term.c $(SCREEN_TEST_SOURCES)
tests_screen_test_screen_term_CFLAGS = $(SCREEN_TEST_CFLAGS)
tests_screen_test_screen_term_LDADD = $(SCREEN_TEST_LIBS)
tests_screen_test_screen_loop_SOURCES = %reldir%/test_screen_loop.c $(SCREEN_TEST_SOURCES)
tests_screen_test_screen_loop_CFLAGS = $(SCREEN_TEST_CFLAGS)
tests_screen_test_screen_loop_LDADD = $(SCREEN_TEST_LIBS)

EXTRA_DIST += %reldir%/golden
include %reldir%/panes.mk
include %reldir%/dialogs.mk
