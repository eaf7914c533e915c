#!/usr/bin/env bash
# expect_output.sh EXPECTED COMMAND [ARGS...]: runs the command; passes when it exits with 0
# and its output has the line EXPECTED (so a right answer from a run that fails or hangs does
# not pass, as it would with ctest's PASS_REGULAR_EXPRESSION alone).
set -uo pipefail
expected=$1
shift
out=$("$@")
status=$?
printf '%s\n' "$out"
[ "$status" -eq 0 ] || { echo "exit status $status" >&2; exit 1; }
grep -qxF -- "$expected" <<<"$out" || { echo "expected the line: $expected" >&2; exit 1; }
