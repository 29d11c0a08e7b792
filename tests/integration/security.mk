# integration tests: security (issue 7), end to end through the steno binary, steno-sandbox
# and small hostile loopback servers.
SEC_IT_CFLAGS = $(TEST_CFLAGS) $(MHD_CFLAGS) $(PTHREAD_CFLAGS)
SEC_IT_LIBS = $(CURL_LIBS) $(JSONC_LIBS) $(MHD_LIBS) $(PTHREAD_LIBS) $(TEST_LIBS) -lm
SEC_IT_COMMON = %reldir%/test_cli_util.c %reldir%/test_cli_util.h \
	%reldir%/sandbox_fixture.c %reldir%/sandbox_fixture.h \
	%reldir%/security_server.c %reldir%/security_server.h

check_PROGRAMS += tests/integration/test_security_key
tests_integration_test_security_key_SOURCES = %reldir%/test_security_key.c $(SEC_IT_COMMON)
tests_integration_test_security_key_CFLAGS = $(SEC_IT_CFLAGS)
tests_integration_test_security_key_LDADD = $(SEC_IT_LIBS)
TESTS += tests/integration/test_security_key

if HAVE_VTERM
check_PROGRAMS += tests/integration/test_security_tui
tests_integration_test_security_tui_SOURCES = %reldir%/test_security_tui.c \
	%reldir%/sandbox_fixture.c %reldir%/sandbox_fixture.h \
	tests/soak/soak_tui.c tests/soak/soak_tui.h
tests_integration_test_security_tui_CFLAGS = $(SEC_IT_CFLAGS) $(VTERM_CFLAGS)
tests_integration_test_security_tui_LDADD = $(VTERM_LIBS) $(SEC_IT_LIBS)
TESTS += tests/integration/test_security_tui
endif

check_PROGRAMS += tests/integration/test_security_tls
tests_integration_test_security_tls_SOURCES = %reldir%/test_security_tls.c $(SEC_IT_COMMON)
tests_integration_test_security_tls_CFLAGS = $(SEC_IT_CFLAGS)
tests_integration_test_security_tls_LDADD = $(SEC_IT_LIBS)
TESTS += tests/integration/test_security_tls

check_PROGRAMS += tests/integration/test_security_input
tests_integration_test_security_input_SOURCES = %reldir%/test_security_input.c $(SEC_IT_COMMON)
tests_integration_test_security_input_CFLAGS = $(SEC_IT_CFLAGS)
tests_integration_test_security_input_LDADD = libsteno_core.a libsteno_api.a $(INIH_LIBS) $(SEC_IT_LIBS)
TESTS += tests/integration/test_security_input

check_PROGRAMS += tests/integration/test_security_sandbox
tests_integration_test_security_sandbox_SOURCES = %reldir%/test_security_sandbox.c $(SEC_IT_COMMON)
tests_integration_test_security_sandbox_CFLAGS = $(SEC_IT_CFLAGS)
tests_integration_test_security_sandbox_LDADD = $(SEC_IT_LIBS)
TESTS += tests/integration/test_security_sandbox

check_PROGRAMS += tests/integration/test_security_hostile
tests_integration_test_security_hostile_SOURCES = %reldir%/test_security_hostile.c $(SEC_IT_COMMON)
tests_integration_test_security_hostile_CFLAGS = $(SEC_IT_CFLAGS)
tests_integration_test_security_hostile_LDADD = $(SEC_IT_LIBS)
TESTS += tests/integration/test_security_hostile

# the real service's shapes (issue 15): a stand-in (security_server) and the sandbox
check_PROGRAMS += tests/integration/test_cli_realshapes
tests_integration_test_cli_realshapes_SOURCES = %reldir%/test_cli_realshapes.c $(SEC_IT_COMMON)
tests_integration_test_cli_realshapes_CFLAGS = $(SEC_IT_CFLAGS)
tests_integration_test_cli_realshapes_LDADD = $(SEC_IT_LIBS)
TESTS += tests/integration/test_cli_realshapes
