# libFuzzer targets (clang): `make fuzz` builds them, `make fuzz-run` runs each
# for FUZZ_SECONDS against its seed corpus in tests/fuzz/corpus/NAME.
# One target per parser family, built straight from the sources (no libsteno_*.a: those are
# compiled without the fuzzer's coverage instrumentation). What each covers, and the
# results of the long runs: docs/RELIABILITY.md.
FUZZ_TARGETS = tests/fuzz/fuzz_transcription tests/fuzz/fuzz_order tests/fuzz/fuzz_export \
	tests/fuzz/fuzz_lists tests/fuzz/fuzz_transcript tests/fuzz/fuzz_error \
	tests/fuzz/fuzz_timestamp tests/fuzz/fuzz_config tests/fuzz/fuzz_theme_keys \
	tests/fuzz/fuzz_text tests/fuzz/fuzz_sb_transcript tests/fuzz/fuzz_sb_request \
	tests/fuzz/fuzz_http_meta tests/fuzz/fuzz_query
FUZZ_MODEL_SRC = \
	$(srcdir)/tui/api/error.c $(srcdir)/tui/api/jget.c $(srcdir)/tui/api/jget_bounds.c \
	$(srcdir)/tui/api/timestamp.c \
	$(srcdir)/tui/api/transcription.c $(srcdir)/tui/api/upload.c $(srcdir)/tui/api/export.c \
	$(srcdir)/tui/api/translation.c $(srcdir)/tui/api/order.c $(srcdir)/tui/api/glossary.c \
	$(srcdir)/tui/api/transcript.c $(srcdir)/tui/api/error_body.c $(srcdir)/tui/api/utf8.c \
	$(srcdir)/tests/fuzz/fuzz_check.c
FUZZ_BUILD = @mkdir -p tests/fuzz; echo "  FUZZ     $@"; \
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(FUZZ_MODEL_SRC) $(JSONC_LIBS)
FUZZ_SECONDS = 20
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I$(top_srcdir)/tui -I$(top_builddir) $(JSONC_CFLAGS)

fuzz: $(FUZZ_TARGETS)

# Two targets side by side (CI has 2 cores): 14 targets x FUZZ_SECONDS / 2 of wall time.
# A crash fails the run, prints the log tail and leaves the input in tests/fuzz/crash-NAME-*.
FUZZ_RUN_ONE = t=$$1; name=$$(basename $$t); work=$$(mktemp -d); \
	cp -r "$(top_srcdir)/tests/fuzz/corpus/$$name/." "$$work/" 2>/dev/null || true; \
	dict="$(top_srcdir)/tests/fuzz/$$name.dict"; [ -f "$$dict" ] && dict="-dict=$$dict" || dict=; \
	./$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -print_final_stats=1 $$dict \
	  -artifact_prefix=tests/fuzz/crash-$$name- "$$work" >$$t.fuzzlog 2>&1; rc=$$?; rm -rf "$$work"; \
	if [ $$rc -ne 0 ]; then echo "fuzz: $$name FAILED"; tail -50 $$t.fuzzlog; exit 1; fi; \
	echo "fuzz: $$name $$(grep -o "cov: [0-9]* ft: [0-9]*" $$t.fuzzlog | tail -1)," \
	  "$$(sed -n "s/^stat::number_of_executed_units: *//p" $$t.fuzzlog) runs in $(FUZZ_SECONDS)s"

fuzz-run: fuzz
	@printf '%s\n' $(FUZZ_TARGETS) | xargs -n 1 -P 2 sh -c '$(FUZZ_RUN_ONE)' sh

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

# Client config (core) and ui parsers: each target compiles what it needs from source.
FUZZ_CONF_SRC = $(srcdir)/tui/core/conf.c $(srcdir)/tui/core/conf_load.c \
	$(srcdir)/tui/core/paths.c $(srcdir)/tui/core/download_name.c $(srcdir)/tui/core/columns.c $(srcdir)/tui/api/error.c \
	$(srcdir)/tui/api/jget.c $(srcdir)/tui/api/spec_tables.c $(srcdir)/tui/api/url.c \
	$(srcdir)/tui/api/utf8.c \
	$(srcdir)/tui/api/timestamp.c $(srcdir)/tests/fuzz/fuzz_check.c
FUZZ_TEXT_SRC = $(srcdir)/tui/ui/text.c
FUZZ_QUERY_SRC = $(srcdir)/tui/core/query.c $(srcdir)/tui/core/natsort.c \
	$(srcdir)/tui/core/textfold.c $(srcdir)/tui/core/lang_names.c \
	$(srcdir)/tui/core/lang_names_data.c $(srcdir)/tui/api/utf8.c
FUZZ_HTTP_SRC = $(srcdir)/tui/api/retry.c $(srcdir)/tui/api/ratelimit.c $(srcdir)/tui/api/url.c \
	$(srcdir)/tui/api/error_body.c $(srcdir)/tui/api/error.c $(srcdir)/tui/api/jget.c \
	$(srcdir)/tui/api/timestamp.c $(srcdir)/tui/api/utf8.c
FUZZ_UI_SRC = $(srcdir)/tui/ui/theme.c $(srcdir)/tui/ui/theme_color.c tui/ui/theme_builtin.c \
	$(srcdir)/tui/ui/diag.c $(srcdir)/tui/ui/keymap.c $(srcdir)/tui/ui/keys.c \
	$(srcdir)/tui/ui/actions.c $(FUZZ_TEXT_SRC)
# The sandbox: export writers and transcript JSON; for requests everything but the files
# fuzz_sb_request.c includes itself (main.c, server.c, signed_url.c).
FUZZ_SBFMT_SRC = $(srcdir)/sandbox/formats/transcript.c $(srcdir)/sandbox/formats/transcript_ops.c \
	$(srcdir)/sandbox/formats/transcript_json.c $(srcdir)/sandbox/formats/wordlists.c \
	$(srcdir)/sandbox/formats/buf.c $(srcdir)/sandbox/formats/export.c \
	$(srcdir)/sandbox/formats/export_cues.c $(srcdir)/sandbox/formats/export_text.c \
	$(srcdir)/sandbox/formats/export_xml.c $(srcdir)/sandbox/formats/export_docx.c \
	$(srcdir)/sandbox/formats/export_pdf.c $(srcdir)/sandbox/formats/export_stl.c \
	$(srcdir)/sandbox/formats/export_zip.c $(srcdir)/sandbox/formats/transcript_words.c \
	$(srcdir)/tui/api/spec_tables.c $(srcdir)/tui/api/utf8.c
# The sandbox's speech recognition: its queue always, the decoder where configure found it.
if HAVE_ASR
FUZZ_SB_ASR = $(srcdir)/sandbox/asr.c $(srcdir)/sandbox/asr_decode.c $(srcdir)/sandbox/asr_audio.c
FUZZ_SB_ASR_FLAGS = $(POCKETSPHINX_CFLAGS) $(SOXR_CFLAGS) $(POCKETSPHINX_LIBS) $(SOXR_LIBS)
else
FUZZ_SB_ASR = $(srcdir)/sandbox/asr.c
FUZZ_SB_ASR_FLAGS =
endif
FUZZ_SB_SRC = $(FUZZ_SBFMT_SRC) $(srcdir)/sandbox/formats/media.c $(FUZZ_SB_ASR) \
	$(srcdir)/sandbox/routes_table.c $(srcdir)/sandbox/routes_util.c \
	$(srcdir)/sandbox/routes_uploads.c $(srcdir)/sandbox/routes_transcriptions.c \
	$(srcdir)/sandbox/routes_exports.c $(srcdir)/sandbox/routes_tasks.c \
	$(srcdir)/sandbox/routes_orders.c $(srcdir)/sandbox/routes_lists.c \
	$(srcdir)/sandbox/routes_admin.c $(srcdir)/sandbox/auth.c $(srcdir)/sandbox/db.c \
	$(srcdir)/sandbox/clock.c $(srcdir)/sandbox/ratelimit.c $(srcdir)/sandbox/faults.c \
	$(srcdir)/sandbox/fetch.c $(srcdir)/sandbox/webhook.c $(srcdir)/sandbox/seed.c \
	$(srcdir)/sandbox/work.c $(srcdir)/sandbox/content.c $(srcdir)/sandbox/folders.c \
	$(srcdir)/sandbox/model_tr.c $(srcdir)/sandbox/model_order.c $(srcdir)/sandbox/util.c \
	$(srcdir)/sandbox/counters.c $(srcdir)/sandbox/conn_guard.c $(srcdir)/sandbox/stopping.c \
	$(srcdir)/sandbox/req_check.c
FUZZ_SB_INCLUDED = $(srcdir)/sandbox/main.c $(srcdir)/sandbox/server.c $(srcdir)/sandbox/signed_url.c
FUZZ_CC_LINE = @mkdir -p tests/fuzz; echo "  FUZZ     $@"; $(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $<

tests/fuzz/fuzz_config: $(srcdir)/tests/fuzz/fuzz_config.c $(FUZZ_CONF_SRC)
	$(FUZZ_CC_LINE) $(FUZZ_CONF_SRC) $(INIH_CFLAGS) $(INIH_LIBS) $(JSONC_LIBS) $(CURL_LIBS)
tests/fuzz/fuzz_theme_keys: $(srcdir)/tests/fuzz/fuzz_theme_keys.c $(FUZZ_UI_SRC)
	$(FUZZ_CC_LINE) $(FUZZ_UI_SRC) $(NCURSESW_CFLAGS) $(NCURSESW_LIBS)
tests/fuzz/fuzz_http_meta: $(srcdir)/tests/fuzz/fuzz_http_meta.c $(FUZZ_HTTP_SRC)
	$(FUZZ_CC_LINE) $(FUZZ_HTTP_SRC) $(CURL_CFLAGS) $(CURL_LIBS) $(JSONC_LIBS)
tests/fuzz/fuzz_text: $(srcdir)/tests/fuzz/fuzz_text.c $(FUZZ_TEXT_SRC)
	$(FUZZ_CC_LINE) $(FUZZ_TEXT_SRC)
tests/fuzz/fuzz_query: $(srcdir)/tests/fuzz/fuzz_query.c $(FUZZ_QUERY_SRC)
	$(FUZZ_CC_LINE) $(FUZZ_QUERY_SRC) -lm
tests/fuzz/fuzz_sb_transcript: $(srcdir)/tests/fuzz/fuzz_sb_transcript.c $(FUZZ_SBFMT_SRC)
	$(FUZZ_CC_LINE) $(FUZZ_SBFMT_SRC) -I$(top_srcdir) $(LIBZIP_CFLAGS) $(LIBZIP_LIBS) \
	  $(HPDF_LIBS) $(JSONC_LIBS) -lm
tests/fuzz/fuzz_sb_request: $(srcdir)/tests/fuzz/fuzz_sb_request.c $(FUZZ_SB_SRC) $(FUZZ_SB_INCLUDED)
	$(FUZZ_CC_LINE) $(FUZZ_SB_SRC) -I$(top_srcdir) $(MHD_CFLAGS) $(CURL_CFLAGS) $(SNDFILE_CFLAGS) \
	  $(LIBZIP_CFLAGS) $(PTHREAD_CFLAGS) $(MHD_LIBS) $(SQLITE_LIBS) $(JSONC_LIBS) $(CURL_LIBS) \
	  $(CRYPTO_LIBS) $(LIBZIP_LIBS) $(SNDFILE_LIBS) $(HPDF_LIBS) $(PTHREAD_LIBS) $(FUZZ_SB_ASR_FLAGS) -lm

EXTRA_DIST += %reldir%/fuzz_config.c %reldir%/fuzz_theme_keys.c %reldir%/fuzz_text.c \
	%reldir%/fuzz_sb_transcript.c %reldir%/fuzz_sb_request.c %reldir%/fuzz_http_meta.c \
	%reldir%/fuzz_sb_request.dict %reldir%/fuzz_query.c
EXTRA_DIST += %reldir%/fuzz_transcription.c %reldir%/fuzz_order.c %reldir%/fuzz_export.c \
	%reldir%/fuzz_lists.c %reldir%/fuzz_transcript.c %reldir%/fuzz_error.c \
	%reldir%/fuzz_timestamp.c %reldir%/fuzz_check.c %reldir%/corpus

CLEANFILES += $(FUZZ_TARGETS) tests/fuzz/*.fuzzlog tests/fuzz/crash-*
.PHONY: fuzz fuzz-run

# Regressions for what fuzzing found in the sandbox (plain Criterion, every compiler).
check_PROGRAMS += tests/fuzz/test_fuzz_found
TESTS += tests/fuzz/test_fuzz_found
tests_fuzz_test_fuzz_found_SOURCES = %reldir%/test_fuzz_found.c \
	sandbox/signed_url.c sandbox/ratelimit.c sandbox/clock.c sandbox/util.c sandbox/db.c
tests_fuzz_test_fuzz_found_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir) $(SQLITE_CFLAGS) $(CRYPTO_CFLAGS) $(PTHREAD_CFLAGS)
tests_fuzz_test_fuzz_found_LDADD = $(TEST_LIBS) $(SQLITE_LIBS) $(CRYPTO_LIBS) $(PTHREAD_LIBS) -lm
