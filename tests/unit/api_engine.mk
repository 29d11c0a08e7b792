# unit tests: api_engine (pure policy of the HTTP engine: URLs, retries, rate gate, trace)
check_PROGRAMS += tests/unit/test_engine_url tests/unit/test_engine_retry
tests_unit_test_engine_url_SOURCES = %reldir%/test_engine_url.c
tests_unit_test_engine_url_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_engine_url_LDADD = libsteno_api.a $(CURL_LIBS) $(JSONC_LIBS) $(TEST_LIBS)
tests_unit_test_engine_retry_SOURCES = %reldir%/test_engine_retry.c
tests_unit_test_engine_retry_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_engine_retry_LDADD = libsteno_api.a $(CURL_LIBS) $(JSONC_LIBS) $(TEST_LIBS)
TESTS += tests/unit/test_engine_url tests/unit/test_engine_retry
