#!/bin/sh
# `steno ls --all --json` over 10,000 transcriptions, side by side in one run with
#   - a shell loop of curl over the same pages (one process and connection per page),
#   - one curl process fetching the same pages in sequence over one connection (URL glob),
#   - the same curl with 4 transfers in parallel (steno's concurrency, without parsing),
#   - the bound: the sandbox's own rate on one page URL under wrk, as time for all pages.
# Medians of RUNS runs each. Prints a Markdown table (docs/PERFORMANCE.md, "steno ls --all").
# Usage: bench/ls_all.sh [path/to/steno] [path/to/steno-sandbox] [runs] [transcriptions]
set -eu
STENO=${1:-./steno}
SBX=${2:-./steno-sandbox}
RUNS=${3:-5}
N=${4:-10000}
for t in curl wrk awk; do
	command -v $t >/dev/null || { echo "$t is required" >&2; exit 1; }
done
. "$(dirname "$0")/sandbox_lib.sh"
DIR=$(mktemp -d "${TMPDIR:-/tmp}/steno-bench-ls.XXXXXX")
trap 'sandbox_stop; rm -rf "$DIR"' EXIT INT TERM
sandbox_start "$SBX" "$DIR" ls "$N"
LIST="$STENO_BASE_URL/transcriptions?organization_id=$STENO_ORG_ID"
# Pages: the sandbox's page size from the first page.
PER=$(curl -sf -H "$AUTH" "$LIST&page=0" | grep -o '"id":"[0-9a-f]*"' | wc -l)
PAGES=$(( (N + PER - 1) / PER ))
export XDG_CONFIG_HOME="$DIR/cfg" XDG_STATE_HOME="$DIR/state" XDG_CACHE_HOME="$DIR/cache"

now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f", m}'; }

steno_run() { "$STENO" ls --all --json > "$DIR/steno.json"; }
curl_loop() {
	p=0
	while :; do
		body=$(curl -sf -H "$AUTH" "$LIST&page=$p")
		case $body in *'"next"'*) ;; *) break ;; esac
		p=$((p + 1))
	done
}
curl_glob() { curl -sf -H "$AUTH" "$LIST&page=[0-$((PAGES - 1))]" > /dev/null; }

curl_par() {
	curl -sf --no-progress-meter --parallel --parallel-max 4 -H "$AUTH" \
		"$LIST&page=[0-$((PAGES - 1))]" > /dev/null 2>&1
}

# Runs are interleaved (one of each client per round) so that load changes on a shared
# machine hit every client alike; the median of each client's runs is reported.
CLIENTS="steno_run curl_loop curl_glob curl_par"
r=0
while [ $r -lt "$RUNS" ]; do
	for c in $CLIENTS; do
		t0=$(now); "$c"; t1=$(now)
		echo "$t1 $t0" | awk '{printf "%.4f\n", $1 - $2}' >> "$DIR/times.$c"
	done
	r=$((r + 1))
done
T_STENO=$(median < "$DIR/times.steno_run")
T_LOOP=$(median < "$DIR/times.curl_loop")
T_GLOB=$(median < "$DIR/times.curl_glob")
T_PAR=$(median < "$DIR/times.curl_par")
GOT=$(grep -c '"id"' "$DIR/steno.json" || true)
[ "$GOT" -eq "$N" ] || { echo "steno listed $GOT of $N" >&2; exit 1; }
# The bound: requests/s of one mid-list page URL, 4 connections (as steno keeps in flight).
RPS=$(wrk -t2 -c4 -d5s -H "$AUTH" "$LIST&page=$((PAGES / 2))" | awk '/^Requests\/sec/ {print $2}')
T_BOUND=$(echo "$PAGES $RPS" | awk '{printf "%.3f", $1 / $2}')

echo "$N transcriptions, $PAGES pages of $PER; median of $RUNS runs; $(nproc) CPUs"
echo
echo "| Client | Seconds for all pages | Pages/s |"
echo "|---|---|---|"
row() { echo "$2" | awk -v name="$1" -v p="$PAGES" '{printf "| %s | %.3f | %.0f |\n", name, $1, p / $1}'; }
row "steno ls --all --json (4 requests ahead)" "$T_STENO"
row "shell loop of curl, one process per page" "$T_LOOP"
row "one curl, pages in sequence on one connection" "$T_GLOB"
row "one curl, 4 pages in parallel (--parallel-max 4), no parsing" "$T_PAR"
row "bound: sandbox rate on one page URL (wrk -c4: $RPS req/s)" "$T_BOUND"
