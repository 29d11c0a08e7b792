#!/bin/sh
# Requests/s and latency of steno-sandbox under wrk, each route beside a baseline measured in
# the same run: GET /teapot (no database, no auth) is the server's floor.
# Usage: bench/sandbox_bench.sh [path/to/steno-sandbox] [seconds per route]
# Prints a Markdown table (the one in docs/PERFORMANCE.md comes from this script).
set -eu
BIN=${1:-./steno-sandbox}
DUR=${2:-10}
THREADS=2
CONNS=16
command -v wrk >/dev/null || { echo "wrk is required (apt-get install wrk)" >&2; exit 1; }
. "$(dirname "$0")/sandbox_lib.sh"
DIR=$(mktemp -d)
trap 'sandbox_stop; rm -rf "$DIR"' EXIT INT TERM
sandbox_start "$BIN" "$DIR" bench 10000
ORDER=$(curl -sf -H "$AUTH" -H 'Content-Type: application/json' \
	-d "{\"order\":{\"url\":\"http://127.0.0.1:1/a.wav\",\"language\":\"en-US\",\"organization_id\":$STENO_ORG_ID}}" \
	"$STENO_BASE_URL/orders" | sed 's/^{"id":"\([^"]*\)".*/\1/')

# wrk --latency prints "99%  1.23ms"; convert to milliseconds.
run() {
	out=$(wrk -t$THREADS -c$CONNS -d"${DUR}s" --latency -H "$AUTH" "$1")
	rps=$(printf '%s\n' "$out" | awk '/^Requests\/sec/ {print $2}')
	p99=$(printf '%s\n' "$out" | awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms/,"",v)} else if (v ~ /s$/) {sub(/s/,"",v); v*=1000}; printf "%.2f", v}')
	non2xx=$(printf '%s\n' "$out" | awk '/Non-2xx/ {print $5}')
	printf '| %s | %s | %s | %s |\n' "$2" "$rps" "$p99" "${non2xx:-0}"
}

echo "wrk -t$THREADS -c$CONNS -d${DUR}s, $(nproc) CPUs, 10000 transcriptions in the organization"
echo
echo "| Route | Requests/s | p99 latency (ms) | Non-2xx |"
echo "|---|---|---|---|"
run "$ORIGIN/teapot" "GET /teapot (baseline: routing only; answers 418)"
run "$STENO_BASE_URL/transcriptions?organization_id=$STENO_ORG_ID" "GET /transcriptions (page 0 of 20)"
run "$STENO_BASE_URL/transcriptions?organization_id=$STENO_ORG_ID&page=250" "GET /transcriptions?page=250"
run "$STENO_BASE_URL/orders/$ORDER" "GET /orders/<id>"
