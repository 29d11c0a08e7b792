# Soak (issue 7): steno's commands and TUI against a faulty steno-sandbox. The short run
# (~250 requests, about 20 s) is part of make check; `make soak` is the long run (10,000+
# requests, bounded in count and time). See docs/RELIABILITY.md.
EXTRA_DIST += %reldir%/README
if HAVE_VTERM
check_PROGRAMS += tests/soak/soak_driver
TESTS += tests/soak/soak_driver
tests_soak_soak_driver_SOURCES = %reldir%/soak.c %reldir%/soak.h %reldir%/soak_work.c \
	%reldir%/soak_check.c %reldir%/soak_check.h %reldir%/soak_report.c \
	%reldir%/soak_tui.c %reldir%/soak_tui.h \
	tests/integration/sandbox_fixture.c tests/integration/sandbox_fixture.h \
	tests/integration/test_cli_util.c tests/integration/test_cli_util.h
tests_soak_soak_driver_CFLAGS = $(AM_CFLAGS) $(VTERM_CFLAGS) $(JSONC_CFLAGS) $(CURL_CFLAGS) \
	$(MHD_CFLAGS) $(PTHREAD_CFLAGS)
tests_soak_soak_driver_LDADD = $(VTERM_LIBS) $(CURL_LIBS) $(JSONC_LIBS) $(MHD_LIBS) $(PTHREAD_LIBS) -lm

SOAK_ARGS = --requests 10000 --min-requests 10000 --seconds 1500 --workers 4 --seed 200
soak: steno steno-sandbox tests/soak/soak_driver
	STENO_BIN='$(abs_top_builddir)/steno' STENO_SANDBOX_BIN='$(abs_top_builddir)/steno-sandbox' \
		./tests/soak/soak_driver $(SOAK_ARGS)
else
soak:
	@echo "soak needs libvterm (configure found none)"; exit 1
endif
.PHONY: soak
