# Unit tests: Criterion, no network, no terminal. One fragment per area.
check_PROGRAMS += tests/unit/test_version
tests_unit_test_version_SOURCES = %reldir%/test_version.c
tests_unit_test_version_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_version_LDADD = libsteno_api.a $(TEST_LIBS)
TESTS += tests/unit/test_version
include %reldir%/api_model.mk
include %reldir%/api_engine.mk
include %reldir%/core.mk
include %reldir%/sandbox_formats.mk
include %reldir%/ui.mk
include %reldir%/ui_dialogs.mk
