# Benchmarks run on demand (make bench); never part of make check.
EXTRA_DIST +=
