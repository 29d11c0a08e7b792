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

# the local store from the command line (--offline, ls --cached, cache info/clear)
check_PROGRAMS += tests/integration/test_cli_cache
tests_integration_test_cli_cache_SOURCES = %reldir%/test_cli_cache.c $(CLI_IT_COMMON)
tests_integration_test_cli_cache_CFLAGS = $(CLI_IT_CFLAGS) $(SQLITE_CFLAGS)
tests_integration_test_cli_cache_LDADD = libsteno_core.a libsteno_api.a $(INIH_LIBS) $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_cache
# steno index on the earlier API form (JSON exports), --read-only (issue 21)
check_PROGRAMS += tests/integration/test_cli_index
tests_integration_test_cli_index_SOURCES = %reldir%/test_cli_index.c $(CLI_IT_COMMON)
tests_integration_test_cli_index_CFLAGS = $(CLI_IT_CFLAGS) $(SQLITE_CFLAGS)
tests_integration_test_cli_index_LDADD = $(CLI_IT_LIBS) $(SQLITE_LIBS)
TESTS += tests/integration/test_cli_index

# issue 22: lost replies to creates, found, claimed, or ambiguous (sandbox drop_post)
check_PROGRAMS += tests/integration/test_cli_outcomes
tests_integration_test_cli_outcomes_SOURCES = %reldir%/test_cli_outcomes.c $(CLI_IT_COMMON)
tests_integration_test_cli_outcomes_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_outcomes_LDADD = $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_outcomes

# issue 22: one JSON document per command on every failure path
check_PROGRAMS += tests/integration/test_cli_json_doc
tests_integration_test_cli_json_doc_SOURCES = %reldir%/test_cli_json_doc.c $(CLI_IT_COMMON)
tests_integration_test_cli_json_doc_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_json_doc_LDADD = $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_json_doc

# issue 22: the man page's error codes and exit statuses are the code's table
check_PROGRAMS += tests/integration/test_cli_errtable
tests_integration_test_cli_errtable_SOURCES = %reldir%/test_cli_errtable.c
tests_integration_test_cli_errtable_CFLAGS = $(TEST_CFLAGS) $(JSONC_CFLAGS)
tests_integration_test_cli_errtable_LDADD = libsteno_cli.a libsteno_api.a $(JSONC_LIBS) $(TEST_LIBS) -lm
TESTS += tests/integration/test_cli_errtable

# issue 22: retries that hold everywhere (upload's GET, the download name's lookup)
check_PROGRAMS += tests/integration/test_cli_retries
tests_integration_test_cli_retries_SOURCES = %reldir%/test_cli_retries.c $(CLI_IT_COMMON)
tests_integration_test_cli_retries_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_retries_LDADD = $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_retries

# issue 22: pipes (ls --all | head stops at EPIPE; the table streams)
check_PROGRAMS += tests/integration/test_cli_pipes
tests_integration_test_cli_pipes_SOURCES = %reldir%/test_cli_pipes.c $(CLI_IT_COMMON)
tests_integration_test_cli_pipes_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_pipes_LDADD = $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_pipes

# issue 22: shell completion from the command table, tested with bash's compgen
TESTS += tests/integration/check_completion.sh
EXTRA_DIST += tests/integration/check_completion.sh

# issue 22: folder names of the config resolved (or refused), steno folders
check_PROGRAMS += tests/integration/test_cli_folders
tests_integration_test_cli_folders_SOURCES = %reldir%/test_cli_folders.c $(CLI_IT_COMMON)
tests_integration_test_cli_folders_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_folders_LDADD = $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_folders

# messages cut between characters, never inside one (CJK and emoji names at the cut length)
check_PROGRAMS += tests/integration/test_cli_cuts
tests_integration_test_cli_cuts_SOURCES = %reldir%/test_cli_cuts.c $(CLI_IT_COMMON)
tests_integration_test_cli_cuts_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_cuts_LDADD = $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_cuts

# the zsh and fish completion scripts run by their shells (skipped where a shell is absent)
check_PROGRAMS += tests/integration/test_cli_completion
tests_integration_test_cli_completion_SOURCES = %reldir%/test_cli_completion.c $(CLI_IT_COMMON)
tests_integration_test_cli_completion_CFLAGS = $(CLI_IT_CFLAGS)
tests_integration_test_cli_completion_LDADD = $(CLI_IT_LIBS)
TESTS += tests/integration/test_cli_completion
