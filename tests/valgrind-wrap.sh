#!/bin/sh
# Runs one test program under valgrind memcheck (used by `make check-valgrind`).
# Criterion runs each test in a worker process whose exit status does not reach
# the runner, so valgrind writes one log per process and this script fails the
# test (status 99) when any of them reports an error or a definite/indirect leak,
# copying the reports into the test's own log. steno-sandbox servers started by
# tests are not traced (too slow).
set -u
logs=$(mktemp -d "${TMPDIR:-/tmp}/steno-vg.XXXXXX") || exit 99
valgrind --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
	--trace-children=yes --trace-children-skip='*steno-sandbox*,/bin/*,/usr/bin/*' \
	--log-file="$logs/vg.%p.log" "$@"
status=$?
if grep -lE 'ERROR SUMMARY: [1-9]' "$logs"/vg.*.log >/dev/null 2>&1; then
	for f in $(grep -lE 'ERROR SUMMARY: [1-9]' "$logs"/vg.*.log); do
		echo "valgrind report ($f):" >&2
		cat "$f" >&2
	done
	status=99
fi
rm -rf "$logs"
exit "$status"
