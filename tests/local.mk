# Test suite. Every test binary is a Criterion runner (or a script printing a
# Criterion-style "Synthesis:" line) so that .ci/count-tests can add them up.
AM_TESTS_ENVIRONMENT = \
	STENO_BIN='$(abs_top_builddir)/steno'; \
	STENO_SANDBOX_BIN='$(abs_top_builddir)/steno-sandbox'; \
	STENO_SRCDIR='$(abs_top_srcdir)'; \
	STENO_THEMES_DIR='$(abs_top_srcdir)/themes'; \
	STENO_FIXTURES='$(abs_top_srcdir)/tests/fixtures'; \
	ASAN_OPTIONS='detect_leaks=1:abort_on_error=0:exitcode=23'; \
	UBSAN_OPTIONS='print_stacktrace=1:halt_on_error=1'; \
	export STENO_BIN STENO_SANDBOX_BIN STENO_SRCDIR STENO_THEMES_DIR STENO_FIXTURES ASAN_OPTIONS UBSAN_OPTIONS;

TEST_CFLAGS = $(AM_CFLAGS) $(CRITERION_CFLAGS) $(JSONC_CFLAGS) $(CURL_CFLAGS)
TEST_LIBS = $(CRITERION_LIBS) $(SQLITE_LIBS)

if HAVE_CRITERION
include %reldir%/unit/local.mk
include %reldir%/integration/local.mk
include %reldir%/screen/local.mk
endif
include %reldir%/fuzz/local.mk

EXTRA_DIST += %reldir%/fixtures

# Documentation agrees with what the code and CI do.
TESTS += tests/docs/check_readme_commands.sh tests/docs/check_lang_names.sh
EXTRA_DIST += tests/docs/check_readme_commands.sh tests/docs/check_lang_names.sh

# Memcheck over the suite: each test program under valgrind, failing on any error or
# leak. Not combinable with --enable-sanitizers. The in-process screen tests (panes and
# dialogs) run 50-60 times slower under memcheck and made it most of CI's time: they run
# under ASan + UBSan in CI instead, and the UI meets valgrind through test_e2e_tui (the
# real binary in a pty, traced) and the frame/term/loop tests. To run any of them under
# valgrind anyway: make check-valgrind VALGRIND_TESTS='tests/screen/test_panes_list'.
EXTRA_DIST += tests/valgrind-wrap.sh
VALGRIND_TESTS =
check-valgrind:
	@tests='$(VALGRIND_TESTS)'; skipped=; \
	if test -z "$$tests"; then \
	  for t in $(TESTS); do \
	    case $$t in \
	      tests/screen/test_panes_*|tests/screen/test_dialog_*) skipped="$$skipped $$t" ;; \
	      *) tests="$$tests $$t" ;; \
	    esac; \
	  done; \
	fi; \
	test -z "$$skipped" || echo "check-valgrind: under ASan + UBSan only:$$skipped"; \
	$(MAKE) $(AM_MAKEFLAGS) check LOG_COMPILER='$(abs_top_srcdir)/tests/valgrind-wrap.sh' \
		CRITERION_JOBS=1 STENO_UNDER_VALGRIND=1 TESTS="$$tests"
.PHONY: check-valgrind
include %reldir%/soak/local.mk
