# Sourced by the bench scripts (POSIX sh): one steno-sandbox at a time around a measurement.

# sandbox_start BIN DIR NAME SEED [ARG...]: runs BIN --port 0 --data DIR/data.NAME --rate-limit
# off ARG... (stderr into DIR/sandbox.NAME.log), waits for its four ready lines and exports them
# (STENO_BASE_URL, STENO_API_KEY, STENO_ADMIN_KEY, STENO_ORG_ID), sets SBX_PID, ORIGIN and AUTH,
# then seeds SEED transcriptions into the demo organization (0: none).
sandbox_start() {
	sbx_bin=$1 sbx_dir=$2 sbx_name=$3 sbx_seed=$4
	shift 4
	sbx_env="$sbx_dir/env.$sbx_name"
	: > "$sbx_env"
	"$sbx_bin" --port 0 --data "$sbx_dir/data.$sbx_name" --rate-limit off "$@" > "$sbx_env" \
		2> "$sbx_dir/sandbox.$sbx_name.log" &
	SBX_PID=$!
	sbx_i=0
	until [ "$(wc -l < "$sbx_env")" -ge 4 ]; do
		sbx_i=$((sbx_i + 1)); [ $sbx_i -lt 300 ] || { echo "the sandbox did not start" >&2; exit 1; }
		sleep 0.1
	done
	set -a; . "$sbx_env"; set +a
	ORIGIN=${STENO_BASE_URL%/api/v1}
	AUTH="Authorization: Bearer $STENO_API_KEY"
	[ "$sbx_seed" -eq 0 ] || curl -sf -X POST -H "Authorization: Bearer $STENO_ADMIN_KEY" \
		-H "Content-Type: application/json" \
		-d "{\"transcriptions\":$sbx_seed}" "$ORIGIN/_sandbox/organizations/$STENO_ORG_ID/seed" > /dev/null
}

# sandbox_stop: stops the sandbox sandbox_start started, if it still runs.
sandbox_stop() {
	if [ -n "${SBX_PID:-}" ]; then
		kill "$SBX_PID" 2>/dev/null || true
		wait "$SBX_PID" 2>/dev/null || true
		SBX_PID=
	fi
}
