# integration tests: sandbox (steno-sandbox over loopback). sandbox_fixture.c is reusable:
# other fragments may list %reldir%/sandbox_fixture.c in their _SOURCES.
SANDBOX_TEST_CFLAGS = $(TEST_CFLAGS) $(MHD_CFLAGS) $(PTHREAD_CFLAGS)
SANDBOX_TEST_LIBS = $(TEST_LIBS) $(CURL_LIBS) $(JSONC_LIBS) $(MHD_LIBS) $(PTHREAD_LIBS)
SANDBOX_FIXTURE = %reldir%/sandbox_fixture.c %reldir%/sandbox_fixture.h

check_PROGRAMS += tests/integration/test_sandbox_api
tests_integration_test_sandbox_api_SOURCES = %reldir%/test_sandbox_api.c $(SANDBOX_FIXTURE)
tests_integration_test_sandbox_api_CFLAGS = $(SANDBOX_TEST_CFLAGS)
tests_integration_test_sandbox_api_LDADD = $(SANDBOX_TEST_LIBS)
TESTS += tests/integration/test_sandbox_api

check_PROGRAMS += tests/integration/test_sandbox_flows
tests_integration_test_sandbox_flows_SOURCES = %reldir%/test_sandbox_flows.c $(SANDBOX_FIXTURE)
tests_integration_test_sandbox_flows_CFLAGS = $(SANDBOX_TEST_CFLAGS)
tests_integration_test_sandbox_flows_LDADD = $(SANDBOX_TEST_LIBS)
TESTS += tests/integration/test_sandbox_flows

check_PROGRAMS += tests/integration/test_sandbox_orders
tests_integration_test_sandbox_orders_SOURCES = %reldir%/test_sandbox_orders.c $(SANDBOX_FIXTURE)
tests_integration_test_sandbox_orders_CFLAGS = $(SANDBOX_TEST_CFLAGS)
tests_integration_test_sandbox_orders_LDADD = $(SANDBOX_TEST_LIBS)
TESTS += tests/integration/test_sandbox_orders

check_PROGRAMS += tests/integration/test_sandbox_ops
tests_integration_test_sandbox_ops_SOURCES = %reldir%/test_sandbox_ops.c $(SANDBOX_FIXTURE)
tests_integration_test_sandbox_ops_CFLAGS = $(SANDBOX_TEST_CFLAGS)
tests_integration_test_sandbox_ops_LDADD = $(SANDBOX_TEST_LIBS)
TESTS += tests/integration/test_sandbox_ops
