#!/bin/sh
# `steno watch --list` idle on a quiet organization (docs/PERFORMANCE.md "Idle on a quiet
# organization"; the organization of bench/tui_idle.sh: every transcription settled, nothing
# changes on the server), this build against a baseline build (another tree's steno, e.g.
# main's), side by side (at the same time, each on its own pty) for SECONDS, RUNS times, with
# the default config: the organization's list is read again every 20 s (`refresh`). Each is
# measured by bench/tui_pty idle once its first line is printed: CPU time (/proc/PID/stat and
# schedstat) and context switches of all its threads per minute, voluntary ones (the wakeups)
# and all. Prints the medians and this build's ratio to the baseline's, as a Markdown table.
# Usage: bench/watch_idle.sh STENO STENO_BASELINE STENO_SANDBOX TUI_PTY [RUNS] [SECONDS] [ITEMS]
set -eu
STENO=$1 BASE=$2 SANDBOX=$3 PTY=$4 RUNS=${5:-5} IDLE=${6:-60} ITEMS=${7:-20}
. "$(dirname "$0")/idle_lib.sh"
idle_start "$SANDBOX" "$ITEMS"

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
r=0
while [ $r -lt "$RUNS" ]; do
	r=$((r + 1))
	idle_measure new $r "transcription " "$STENO" watch --list
	pids=$!
	idle_measure base $r "transcription " "$BASE" watch --list
	pids="$pids $!"
	for p in $pids; do wait "$p"; done
done
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)

cat <<TABLE
$(date -u '+%Y-%m-%d %H:%M UTC'), $RUNS runs of $IDLE s, $ITEMS done + 2 failed transcriptions,
load average $LOAD0 before and $LOAD1 after; median (min-max) over the runs:

| steno watch --list, over $IDLE idle seconds | this build | baseline ($BASE) | this / baseline, same run |
|---|---|---|---|
| CPU, utime+stime from /proc/PID/stat (ms) | $(cell idle_cpu_ms new) | $(cell idle_cpu_ms base) | |
| CPU, on-CPU time from /proc/PID/task/*/schedstat (ms) | $(cell_us new) | $(cell_us base) | $(ratio idle_cpu_us new base) |
| Context switches per minute, all | $(cell idle_wakeups_per_min new) | $(cell idle_wakeups_per_min base) | $(ratio idle_wakeups_per_min new base) |
| Wakeups per minute (voluntary switches: asleep, then woken) | $(cell idle_voluntary_per_min new) | $(cell idle_voluntary_per_min base) | $(ratio idle_voluntary_per_min new base) |

Wakeups (voluntary) / all context switches per minute, run by run (this build; baseline):
TABLE
per_run new base
