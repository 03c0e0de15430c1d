#!/usr/bin/env bash
# Runs every test of Attaché. Installs what a fresh Debian or Ubuntu machine
# lacks first (Fyne's build headers, the npm MCP peers). Prints the go test
# summary lines, a line per MCP conformance scenario (scripts/conformance.sh),
# and a closing "N passed, N failed" line that counts both; exits non-zero on
# any failure. The full verbose logs are left in .test-logs/.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_go || exit 1
ensure_packages $FYNE_PACKAGES || exit 1
ensure_peers || exit 1
ensure_conformance || exit 1

mkdir -p .test-logs
status=0

say "go vet ./..."
go vet ./... || status=1

# run_tests NAME ARGS...: go test -v with ARGS, full log to .test-logs/NAME.log,
# the summary lines and the failures' output to the terminal
# (scripts/failures.awk).
run_tests() {
	name=$1
	shift
	log=.test-logs/$name.log
	say "go test $*"
	go test -v "$@" >"$log" 2>&1
	rc=$?
	awk -f scripts/failures.awk "$log"
	passed=$(grep -cE '^\s*--- PASS' "$log")
	failed=$(grep -cE '^\s*--- FAIL' "$log")
	skipped=$(grep -cE '^\s*--- SKIP' "$log")
	if [ "$rc" != 0 ] && [ "$failed" = 0 ]; then
		failed=1 # a build failure or a panic outside a test
	fi
	echo "$name: $passed passed, $failed failed, $skipped skipped"
	total_passed=$((total_passed + passed))
	total_failed=$((total_failed + failed))
	[ "$rc" = 0 ] || status=1
}

total_passed=0
total_failed=0
run_tests all -count=1 -timeout 30m ./...
# The race detector on every package that does not need a display: all of
# them (the ui tests use Fyne's test driver, no window); only the GUI's main
# packages, which open a real window when run, are left out.
headless=$(go list ./... | grep -vE '/cmd/attache(-scenes)?$')
run_tests race -race -count=1 -timeout 30m $headless

# The MCP conformance suites' client scenarios against the real attachectl
# (0.1.16 and 0.2.0-alpha.12, installed above into .peers/conformance/).
# Each scenario counts as a test; one listed in its suite's
# scripts/conformance/VERSION/expected-failures.yml counts as neither.
say "scripts/conformance.sh"
scripts/conformance.sh | tee .test-logs/conformance.txt
[ "${PIPESTATUS[0]}" = 0 ] || status=1
read -r cpassed cfailed < <(sed -nE 's/^conformance: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/p' .test-logs/conformance.txt)
if [ -z "${cpassed:-}" ]; then
	cpassed=0 cfailed=1 status=1
fi
total_passed=$((total_passed + cpassed))
total_failed=$((total_failed + cfailed))

echo "$total_passed passed, $total_failed failed"
exit $status
