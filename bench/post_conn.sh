#!/bin/sh
# Time per POST with a fresh connection (the engine since 1ac293f) vs a reused pooled one (the
# engine before), paired in one run by bench/post_conn: over loopback against steno-sandbox's
# POST /transcriptions, against a stand-in that only answers 201 (plain HTTP), and against the
# same stand-in over TLS (a self-signed certificate made here with openssl).
# Usage: bench/post_conn.sh [steno-sandbox] [bench/post_conn] [POSTs per round] [rounds]
# Prints a Markdown table (the one in docs/PERFORMANCE.md comes from this script).
set -eu
BIN=${1:-./steno-sandbox}
PROG=${2:-bench/post_conn}
N=${3:-50}
ROUNDS=${4:-10}
command -v openssl >/dev/null || { echo "openssl is required" >&2; exit 1; }
DIR=$(mktemp -d)
PID=
trap '[ -z "$PID" ] || { kill "$PID" 2>/dev/null; wait "$PID" 2>/dev/null; }; rm -rf "$DIR"' EXIT INT TERM
. "$(dirname "$0")/sandbox_start.sh"
sandbox_start "$BIN" "$DIR"
AUTH="Authorization: Bearer $STENO_API_KEY"
# A 1 s WAV (16 kHz mono 16-bit): the header, then 32000 zero bytes.
printf 'RIFF\044\175\000\000WAVEfmt \020\000\000\000\001\000\001\000\200\076\000\000\000\175\000\000\002\000\020\000data\000\175\000\000' > "$DIR/a.wav"
head -c 32000 /dev/zero >> "$DIR/a.wav"
URL=$(curl -sf -H "$AUTH" "$STENO_BASE_URL/uploads/new?filename=a.wav" | sed 's/.*"signedUrl":"\([^"]*\)".*/\1/')
curl -sf -X PUT --data-binary "@$DIR/a.wav" "$URL" > /dev/null
BODY="{\"transcription\":{\"name\":\"bench\",\"language\":\"en-US\",\"tmp_url\":\"$URL\",\"organization_id\":\"$STENO_ORG_ID\"}}"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$DIR/key.pem" \
	-out "$DIR/cert.pem" -days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1

echo "$ROUNDS rounds of $N POSTs each way, alternating; each POST after a GET on the same handle (the pool holds a connection); $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg), $(curl --version | head -1 | cut -d' ' -f1-2)"
echo
echo "| Target | fresh connection (ms, median) | reused connection (ms, median) | fresh / reused |"
echo "|---|---|---|---|"
"$PROG" --url "$STENO_BASE_URL/transcriptions" --auth "$STENO_API_KEY" --body "$BODY" --n "$N" --rounds "$ROUNDS" \
	--label "steno-sandbox POST /transcriptions, loopback HTTP"
"$PROG" --standin --n "$N" --rounds "$ROUNDS" --label "stand-in answering 201, loopback HTTP"
"$PROG" --standin --cert "$DIR/cert.pem" --key "$DIR/key.pem" --cacert "$DIR/cert.pem" --n "$N" --rounds "$ROUNDS" \
	--label "stand-in answering 201, loopback TLS (P-256 certificate)"
