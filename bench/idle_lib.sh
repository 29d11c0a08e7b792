# Sourced by the idle benchmarks (POSIX sh; bench/tui_idle.sh, bench/watch_idle.sh): the quiet
# organization they idle on, and the statistics of bench/tui_pty idle's figures.
. "$(dirname "$0")/sandbox_lib.sh"

# le VALUE BYTES: VALUE as BYTES little-endian bytes
le() {
	v=$1 n=$2
	while [ "$n" -gt 0 ]; do
		printf "\\$(printf %03o $((v & 255)))"
		v=$((v >> 8)) n=$((n - 1))
	done
}

# 3 s of noise as an 8 kHz mono 16-bit WAV
wav() {
	len=48000
	printf RIFF; le $((36 + len)) 4; printf 'WAVEfmt '; le 16 4; le 1 2; le 1 2
	le 8000 4; le 16000 4; le 2 2; le 16 2; printf data; le $len 4
	head -c $len /dev/urandom
}

create() {   # create NAME TMP_URL (as a JSON string's content)
	curl -sf -o /dev/null -H "$AUTH" -H 'Content-Type: application/json' \
		-d "{\"transcription\":{\"name\":\"$1\",\"language\":\"en-US\",\"tmp_url\":\"$2\",\"organization_id\":\"$STENO_ORG_ID\"}}" \
		"$STENO_BASE_URL/transcriptions"
}

# quiet_org SANDBOX WORK ITEMS: starts SANDBOX (sandbox_start, data in WORK) with a quiet
# organization: ITEMS transcriptions of one uploaded file, done in seconds on the sandbox's
# real-time clock, and two whose media cannot be fetched (failed); returns once every item
# has settled and is more than a minute old (every "N s ago" has become minutes).
quiet_org() {
	sandbox_start "$1" "$2" quiet 0 --asr off
	wav > "$2/media.wav"
	SIGNED=$(curl -sf -H "$AUTH" "$STENO_BASE_URL/uploads/new?filename=media.wav" |
		sed -n 's/.*"signedUrl": *"\([^"]*\)".*/\1/p')
	[ -n "$SIGNED" ] || { echo "no signedUrl" >&2; exit 1; }
	curl -sf -o /dev/null -X PUT -H 'Expect:' --data-binary @"$2/media.wav" \
		"$(printf %s "$SIGNED" | sed 's#\\/#/#g')"
	i=0
	while [ $i -lt "$3" ]; do
		i=$((i + 1))
		create "Quiet $i" "$SIGNED"
	done
	create "Quiet failed 1" "http://127.0.0.1:1/none.wav"
	create "Quiet failed 2" "http://127.0.0.1:1/none.wav"
	CREATED=$(date +%s)
	tries=0
	while curl -sf -H "$AUTH" "$STENO_BASE_URL/transcriptions?organization_id=$STENO_ORG_ID&page_size=100" |
		tr ',' '\n' | grep '"state"' | grep -qv '"automatic_done"\|"failed"'; do
		tries=$((tries + 1)); [ $tries -lt 600 ] || { echo "the items did not settle" >&2; exit 1; }
		sleep 0.2
	done
	wait_s=$((CREATED + 65 - $(date +%s)))
	[ $wait_s -le 0 ] || sleep $wait_s
}

# The figures of `tui_pty idle`, one file per program and run: $WORK/WHO.RUN (RUN 1..$RUNS).
# values FIGURE WHO: one line per run
values() { for f in "$WORK/$2".*; do sed -n "s/^$1 //p" "$f"; done; }
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
range() { sort -n | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo "-" hi }'; }
# ratio FIGURE WHO REF: median over the runs of WHO / REF in the same run
ratio() {
	k=0
	while [ $k -lt "$RUNS" ]; do
		k=$((k + 1))
		a=$(sed -n "s/^$1 //p" "$WORK/$2.$k") b=$(sed -n "s/^$1 //p" "$WORK/$3.$k")
		awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%.3f\n", a / b; else print "-" }'
	done | median
}
# cell FIGURE WHO: "median (min-max)" over the runs
cell() { printf '%s (%s)' "$(values "$1" "$2" | median)" "$(values "$1" "$2" | range)"; }
us_ms() { awk '{ printf "%.1f\n", $1 / 1000 }'; }
# cell_us WHO: the schedstat CPU time in ms, "median (min-max)"
cell_us() {
	printf '%s (%s)' "$(values idle_cpu_us "$1" | us_ms | median)" \
		"$(values idle_cpu_us "$1" | us_ms | range)"
}
# per_run WHO...: "voluntary/all" context switches per minute of each WHO, one line a run
per_run() {
	k=0
	while [ $k -lt "$RUNS" ]; do
		k=$((k + 1))
		printf '%s' "$k:"
		for m in "$@"; do
			printf ' %s/%s' "$(sed -n 's/^idle_voluntary_per_min //p' "$WORK/$m.$k")" \
				"$(sed -n 's/^idle_wakeups_per_min //p' "$WORK/$m.$k")"
		done
		echo
	done
}

# idle_start SANDBOX ITEMS: a work dir in WORK (removed at exit, with the sandbox stopped), the
# C.UTF-8 locale and no config of the caller's environment, and the quiet organization
# (quiet_org) on SANDBOX.
idle_start() {
	WORK=$(mktemp -d)
	trap 'sandbox_stop; rm -rf "$WORK"' EXIT INT TERM
	export LANG=C.UTF-8 LC_ALL=C.UTF-8
	unset STENO_CONFIG STENO_PROFILE NO_COLOR || true
	quiet_org "$1" "$WORK" "$2"
}

# idle_measure WHO RUN NEEDLE CMD...: starts `$PTY idle $IDLE NEEDLE -- CMD...` in the
# background (its pid in $!), with WHO's own config, state and cache dirs below $WORK; its
# figures go to $WORK/WHO.RUN.
idle_measure() {
	who=$1 run=$2 needle=$3
	shift 3
	XDG_CONFIG_HOME=$WORK/$who/cfg XDG_STATE_HOME=$WORK/$who/state XDG_CACHE_HOME=$WORK/$who/cache \
		"$PTY" idle "$IDLE" "$needle" -- "$@" > "$WORK/$who.$run" &
}
