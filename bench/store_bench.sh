#!/bin/sh
# The local store's figures (docs/PERFORMANCE.md "Local store"), each beside its baseline in
# the same run:
#   1. first rows on screen while the server answers in 3 s (--faults latency=1:3000ms):
#      steno with its store filled by an earlier run, against `cache = off`, against top's
#      first frame;
#   2. N transcriptions (default 10,000), for this steno with its store, the same with
#      `cache = off`, and (MAIN given) another build, e.g. main's, with its store:
#      - every page read by `A` (ms), and the memory (RSS / USS) once all are on screen;
#      - a cached organization of N: first rows on screen with the server slowed (median of
#        5); the memory at the first rows and once every cached row is in (--offline); the
#        store's size on disk;
#      - key-to-screen latency at N (bench/tui_latency 0 KEYS large: the app in-process loads
#        every page, then scrolls as listed, sorted by name, filtered by lang:fr; the keys
#        that sort and filter are timed too).
# Usage: bench/store_bench.sh STENO STENO_SANDBOX TUI_PTY [N [TUI_LATENCY [MAIN_STENO MAIN_LATENCY]]]
# (FIRST_ONLY=1, LOADALL_ONLY=1, ROUNDS, KEEP_STORE=FILE: see below)
set -eu
STENO=$1 SANDBOX=$2 PTY=$3 N=${4:-10000} LAT=${5:-} MAIN=${6:-} MAIN_LAT=${7:-}
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
TOTAL=$((N + 13))

# FIRST_ONLY=1: only the first rows of a cached organization of N, this build and MAIN side
# by side on copies of one store (filled once by `A` with MAIN's build, the older schema,
# which this build migrates in a first run not counted), ROUNDS (default 5) turns each in
# turn, the server answering in 3 s; medians.
if [ -n "${FIRST_ONLY:-}" ]; then
	[ -n "$MAIN" ] || { echo "FIRST_ONLY needs MAIN_STENO" >&2; exit 2; }
	cache_on
	start_sandbox "$N" --page-size 100
	"$PTY" keys online A "Transcriptions $TOTAL " -- "$MAIN" | field key_to_text_ms > "$WORK/fill_ms"
	old=$(echo "$STENO_BASE_URL" | sed 's|^\([a-z]*\)://\([^/]*\).*|\1_\2|; s|:|_|g')
	start_sandbox 0 --page-size 100 --faults latency=1:3000ms
	new=$(echo "$STENO_BASE_URL" | sed 's|^\([a-z]*\)://\([^/]*\).*|\1_\2|; s|:|_|g')
	for b in this main; do
		mkdir -p "$WORK/c_$b/steno/store"
		cp "$XDG_CACHE_HOME/steno/store/$old.db" "$WORK/c_$b/steno/store/$new.db"
	done
	XDG_CACHE_HOME="$WORK/c_this" "$PTY" frame 30x120 "$ROW" -- "$STENO" > /dev/null
	XDG_CACHE_HOME="$WORK/c_main" "$PTY" frame 30x120 "$ROW" -- "$MAIN" > /dev/null
	i=0
	while [ $i -lt "${ROUNDS:-5}" ]; do
		i=$((i + 1))
		XDG_CACHE_HOME="$WORK/c_this" "$PTY" frame 30x120 "$ROW" -- "$STENO" | field first_frame_ms >> "$WORK/f_this"
		XDG_CACHE_HOME="$WORK/c_main" "$PTY" frame 30x120 "$ROW" -- "$MAIN" | field first_frame_ms >> "$WORK/f_main"
	done
	med() { sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
	t=$(med "$WORK/f_this") m=$(med "$WORK/f_main")
	echo "store filled by $MAIN with A over $TOTAL: $(cat "$WORK/fill_ms") ms; $(du -k "$WORK/c_this/steno/store/$new.db" | cut -f1) kB"
	echo "first rows, this build: $(tr '\n' ' ' < "$WORK/f_this")"
	echo "first rows, main: $(tr '\n' ' ' < "$WORK/f_main")"
	echo "| First rows of a cached organization of $TOTAL, server answering in 3 s, median of ${ROUNDS:-5} (ms) | $t | $m | $(awk -v a="$t" -v b="$m" 'BEGIN { printf "%.2f", a / b }') |"
	[ -z "${KEEP_STORE:-}" ] || cp "$XDG_CACHE_HOME/steno/store/$old.db" "$KEEP_STORE"
	echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
	exit 0
fi

# LOADALL_ONLY=1: only `A` (every page read) over N, this build and MAIN, each with its
# store (emptied before each run) and with cache = off, in turn on one sandbox, ROUNDS
# (default 5) rounds; medians, and the ratio store / cache = off of each build.
if [ -n "${LOADALL_ONLY:-}" ]; then
	[ -n "$MAIN" ] || { echo "LOADALL_ONLY needs MAIN_STENO" >&2; exit 2; }
	start_sandbox "$N" --page-size 100
	i=0
	while [ $i -lt "${ROUNDS:-5}" ]; do
		i=$((i + 1))
		for b in this this_off main main_off; do
			case $b in this*) bin=$STENO ;; *) bin=$MAIN ;; esac
			case $b in *_off) cache_off ;; *) cache_on ;; esac
			rm -rf "$XDG_CACHE_HOME"
			"$PTY" keys online A "Transcriptions $TOTAL " -- "$bin" | field key_to_text_ms >> "$WORK/la_$b"
		done
	done
	med() { sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
	for b in this this_off main main_off; do echo "$b: $(tr '\n' ' ' < "$WORK/la_$b")"; done
	t=$(med "$WORK/la_this") o=$(med "$WORK/la_this_off") m=$(med "$WORK/la_main") mo=$(med "$WORK/la_main_off")
	r() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
	echo "| Every page read with A over $TOTAL, median of ${ROUNDS:-5} (ms) | $t | $o | $(r "$t" "$o") | $m | $mo | $(r "$m" "$mo") | $(r "$t" "$m") |"
	echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
	exit 0
fi

start_sandbox 60 --faults latency=1:3000ms
cache_on
"$PTY" frame 30x120 "$ROW" -- "$STENO" > /dev/null   # fills the store
for i in 1 2 3 4 5; do "$PTY" frame 30x120 "$ROW" -- "$STENO" | field first_frame_ms; done > "$WORK/s1"
cache_off
for i in 1 2 3 4 5; do "$PTY" frame 30x120 "$ROW" -- "$STENO" | field first_frame_ms; done > "$WORK/s2"
cache_on
for i in 1 2 3 4 5; do "$PTY" frame 30x120 "load average" -- top -d 1 | field first_frame_ms; done > "$WORK/s3"
ROWS=$(median5 < "$WORK/s1") ROWS_OFF=$(median5 < "$WORK/s2") TOP=$(median5 < "$WORK/s3")

origin_file() { echo "$1" | sed 's|^\([a-z]*\)://\([^/]*\).*|\1_\2|; s|:|_|g'; }

# large BIN NAME: the figures of one build at N into $WORK/NAME.*; the store: on unless NAME
# ends in _off
large() {
	bin=$1 name=$2
	rm -rf "$XDG_CACHE_HOME"
	case $name in *_off) cache_off ;; *) cache_on ;; esac
	start_sandbox "$N" --page-size 100
	"$PTY" keys online A "Transcriptions $TOTAL " -- "$bin" > "$WORK/$name.loadall"
	case $name in *_off) cache_on; return ;; esac
	du -k "$XDG_CACHE_HOME"/steno/store/*.db | cut -f1 > "$WORK/$name.db"
	old=$(origin_file "$STENO_BASE_URL")
	# the store of that sandbox, started again slowed: the file renamed to the new origin
	start_sandbox 0 --page-size 100 --faults latency=1:3000ms
	mv "$XDG_CACHE_HOME/steno/store/$old.db" \
		"$XDG_CACHE_HOME/steno/store/$(origin_file "$STENO_BASE_URL").db"
	for i in 1 2 3 4 5; do "$PTY" frame 30x120 "$ROW" -- "$bin" | field first_frame_ms; done > "$WORK/$name.first"
	# --offline: the slowed sandbox's page 1 (13 rows, no next link) would prove the list
	# and replace the cached rows before all of them are in
	"$PTY" rss "$ROW" - "Transcriptions $TOTAL" -- "$bin" --offline > "$WORK/$name.rss"
}

# latency LAT NAME [off]: tui_latency large at N
latency() {
	rm -rf "$XDG_CACHE_HOME"
	start_sandbox "$N" --page-size 100
	# a build that sorts the whole list again on every cursor move takes seconds a key: what
	# it printed before the limit is kept
	if [ "${3:-}" = off ]; then export TUI_LATENCY_CACHE_OFF=1; else unset TUI_LATENCY_CACHE_OFF; fi
	timeout "${LAT_LIMIT_S:-1200}" "$1" 0 "${LAT_KEYS:-400}" large > "$WORK/$2.lat" || true
	unset TUI_LATENCY_CACHE_OFF
}

large "$STENO" this
large "$STENO" this_off
[ -z "$MAIN" ] || large "$MAIN" main
[ -z "$MAIN" ] || large "$MAIN" main_off
if [ -n "$LAT" ]; then
	latency "$LAT" this
	latency "$LAT" this_off off
	[ -z "$MAIN_LAT" ] || latency "$MAIN_LAT" main
fi

get() { if [ -f "$WORK/$1" ]; then field "$2" < "$WORK/$1"; else echo "-"; fi; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }'; }
cell() {   # cell FILE FIELD: this; this_off; main (ratio this/them)
	t=$(get "this.$1" "$2") o=$(get "this_off.$1" "$2") m=$(get "main.$1" "$2")
	printf '| %s | %s | %s (%s) |' "$t" "$o" "$m" "$(ratio "$t" "$m")"
}
first() { [ -s "$WORK/$1.first" ] && median5 < "$WORK/$1.first" || echo "-"; }

cat <<TABLE
| Figure | steno with the store | Baseline |
|---|---|---|
| First rows on screen, server answering in 3 s, median of 5 (ms) | $ROWS | cache = off: $ROWS_OFF; top's first frame: $TOP |

$TOTAL transcriptions; columns: this build with its store, this build with cache = off,
${MAIN:-(no other build)} with its store (this / that in brackets):

| Figure | store | cache = off | other build (ratio) |
|---|---|---|---|
TABLE
t=$(first this) m=$(first main)
printf '| First rows of the cached organization, server slowed, median of 5 (ms) | %s | (3,000 and more) | %s (%s) |\n' "$t" "$m" "$(ratio "$t" "$m")"
printf '| USS at those first rows (kB) '; cell rss uss_start_kb; echo
printf '| USS once every cached row is in (kB) '; cell rss uss_loaded_kb; echo
printf '| Every page read with A (ms) '; cell loadall key_to_text_ms; echo
printf '| RSS once every page is read (kB) '; cell loadall rss_loaded_kb; echo
if [ -n "$MAIN" ]; then
	t=$(get this.loadall key_to_text_ms) o=$(get this_off.loadall key_to_text_ms)
	m=$(get main.loadall key_to_text_ms) mo=$(get main_off.loadall key_to_text_ms)
	printf '| A with the store / A with cache = off | %s | | %s (main: %s / %s) |\n' \
		"$(ratio "$t" "$o")" "$(ratio "$m" "$mo")" "$m" "$mo"
fi
printf '| USS once every page is read (kB) '; cell loadall uss_loaded_kb; echo
t=$(cat "$WORK/this.db" 2>/dev/null || echo -) m=$(cat "$WORK/main.db" 2>/dev/null || echo -)
printf '| The store on disk (kB) | %s | | %s (%s) |\n' "$t" "$m" "$(ratio "$t" "$m")"
if [ -n "$LAT" ]; then
	for f in load_all_ms scroll_server_median_ms scroll_server_p99_ms sort_key_max_ms \
		scroll_sorted_median_ms scroll_sorted_p99_ms filter_key_max_ms \
		scroll_filtered_median_ms scroll_filtered_p99_ms; do
		printf '| tui_latency: %s ' "$f"; cell lat "$f"; echo
	done
fi
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
