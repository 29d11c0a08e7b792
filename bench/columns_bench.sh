#!/bin/sh
# The list's columns fitted to their content (issue 12): every draw of the list measures each
# visible cell before drawing it. Key-to-screen latency (j/k, list and details redrawn) of this
# build against a baseline build's bench/tui_latency (e.g. main's, fixed column widths), both
# on the same sandbox in the same run, alternating, ROUNDS times each; prints the medians of
# the rounds' medians and p99s (docs/PERFORMANCE.md "List columns").
# Usage: bench/columns_bench.sh STENO_SANDBOX TUI_LATENCY BASELINE_TUI_LATENCY [ROUNDS]
set -eu
SANDBOX=$1 LAT=$2 BASE=$3 ROUNDS=${4:-7}
. "$(dirname "$0")/bench_lib.sh"

field() { sed -n "s/^$1 //p"; }
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

start_sandbox 60
i=0
while [ $i -lt "$ROUNDS" ]; do
	"$LAT" 0 400 > "$WORK/new"
	"$BASE" 0 400 > "$WORK/base"
	field key_latency_median_ms < "$WORK/new" >> "$WORK/new_med"
	field key_latency_p99_ms < "$WORK/new" >> "$WORK/new_p99"
	field key_latency_median_ms < "$WORK/base" >> "$WORK/base_med"
	field key_latency_p99_ms < "$WORK/base" >> "$WORK/base_p99"
	i=$((i + 1))
done

cat <<TABLE
| Figure ($ROUNDS rounds of 400 keys, 120x30) | this build | baseline |
|---|---|---|
| Key-to-screen latency, median of the medians (ms) | $(median < "$WORK/new_med") | $(median < "$WORK/base_med") |
| Key-to-screen latency, median of the p99s (ms) | $(median < "$WORK/new_p99") | $(median < "$WORK/base_p99") |
TABLE
