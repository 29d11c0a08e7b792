# libFuzzer targets (clang): `make fuzz` builds them, `make fuzz-run` runs each
# for FUZZ_SECONDS against its seed corpus in tests/fuzz/corpus/NAME.
FUZZ_TARGETS =
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

CLEANFILES += $(FUZZ_TARGETS) tests/fuzz/*.fuzzlog
.PHONY: fuzz fuzz-run
