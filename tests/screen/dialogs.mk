# Screen tests of the dialogs (issue 6) against a real steno-sandbox on loopback: the
# headless harness plus tests/integration's sandbox fixture, the engine, store and jobs.
DIALOG_SCREEN_SOURCES = %reldir%/test_dialog_fixture.c %reldir%/test_dialog_fixture.h \
	%reldir%/harness.c %reldir%/harness.h \
	tests/integration/sandbox_fixture.c tests/integration/sandbox_fixture.h
DIALOG_SCREEN_CFLAGS = $(TEST_CFLAGS) $(NCURSESW_CFLAGS) $(MHD_CFLAGS) $(PTHREAD_CFLAGS) \
	-I$(top_srcdir)/tests/integration -I$(top_srcdir)/%reldir%
DIALOG_SCREEN_LIBS = libsteno_ui.a libsteno_core.a libsteno_api.a $(NCURSESW_LIBS) $(CURL_LIBS) \
	$(JSONC_LIBS) $(INIH_LIBS) $(MHD_LIBS) $(PTHREAD_LIBS) $(TEST_LIBS) -lm

# Automake wants each program's variables spelled out; they differ only in the name.
DIALOG_SCREEN_TESTS = tests/screen/test_dialog_transcribe tests/screen/test_dialog_order \
	tests/screen/test_dialog_export tests/screen/test_dialog_marks tests/screen/test_dialog_remember
check_PROGRAMS += $(DIALOG_SCREEN_TESTS)
TESTS += $(DIALOG_SCREEN_TESTS)
tests_screen_test_dialog_transcribe_SOURCES = %reldir%/test_dialog_transcribe.c $(DIALOG_SCREEN_SOURCES) \
	tests/integration/keepalive_server.c tests/integration/keepalive_server.h
tests_screen_test_dialog_transcribe_CFLAGS = $(DIALOG_SCREEN_CFLAGS)
tests_screen_test_dialog_transcribe_LDADD = $(DIALOG_SCREEN_LIBS)
tests_screen_test_dialog_order_SOURCES = %reldir%/test_dialog_order.c $(DIALOG_SCREEN_SOURCES)
tests_screen_test_dialog_order_CFLAGS = $(DIALOG_SCREEN_CFLAGS)
tests_screen_test_dialog_order_LDADD = $(DIALOG_SCREEN_LIBS)
tests_screen_test_dialog_export_SOURCES = %reldir%/test_dialog_export.c $(DIALOG_SCREEN_SOURCES)
tests_screen_test_dialog_export_CFLAGS = $(DIALOG_SCREEN_CFLAGS)
tests_screen_test_dialog_export_LDADD = $(DIALOG_SCREEN_LIBS)
tests_screen_test_dialog_marks_SOURCES = %reldir%/test_dialog_marks.c $(DIALOG_SCREEN_SOURCES)
tests_screen_test_dialog_marks_CFLAGS = $(DIALOG_SCREEN_CFLAGS)
tests_screen_test_dialog_marks_LDADD = $(DIALOG_SCREEN_LIBS)
tests_screen_test_dialog_remember_SOURCES = %reldir%/test_dialog_remember.c $(DIALOG_SCREEN_SOURCES)
tests_screen_test_dialog_remember_CFLAGS = $(DIALOG_SCREEN_CFLAGS)
tests_screen_test_dialog_remember_LDADD = $(DIALOG_SCREEN_LIBS)
