#!/bin/sh
# The committed language-name table is what its generator makes from the installed
# iso-codes data and the spec tables (skipped without python3 or iso-codes).
set -u
src=${STENO_SRCDIR:-.}
command -v python3 >/dev/null 2>&1 || { echo "python3 missing: skipped"; exit 77; }
[ -f /usr/share/iso-codes/json/iso_639-3.json ] || { echo "iso-codes missing: skipped"; exit 77; }
# (no trap: dash leaks its trap string, which the valgrind run of the suite reports)
out=$(mktemp) || exit 1
status=0
if ! python3 "$src/tui/core/gen-lang-names.py" > "$out"; then
  status=1
elif ! cmp -s "$out" "$src/tui/core/lang_names_data.c"; then
  echo "tui/core/lang_names_data.c is stale; regenerate it (README, Language names):"
  diff -u "$src/tui/core/lang_names_data.c" "$out" | head -n 20
  status=1
fi
rm -f "$out"
exit $status
