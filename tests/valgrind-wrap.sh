#!/bin/sh
# Runs one test program under valgrind memcheck (used by `make check-valgrind`).
# Any error or definite/indirect leak makes the test fail with status 99; the
# report stays in the test's .log file. Child processes (Criterion's workers,
# the CLI under test) are traced too; steno-sandbox servers are not (too slow),
# they have their own memcheck run in the sandbox tests.
exec valgrind --quiet --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
	--trace-children=yes --trace-children-skip='*steno-sandbox*,/bin/*,/usr/bin/*' \
	--child-silent-after-fork=no --track-fds=no "$@"
