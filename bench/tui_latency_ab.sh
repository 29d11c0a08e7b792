#!/bin/sh
# Key-to-screen latency of two builds side by side (docs/PERFORMANCE.md "Key-to-screen latency
# against an earlier build"): bench/tui_latency of build A and of build B (e.g. one made from
# an earlier commit in another checkout) run in turn, A B A B ..., RUNS times each, against
# a fresh sandbox each (60 demo transcriptions), first with no transfer, then with TRANSFERS
# running.
# Each run prints its own median and p99 over KEYS keys; this prints the median of those
# over the runs and the median of the A/B ratios taken run by run, as a Markdown table, and
# the transfers still running at the end of each run (all N: they were on the wire).
# Usage: bench/tui_latency_ab.sh STENO_SANDBOX TUI_LATENCY_A TUI_LATENCY_B [RUNS] [TRANSFERS] [KEYS]
set -eu
SANDBOX=$1 LAT_A=$2 LAT_B=$3 RUNS=${4:-5} N=${5:-100} KEYS=${6:-400}
. "$(dirname "$0")/bench_lib.sh"

# A run with transfers leaves the sandbox's few worker threads asleep in its latency fault
# (30 s per request held) for minutes, which would slow the next run: each run gets a fresh
# sandbox of its own, killed after it (-9: a sandbox built before its stop cut those delays
# short waited them out on SIGTERM).
fresh_sandbox() {
	[ -z "$SBX_PID" ] || { kill -9 "$SBX_PID"; wait "$SBX_PID" 2>/dev/null || true; }
	SBX_PID=
	rm -rf "$WORK/data"
	start_sandbox 60 --data "$WORK/data"
	# its ready lines come before the demo seed is in: wait for a full first page
	i=0
	until [ "$(curl -sf -H "Authorization: Bearer $STENO_API_KEY" \
		"$STENO_BASE_URL/transcriptions?organization_id=$STENO_ORG_ID" | grep -o '"createdAt"' | wc -l)" -ge 20 ]; do
		i=$((i + 1)); [ $i -lt 300 ] || { echo "the sandbox's demo data did not come" >&2; exit 1; }
		sleep 0.1
	done
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
for n in 0 "$N"; do
	r=0
	while [ $r -lt "$RUNS" ]; do
		r=$((r + 1))
		for side in a b; do
			[ "$side" = a ] && lat=$LAT_A || lat=$LAT_B
			fresh_sandbox
			# a state and cache dir of its own: builds of other versions read each other's
			# state file differently
			XDG_STATE_HOME=$WORK/state.$side.$n.$r XDG_CACHE_HOME=$WORK/cache.$side.$n.$r \
				"$lat" "$n" "$KEYS" > "$WORK/$side.$n.$r" 2> "$WORK/$side.$n.$r.err"
		done
	done
done
[ -z "$SBX_PID" ] || { kill -9 "$SBX_PID"; wait "$SBX_PID" 2>/dev/null || true; }
SBX_PID=
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# fig FIGURE SIDE N: the median over the runs
fig() { for f in "$WORK/$2.$3".[0-9]*; do sed -n "s/^$1 //p" "$f"; done | median; }
# ratio FIGURE N: the median over the runs of A / B in the same run
ratio() {
	k=0
	while [ $k -lt "$RUNS" ]; do
		k=$((k + 1))
		awk -v a="$(sed -n "s/^$1 //p" "$WORK/a.$2.$k")" -v b="$(sed -n "s/^$1 //p" "$WORK/b.$2.$k")" \
			'BEGIN { if (b > 0) printf "%.3f\n", a / b; else print "-" }'
	done | median
}
row() {
	printf '| %s | %s / %s | %s / %s | %s / %s |\n' "$1" \
		"$(fig key_latency_median_ms a "$1")" "$(fig key_latency_p99_ms a "$1")" \
		"$(fig key_latency_median_ms b "$1")" "$(fig key_latency_p99_ms b "$1")" \
		"$(ratio key_latency_median_ms "$1")" "$(ratio key_latency_p99_ms "$1")"
}

cat <<TABLE
$(date -u '+%Y-%m-%d %H:%M UTC'), $RUNS runs of $KEYS keys each way, load average $LOAD0 before and $LOAD1 after.
A: $LAT_A; B: $LAT_B. Median over the runs of each run's median / p99:

| Transfers running | A: median / p99 (ms) | B: median / p99 (ms) | A/B, run by run: median / p99 |
|---|---|---|---|
$(row 0)
$(row "$N")

Transfers still running at the end of each run with $N (A; B): $(cat "$WORK"/a.$N.* | sed -n 's/^transfers_running //p' | tr '\n' ' ');
$(cat "$WORK"/b.$N.* | sed -n 's/^transfers_running //p' | tr '\n' ' ')
TABLE
