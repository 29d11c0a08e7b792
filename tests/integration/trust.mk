# integration tests: what the sandbox counts and how it holds as a server (issues 10 and 13).
TRUST_TESTS = tests/integration/test_sandbox_counters tests/integration/test_sandbox_hostile \
	tests/integration/test_sandbox_hostile3
check_PROGRAMS += $(TRUST_TESTS)
TESTS += $(TRUST_TESTS)

tests_integration_test_sandbox_counters_SOURCES = %reldir%/test_sandbox_counters.c $(SANDBOX_SUITE)
tests_integration_test_sandbox_counters_CFLAGS = $(SANDBOX_TEST_CFLAGS)
tests_integration_test_sandbox_counters_LDADD = $(SANDBOX_TEST_LIBS)
tests_integration_test_sandbox_hostile_SOURCES = %reldir%/test_sandbox_hostile.c $(SANDBOX_SUITE)
tests_integration_test_sandbox_hostile_CFLAGS = $(SANDBOX_TEST_CFLAGS)
tests_integration_test_sandbox_hostile_LDADD = $(SANDBOX_TEST_LIBS)
tests_integration_test_sandbox_hostile3_SOURCES = %reldir%/test_sandbox_hostile3.c $(SANDBOX_SUITE)
tests_integration_test_sandbox_hostile3_CFLAGS = $(SANDBOX_TEST_CFLAGS)
tests_integration_test_sandbox_hostile3_LDADD = $(SANDBOX_TEST_LIBS)

check_PROGRAMS += tests/integration/test_cli_fulldisk
TESTS += tests/integration/test_cli_fulldisk
tests_integration_test_cli_fulldisk_SOURCES = %reldir%/test_cli_fulldisk.c $(CLI_IT_COMMON)
tests_integration_test_cli_fulldisk_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_fulldisk_LDADD = $(CLI_IT_LIBS)
