#!/usr/bin/env bash
# Runs one fuzz target: fuzz.sh PACKAGE TARGET FUZZTIME.
#
# Go 1.26's fuzzing coordinator can end a healthy run with a bare "context
# deadline exceeded" when -fuzztime expires while a worker is busy (a race
# in internal/fuzz, go.dev/issue/75804, fixed in Go 1.27); it is seen on
# loaded machines. Such a run wrote no failing input and found nothing, so
# it is run once more; any other failure, or the same one twice, fails.
set -euo pipefail
pkg=$1 target=$2 fuzztime=$3
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for attempt in 1 2; do
	if go test "$pkg" -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" -fuzzminimizetime 5s 2>&1 | tee "$log"; then
		exit 0
	fi
	if [ "$attempt" -eq 1 ] && grep -q 'context deadline exceeded' "$log" &&
		! grep -q -E 'Failing input written|^panic:' "$log"; then
		echo "fuzz.sh: $target: the coordinator's deadline race (go.dev/issue/75804), no failing input: running it again"
		continue
	fi
	exit 1
done
exit 1
