#!/bin/sh
# The local store's figures (docs/PERFORMANCE.md "Local store"), each beside its baseline in
# the same run:
#   1. first rows on screen while the server answers in 3 s (--faults latency=1:3000ms):
#      steno with its store filled by an earlier run, against `cache = off`, against top's
#      first frame;
#   2. a cached organization of N transcriptions (default 10,000): first rows on screen (the
#      server still slowed), resident memory then, and the store's size on disk; against the
#      same steno with `cache = off` and the first page.
# Usage: bench/store_bench.sh STENO STENO_SANDBOX TUI_PTY [N]
set -eu
STENO=$1 SANDBOX=$2 PTY=$3 N=${4:-10000}
. "$(dirname "$0")/bench_lib.sh"
export XDG_CACHE_HOME="$WORK/cache"
export TUI_PTY_LIMIT_S=900   # every page of 100,000

median5() { sort -n | sed -n 3p; }
field() { sed -n "s/^$1 //p"; }
# page_limit: 100,000 at 100 a page is 1,001 pages, over the default 1,000
cache_off() { mkdir -p "$XDG_CONFIG_HOME/steno"; printf 'cache = off\npage_limit = 5000\n' > "$XDG_CONFIG_HOME/steno/config"; }
cache_on() { mkdir -p "$XDG_CONFIG_HOME/steno"; printf 'page_limit = 5000\n' > "$XDG_CONFIG_HOME/steno/config"; }
# the newest rows of the demo seed are the transcriptions of its orders
ROW="Commande n°"

start_sandbox 60 --faults latency=1:3000ms
cache_on
"$PTY" frame 30x120 "$ROW" -- "$STENO" > /dev/null   # fills the store
for i in 1 2 3 4 5; do "$PTY" frame 30x120 "$ROW" -- "$STENO" | field first_frame_ms; done > "$WORK/s1"
cache_off
for i in 1 2 3 4 5; do "$PTY" frame 30x120 "$ROW" -- "$STENO" | field first_frame_ms; done > "$WORK/s2"
cache_on
for i in 1 2 3 4 5; do "$PTY" frame 30x120 "load average" -- top -d 1 | field first_frame_ms; done > "$WORK/s3"
ROWS=$(median5 < "$WORK/s1") ROWS_OFF=$(median5 < "$WORK/s2") TOP=$(median5 < "$WORK/s3")

# N transcriptions: every page read once into the store (A), then started again slowed
start_sandbox "$N" --page-size 100
TOTAL=$((N + 13))
cache_on
rm -rf "$XDG_CACHE_HOME"
"$PTY" keys online A "Transcriptions $TOTAL " -- "$STENO" > "$WORK/loadall"
LOADALL=$(field key_to_text_ms < "$WORK/loadall" || true)
DB=$(du -k "$XDG_CACHE_HOME"/steno/store/*.db | cut -f1)
URL=$STENO_BASE_URL
start_sandbox 0 --page-size 100 --faults latency=1:3000ms
# the same origin as the filled store: the sandbox of N on its port is gone, point at it
# through STENO_BASE_URL of the first (its port is free again only by chance): instead the
# store file is renamed to the new origin's name
NEW=$(echo "$STENO_BASE_URL" | sed 's|^\([a-z]*\)://\([^/]*\).*|\1_\2|; s|:|_|g')
OLD=$(echo "$URL" | sed 's|^\([a-z]*\)://\([^/]*\).*|\1_\2|; s|:|_|g')
mv "$XDG_CACHE_HOME/steno/store/$OLD.db" "$XDG_CACHE_HOME/steno/store/$NEW.db"
for i in 1 2 3 4 5; do "$PTY" frame 30x120 "$ROW" -- "$STENO" | field first_frame_ms; done > "$WORK/c1"
BIG=$(median5 < "$WORK/c1")
"$PTY" rss "$ROW" - "$ROW" -- "$STENO" > "$WORK/rss"
RSS_CACHED=$(field rss_start_kb < "$WORK/rss") USS_CACHED=$(field uss_start_kb < "$WORK/rss")
start_sandbox "$N" --page-size 100
cache_off
"$PTY" rss online - online -- "$STENO" > "$WORK/rss_off"
RSS_OFF=$(field rss_start_kb < "$WORK/rss_off") USS_OFF=$(field uss_start_kb < "$WORK/rss_off")
"$PTY" keys online A "Transcriptions $TOTAL " -- "$STENO" > "$WORK/loadall_off"
LOADALL_OFF=$(field key_to_text_ms < "$WORK/loadall_off" || true)
cache_on

cat <<TABLE
| Figure | steno with the store | Baseline |
|---|---|---|
| First rows on screen, server answering in 3 s, median of 5 (ms) | $ROWS | cache = off: $ROWS_OFF; top's first frame: $TOP |
| First rows of a cached organization of $TOTAL, server answering in 3 s, median of 5 (ms) | $BIG | (cache = off: the 3 s above) |
| Memory when those rows show, RSS / USS (kB) | $RSS_CACHED / $USS_CACHED (the first rows in memory, the rest coming) | cache = off, first page: $RSS_OFF / $USS_OFF |
| Time to load every page of $TOTAL (A), ms | $LOADALL | cache = off: $LOADALL_OFF |
| The store on disk with $TOTAL transcriptions (kB) | $DB | |
TABLE
