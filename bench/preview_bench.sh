#!/bin/sh
# Time from `p` to the transcript's text on screen (docs/PERFORMANCE.md "Preview"), on a
# pty, with an empty cache each run: against a sandbox of the current API form (the preview
# reads the retrieve's downloadUrl) and, as the baseline in the same run, one of the earlier
# form (no downloadUrl: the preview makes a JSON export, waits for it and downloads it, as
# every preview did before). Median of RUNS (default 5); the sandbox clock runs at real speed.
# Usage: bench/preview_bench.sh STENO STENO_SANDBOX TUI_PTY [RUNS]
set -eu
STENO=$1 SANDBOX=$2 PTY=$3 RUNS=${4:-5}
WORK=$(mktemp -d)
SBX_PID=
cleanup() {
	[ -n "$SBX_PID" ] && kill "$SBX_PID" 2>/dev/null && wait "$SBX_PID" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
export XDG_STATE_HOME="$WORK/state" XDG_CONFIG_HOME="$WORK/config" LANG=C.UTF-8 LC_ALL=C.UTF-8
unset STENO_CONFIG STENO_PROFILE NO_COLOR || true

# FORM: one preview per run, each with an empty cache; prints the median ms
preview_ms() {
	[ -n "$SBX_PID" ] && kill "$SBX_PID" && wait "$SBX_PID" 2>/dev/null || true
	"$SANDBOX" --port 0 --seed-demo 30 --rate-limit off --api-form "$1" > "$WORK/sbx.out" 2>"$WORK/sbx.err" &
	SBX_PID=$!
	i=0
	while [ "$(cat "$WORK/sbx.out" 2>/dev/null | grep -c '^STENO_')" -lt 4 ]; do
		i=$((i + 1)); [ $i -lt 600 ] || { echo "sandbox did not start" >&2; exit 1; }
		sleep 0.1
	done
	eval "$(sed -n 's/^\(STENO_[A-Z_]*=.*\)$/export \1/p' "$WORK/sbx.out")"
	n=0
	while [ $n -lt "$RUNS" ]; do
		n=$((n + 1))
		rm -rf "$WORK/cache"
		# the third row of the demo seed is a finished transcription
		XDG_CACHE_HOME="$WORK/cache" "$PTY" keys "Transcriptions" jjp "Speaker 1" -- "$STENO" |
			sed -n 's/^key_to_text_ms //p'
	done | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p"
}

AFTER=$(preview_ms current)
BEFORE=$(preview_ms legacy)
cat <<TABLE
| Figure | downloadUrl (current form) | JSON export (earlier form, as before) |
|---|---|---|
| Time from \`p\` to the transcript on screen, median of $RUNS, empty cache (ms) | $AFTER | $BEFORE |
TABLE
