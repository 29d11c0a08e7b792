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
. "$(dirname "$0")/idle_lib.sh"
idle_start "$SANDBOX" "$ITEMS"

mkdir -p "$WORK/on/cfg" "$WORK/off/cfg/steno"
echo "refresh = 0" > "$WORK/off/cfg/steno/config"
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
r=0
while [ $r -lt "$RUNS" ]; do
	r=$((r + 1))
	pids=
	for m in on off; do
		idle_measure $m $r online "$STENO"
		pids="$pids $!"
	done
	idle_measure top $r "load average" top -d 1
	for p in $pids $!; do wait "$p"; done
done
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)

cat <<TABLE
$(date -u '+%Y-%m-%d %H:%M UTC'), $RUNS runs of $IDLE s, $ITEMS done + 2 failed transcriptions,
load average $LOAD0 before and $LOAD1 after; median (min-max) over the runs:

| Figure over $IDLE idle seconds | steno, live list on (default, 20 s) | steno, refresh = 0 | top -d 1 |
|---|---|---|---|
| CPU, utime+stime from /proc/PID/stat (ms) | $(cell idle_cpu_ms on) | $(cell idle_cpu_ms off) | $(cell idle_cpu_ms top) |
| CPU, on-CPU time from /proc/PID/task/*/schedstat (ms) | $(cell_us on) | $(cell_us off) | $(cell_us top) |
| Context switches per minute, all | $(cell idle_wakeups_per_min on) | $(cell idle_wakeups_per_min off) | $(cell idle_wakeups_per_min top) |
| Wakeups per minute (voluntary switches: asleep, then woken) | $(cell idle_voluntary_per_min on) | $(cell idle_voluntary_per_min off) | $(cell idle_voluntary_per_min top) |
| CPU (schedstat) / top's in the same run | $(ratio idle_cpu_us on top) | $(ratio idle_cpu_us off top) | 1 |
| Wakeups (voluntary) / top's in the same run | $(ratio idle_voluntary_per_min on top) | $(ratio idle_voluntary_per_min off top) | 1 |

Wakeups (voluntary) / all context switches per minute, run by run (live on; refresh = 0; top -d 1):
TABLE
per_run on off top
