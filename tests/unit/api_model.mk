# unit tests: api_model (tui/api resource model, spec tables, builders, error bodies).
# test_api_util.c loads fixtures from $STENO_FIXTURES/json.
API_MODEL_TESTS = tests/unit/test_api_tables tests/unit/test_api_json \
	tests/unit/test_api_resources tests/unit/test_api_order tests/unit/test_api_errors \
	tests/unit/test_api_request
check_PROGRAMS += $(API_MODEL_TESTS)
TESTS += $(API_MODEL_TESTS)
API_MODEL_LDADD = libsteno_api.a $(TEST_LIBS) $(JSONC_LIBS)

tests_unit_test_api_tables_SOURCES = %reldir%/test_api_tables.c
tests_unit_test_api_tables_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_api_tables_LDADD = $(API_MODEL_LDADD)

tests_unit_test_api_json_SOURCES = %reldir%/test_api_json.c %reldir%/test_api_util.c
tests_unit_test_api_json_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_api_json_LDADD = $(API_MODEL_LDADD)

tests_unit_test_api_resources_SOURCES = %reldir%/test_api_resources.c %reldir%/test_api_util.c
tests_unit_test_api_resources_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_api_resources_LDADD = $(API_MODEL_LDADD)

tests_unit_test_api_order_SOURCES = %reldir%/test_api_order.c %reldir%/test_api_util.c
tests_unit_test_api_order_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_api_order_LDADD = $(API_MODEL_LDADD)

tests_unit_test_api_errors_SOURCES = %reldir%/test_api_errors.c %reldir%/test_api_util.c
tests_unit_test_api_errors_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_api_errors_LDADD = $(API_MODEL_LDADD)

tests_unit_test_api_request_SOURCES = %reldir%/test_api_request.c
tests_unit_test_api_request_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_api_request_LDADD = $(API_MODEL_LDADD)
