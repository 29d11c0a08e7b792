# integration tests: speech recognition in steno-sandbox (--asr on), only when it is built in.
# Clips are synthesised with flite at test time (.ci/setup installs it).
if HAVE_ASR
check_PROGRAMS += tests/integration/test_sandbox_asr
TESTS += tests/integration/test_sandbox_asr
endif
tests_integration_test_sandbox_asr_SOURCES = %reldir%/test_sandbox_asr.c $(SANDBOX_SUITE)
tests_integration_test_sandbox_asr_CFLAGS = $(SANDBOX_TEST_CFLAGS) $(SNDFILE_CFLAGS)
tests_integration_test_sandbox_asr_LDADD = $(SANDBOX_TEST_LIBS) $(SNDFILE_LIBS) -lm

# steno index / steno search on transcriptions the sandbox recognised from speech
if HAVE_ASR
check_PROGRAMS += tests/integration/test_cli_content
TESTS += tests/integration/test_cli_content
endif
tests_integration_test_cli_content_SOURCES = %reldir%/test_cli_content.c $(CLI_IT_COMMON)
tests_integration_test_cli_content_CFLAGS = $(CLI_IT_CFLAGS) $(SQLITE_CFLAGS)
tests_integration_test_cli_content_LDADD = $(CLI_IT_LIBS) $(SQLITE_LIBS)
