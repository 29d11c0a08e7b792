# Sourced by the TUI benchmarks: a private WORK dir removed on exit (with the sandbox it
# started), a private environment, and start_sandbox.
WORK=$(mktemp -d)
SBX_PID=
cleanup() {
	[ -n "$SBX_PID" ] && kill "$SBX_PID" 2>/dev/null && wait "$SBX_PID" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT INT TERM
export XDG_STATE_HOME="$WORK/state" XDG_CONFIG_HOME="$WORK/config" LANG=C.UTF-8 LC_ALL=C.UTF-8
unset STENO_CONFIG STENO_PROFILE NO_COLOR || true

# start_sandbox N [ARG...]: (re)starts $SANDBOX with N demo transcriptions, rate limit off and
# the extra arguments; exports its STENO_* lines.
start_sandbox() {
	[ -n "$SBX_PID" ] && kill "$SBX_PID" && wait "$SBX_PID" 2>/dev/null || true
	seed=$1
	shift
	# emptied here, not by the child's redirection: the loop below must not read the lines
	# of the sandbox before
	: > "$WORK/sbx.out"
	"$SANDBOX" --port 0 --seed-demo "$seed" --rate-limit off "$@" > "$WORK/sbx.out" 2>"$WORK/sbx.err" &
	SBX_PID=$!
	i=0
	while [ "$(cat "$WORK/sbx.out" 2>/dev/null | grep -c '^STENO_')" -lt 4 ]; do
		i=$((i + 1)); [ $i -lt 600 ] || { echo "sandbox did not start" >&2; exit 1; }
		sleep 0.1
	done
	eval "$(sed -n 's/^\(STENO_[A-Z_]*=.*\)$/export \1/p' "$WORK/sbx.out")"
}
