# Screen tests of the TUI's panes against a real steno-sandbox (issue 5), and end-to-end
# runs of the steno binary on a pty (libvterm).
PANES_TEST_SOURCES = %reldir%/panes_fixture.c %reldir%/panes_fixture.h \
	%reldir%/harness.c %reldir%/harness.h $(SANDBOX_FIXTURE)
PANES_TEST_CFLAGS = $(TEST_CFLAGS) $(NCURSESW_CFLAGS) $(MHD_CFLAGS) $(PTHREAD_CFLAGS)
PANES_TEST_LIBS = libsteno_ui.a libsteno_core.a libsteno_api.a $(NCURSESW_LIBS) \
	$(TEST_LIBS) $(CURL_LIBS) $(JSONC_LIBS) $(INIH_LIBS) $(MHD_LIBS) $(PTHREAD_LIBS) -lm

check_PROGRAMS += tests/screen/test_panes_browse
TESTS += tests/screen/test_panes_browse
tests_screen_test_panes_browse_SOURCES = %reldir%/test_panes_browse.c $(PANES_TEST_SOURCES)
tests_screen_test_panes_browse_CFLAGS = $(PANES_TEST_CFLAGS)
tests_screen_test_panes_browse_LDADD = $(PANES_TEST_LIBS)

check_PROGRAMS += tests/screen/test_panes_terminal tests/screen/test_panes_errors
TESTS += tests/screen/test_panes_terminal tests/screen/test_panes_errors
tests_screen_test_panes_terminal_SOURCES = %reldir%/test_panes_terminal.c $(PANES_TEST_SOURCES)
tests_screen_test_panes_terminal_CFLAGS = $(PANES_TEST_CFLAGS)
tests_screen_test_panes_terminal_LDADD = $(PANES_TEST_LIBS)
tests_screen_test_panes_errors_SOURCES = %reldir%/test_panes_errors.c $(PANES_TEST_SOURCES) \
	tests/integration/security_server.c tests/integration/security_server.h
tests_screen_test_panes_errors_CFLAGS = $(PANES_TEST_CFLAGS)
tests_screen_test_panes_errors_LDADD = $(PANES_TEST_LIBS)

check_PROGRAMS += tests/screen/test_panes_activity
TESTS += tests/screen/test_panes_activity
tests_screen_test_panes_activity_SOURCES = %reldir%/test_panes_activity.c \
	%reldir%/activity_fixture.h $(PANES_TEST_SOURCES)
tests_screen_test_panes_activity_CFLAGS = $(PANES_TEST_CFLAGS)
tests_screen_test_panes_activity_LDADD = $(PANES_TEST_LIBS)

check_PROGRAMS += tests/screen/test_panes_downloads
TESTS += tests/screen/test_panes_downloads
tests_screen_test_panes_downloads_SOURCES = %reldir%/test_panes_downloads.c \
	%reldir%/activity_fixture.h $(PANES_TEST_SOURCES)
tests_screen_test_panes_downloads_CFLAGS = $(PANES_TEST_CFLAGS)
tests_screen_test_panes_downloads_LDADD = $(PANES_TEST_LIBS)

if HAVE_VTERM
check_PROGRAMS += tests/screen/test_e2e_tui
TESTS += tests/screen/test_e2e_tui
tests_screen_test_e2e_tui_SOURCES = %reldir%/test_e2e_tui.c $(SANDBOX_FIXTURE)
tests_screen_test_e2e_tui_CFLAGS = $(TEST_CFLAGS) $(VTERM_CFLAGS) $(MHD_CFLAGS) $(PTHREAD_CFLAGS)
tests_screen_test_e2e_tui_LDADD = $(TEST_LIBS) $(VTERM_LIBS) $(CURL_LIBS) $(JSONC_LIBS) \
	$(MHD_LIBS) $(PTHREAD_LIBS) -lutil
endif

check_PROGRAMS += tests/screen/test_panes_live
TESTS += tests/screen/test_panes_live
tests_screen_test_panes_live_SOURCES = %reldir%/test_panes_live.c $(PANES_TEST_SOURCES)
tests_screen_test_panes_live_CFLAGS = $(PANES_TEST_CFLAGS)
tests_screen_test_panes_live_LDADD = $(PANES_TEST_LIBS)

check_PROGRAMS += tests/screen/test_panes_describe
TESTS += tests/screen/test_panes_describe
tests_screen_test_panes_describe_SOURCES = %reldir%/test_panes_describe.c $(PANES_TEST_SOURCES)
tests_screen_test_panes_describe_CFLAGS = $(PANES_TEST_CFLAGS)
tests_screen_test_panes_describe_LDADD = $(PANES_TEST_LIBS)

# --read-only: every action pressed, the sandbox's database read before and after.
check_PROGRAMS += tests/screen/test_panes_readonly
TESTS += tests/screen/test_panes_readonly
tests_screen_test_panes_readonly_SOURCES = %reldir%/test_panes_readonly.c $(PANES_TEST_SOURCES)
tests_screen_test_panes_readonly_CFLAGS = $(PANES_TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_screen_test_panes_readonly_LDADD = $(PANES_TEST_LIBS) $(SQLITE_LIBS)

# every bundled theme legible on 8 and 16 colours (terminfo from ncurses-term)
check_PROGRAMS += tests/screen/test_panes_colors
TESTS += tests/screen/test_panes_colors
tests_screen_test_panes_colors_SOURCES = %reldir%/test_panes_colors.c $(PANES_TEST_SOURCES)
tests_screen_test_panes_colors_CFLAGS = $(PANES_TEST_CFLAGS)
tests_screen_test_panes_colors_LDADD = $(PANES_TEST_LIBS)

check_PROGRAMS += tests/screen/test_panes_log
TESTS += tests/screen/test_panes_log
tests_screen_test_panes_log_SOURCES = %reldir%/test_panes_log.c $(PANES_TEST_SOURCES)
tests_screen_test_panes_log_CFLAGS = $(PANES_TEST_CFLAGS)
tests_screen_test_panes_log_LDADD = $(PANES_TEST_LIBS)

# remembered choices (the state file across a restart), the language picker by name, a
# validation error that clears, a key that does nothing saying why
check_PROGRAMS += tests/screen/test_panes_remember
TESTS += tests/screen/test_panes_remember
tests_screen_test_panes_remember_SOURCES = %reldir%/test_panes_remember.c $(PANES_TEST_SOURCES)
tests_screen_test_panes_remember_CFLAGS = $(PANES_TEST_CFLAGS)
tests_screen_test_panes_remember_LDADD = $(PANES_TEST_LIBS)

check_PROGRAMS += tests/screen/test_panes_sortfilter
TESTS += tests/screen/test_panes_sortfilter
tests_screen_test_panes_sortfilter_SOURCES = %reldir%/test_panes_sortfilter.c $(PANES_TEST_SOURCES)
tests_screen_test_panes_sortfilter_CFLAGS = $(PANES_TEST_CFLAGS)
tests_screen_test_panes_sortfilter_LDADD = $(PANES_TEST_LIBS)

# the same screens with every sorted or filtered list selected in SQL (core/store_list.c)
check_PROGRAMS += tests/screen/test_panes_sortfilter_sql
TESTS += tests/screen/test_panes_sortfilter_sql
tests_screen_test_panes_sortfilter_sql_SOURCES = %reldir%/test_panes_sortfilter.c $(PANES_TEST_SOURCES)
tests_screen_test_panes_sortfilter_sql_CFLAGS = $(PANES_TEST_CFLAGS) -DPANES_LIST_SQL
tests_screen_test_panes_sortfilter_sql_LDADD = $(PANES_TEST_LIBS)

# the list's columns: widths from content, the sort arrow, :columns saved in the config
check_PROGRAMS += tests/screen/test_panes_columns
TESTS += tests/screen/test_panes_columns
tests_screen_test_panes_columns_SOURCES = %reldir%/test_panes_columns.c $(PANES_TEST_SOURCES)
tests_screen_test_panes_columns_CFLAGS = $(PANES_TEST_CFLAGS)
tests_screen_test_panes_columns_LDADD = $(PANES_TEST_LIBS)

check_PROGRAMS += tests/screen/test_panes_cache
TESTS += tests/screen/test_panes_cache
tests_screen_test_panes_cache_SOURCES = %reldir%/test_panes_cache.c $(PANES_TEST_SOURCES)
tests_screen_test_panes_cache_CFLAGS = $(PANES_TEST_CFLAGS)
tests_screen_test_panes_cache_LDADD = $(PANES_TEST_LIBS)
# the reader and the results pane of a search of every transcript (issue 21)
check_PROGRAMS += tests/screen/test_panes_reader
TESTS += tests/screen/test_panes_reader
tests_screen_test_panes_reader_SOURCES = %reldir%/test_panes_reader.c $(PANES_TEST_SOURCES)
tests_screen_test_panes_reader_CFLAGS = $(PANES_TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_screen_test_panes_reader_LDADD = $(PANES_TEST_LIBS)
check_PROGRAMS += tests/screen/test_panes_claims
TESTS += tests/screen/test_panes_claims
tests_screen_test_panes_claims_SOURCES = %reldir%/test_panes_claims.c $(PANES_TEST_SOURCES) \
	tests/integration/keepalive_server.c tests/integration/keepalive_server.h
tests_screen_test_panes_claims_CFLAGS = $(PANES_TEST_CFLAGS) -I$(top_srcdir)/tests/integration
tests_screen_test_panes_claims_LDADD = $(PANES_TEST_LIBS)
