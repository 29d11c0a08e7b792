# libFuzzer targets (clang): `make fuzz` builds them, `make fuzz-run` runs each
# for FUZZ_SECONDS against its seed corpus in tests/fuzz/corpus/NAME.
# One target per parser family, built straight from the model sources (no libsteno_api.a:
# that one is compiled without the fuzzer's coverage instrumentation).
FUZZ_TARGETS = tests/fuzz/fuzz_transcription tests/fuzz/fuzz_order tests/fuzz/fuzz_export \
	tests/fuzz/fuzz_lists tests/fuzz/fuzz_transcript tests/fuzz/fuzz_error \
	tests/fuzz/fuzz_timestamp
FUZZ_MODEL_SRC = \
	$(srcdir)/tui/api/error.c $(srcdir)/tui/api/jget.c $(srcdir)/tui/api/timestamp.c \
	$(srcdir)/tui/api/transcription.c $(srcdir)/tui/api/upload.c $(srcdir)/tui/api/export.c \
	$(srcdir)/tui/api/translation.c $(srcdir)/tui/api/order.c $(srcdir)/tui/api/glossary.c \
	$(srcdir)/tui/api/transcript.c $(srcdir)/tui/api/error_body.c \
	$(srcdir)/tests/fuzz/fuzz_check.c
FUZZ_BUILD = @mkdir -p tests/fuzz; echo "  FUZZ     $@"; \
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_MODEL_SRC) $(JSONC_LIBS)
FUZZ_SECONDS = 30
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I$(top_srcdir)/tui -I$(top_builddir) $(JSONC_CFLAGS)

fuzz: $(FUZZ_TARGETS)

fuzz-run: fuzz
	@set -e; for t in $(FUZZ_TARGETS); do \
	  name=$$(basename $$t); corpus=$(top_srcdir)/tests/fuzz/corpus/$$name; \
	  work=$$(mktemp -d); cp -r $$corpus/. $$work/ 2>/dev/null || true; \
	  echo "fuzz: $$name for $(FUZZ_SECONDS)s"; \
	  ./$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 $$work >$$t.fuzzlog 2>&1 \
	    || { tail -50 $$t.fuzzlog; rm -rf $$work; exit 1; }; \
	  grep -E 'stat::number_of_executed_units|cov:' $$t.fuzzlog | tail -2; rm -rf $$work; \
	done

tests/fuzz/fuzz_transcription: $(srcdir)/tests/fuzz/fuzz_transcription.c $(FUZZ_MODEL_SRC)
	$(FUZZ_BUILD)
tests/fuzz/fuzz_order: $(srcdir)/tests/fuzz/fuzz_order.c $(FUZZ_MODEL_SRC)
	$(FUZZ_BUILD)
tests/fuzz/fuzz_export: $(srcdir)/tests/fuzz/fuzz_export.c $(FUZZ_MODEL_SRC)
	$(FUZZ_BUILD)
tests/fuzz/fuzz_lists: $(srcdir)/tests/fuzz/fuzz_lists.c $(FUZZ_MODEL_SRC)
	$(FUZZ_BUILD)
tests/fuzz/fuzz_transcript: $(srcdir)/tests/fuzz/fuzz_transcript.c $(FUZZ_MODEL_SRC)
	$(FUZZ_BUILD)
tests/fuzz/fuzz_error: $(srcdir)/tests/fuzz/fuzz_error.c $(FUZZ_MODEL_SRC)
	$(FUZZ_BUILD)
tests/fuzz/fuzz_timestamp: $(srcdir)/tests/fuzz/fuzz_timestamp.c $(FUZZ_MODEL_SRC)
	$(FUZZ_BUILD)

EXTRA_DIST += %reldir%/fuzz_transcription.c %reldir%/fuzz_order.c %reldir%/fuzz_export.c \
	%reldir%/fuzz_lists.c %reldir%/fuzz_transcript.c %reldir%/fuzz_error.c \
	%reldir%/fuzz_timestamp.c %reldir%/fuzz_check.c %reldir%/corpus

CLEANFILES += $(FUZZ_TARGETS) tests/fuzz/*.fuzzlog
.PHONY: fuzz fuzz-run
