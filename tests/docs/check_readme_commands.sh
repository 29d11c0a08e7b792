#!/bin/sh
# The README's Quick start test command must be the one .ci/run runs, and the
# first command must build and open the sandbox browser.
set -u
src=${STENO_SRCDIR:-.}
fail=0
test_cmd=$(grep -A2 '^Build and run the whole test suite:' "$src/README.md" | sed -n 's/^    //p' | head -n 1)
run_cmd=$(grep -A2 '^Build and open steno on the bundled sandbox' "$src/README.md" | sed -n 's/^    //p' | head -n 1)
if [ -z "$test_cmd" ] || ! grep -qxF "$test_cmd" "$src/.ci/run"; then
  echo "README test command not found verbatim in .ci/run: '$test_cmd'"; fail=1
fi
case "$run_cmd" in
  *"./steno --sandbox") ;;
  *) echo "README first command does not end in ./steno --sandbox: '$run_cmd'"; fail=1 ;;
esac
if [ "$fail" -eq 0 ]; then echo "Synthesis: Tested: 2 | Passing: 2 | Failing: 0 | Crashing: 0"; else echo "Synthesis: Tested: 2 | Passing: 0 | Failing: 2 | Crashing: 0"; fi
exit "$fail"
