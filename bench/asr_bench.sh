#!/bin/sh
# Speech recognition in steno-sandbox: real-time factor and memory per decoder (bench/asr_decoder,
# the sandbox's own decoder code), then the latency of GET /transcriptions from one client
# (wrk -t1 -c1, back to back) with no decode running (the baseline), with one decode running
# (--asr-threads 1) and with two (--asr-threads 2, a baseline of its own), all in the same run.
# The media: flite's kal16 voice reading a 40-word text 5 times (about 57 s).
# Usage: bench/asr_bench.sh [steno-sandbox] [bench/asr_decoder] [seconds per latency row]
# Prints Markdown (the tables in docs/PERFORMANCE.md come from this script).
set -eu
BIN=${1:-./steno-sandbox}
DEC=${2:-bench/asr_decoder}
DUR=${3:-10}
for tool in wrk flite curl; do
	command -v $tool >/dev/null || { echo "$tool is required (.ci/setup installs it)" >&2; exit 1; }
done
. "$(dirname "$0")/sandbox_lib.sh"
DIR=$(mktemp -d)
trap 'sandbox_stop; rm -rf "$DIR"' EXIT INT TERM
TEXT="Please call me tomorrow morning at nine. The meeting starts in the small room on the second floor.
We will talk about the budget for next year and the new office. Bring your notes and a copy of the report."
flite -voice kal16 -t "$TEXT $TEXT $TEXT $TEXT $TEXT" -o "$DIR/talk.wav"

echo "## Decoder: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
"$DEC" "$DIR/talk.wav" 3 2
echo

# start_sandbox THREADS: a fresh sandbox (10,000 transcriptions seeded) with THREADS decoders.
start_sandbox() {
	sandbox_start "$BIN" "$DIR" "asr$1" 10000 --asr on --asr-threads "$1" --clock-speed 1000
	LIST="$STENO_BASE_URL/transcriptions?organization_id=$STENO_ORG_ID"
}

# create N: N transcriptions of talk.wav (en-US); their ids in $IDS.
create() {
	IDS=
	for _ in $(seq "$1"); do
		url=$(curl -sf -H "$AUTH" "$STENO_BASE_URL/uploads/new?filename=talk.wav" | sed 's/.*"signedUrl":"\([^"]*\)".*/\1/')
		curl -sf -X PUT -H 'Expect:' --data-binary "@$DIR/talk.wav" "$url" > /dev/null
		id=$(curl -sf -H "$AUTH" -H 'Content-Type: application/json' -d "{\"transcription\":{\"name\":\"talk\",\
\"language\":\"en-US\",\"tmp_url\":\"$url\",\"organization_id\":$STENO_ORG_ID}}" "$STENO_BASE_URL/transcriptions" |
			sed 's/^{"id":"\([^"]*\)".*/\1/')
		IDS="$IDS $id"
	done
}

# How many of $IDS are still being transcribed.
working() {
	n=0
	for id in $IDS; do
		curl -sf -H "$AUTH" "$STENO_BASE_URL/transcriptions/$id" | grep -q '"state":"automatic_transcribing"' && n=$((n + 1))
	done
	echo $n
}

ms() { awk '{v=$1; if (v ~ /us$/) {sub(/us/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms/,"",v)} else if (v ~ /s$/) {sub(/s/,"",v); v*=1000}; printf "%.2f", v}'; }

# row LABEL: wrk on the list; prints a table row.
row() {
	out=$(wrk -t1 -c1 -d"${DUR}s" --latency -H "$AUTH" "$LIST")
	rps=$(printf '%s\n' "$out" | awk '/^Requests\/sec/ {print $2}')
	p50=$(printf '%s\n' "$out" | awk '$1 == "50%" {print $2}' | ms)
	p99=$(printf '%s\n' "$out" | awk '$1 == "99%" {print $2}' | ms)
	printf '| %s | %s | %s | %s |' "$1" "$rps" "$p50" "$p99"
}

echo "## GET /transcriptions (page 0 of 10,000) from one client: wrk -t1 -c1 -d${DUR}s"
echo
echo "| Decodes running | Requests/s | p50 latency (ms) | p99 latency (ms) | Still transcribing after the run |"
echo "|---|---|---|---|---|"
# Each sandbox: a warm-up run (not shown), its idle baseline, then the same with decodes queued
# (several, so that the decoders are busy for the whole run: the last column says so).
for threads in 1 2; do
	start_sandbox $threads
	wrk -t1 -c1 -d2s -H "$AUTH" "$LIST" > /dev/null
	row "none (baseline, --asr-threads $threads)"; echo " - |"
	queued=$((threads * 2 + 1))
	create $queued
	sleep 1
	row "$threads (--asr-threads $threads, $queued queued)"; echo " $(working) of $queued |"
	sandbox_stop
done
