#!/bin/sh
# The TUI's figures, each beside a baseline measured in the same run (docs/PERFORMANCE.md):
#   time to the first full frame (steno vs top), CPU over 60 idle seconds (steno with the
#   demo data open vs `top -d 1` vs `sleep`), resident memory with 10,000 transcriptions
#   loaded (vs the same steno with one page, vs top), key-to-screen latency while 100
#   transfers run (vs no transfer).
# Usage: bench/tui_bench.sh STENO STENO_SANDBOX TUI_PTY TUI_LATENCY [IDLE_SECONDS]
set -eu
STENO=$1 SANDBOX=$2 PTY=$3 LAT=$4 IDLE=${5:-60}
. "$(dirname "$0")/bench_lib.sh"

median5() { sort -n | sed -n 3p; }
field() { sed -n "s/^$1 //p"; }

start_sandbox 60
for i in 1 2 3 4 5; do "$PTY" frame 30x120 online -- "$STENO" | field first_frame_ms; done > "$WORK/f1"
for i in 1 2 3 4 5; do "$PTY" frame 30x120 "load average" -- top -d 1 | field first_frame_ms; done > "$WORK/f2"
FRAME=$(median5 < "$WORK/f1") FRAME_TOP=$(median5 < "$WORK/f2")

IDLE_STENO=$("$PTY" idle "$IDLE" online -- "$STENO" | field idle_cpu_ms)
IDLE_TOP=$("$PTY" idle "$IDLE" "load average" -- top -d 1 | field idle_cpu_ms)
IDLE_SLEEP=$("$PTY" idle "$IDLE" "" -- sleep $((IDLE + 10)) | field idle_cpu_ms)

LAT0=$("$LAT" 0 400) LAT100=$("$LAT" 100 400)

start_sandbox 10000
# the demo seed adds the 13 transcriptions of its orders to the N asked for
TOTAL=10013
"$PTY" rss online G "Transcriptions $TOTAL " -- "$STENO" > "$WORK/rss"
RSS_PAGE=$(field rss_start_kb < "$WORK/rss") RSS_ALL=$(field rss_loaded_kb < "$WORK/rss")
RSS_TOP=$("$PTY" rss "load average" - "load average" -- top -d 1 | field rss_loaded_kb)

cat <<TABLE
| Figure | steno | Baseline |
|---|---|---|
| Time to the first full frame, median of 5 (ms) | $FRAME | top: $FRAME_TOP |
| CPU time over $IDLE idle seconds, demo data open (ms) | $IDLE_STENO | top -d 1: $IDLE_TOP; sleep: $IDLE_SLEEP |
| Resident memory (kB) | $RSS_ALL with $TOTAL transcriptions loaded | same steno with the first page: $RSS_PAGE; top: $RSS_TOP |
| Key-to-screen latency, median / p99 (ms) | $(echo "$LAT100" | field key_latency_median_ms) / $(echo "$LAT100" | field key_latency_p99_ms) with $(echo "$LAT100" | field transfers_running) transfers running | no transfer: $(echo "$LAT0" | field key_latency_median_ms) / $(echo "$LAT0" | field key_latency_p99_ms) |
TABLE
