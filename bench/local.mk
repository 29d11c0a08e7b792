# Benchmarks run on demand (make bench); never part of make check.
EXTRA_DIST += %reldir%/sandbox_bench.sh %reldir%/ls_all.sh %reldir%/sandbox_lib.sh \
	%reldir%/tiny_items.sh

# steno-sandbox under wrk, beside its GET /teapot floor (prints a Markdown table).
bench-sandbox: steno-sandbox
	$(SHELL) $(srcdir)/%reldir%/sandbox_bench.sh ./steno-sandbox

# steno ls --all over 10,000 transcriptions vs curl loops vs the sandbox's own rate.
bench-ls: steno steno-sandbox
	$(SHELL) $(srcdir)/%reldir%/ls_all.sh ./steno ./steno-sandbox

# Speech recognition: decoder real-time factor and memory, API latency with decodes running.
EXTRA_DIST += %reldir%/asr_bench.sh %reldir%/asr_decoder.c
if HAVE_ASR
EXTRA_PROGRAMS += bench/asr_decoder
bench_asr_decoder_SOURCES = %reldir%/asr_decoder.c sandbox/asr_decode.c sandbox/asr_audio.c
bench_asr_decoder_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/sandbox
bench_asr_decoder_CFLAGS = $(AM_CFLAGS) $(POCKETSPHINX_CFLAGS) $(SOXR_CFLAGS) $(SNDFILE_CFLAGS) $(JSONC_CFLAGS)
bench_asr_decoder_LDADD = libsandbox_formats.a $(POCKETSPHINX_LIBS) $(SOXR_LIBS) $(SNDFILE_LIBS) $(JSONC_LIBS) -lm
CLEANFILES += bench/asr_decoder
bench-asr: steno-sandbox bench/asr_decoder
	$(SHELL) $(srcdir)/%reldir%/asr_bench.sh ./steno-sandbox bench/asr_decoder
else
bench-asr:
	@echo "bench-asr: steno-sandbox is built without speech recognition (see configure's summary)"
endif
.PHONY: bench-asr

# steno watch --list idle (CPU, wakeups) against another build's steno, side by side:
#   make bench-watch-idle BASELINE=/path/to/main-build/steno
EXTRA_DIST += %reldir%/idle_lib.sh %reldir%/watch_idle.sh
bench-watch-idle: steno steno-sandbox bench/tui_pty
	$(SHELL) $(srcdir)/%reldir%/watch_idle.sh ./steno '$(BASELINE)' ./steno-sandbox bench/tui_pty
.PHONY: bench-watch-idle

# The TUI's benchmarks (bench/tui.mk, written with tui/ui).
include %reldir%/tui.mk
# A fresh connection per POST vs a reused one (bench/post.mk).
include %reldir%/post.mk

bench: bench-sandbox bench-ls bench-tui bench-idle bench-post bench-asr
.PHONY: bench bench-sandbox bench-ls
