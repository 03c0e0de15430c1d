#!/usr/bin/env bash
# Runs the MCP conformance suites' client scenarios against attachectl,
# through scripts/conformance-client.sh, which drives attachectl as a person
# would (see there). scripts/test.sh runs it after the Go tests.
#
#   scripts/conformance.sh [-update] [VERSION...]
#
# VERSION is a suite, each pinned by scripts/conformance/VERSION/:
#   0.1.16          its auth, backcompat, extensions and draft groups;
#   0.2.0-alpha.12  every client scenario (2026-07-28 included), then the
#                   official requirement set, --requirements 2026-07-28,
#                   whose score is printed ("official 2026-07-28 score").
# Both by default.
#
# Prints a line per scenario with its check counts, then a closing
# "conformance: N passed, N failed, N expected failures" line; exits
# non-zero on a regression. A scenario regresses when it fails and is not
# listed in its suite's expected-failures.yml (with its reason), when it is
# listed there and passes (the list is stale), or when it passes fewer
# checks than its suite's expected-checks.txt records for it: a client that
# stops doing something can still "pass" with fewer checks. A scenario that
# "passes" with no check at all exercised nothing (an extension the host
# does not implement) and counts as neither. -update rewrites the
# expected-checks.txt files from this run. Each run's full output is left in
# .test-logs/conformance-VERSION-GROUP.log.
#
# CONFORMANCE_CLIENT=CMD runs another client instead of the adapter (go-sdk's
# own, to compare): the counts are printed, the baselines not enforced.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

broken() { # broken WHY: the run could not happen
	say "conformance: $1"
	echo "conformance: 0 passed, 1 failed, 0 expected failures"
	exit 1
}

update=0
if [ "${1:-}" = -update ]; then
	update=1
	shift
fi
versions=${*:-$conformance_versions}

ensure_go || broken "no Go"
ensure_conformance $versions || broken "the suite could not be installed"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${ATTACHECTL:-}" ]; then
	go build -o "$tmp/attachectl" ./cmd/attachectl || broken "attachectl does not build"
	ATTACHECTL=$tmp/attachectl
fi
export ATTACHECTL
client=${CONFORMANCE_CLIENT:-$PWD/scripts/conformance-client.sh}
mkdir -p .test-logs

passed=0
failed=0
xfail=0
vacuous=0

# judge VERSION LOG: a line per scenario of LOG, judged by VERSION's
# baseline and floors.
judge() {
	local v=$1 log=$2
	local baseline=scripts/conformance/$v/expected-failures.yml floors=scripts/conformance/$v/expected-checks.txt
	# "✓ auth/NAME: 14 passed, 0 failed" or "✗ auth/NAME: 2 passed, 3 failed, 1 warnings"
	local lines
	lines=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^[✓✗] [^ ]+: [0-9]+ passed, [0-9]+ failed')
	if [ -z "$lines" ]; then
		echo "conformance $v: no results (see $log)"
		failed=$((failed + 1))
		return
	fi
	while read -r _ name ok _ bad _ warn _; do
		name=${name%:}
		warn=${warn:-0}
		local counts="$ok checks passed, $bad failed, $warn warnings" min
		min=$(awk -v s="$name" '$1 == s { print $2 }' "$floors" 2>/dev/null)
		local listed=0
		grep -xE "  - $name( *#.*)?" "$baseline" >/dev/null 2>&1 && listed=1
		if [ -n "${CONFORMANCE_CLIENT:-}" ]; then
			echo "conformance $v $name: $counts"
		elif [ "$bad" != 0 ] || [ "$warn" != 0 ]; then
			if [ $listed = 1 ]; then
				echo "conformance $v $name: $counts (expected failure, see $baseline)"
				xfail=$((xfail + 1))
			else
				echo "conformance $v $name: $counts FAILED (see $log)"
				failed=$((failed + 1))
			fi
		elif [ "$ok" = 0 ]; then
			echo "conformance $v $name: no check exercised (an extension the host does not implement)"
			vacuous=$((vacuous + 1))
		elif [ $listed = 1 ]; then
			echo "conformance $v $name: $counts FAILED: it passes now; remove it from $baseline"
			failed=$((failed + 1))
		elif [ "$update" = 0 ] && [ -z "$min" ]; then
			echo "conformance $v $name: $counts FAILED: no floor in $floors (run scripts/conformance.sh -update)"
			failed=$((failed + 1))
		elif [ "$update" = 0 ] && [ "$ok" -lt "$min" ]; then
			echo "conformance $v $name: $counts FAILED: fewer checks than the $min recorded in $floors"
			failed=$((failed + 1))
		else
			echo "conformance $v $name: $counts"
			passed=$((passed + 1))
		fi
		[ "$ok" != 0 ] && [ "$bad" = 0 ] && [ "$warn" = 0 ] && echo "$name $ok" >>"$tmp/floors-$v"
	done <<<"$lines"
}

# run VERSION GROUP ARGS...: one run of the suite, logged.
run() {
	local v=$1 group=$2
	shift 2
	local log=.test-logs/conformance-$v-$group.log
	".peers/conformance/$v/node_modules/.bin/conformance" client --command "$client" "$@" --verbose >"$log" 2>&1
	echo $? >"$tmp/rc-$v-$group"
	echo "$log"
}

# score LOG: the official score of a --requirements 2026-07-28 run: the
# required client scenarios that passed, of all required.
score() {
	local v=$1 log=$2 req=.peers/conformance/$1/node_modules/@modelcontextprotocol/conformance/requirements/2026-07-28.yaml
	local names ok=0 all=0 fails=""
	names=$(awk '/^client:/ { on = 1; next } /^[a-z_]+:/ { on = 0 } on && /^  - / { print $2 }' "$req")
	sed 's/\x1b\[[0-9;]*m//g' "$log" >"$tmp/plain.log"
	for n in $names; do
		all=$((all + 1))
		if grep -qE "^✓ $n: [1-9][0-9]* passed, 0 failed$" "$tmp/plain.log"; then
			ok=$((ok + 1))
		else
			fails="$fails $n"
		fi
	done
	echo "conformance $v: official 2026-07-28 score $ok/$all${fails:+ (not passing:$fails)}"
}

for v in $versions; do
	: >"$tmp/floors-$v"
	case $v in
	0.1.16)
		for g in auth backcompat extensions draft; do
			judge "$v" "$(run "$v" "$g" --suite "$g")"
		done
		;;
	*)
		judge "$v" "$(run "$v" all --suite all)"
		log=$(run "$v" requirements --requirements 2026-07-28)
		score "$v" "$log"
		;;
	esac
	if [ "$update" = 1 ] && [ -z "${CONFORMANCE_CLIENT:-}" ]; then
		{
			echo "# How many checks each passing conformance scenario passes, at least:"
			echo "# scripts/conformance.sh fails a scenario that passes fewer. Written by"
			echo "# scripts/conformance.sh -update; review changes like code."
			sort "$tmp/floors-$v"
		} >"scripts/conformance/$v/expected-checks.txt"
		say "wrote scripts/conformance/$v/expected-checks.txt"
	fi
done

echo "conformance: $passed passed, $failed failed, $xfail expected failures, $vacuous with no check"
[ "$failed" = 0 ]
