#!/usr/bin/env bash
# Runs the MCP conformance suite's client authorization scenarios (every
# auth/* scenario of @modelcontextprotocol/conformance, pinned by
# scripts/conformance/package-lock.json) against attachectl, through
# scripts/conformance-client.sh. scripts/test.sh runs it after the Go tests.
#
#   scripts/conformance.sh [-update] [SUITE...]
#
# SUITE is the suite's own grouping: auth (the 2025-11-25 scenarios),
# backcompat (2025-03-26), extensions, draft; all four by default.
#
# Prints a line per scenario with its check counts, then a closing
# "conformance: N passed, N failed, N expected failures" line; exits non-zero
# on a regression. A scenario regresses when it fails and is not listed in
# scripts/conformance/expected-failures.yml (with its reason), when it is
# listed there and passes (the list is stale), or when it passes fewer
# checks than scripts/conformance/expected-checks.txt records for it: a
# client that stops doing something can still "pass" with fewer checks.
# -update rewrites expected-checks.txt from this run. Each suite's full
# output is left in .test-logs/conformance-SUITE.log.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

baseline=scripts/conformance/expected-failures.yml
floors=scripts/conformance/expected-checks.txt

broken() { # broken WHY: the run could not happen
	say "conformance: $1"
	echo "conformance: 0 passed, 1 failed, 0 expected failures"
	exit 1
}

ensure_go || broken "no Go"
ensure_conformance || broken "the suite could not be installed"

update=0
if [ "${1:-}" = -update ]; then
	update=1
	shift
fi
suites=${*:-auth backcompat extensions draft}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${ATTACHECTL:-}" ]; then
	go build -o "$tmp/attachectl" ./cmd/attachectl || broken "attachectl does not build"
	ATTACHECTL=$tmp/attachectl
fi
export ATTACHECTL

# The suites run side by side (each runs its scenarios in parallel too).
mkdir -p .test-logs
suite_bin=.peers/conformance/node_modules/.bin/conformance
for s in $suites; do
	(
		"$suite_bin" client --command "scripts/conformance-client.sh" --suite "$s" \
			--expected-failures "$baseline" --verbose >".test-logs/conformance-$s.log" 2>&1
		echo $? >"$tmp/$s.rc"
	) &
done
wait

expected() { grep -qxF "  - $1" "$baseline"; }
floor() { awk -v s="$1" '$1 == s { print $2 }' "$floors" 2>/dev/null; }

passed=0
failed=0
xfail=0
: >"$tmp/floors"
for s in $suites; do
	log=.test-logs/conformance-$s.log
	# "✓ auth/NAME: 14 passed, 0 failed" or "✗ auth/NAME: 2 passed, 3 failed, 1 warnings"
	lines=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^[✓✗] [^ ]+: [0-9]+ passed, [0-9]+ failed')
	if [ -z "$lines" ]; then
		echo "conformance suite $s: no results (see $log)"
		failed=$((failed + 1))
		continue
	fi
	suite_failed=0
	while read -r _ name ok _ bad _ warn _; do
		name=${name%:}
		warn=${warn:-0}
		counts="$ok checks passed, $bad failed, $warn warnings"
		if [ "$bad" != 0 ] || [ "$warn" != 0 ]; then
			if expected "$name"; then
				echo "conformance $name: $counts (expected failure, see $baseline)"
				xfail=$((xfail + 1))
			else
				echo "conformance $name: $counts FAILED (see $log)"
				failed=$((failed + 1))
				suite_failed=1
			fi
			continue
		fi
		echo "$name $ok" >>"$tmp/floors"
		min=$(floor "$name")
		if expected "$name"; then
			echo "conformance $name: $counts FAILED: it passes now; remove it from $baseline"
			failed=$((failed + 1))
			suite_failed=1
		elif [ "$update" = 0 ] && [ -z "$min" ]; then
			echo "conformance $name: $counts FAILED: no floor in $floors (run scripts/conformance.sh -update)"
			failed=$((failed + 1))
			suite_failed=1
		elif [ "$update" = 0 ] && [ "$ok" -lt "$min" ]; then
			echo "conformance $name: $counts FAILED: fewer checks than the $min recorded in $floors"
			failed=$((failed + 1))
			suite_failed=1
		else
			echo "conformance $name: $counts"
			passed=$((passed + 1))
		fi
	done <<<"$lines"
	# The suite's own verdict on the baseline, in case it saw what the lines
	# above do not show.
	if [ "$(cat "$tmp/$s.rc" 2>/dev/null)" != 0 ] && [ "$suite_failed" = 0 ]; then
		echo "conformance suite $s: the suite failed the baseline check (see $log)"
		failed=$((failed + 1))
	fi
done

if [ "$update" = 1 ]; then
	{
		echo "# How many checks each passing conformance scenario passes, at least:"
		echo "# scripts/conformance.sh fails a scenario that passes fewer. Written by"
		echo "# scripts/conformance.sh -update; review changes like code."
		sort "$tmp/floors"
	} >"$floors"
	say "wrote $floors"
fi

echo "conformance: $passed passed, $failed failed, $xfail expected failures"
[ "$failed" = 0 ]
