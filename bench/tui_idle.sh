#!/bin/sh
# The browser's idle cost on a quiet organization (docs/PERFORMANCE.md "Idle on a quiet
# organization"): every transcription settled (done or failed) and more than a minute old, so
# nothing changes on the server and every time shown is in minutes or coarser. Three programs
# on their own 120x30 pty, side by side (at the same time) for SECONDS, RUNS times:
#   steno with the default config (the live list: page 1 read again every 20 s),
#   steno with `refresh = 0` (no live list),
#   top -d 1 (the baseline: a terminal program that redraws once a second).
# Each is measured by bench/tui_pty idle: CPU time of the process from /proc/PID/stat
# (utime+stime, 10 ms ticks) and from the scheduler's schedstat (ns), and context switches
# of all its threads per minute: voluntary ones (asleep, then woken: the wakeups) and all
# (with the involuntary ones, preemptions that grow with the machine's load). Prints the medians and each one's ratio
# to top -d 1, as a Markdown table.
# Usage: bench/tui_idle.sh STENO STENO_SANDBOX TUI_PTY [RUNS] [SECONDS] [ITEMS]
set -eu
STENO=$1 SANDBOX=$2 PTY=$3 RUNS=${4:-5} IDLE=${5:-60} ITEMS=${6:-20}
. "$(dirname "$0")/sandbox_lib.sh"
WORK=$(mktemp -d)
trap 'sandbox_stop; rm -rf "$WORK"' EXIT INT TERM
export LANG=C.UTF-8 LC_ALL=C.UTF-8
unset STENO_CONFIG STENO_PROFILE NO_COLOR || true

# le VALUE BYTES: VALUE as BYTES little-endian bytes
le() {
	v=$1 n=$2
	while [ "$n" -gt 0 ]; do
		printf "\\$(printf %03o $((v & 255)))"
		v=$((v >> 8)) n=$((n - 1))
	done
}

# 3 s of noise as an 8 kHz mono 16-bit WAV
wav() {
	len=48000
	printf RIFF; le $((36 + len)) 4; printf 'WAVEfmt '; le 16 4; le 1 2; le 1 2
	le 8000 4; le 16000 4; le 2 2; le 16 2; printf data; le $len 4
	head -c $len /dev/urandom
}

create() {   # create NAME TMP_URL (as a JSON string's content)
	curl -sf -o /dev/null -H "$AUTH" -H 'Content-Type: application/json' \
		-d "{\"transcription\":{\"name\":\"$1\",\"language\":\"en-US\",\"tmp_url\":\"$2\",\"organization_id\":\"$STENO_ORG_ID\"}}" \
		"$STENO_BASE_URL/transcriptions"
}

# The quiet organization: ITEMS transcriptions of one uploaded file, done in seconds on the
# sandbox's real-time clock, and two whose media cannot be fetched (failed).
sandbox_start "$SANDBOX" "$WORK" quiet 0 --asr off
wav > "$WORK/media.wav"
SIGNED=$(curl -sf -H "$AUTH" "$STENO_BASE_URL/uploads/new?filename=media.wav" |
	sed -n 's/.*"signedUrl": *"\([^"]*\)".*/\1/p')
[ -n "$SIGNED" ] || { echo "no signedUrl" >&2; exit 1; }
curl -sf -o /dev/null -X PUT -H 'Expect:' --data-binary @"$WORK/media.wav" \
	"$(printf %s "$SIGNED" | sed 's#\\/#/#g')"
i=0
while [ $i -lt "$ITEMS" ]; do
	i=$((i + 1))
	create "Quiet $i" "$SIGNED"
done
create "Quiet failed 1" "http://127.0.0.1:1/none.wav"
create "Quiet failed 2" "http://127.0.0.1:1/none.wav"
CREATED=$(date +%s)
tries=0
while curl -sf -H "$AUTH" "$STENO_BASE_URL/transcriptions?organization_id=$STENO_ORG_ID&page_size=100" |
	tr ',' '\n' | grep '"state"' | grep -qv '"automatic_done"\|"failed"'; do
	tries=$((tries + 1)); [ $tries -lt 600 ] || { echo "the items did not settle" >&2; exit 1; }
	sleep 0.2
done
# every "N s ago" has become minutes
wait_s=$((CREATED + 65 - $(date +%s)))
[ $wait_s -le 0 ] || sleep $wait_s

mkdir -p "$WORK/on/cfg" "$WORK/off/cfg/steno"
echo "refresh = 0" > "$WORK/off/cfg/steno/config"
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
r=0
while [ $r -lt "$RUNS" ]; do
	r=$((r + 1))
	pids=
	for m in on off; do
		XDG_CONFIG_HOME=$WORK/$m/cfg XDG_STATE_HOME=$WORK/$m/state XDG_CACHE_HOME=$WORK/$m/cache \
			"$PTY" idle "$IDLE" online -- "$STENO" > "$WORK/$m.$r" &
		pids="$pids $!"
	done
	"$PTY" idle "$IDLE" "load average" -- top -d 1 > "$WORK/top.$r" &
	for p in $pids $!; do wait "$p"; done
done
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)

# values FIGURE WHO: one line per run
values() { for f in "$WORK/$2".*; do sed -n "s/^$1 //p" "$f"; done; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
range() { sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo "-" hi }'; }
# ratio FIGURE WHO: median over the runs of WHO / top in the same run
ratio() {
	k=0
	while [ $k -lt "$RUNS" ]; do
		k=$((k + 1))
		a=$(sed -n "s/^$1 //p" "$WORK/$2.$k") b=$(sed -n "s/^$1 //p" "$WORK/top.$k")
		awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%.3f\n", a / b; else print "-" }'
	done | median
}
cell() { printf '%s (%s)' "$(values "$1" "$2" | median)" "$(values "$1" "$2" | range)"; }
us_ms() { awk '{ printf "%.1f\n", $1 / 1000 }'; }
cell_us() {
	printf '%s (%s)' "$(values idle_cpu_us "$1" | us_ms | median)" \
		"$(values idle_cpu_us "$1" | us_ms | range)"
}

cat <<TABLE
$(date -u '+%Y-%m-%d %H:%M UTC'), $RUNS runs of $IDLE s, $ITEMS done + 2 failed transcriptions,
load average $LOAD0 before and $LOAD1 after; median (min-max) over the runs:

| Figure over $IDLE idle seconds | steno, live list on (default, 20 s) | steno, refresh = 0 | top -d 1 |
|---|---|---|---|
| CPU, utime+stime from /proc/PID/stat (ms) | $(cell idle_cpu_ms on) | $(cell idle_cpu_ms off) | $(cell idle_cpu_ms top) |
| CPU, on-CPU time from /proc/PID/task/*/schedstat (ms) | $(cell_us on) | $(cell_us off) | $(cell_us top) |
| Context switches per minute, all | $(cell idle_wakeups_per_min on) | $(cell idle_wakeups_per_min off) | $(cell idle_wakeups_per_min top) |
| Wakeups per minute (voluntary switches: asleep, then woken) | $(cell idle_voluntary_per_min on) | $(cell idle_voluntary_per_min off) | $(cell idle_voluntary_per_min top) |
| CPU (schedstat) / top's in the same run | $(ratio idle_cpu_us on) | $(ratio idle_cpu_us off) | 1 |
| Wakeups (voluntary) / top's in the same run | $(ratio idle_voluntary_per_min on) | $(ratio idle_voluntary_per_min off) | 1 |

Wakeups (voluntary) / all context switches per minute, run by run (live on; refresh = 0; top -d 1):
TABLE
k=0
while [ $k -lt "$RUNS" ]; do
	k=$((k + 1))
	printf '%s' "$k:"
	for m in on off top; do
		printf ' %s/%s' "$(sed -n 's/^idle_voluntary_per_min //p' "$WORK/$m.$k")" \
			"$(sed -n 's/^idle_wakeups_per_min //p' "$WORK/$m.$k")"
	done
	echo
done
