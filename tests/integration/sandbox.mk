# integration tests: sandbox (steno-sandbox over loopback). sandbox_fixture.c is reusable:
# other fragments may list %reldir%/sandbox_fixture.c in their _SOURCES.
SANDBOX_TEST_CFLAGS = $(TEST_CFLAGS) $(MHD_CFLAGS) $(PTHREAD_CFLAGS)
SANDBOX_TEST_LIBS = $(TEST_LIBS) $(CURL_LIBS) $(JSONC_LIBS) $(MHD_LIBS) $(PTHREAD_LIBS)
SANDBOX_FIXTURE = %reldir%/sandbox_fixture.c %reldir%/sandbox_fixture.h
# What the test_sandbox_* suites share on top of the fixture (Criterion assertions).
SANDBOX_SUITE = $(SANDBOX_FIXTURE) %reldir%/test_sandbox_util.c %reldir%/test_sandbox_util.h

# Automake wants each program's variables spelled out; they differ only in the name.
SANDBOX_TESTS = tests/integration/test_sandbox_api tests/integration/test_sandbox_flows \
	tests/integration/test_sandbox_orders tests/integration/test_sandbox_ops tests/integration/test_sandbox_stop
check_PROGRAMS += $(SANDBOX_TESTS)
TESTS += $(SANDBOX_TESTS)

tests_integration_test_sandbox_api_SOURCES = %reldir%/test_sandbox_api.c $(SANDBOX_SUITE)
tests_integration_test_sandbox_api_CFLAGS = $(SANDBOX_TEST_CFLAGS)
tests_integration_test_sandbox_api_LDADD = $(SANDBOX_TEST_LIBS)
tests_integration_test_sandbox_flows_SOURCES = %reldir%/test_sandbox_flows.c $(SANDBOX_SUITE)
tests_integration_test_sandbox_flows_CFLAGS = $(SANDBOX_TEST_CFLAGS)
tests_integration_test_sandbox_flows_LDADD = $(SANDBOX_TEST_LIBS)
tests_integration_test_sandbox_orders_SOURCES = %reldir%/test_sandbox_orders.c $(SANDBOX_SUITE)
tests_integration_test_sandbox_orders_CFLAGS = $(SANDBOX_TEST_CFLAGS)
tests_integration_test_sandbox_orders_LDADD = $(SANDBOX_TEST_LIBS)
tests_integration_test_sandbox_ops_SOURCES = %reldir%/test_sandbox_ops.c $(SANDBOX_FIXTURE)
tests_integration_test_sandbox_ops_CFLAGS = $(SANDBOX_TEST_CFLAGS)
tests_integration_test_sandbox_ops_LDADD = $(SANDBOX_TEST_LIBS)
tests_integration_test_sandbox_stop_SOURCES = %reldir%/test_sandbox_stop.c $(SANDBOX_SUITE)
tests_integration_test_sandbox_stop_CFLAGS = $(SANDBOX_TEST_CFLAGS)
tests_integration_test_sandbox_stop_LDADD = $(SANDBOX_TEST_LIBS)
