# Sourced by bench scripts. sandbox_start BIN DIR: starts steno-sandbox BIN on port 0 with its
# data in DIR/data and --rate-limit off, waits for its four ready lines and reads them
# (STENO_BASE_URL, STENO_API_KEY, STENO_ADMIN_KEY, STENO_ORG_ID); PID is its process id, which
# the caller's trap kills. Its stderr goes to DIR/sandbox.log.
sandbox_start() {
	: > "$2/env"
	"$1" --port 0 --data "$2/data" --rate-limit off > "$2/env" 2> "$2/sandbox.log" &
	PID=$!
	_tries=0
	until [ "$(wc -l < "$2/env")" -ge 4 ]; do
		_tries=$((_tries + 1))
		[ $_tries -lt 300 ] || { echo "the sandbox did not start" >&2; exit 1; }
		sleep 0.1
	done
	. "$2/env"
}
