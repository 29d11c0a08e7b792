# unit tests: the dialogs' form widget and the OSC 52 sequence (no terminal, no network)
check_PROGRAMS += tests/unit/test_ui_form
TESTS += tests/unit/test_ui_form
tests_unit_test_ui_form_SOURCES = %reldir%/test_ui_form.c
tests_unit_test_ui_form_CFLAGS = $(TEST_CFLAGS) $(NCURSESW_CFLAGS)
tests_unit_test_ui_form_LDADD = libsteno_ui.a libsteno_core.a libsteno_api.a $(NCURSESW_LIBS) $(TEST_LIBS) -lm
check_PROGRAMS += tests/unit/test_ui_form_progress
TESTS += tests/unit/test_ui_form_progress
tests_unit_test_ui_form_progress_SOURCES = %reldir%/test_ui_form_progress.c
tests_unit_test_ui_form_progress_CFLAGS = $(TEST_CFLAGS) $(NCURSESW_CFLAGS)
tests_unit_test_ui_form_progress_LDADD = libsteno_ui.a libsteno_core.a libsteno_api.a \
	$(NCURSESW_LIBS) $(CURL_LIBS) $(JSONC_LIBS) $(INIH_LIBS) $(TEST_LIBS) -lm
