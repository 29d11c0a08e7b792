# Benchmarks run on demand (make bench); never part of make check.
EXTRA_DIST += %reldir%/sandbox_bench.sh %reldir%/ls_all.sh

# steno-sandbox under wrk, beside its GET /teapot floor (prints a Markdown table).
bench-sandbox: steno-sandbox
	$(SHELL) $(srcdir)/%reldir%/sandbox_bench.sh ./steno-sandbox

# steno ls --all over 10,000 transcriptions vs curl loops vs the sandbox's own rate.
bench-ls: steno steno-sandbox
	$(SHELL) $(srcdir)/%reldir%/ls_all.sh ./steno ./steno-sandbox

# The TUI's benchmarks (bench/tui.mk, written with tui/ui).
include %reldir%/tui.mk
# A fresh connection per POST vs a reused one (bench/post.mk).
include %reldir%/post.mk

bench: bench-sandbox bench-ls bench-tui bench-post
.PHONY: bench bench-sandbox bench-ls
