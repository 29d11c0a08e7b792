# integration tests: engine (tui/api HTTP engine, transfers and endpoint calls over loopback)
ENGINE_IT_CFLAGS = $(TEST_CFLAGS) $(MHD_CFLAGS) $(PTHREAD_CFLAGS)
ENGINE_IT_LIBS = libsteno_api.a $(CURL_LIBS) $(JSONC_LIBS) $(MHD_LIBS) $(PTHREAD_LIBS) $(TEST_LIBS) -lm

check_PROGRAMS += tests/integration/test_engine_http tests/integration/test_engine_transfer \
	tests/integration/test_engine_endpoints
tests_integration_test_engine_http_SOURCES = %reldir%/test_engine_http.c \
	%reldir%/engine_server.c %reldir%/engine_server.h
tests_integration_test_engine_http_CFLAGS = $(ENGINE_IT_CFLAGS)
tests_integration_test_engine_http_LDADD = $(ENGINE_IT_LIBS)
tests_integration_test_engine_transfer_SOURCES = %reldir%/test_engine_transfer.c \
	%reldir%/engine_result.c %reldir%/engine_result.h \
	%reldir%/engine_server.c %reldir%/engine_server.h
tests_integration_test_engine_transfer_CFLAGS = $(ENGINE_IT_CFLAGS)
tests_integration_test_engine_transfer_LDADD = $(ENGINE_IT_LIBS)
tests_integration_test_engine_endpoints_SOURCES = %reldir%/test_engine_endpoints.c \
	%reldir%/engine_server.c %reldir%/engine_server.h
tests_integration_test_engine_endpoints_CFLAGS = $(ENGINE_IT_CFLAGS)
tests_integration_test_engine_endpoints_LDADD = $(ENGINE_IT_LIBS)
check_PROGRAMS += tests/integration/test_engine_sandbox
tests_integration_test_engine_sandbox_SOURCES = %reldir%/test_engine_sandbox.c \
	%reldir%/sandbox_fixture.c %reldir%/sandbox_fixture.h
tests_integration_test_engine_sandbox_CFLAGS = $(ENGINE_IT_CFLAGS)
tests_integration_test_engine_sandbox_LDADD = $(ENGINE_IT_LIBS)
TESTS += tests/integration/test_engine_http tests/integration/test_engine_transfer \
	tests/integration/test_engine_endpoints tests/integration/test_engine_sandbox
check_PROGRAMS += tests/integration/test_engine_post_once
tests_integration_test_engine_post_once_SOURCES = %reldir%/test_engine_post_once.c \
	%reldir%/engine_result.c %reldir%/engine_result.h \
	%reldir%/keepalive_server.c %reldir%/keepalive_server.h
tests_integration_test_engine_post_once_CFLAGS = $(ENGINE_IT_CFLAGS)
tests_integration_test_engine_post_once_LDADD = $(ENGINE_IT_LIBS)
TESTS += tests/integration/test_engine_post_once
check_PROGRAMS += tests/integration/test_engine_hostile
tests_integration_test_engine_hostile_SOURCES = %reldir%/test_engine_hostile.c \
	%reldir%/engine_result.c %reldir%/engine_result.h \
	%reldir%/engine_server.c %reldir%/engine_server.h
tests_integration_test_engine_hostile_CFLAGS = $(ENGINE_IT_CFLAGS)
tests_integration_test_engine_hostile_LDADD = $(ENGINE_IT_LIBS)
TESTS += tests/integration/test_engine_hostile
