#!/usr/bin/env bash
# Runs the Go tests of every module (the root and the nested ones):
#
#   bash .ci/test.sh full [DIR]   # make test: the real-Slurm tests too
#   bash .ci/test.sh fast [DIR]   # make test-fast: everything else
#
# full sets SLURMSPEC_REAL_SLURM=1 (lab/localslurm/slurmtest: the
# real-Slurm tests run, and a missing prerequisite fails) and runs with
# -race, but for the packages in NORACE, which run without -race alongside
# the rest (docs/performance.md, "Test suite"): the race detector checks
# only goroutines, and these packages start none of their own.
# lab/localslurm/realslurm's tests start Slurm daemons and wait on them
# (the harness's goroutines are raced by lab/localslurm's own tests,
# whose releases also run side by side); lint/rules' code starts no
# goroutine, and its slowest test (TestExportedSchemasAgreeWithLint, CUE
# evaluating every catalog value) took over 5 minutes a release under
# -race. The real-Slurm tests run their releases, and within a release
# every case that starts a cluster of its own, side by side (t.Parallel):
# -parallel 8 (TEST_PARALLEL) lets eight clusters run at once. They wait on
# Slurm's daemons and scheduler far more than they use the CPU
# (docs/performance.md, "Test suite": lab/localslurm/realslurm took 854 s
# at -parallel 8 on the 2-core machine under a load of 10-14, against
# 1258 s at -parallel 3 with the machine to itself).
# The NORACE packages' clusters keep their work directories (MariaDB's
# data directory among them) in a tmpfs, REAL_SLURM_TMPDIR (default
# /dev/shm when it is one): measured, a truth-table release took 40 s
# there against 51 s on disk (MariaDB's install and slurmdbd's first
# start write and sync a fresh database for every cluster).
#
# fast sets SLURMSPEC_REAL_SLURM=0 (the real-Slurm tests skip with one
# line) and runs without -race.
#
# fast keeps go test's cache (a package whose code, test files, files read
# and environment variables read are unchanged is not run again); full
# runs everything (-count=1). TEST_FLAGS adds flags to every go test, such
# as TEST_FLAGS=-count=1 for a cold fast run.
#
# With DIR, each go test run writes its `go test -json` stream to
# DIR/<name>.json instead of the terminal, for tools/testreport (make
# test-report); the exit status is the same.
set -euo pipefail

# The whole script is one function, so that bash has read all of it before
# it runs any (an edit during a run does not change the run).
main() {
	cd "$(dirname "$0")/.."
	mode=${1:?usage: test.sh full|fast [DIR]}
	dir=${2:-}
	GO=${GO:-go}
	TIMEOUT=${TEST_TIMEOUT:-75m}
	PARALLEL=${TEST_PARALLEL:-8}
	NORACE=(github.com/slurmspec/slurmspec/lab/localslurm/realslurm github.com/slurmspec/slurmspec/lint/rules)

	case "$mode" in
	full)
		export SLURMSPEC_REAL_SLURM=1
		race=-race
		count=(-count=1)
		parallel=(-parallel "$PARALLEL")
		;;
	fast)
		export SLURMSPEC_REAL_SLURM=0
		race=
		count=()
		parallel=()
		;;
	*)
		echo "test.sh: unknown mode $mode (want full or fast)" >&2
		exit 2
		;;
	esac
	if [ -n "$dir" ]; then
		mkdir -p "$dir"
		dir=$(cd "$dir" && pwd) # each module's go test runs in its own directory
	fi

	# gotest NAME ARGS...: go test ARGS, to the terminal or DIR/NAME.json.
	# TEST_FLAGS is split into words on purpose.
	# shellcheck disable=SC2086
	gotest() {
		local name=$1
		shift
		if [ -z "$dir" ]; then
			"$GO" test "${count[@]}" -timeout "$TIMEOUT" "${parallel[@]}" ${TEST_FLAGS:-} "$@"
		else
			echo "go test $(printf '%s\n' "$@" | grep -c '^[^-]') packages > $dir/$name.json"
			"$GO" test "${count[@]}" -timeout "$TIMEOUT" "${parallel[@]}" ${TEST_FLAGS:-} -json "$@" >"$dir/$name.json"
		fi
	}

	tmpdir=${REAL_SLURM_TMPDIR:-}
	if [ -z "$tmpdir" ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ -w /dev/shm ]; then
		tmpdir=/dev/shm
	fi
	tmpdir=${tmpdir:-${TMPDIR:-/tmp}}

	# module DIR: the tests of one module; the NORACE packages in a second
	# go test alongside. Returns non-zero when a test failed.
	module() {
		local m=$1 name status=0 pid='' p
		name=$(echo "$m" | tr / -)
		[ "$name" = . ] && name=root
		echo "== $m"
		local pkgs=() slow=()
		while read -r p; do
			if [ -n "$race" ] && printf '%s\n' "${NORACE[@]}" | grep -qxF "$p"; then
				slow+=("$p")
			else
				pkgs+=("$p")
			fi
		done < <(cd "$m" && "$GO" list ./...)
		if [ ${#slow[@]} -gt 0 ]; then
			(cd "$m" && TMPDIR=$tmpdir gotest "$name-norace" "${slow[@]}") &
			pid=$!
		fi
		(cd "$m" && gotest "$name" $race "${pkgs[@]}") || status=1
		if [ -n "$pid" ]; then
			wait "$pid" || status=1
		fi
		return $status
	}

	# The root module (the real-Slurm tests, the longest) in the
	# foreground; the nested modules one after another alongside it, their
	# output shown when the root's is done.
	local others=() mod log bg status=0
	for mod in $(git ls-files '*go.mod' 2>/dev/null || find . -name go.mod -not -path '*/testdata/*'); do
		[ "$(dirname "$mod")" = . ] || others+=("$(dirname "$mod")")
	done
	log=$(mktemp)
	(
		st=0
		for m in "${others[@]}"; do
			module "$m" || st=1
		done
		exit $st
	) >"$log" 2>&1 &
	bg=$!
	module . || status=1
	wait "$bg" || status=1
	cat "$log"
	rm -f "$log"
	exit $status
}

main "$@"
