#!/bin/sh
# Issue 24 item 2: the memory of `steno ls` (and --json) on a list page of N tiny `{}` items
# (default 20 million: a 60 MB body, under the 64 MiB body cap), from a stand-in server on
# loopback. Prints the maximum resident set size of each run (/usr/bin/time -v).
# Usage: bench/tiny_items.sh STENO_BIN [N]    (needs python3 and GNU time)
set -eu
steno=${1:?usage: tiny_items.sh STENO_BIN [N]}
n=${2:-20000000}
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null; rm -rf "$dir"' EXIT INT TERM
python3 - "$n" "$dir/port" <<'PY' &
import http.server, socketserver, sys
n = int(sys.argv[1])
body = b'{"results":[' + b','.join([b'{}'] * n) + b'],"_links":{}}'
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *a):
        pass
s = socketserver.TCPServer(("127.0.0.1", 0), H)
open(sys.argv[2], "w").write(str(s.server_address[1]))
s.serve_forever()
PY
pid=$!
while [ ! -s "$dir/port" ]; do sleep 0.1; done
port=$(cat "$dir/port")
for mode in "" --json; do
	HOME=$dir XDG_CONFIG_HOME=$dir XDG_STATE_HOME=$dir XDG_CACHE_HOME=$dir \
	STENO_BASE_URL=http://127.0.0.1:$port/api/v1 STENO_API_KEY=k STENO_ORG_ID=1 \
		/usr/bin/time -v "$steno" ls $mode >/dev/null 2>"$dir/err" || true
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/err")
	said=$(grep -m1 '^steno' "$dir/err" || true)
	echo "ls $mode: max RSS ${rss} KiB; $said"
done
