#!/bin/sh
# Transcripts as content (docs/PERFORMANCE.md "Search and the reader"), in one run, this build
# against a baseline build (another tree's steno and bench/content_bench, e.g. main's) on the
# same sandbox:
#   - steno index over N seeded transcriptions (the sandbox's invented text, --asr off) with the
#     sandbox's rate limit R/s (burst B), each build into its own store, against that limit's
#     own bound for the requests the sandbox counted for that run that the limit applies to
#     (the API's routes; not the signed file URLs a transcript's content is read from):
#     (those requests - B) / R;
#   - each store's size on disk against the text's;
#   - 50 queries (words, phrases, prefixes) through content_db_search, median of 5 each, the two
#     builds alternating query by query on their own stores, against `grep -ril` over the same
#     transcripts exported as .txt files in one folder (median of 3);
#   - the reader on a generated two-hour transcript: time to the first screen, key-to-screen
#     while paging and while / highlights a frequent word ("the").
# Usage: bench/content_bench.sh [steno] [steno-sandbox] [bench/content_bench] [N] [R] [B]
#                               [baseline steno] [baseline content_bench]
set -eu
STENO=${1:-./steno}
SBX=${2:-./steno-sandbox}
CB=${3:-bench/content_bench}
N=${4:-1000}
RATE=${5:-20}
BURST=${6:-50}
BSTENO=${7:-}
BCB=${8:-}
for t in curl awk grep; do
	command -v $t >/dev/null || { echo "$t is required" >&2; exit 1; }
done
. "$(dirname "$0")/sandbox_lib.sh"
DIR=$(mktemp -d "${TMPDIR:-/tmp}/steno-bench-content.XXXXXX")
trap 'sandbox_stop; rm -rf "$DIR"' EXIT INT TERM
sandbox_start "$SBX" "$DIR" content "$N" --asr off --rate-limit "$RATE/$BURST"
export XDG_CONFIG_HOME="$DIR/cfg" XDG_STATE_HOME="$DIR/state"
now() { date +%s.%N; }
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f", m}'; }
p99() { sort -n | awk '{a[NR]=$1} END {i=int(0.99*(NR-1)+0.5)+1; printf "%.3f", a[i]}'; }
counter() {
	curl -sf -H "Authorization: Bearer $STENO_ADMIN_KEY" "$ORIGIN/_sandbox/counters" |
		grep -o "\"$1\":[0-9]*" | awk -F: '{s+=$2} END {print s+0}'
}
# limited: the GETs the rate limit applies to (the API's routes, counted by route under
# "reads"); the signed file URLs (/files/..., a transcript's content) are not limited
limited() {
	curl -sf -H "Authorization: Bearer $STENO_ADMIN_KEY" "$ORIGIN/_sandbox/counters" |
		tr '{' '\n' | grep '"route": *"/api/' | grep -o '"received": *[0-9]*' |
		awk -F: '{s+=$2} END {print s+0}'
}

# the 429s answered: to writes (answered_429) and to reads (refused, counted by route)
refused() { echo $(( $(counter answered_429) + $(counter refused) )); }

# ---- index ----
# index BIN NAME: steno index into $DIR/cache.NAME; prints "seconds limited-requests 429s
# all-requests"
index() {
	r0=$(counter received); q0=$(refused); l0=$(limited)
	t0=$(now)
	XDG_CACHE_HOME="$DIR/cache.$2" "$1" index > "$DIR/index.$2.out" 2> "$DIR/index.$2.err" || true
	t1=$(now)
	r1=$(counter received); q1=$(refused); l1=$(limited)
	echo "$t0 $t1 $((l1 - l0)) $((q1 - q0)) $((r1 - r0))" |
		awk '{printf "%.2f %d %d %d\n", $2 - $1, $3, $4, $5}'
	# the bucket full again before the next run
	sleep "$(echo "$BURST $RATE" | awk '{printf "%.1f", $1 / $2 + 1}')"
}
bound() { echo "$1 $BURST $RATE" | awk '{b = ($1 - $2) / $3; if (b < 0) b = 0; printf "%.2f", b}'; }
set -- $(index "$STENO" new)
NEW_S=$1 NEW_R=$2 NEW_Q=$3 NEW_ALL=$4
if [ -n "$BSTENO" ]; then
	set -- $(index "$BSTENO" base)
	BASE_S=$1 BASE_R=$2 BASE_Q=$3 BASE_ALL=$4
fi
echo "## steno index: $N seeded transcriptions, sandbox rate limit $RATE/s burst $BURST"
echo
cat "$DIR/index.new.out"
echo
echo "| run | requests counted: rate-limited (429 answered), all | steno index | the rate limit's bound | ratio (goal <= 1.3) |"
echo "|---|---|---|---|---|"
row() { echo "| $1 | $3 ($4), $5 | $2 s | $(bound "$3") s | $(echo "$2 $(bound "$3")" | awk '{printf "%.2f", $1 / $2}') |"; }
row "this build" "$NEW_S" "$NEW_R" "$NEW_Q" "$NEW_ALL"
[ -z "$BSTENO" ] || row "baseline" "$BASE_S" "$BASE_R" "$BASE_Q" "$BASE_ALL"
echo
export XDG_CACHE_HOME="$DIR/cache.new"

# ---- size ----
[ -z "$BSTENO" ] || { echo "baseline store:"; "$BCB" stats "$DIR/cache.base/steno" "$STENO_BASE_URL" | tr '\n' ' '; echo; echo; }
"$CB" stats "$XDG_CACHE_HOME/steno" "$STENO_BASE_URL" > "$DIR/stats"
get() { awk -v k="$1" '$1 == k {print $2}' "$DIR/stats"; }
TEXT=$(get text_bytes); FTS=$(get fts_bytes); SEGS=$(get segs_table_bytes); FILE=$(get file_bytes)
NAMES=$(get names_fts_bytes); DOCS=$(get docs_fts_bytes); STARTS=$(get seg_starts_bytes)
FREQ=$(get frequent_bytes); WORDS=$(get words_fts_bytes)
echo "## size: $(get transcripts) transcripts, $(get segments) segments"
echo
echo "| what | bytes | against the text |"
echo "|---|---|---|"
echo "| text (UTF-8) | $TEXT | 1.00 |"
echo "| FTS5 index of the text (content_fts_*) | $FTS | $(echo "$FTS $TEXT" | awk '{printf "%.2f", $1/$2}') |"
echo "| the segments table with the text (content_segs) | $SEGS | $(echo "$SEGS $TEXT" | awk '{printf "%.2f", $1/$2}') |"
echo "| index of each transcription's whole text (content_docs_*) | $DOCS | $(echo "$DOCS $TEXT" | awk '{printf "%.2f", $1/$2}') |"
echo "| where each passage starts in its transcription (content_items.seg_starts) | ${STARTS:-0} | $(echo "${STARTS:-0} $TEXT" | awk '{printf "%.2f", $1/$2}') |"
echo "| the words said often in each transcription, with their counts (content_frequent) | ${FREQ:-0} | $(echo "${FREQ:-0} $TEXT" | awk '{printf "%.2f", $1/$2}') |"
echo "| index of each transcription's words without their places (content_words_*) | ${WORDS:-0} | $(echo "${WORDS:-0} $TEXT" | awk '{printf "%.2f", $1/$2}') |"
echo "| names and tags index | $NAMES | $(echo "$NAMES $TEXT" | awk '{printf "%.2f", $1/$2}') |"
echo "| the whole store file | $FILE | $(echo "$FILE $TEXT" | awk '{printf "%.2f", $1/$2}') |"
echo

# ---- queries ----
mkdir "$DIR/txt"
"$CB" export "$XDG_CACHE_HOME/steno" "$STENO_BASE_URL" "$DIR/txt"
TXT_BYTES=$(cat "$DIR/txt"/*.txt | wc -c)
set -- budget launch meeting customers quarter review planning product team forward \
	starts today think working short office report garden river xylophone \
	"\"the budget\"" "\"next year\"" "\"launch the\"" "\"review meeting\"" "\"new team\"" \
	"\"customers should\"" "\"planning launch\"" "\"talk about\"" "\"short review\"" "\"working team\"" \
	"plan*" "cust*" "laun*" "quar*" "rev*" "prod*" "meet*" "budg*" "wor*" "xylo*" \
	"budget launch" "meeting customers" "quarter review" "product team" "think working" \
	"budget OR office" "launch NOT budget" "meeting AND quarter" "team NOT customers" "review OR report"
: > "$DIR/q.steno"; : > "$DIR/q.base"; : > "$DIR/q.grep"
for q in "$@"; do
	"$CB" query "$XDG_CACHE_HOME/steno" "$STENO_BASE_URL" "$q" >> "$DIR/q.steno"
	[ -z "$BCB" ] || "$BCB" query "$DIR/cache.base/steno" "$STENO_BASE_URL" "$q" | cut -f1,2 >> "$DIR/q.base"
	# grep's nearest form: the words or the phrase as a substring, a prefix without its *
	g=$(echo "$q" | sed -e 's/"//g' -e 's/\*//g' -e 's/ \(OR\|NOT\|AND\) .*//')
	for r in 1 2 3; do
		a=$(now); grep -ril -- "$g" "$DIR/txt" > /dev/null || true; b=$(now)
		echo "$a $b" | awk '{printf "%.3f\n", ($2 - $1) * 1000}'
	done | median >> "$DIR/q.grep"
	echo >> "$DIR/q.grep"
done
SM=$(cut -f1 "$DIR/q.steno" | median); SP=$(cut -f1 "$DIR/q.steno" | p99)
GM=$(median < "$DIR/q.grep"); GP=$(p99 < "$DIR/q.grep")
[ -z "$BCB" ] || { BM=$(cut -f1 "$DIR/q.base" | median); BP=$(cut -f1 "$DIR/q.base" | p99); }
echo "## 50 queries over $(ls "$DIR/txt" | wc -l) transcripts ($TXT_BYTES bytes of text as .txt)"
echo
echo "| | median ms | p99 ms |"
echo "|---|---|---|"
echo "| content_db_search (FTS5, 50 best hits with snippets) | $SM | $SP |"
[ -z "$BCB" ] || echo "| baseline's content_db_search | $BM | $BP |"
echo "| grep -ril over the .txt files | $GM | $GP |"
echo "| grep / FTS5 (goal >= 50 for the median) | $(echo "$GM $SM" | awk '{printf "%.1f", $1/$2}') | $(echo "$GP $SP" | awk '{printf "%.1f", $1/$2}') |"
[ -z "$BCB" ] || echo "| baseline / this build | $(echo "$BM $SM" | awk '{printf "%.1f", $1/$2}') | $(echo "$BP $SP" | awk '{printf "%.1f", $1/$2}') |"
echo

# ---- the reader ----
mkdir "$DIR/reader"
"$CB" reader "$DIR/reader" > "$DIR/reader.out"
[ -z "$BCB" ] || { mkdir "$DIR/reader.base"; "$BCB" reader "$DIR/reader.base" > "$DIR/reader.base.out"; }
rget() { awk -v k="$1" '$1 == k {print $2}' "$DIR/reader.out"; }
echo "## the reader on a two-hour transcript (360 paragraphs, 18,000 words; 160x50)"
echo
echo "| | ms |"
echo "|---|---|"
echo "| first screen (load from the store, wrap, draw) | $(rget first_screen_ms) |"
echo "| PgDn/PgUp key-to-screen median / p99 | $(rget paging_median_ms) / $(rget paging_p99_ms) |"
echo "| the same while / highlights \"the\" median / p99 | $(rget highlight_median_ms) / $(rget highlight_p99_ms) |"
if [ -n "$BCB" ]; then
	echo
	echo "baseline: $(tr '\n' ' ' < "$DIR/reader.base.out")"
fi
echo
echo "<details><summary>each query: FTS5 ms, hits (at most 50), grep ms</summary>"
echo
if [ -n "$BCB" ]; then
	echo "| query | FTS5 ms | hits | baseline ms | baseline hits | grep -ril ms |"
	echo "|---|---|---|---|---|---|"
	paste "$DIR/q.steno" "$DIR/q.base" "$DIR/q.grep" |
		awk -F'\t' '{printf "| `%s` | %s | %s | %s | %s | %s |\n", $3, $1, $2, $4, $5, $6}'
else
	echo "| query | FTS5 ms | hits | grep -ril ms |"
	echo "|---|---|---|---|"
	paste "$DIR/q.steno" "$DIR/q.grep" | awk -F'\t' '{printf "| `%s` | %s | %s | %s |\n", $3, $1, $2, $4}'
fi
echo
echo "</details>"
