# integration tests: cli (the steno binary's commands against steno-sandbox)
CLI_IT_CFLAGS = $(TEST_CFLAGS) $(MHD_CFLAGS) $(PTHREAD_CFLAGS)
CLI_IT_LIBS = $(CURL_LIBS) $(JSONC_LIBS) $(MHD_LIBS) $(PTHREAD_LIBS) $(TEST_LIBS) -lm
CLI_IT_COMMON = %reldir%/test_cli_util.c %reldir%/test_cli_util.h \
	%reldir%/sandbox_fixture.c %reldir%/sandbox_fixture.h

check_PROGRAMS += tests/integration/test_cli_basic
tests_integration_test_cli_basic_SOURCES = %reldir%/test_cli_basic.c $(CLI_IT_COMMON)
tests_integration_test_cli_basic_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_basic_LDADD = $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_basic

check_PROGRAMS += tests/integration/test_cli_jobs
tests_integration_test_cli_jobs_SOURCES = %reldir%/test_cli_jobs.c $(CLI_IT_COMMON)
tests_integration_test_cli_jobs_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_jobs_LDADD = $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_jobs

check_PROGRAMS += tests/integration/test_cli_faults tests/integration/test_cli_lsall
tests_integration_test_cli_faults_SOURCES = %reldir%/test_cli_faults.c $(CLI_IT_COMMON)
tests_integration_test_cli_faults_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_faults_LDADD = $(CLI_IT_LIBS)
tests_integration_test_cli_lsall_SOURCES = %reldir%/test_cli_lsall.c $(CLI_IT_COMMON)
tests_integration_test_cli_lsall_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_lsall_LDADD = $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_faults tests/integration/test_cli_lsall

check_PROGRAMS += tests/integration/test_cli_out
tests_integration_test_cli_out_SOURCES = %reldir%/test_cli_out.c
tests_integration_test_cli_out_CFLAGS = $(TEST_CFLAGS)
tests_integration_test_cli_out_LDADD = libsteno_cli.a libsteno_api.a $(JSONC_LIBS) $(TEST_LIBS) -lm
TESTS += tests/integration/test_cli_out

# cli_wait: SIGINT/SIGTERM end a wait with no timer near (the self-pipe), no sandbox needed.
check_PROGRAMS += tests/integration/test_cli_wait
tests_integration_test_cli_wait_SOURCES = %reldir%/test_cli_wait.c
tests_integration_test_cli_wait_CFLAGS = $(TEST_CFLAGS) $(CURL_CFLAGS) $(JSONC_CFLAGS) $(PTHREAD_CFLAGS)
tests_integration_test_cli_wait_LDADD = libsteno_cli.a libsteno_core.a libsteno_api.a $(CURL_LIBS) \
	$(JSONC_LIBS) $(INIH_LIBS) $(PTHREAD_LIBS) $(TEST_LIBS) -lm
TESTS += tests/integration/test_cli_wait

check_PROGRAMS += tests/integration/test_cli_keys
tests_integration_test_cli_keys_SOURCES = %reldir%/test_cli_keys.c $(CLI_IT_COMMON)
tests_integration_test_cli_keys_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_keys_LDADD = $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_keys

check_PROGRAMS += tests/integration/test_cli_post_once
tests_integration_test_cli_post_once_SOURCES = %reldir%/test_cli_post_once.c \
	%reldir%/keepalive_server.c %reldir%/keepalive_server.h $(CLI_IT_COMMON)
tests_integration_test_cli_post_once_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_post_once_LDADD = $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_post_once

check_PROGRAMS += tests/integration/test_cli_watch
tests_integration_test_cli_watch_SOURCES = %reldir%/test_cli_watch.c $(CLI_IT_COMMON)
tests_integration_test_cli_watch_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_watch_LDADD = $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_watch

# the man page's EXAMPLES, run against a sandbox
check_PROGRAMS += tests/integration/test_cli_examples
tests_integration_test_cli_examples_SOURCES = %reldir%/test_cli_examples.c $(CLI_IT_COMMON)
tests_integration_test_cli_examples_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_examples_LDADD = $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_examples

# steno index on the earlier API form (JSON exports), --read-only (issue 21)
check_PROGRAMS += tests/integration/test_cli_index
tests_integration_test_cli_index_SOURCES = %reldir%/test_cli_index.c $(CLI_IT_COMMON)
tests_integration_test_cli_index_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_index_LDADD = $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_index
