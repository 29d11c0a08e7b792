#!/bin/sh
# Time from `p` to the transcript's text on screen (docs/PERFORMANCE.md "Preview"), on a
# pty, with an empty cache each run: against a sandbox of the current API form (the preview
# reads the retrieve's downloadUrl) and, as the baseline in the same run, one of the earlier
# form (no downloadUrl: the preview makes a JSON export, waits for it and downloads it, as
# every preview did before). Median of RUNS (default 5); the sandbox clock runs at real speed.
# Usage: bench/preview_bench.sh STENO STENO_SANDBOX TUI_PTY [RUNS]
set -eu
STENO=$1 SANDBOX=$2 PTY=$3 RUNS=${4:-5}
. "$(dirname "$0")/bench_lib.sh"

# FORM: one preview per run, each with an empty cache; prints the median ms (run in this
# shell, not in $(...), so that the cleanup knows the sandbox it started)
preview_ms() {
	start_sandbox 30 --api-form "$1"
	n=0
	while [ $n -lt "$RUNS" ]; do
		n=$((n + 1))
		rm -rf "$WORK/cache"
		# the third row of the demo seed is a finished transcription
		XDG_CACHE_HOME="$WORK/cache" "$PTY" keys "Transcriptions" jjp "Speaker 1" -- "$STENO" |
			sed -n 's/^key_to_text_ms //p'
	done | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p"
}

preview_ms current > "$WORK/after"
preview_ms legacy > "$WORK/before"
AFTER=$(cat "$WORK/after") BEFORE=$(cat "$WORK/before")
cat <<TABLE
| Figure | downloadUrl (current form) | JSON export (earlier form, as before) |
|---|---|---|
| Time from \`p\` to the transcript on screen, median of $RUNS, empty cache (ms) | $AFTER | $BEFORE |
TABLE
