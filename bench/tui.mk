# The TUI's benchmarks (docs/PERFORMANCE.md "TUI"): built and run on demand by
# `make bench-tui`, never part of make check.
EXTRA_PROGRAMS += bench/tui_pty bench/tui_latency
bench_tui_pty_SOURCES = %reldir%/tui_pty.c
bench_tui_pty_CFLAGS = $(AM_CFLAGS) $(VTERM_CFLAGS)
bench_tui_pty_LDADD = $(VTERM_LIBS) -lutil
bench_tui_latency_SOURCES = %reldir%/tui_latency.c
bench_tui_latency_CFLAGS = $(AM_CFLAGS) $(NCURSESW_CFLAGS) $(CURL_CFLAGS) $(JSONC_CFLAGS)
bench_tui_latency_LDADD = libsteno_ui.a libsteno_core.a libsteno_api.a $(NCURSESW_LIBS) \
	$(CURL_LIBS) $(JSONC_LIBS) $(INIH_LIBS) $(SQLITE_LIBS) -lm
CLEANFILES += bench/tui_pty bench/tui_latency
EXTRA_DIST += %reldir%/tui_bench.sh %reldir%/preview_bench.sh %reldir%/bench_lib.sh \
	%reldir%/tui_idle.sh %reldir%/tui_latency_ab.sh %reldir%/columns_bench.sh \
	%reldir%/store_bench.sh

bench-tui: steno steno-sandbox bench/tui_pty bench/tui_latency
	$(SHELL) $(srcdir)/%reldir%/tui_bench.sh ./steno ./steno-sandbox bench/tui_pty bench/tui_latency

# Time from `p` to the transcript, downloadUrl vs the JSON export of the earlier form.
bench-preview: steno steno-sandbox bench/tui_pty
	$(SHELL) $(srcdir)/%reldir%/preview_bench.sh ./steno ./steno-sandbox bench/tui_pty

# Idle CPU and wakeups on a quiet organization: live list on, off, and top -d 1 side by side.
bench-idle: steno steno-sandbox bench/tui_pty
	$(SHELL) $(srcdir)/%reldir%/tui_idle.sh ./steno ./steno-sandbox bench/tui_pty

# Key-to-screen latency against another build's bench/tui_latency:
#   make bench-latency-ab LATENCY_B=/path/to/other/build/bench/tui_latency
bench-latency-ab: steno-sandbox bench/tui_latency
	$(SHELL) $(srcdir)/%reldir%/tui_latency_ab.sh ./steno-sandbox bench/tui_latency '$(LATENCY_B)'

# The list's columns fitted to content against a baseline build's tui_latency:
#   make bench-columns BASELINE=/path/to/main-build/bench/tui_latency
bench-columns: steno-sandbox bench/tui_latency
	$(SHELL) $(srcdir)/%reldir%/columns_bench.sh ./steno-sandbox bench/tui_latency $(BASELINE)
# The local store: first rows with a slow server (store vs cache = off vs top); an
# organization of STORE_N (10,000) read with A and cached: first rows, memory, load-all time,
# size on disk, key-to-screen scrolling as listed, sorted and filtered; against cache = off
# and, when given, another build (e.g. main's):
#   make bench-store STORE_N=100000 MAIN_STENO=/path/main/steno MAIN_LATENCY=/path/main/bench/tui_latency
STORE_N = 10000
bench-store: steno steno-sandbox bench/tui_pty bench/tui_latency
	$(SHELL) $(srcdir)/%reldir%/store_bench.sh ./steno ./steno-sandbox bench/tui_pty \
		$(STORE_N) bench/tui_latency $(MAIN_STENO) $(MAIN_LATENCY)

.PHONY: bench-store bench-tui bench-preview bench-idle bench-latency-ab bench-columns

# Transcripts as content: steno index against the sandbox's rate limit, index size, 50 queries
# against grep -ril, the reader on a two-hour transcript (docs/PERFORMANCE.md). With
# BASELINE=DIR (another tree's build dir, e.g. main's, with its steno and bench/content_bench
# built), that build is measured in the same run.
EXTRA_PROGRAMS += bench/content_bench
bench_content_bench_SOURCES = %reldir%/content_bench.c
bench_content_bench_CFLAGS = $(AM_CFLAGS) $(NCURSESW_CFLAGS) $(SQLITE_CFLAGS)
bench_content_bench_LDADD = libsteno_ui.a libsteno_core.a libsteno_api.a $(NCURSESW_LIBS) \
	$(CURL_LIBS) $(JSONC_LIBS) $(INIH_LIBS) $(SQLITE_LIBS) -lm
CLEANFILES += bench/content_bench
EXTRA_DIST += %reldir%/content_bench.sh
bench-content: steno steno-sandbox bench/content_bench
	$(SHELL) $(srcdir)/%reldir%/content_bench.sh ./steno ./steno-sandbox bench/content_bench \
		1000 20 50 $(if $(BASELINE),$(BASELINE)/steno $(BASELINE)/bench/content_bench)
.PHONY: bench-content
