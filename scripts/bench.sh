#!/usr/bin/env bash
# Runs every speed benchmark and prints one table: per measure, the median
# of ROUNDS runs (5 by default, never fewer), their spread (min–max), the
# floor measured beside it in the same run, the goal, and whether the
# median meets it. Benchmarks report figures; nothing here fails a build on
# a timing. The figures are as good as the machine is quiet.
#
# How it stays honest on a shared machine:
#   - every figure is a median of ROUNDS runs, never the best one;
#   - what is compared runs interleaved: each round runs every side once
#     (the Go benchmarks as one test binary run per round, the whole
#     processes through internal/benchpair), and a ratio is the median of
#     the rounds' own ratios, with their spread;
#   - each figure has its floor beside it, from the same rounds: a bare
#     SQLite point read for the store, a process that links only a read
#     for the CLI, a bare go-sdk client for listing, an empty Fyne window
#     for the first frame.
#
#   scripts/bench.sh                        everything
#   SKIP="cli startup" scripts/bench.sh     leave parts out (go, ui, tokens, viewer, startup, cli)
#   ROUNDS=9 scripts/bench.sh               more rounds
#
# The CLI comparison installs @modelcontextprotocol/inspector (INSPECTOR,
# 2.12.0 by default) into ~/.cache/attache-bench, outside the repository
# and apart from the test peers, unless .peers already has that version.
set -euo pipefail
shopt -s lastpipe # a row at the end of a pipeline adds to rows in this shell
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_go

SKIP=${SKIP:-}
INSPECTOR=${INSPECTOR:-2.12.0}
ROUNDS=${ROUNDS:-5}
[ "$ROUNDS" -ge 5 ] || { say "ROUNDS=$ROUNDS: a median needs at least 5"; exit 2; }
CLIRUNS=${CLIRUNS:-10} # pairs of whole processes for the CLI ratio
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rows=()
skip() { [[ " $SKIP " == *" $1 "* ]]; }
mkdir -p bin
go build -o bin/benchpair ./internal/benchpair

# --- figures: a file of "round name unit value" lines -------------------

# gobench ROUND FILE: appends a Go benchmark output's figures to figures.
# ns/op becomes ms; a metric keeps its unit.
gobench() {
	awk -v r="$1" '$1 ~ /^Benchmark/ { n = $1; sub(/-[0-9]+$/, "", n)
		for (i = 3; i < NF; i += 2) { v = $i; u = $(i + 1)
			if (u == "ns/op") { v = v / 1e6; u = "ms" }
			print r, n, u, v } }' "$2" >>"$work/figures"
}

# values NAME UNIT: the figures of NAME in UNIT, one per round, by round.
values() { awk -v n="$1" -v u="$2" '$2 == n && $3 == u { print $1, $4 }' "$work/figures" | sort -n | awk '{ print $2 }'; }

# ratios NAME_A UNIT_A NAME_B UNIT_B: A/B, round by round.
ratios() {
	awk -v a="$1" -v ua="$2" -v b="$3" -v ub="$4" '
		$2 == a && $3 == ua { x[$1] = $4 } $2 == b && $3 == ub { y[$1] = $4 }
		END { for (r in x) if (r in y && y[r] > 0) print x[r] / y[r] }' "$work/figures"
}

# stats: of numbers on stdin, "MEDIAN MIN MAX N", or nothing.
stats() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) exit
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		print m, v[1], v[NR], NR }'
}

# fmt FIGURE: three significant digits, without an exponent.
fmt() { awk -v f="$1" 'BEGIN { if (f >= 100) printf "%.0f", f; else printf "%.3g", f }'; }

# row MEASURE UNIT OP GOAL FLOOR: a table row from the numbers on stdin:
# their median, their spread, the floor (text), the goal (OP is <= or >=,
# an empty GOAL is a figure with no goal) and whether the median meets it.
row() {
	local s med lo hi n met="-"
	s=$(stats)
	if [ -z "$s" ]; then
		rows+=("$1|not measured|-|${5:--}|${4:+$3 $4 $2}|-")
		return
	fi
	read -r med lo hi n <<<"$s"
	if [ -n "$4" ]; then
		met=no
		awk -v f="$med" -v g="$4" -v op="$3" 'BEGIN { exit !((op == "<=") ? f <= g : f >= g) }' && met=yes
	fi
	rows+=("$1|$(fmt "$med") $2|$(fmt "$lo")–$(fmt "$hi") ($n)|${5:--}|${4:+$3 $4 $2}|$met")
}

# median NAME UNIT: the median of a figure, for a floor column.
median() { values "$1" "$2" | stats | awk '{ print $1 }'; }

# --- the Go benchmarks, interleaved by round ---------------------------

if ! skip go; then
	say "Go benchmarks: $ROUNDS rounds, each runs every benchmark once"
	go test -c -o "$work/hostcore.test" ./hostcore
	go test -c -o "$work/cache.test" ./cache
	go test -c -o "$work/state.test" ./internal/state
	go test -c -o "$work/pack.test" ./hostcore/pack
	for r in $(seq "$ROUNDS"); do
		(cd hostcore && "$work/hostcore.test" -test.run '^$' -test.bench '^BenchmarkCachedRead$' -test.benchtime 1s) >"$work/go.txt"
		(cd cache && "$work/cache.test" -test.run '^$' -test.bench '^(BenchmarkOpen256MiB|BenchmarkFloorSQLite)' -test.benchtime 1s) >>"$work/go.txt"
		(cd internal/state && "$work/state.test" -test.run '^$' -test.bench '^BenchmarkOpenState$' -test.benchtime 1s) >>"$work/go.txt"
		(cd hostcore/pack && "$work/pack.test" -test.run '^$' -test.bench '^(BenchmarkRank10k|BenchmarkRank10kFloor|BenchmarkRank10kFresh|BenchmarkRerank10k|BenchmarkRepack10k)$' -test.cpu 1 -test.benchtime 1s) >>"$work/go.txt"
		gobench "$r" "$work/go.txt"
		say "round $r of $ROUNDS: $(grep -c '^Benchmark' "$work/go.txt") benchmarks"
	done
	floor=$(median BenchmarkFloorSQLitePointRead ms)
	floor=${floor:+bare SQLite point read $(fmt "$(awk -v f="$floor" 'BEGIN { print f * 1000 }')") µs}
	values BenchmarkCachedRead/memory-hit ms | awk '{ print $1 * 1000 }' |
		row "memory-tier hit (BenchmarkCachedRead/memory-hit)" µs "<=" 1 "$floor"
	ratios BenchmarkCachedRead/stdio-server ms BenchmarkCachedRead/memory-hit ms |
		row "stdio read / memory hit, paired" × ">=" 300 ""
	values BenchmarkCachedRead/sqlite-hit ms | awk '{ print $1 * 1000 }' |
		row "SQLite-tier hit, warm store" µs "" "" "$floor"
	ofloor=$(median BenchmarkFloorSQLiteOpen256MiB ms)
	values BenchmarkOpen256MiB ms | row "open the cache, 256 MiB, closed cleanly" ms "<=" 1 \
		"${ofloor:+bare SQLite open and point read $(fmt "$ofloor") ms}"
	values BenchmarkOpenState ms | row "open the state store, 500 attachments" ms "<=" 1 \
		"${ofloor:+bare SQLite open and point read $(fmt "$ofloor") ms}"
	# Rank keeps nothing of the items (issue 20): ranking the same items
	# again reads every body to find its count. Its floor is that read.
	rfloor=$(median BenchmarkRank10kFloor ms)
	rfloor=${rfloor:+hashing each body once (BenchmarkRank10kFloor) $(fmt "$rfloor") ms}
	values BenchmarkRank10k ms | row "BenchmarkRank10k -cpu 1 (Rank, no memory, the same items again)" ms "<=" 5 "$rfloor"
	values BenchmarkRank10kFresh ms | row "BenchmarkRank10kFresh -cpu 1 (Rank, items built afresh, as a send)" ms "" "" "$rfloor"
	values BenchmarkRerank10k ms | row "BenchmarkRerank10k -cpu 1 (a pin changed)" ms "<=" 5 ""
	values BenchmarkRepack10k ms | row "BenchmarkRepack10k -cpu 1 (the budget changed)" ms "<=" 1 ""
fi

# --- the UI's catalog (Fyne's test driver, 50,000 resources) -----------

if ! skip ui; then
	say "catalog benchmarks: $ROUNDS rounds"
	go test -c -o "$work/ui.test" ./ui
	for r in $(seq "$ROUNDS"); do
		(cd ui && "$work/ui.test" -test.run '^$' -test.bench '^BenchmarkCatalog' -test.benchtime 1x) >"$work/ui.txt"
		gobench "$r" "$work/ui.txt"
	done
	values BenchmarkCatalogFirstRows ms/first-rows | row "catalog: first rows after page 1 arrives" ms "<=" 50 ""
	values BenchmarkCatalogFilter ms/keystroke-p95 | row "catalog: filter keystroke over 50,000, p95" ms "<=" 16 ""
	# The host's CPU over a bare go-sdk client's, listing the same 50,000
	# in the same round (the bare one runs before and after the app's).
	ratios BenchmarkCatalogListing cpu-ms/app-listing BenchmarkCatalogListing cpu-ms/bare-listing |
		awk '{ print 100 * ($1 - 1) }' | row "catalog listing: host CPU over a bare go-sdk client's" % "<=" 15 \
		"bare go-sdk client $(fmt "$(median BenchmarkCatalogListing cpu-ms/bare-listing)") ms CPU"
	values BenchmarkCatalogListing %overhead | row "catalog listing: host wall time over the bare client's" % "" "" ""
	# The floor under the goal, from the same rounds: the bare client
	# keeping each resource as the host's type (the least a host adds), and
	# the host alone, without the window, over that floor.
	ratios BenchmarkCatalogListingHost cpu-ms/bare-keep-listing BenchmarkCatalogListingHost cpu-ms/bare-listing |
		awk '{ print 100 * ($1 - 1) }' | row "catalog listing floor: bare client keeping the items, over the bare client's CPU" % "" "" ""
	ratios BenchmarkCatalogListingHost cpu-ms/host-listing BenchmarkCatalogListingHost cpu-ms/bare-keep-listing |
		awk '{ print 100 * ($1 - 1) }' | row "catalog listing: host without the window, CPU over that floor" % "" "" ""
fi

# --- the first token count of a process --------------------------------

if ! skip tokens; then
	# Each sub-benchmark runs in a process of its own (a first count is
	# only a first count in a fresh process), and a round runs the three
	# in turn, starting one further along each round.
	say "first token count: $ROUNDS rounds, a fresh process per count"
	go test -c -o "$work/hostcache.test" ./internal/hostcache
	subs=(stored unstored floor)
	for r in $(seq "$ROUNDS"); do
		: >"$work/tok.txt"
		for i in 0 1 2; do
			sub=${subs[$(((r + i) % 3))]}
			(cd internal/hostcache && "$work/hostcache.test" -test.run '^$' -test.bench "^BenchmarkFirstCount\$/^$sub\$" -test.benchtime 1x) >>"$work/tok.txt"
		done
		gobench "$r" "$work/tok.txt"
	done
	tfloor=$(median BenchmarkFirstCount/floor ms/first-count)
	tfloorcpu=$(median BenchmarkFirstCount/floor cpu-ms/first-count)
	tfloor=${tfloor:+open the cache, point-read the count row: $(fmt "$tfloor") ms, $(fmt "$tfloorcpu") ms CPU}
	values BenchmarkFirstCount/stored ms/first-count | row "first token count in a process, count stored" ms "<=" 20 "$tfloor"
	values BenchmarkFirstCount/stored cpu-ms/first-count | row "first token count in a process, count stored, CPU" ms "" "" "$tfloor"
	values BenchmarkFirstCount/unstored ms/first-count | row "first token count in a process, body never counted" ms "<=" 20 "$tfloor"
	values BenchmarkFirstCount/unstored cpu-ms/first-count | row "first token count in a process, body never counted, CPU" ms "" "" "$tfloor"
	values BenchmarkFirstCount/floor ms/first-count | row "floor: a fresh process opens the cache and point-reads the count row" ms "" "" ""
	values BenchmarkFirstCount/floor cpu-ms/first-count | row "floor: the same, CPU" ms "" "" ""
fi

# --- the body viewer, in the real window --------------------------------

if ! skip viewer && [ -x scripts/bench-viewer.sh ]; then
	RUNS=$ROUNDS scripts/bench-viewer.sh >"$work/viewer.txt" || say "the viewer benchmark failed"
	# bench-viewer.sh prints "KEY... UNIT median M spread LO–HI (n=N)"
	# lines. The goals (issue 24.1) go beside the rows they are about;
	# the floor is a 200-byte text body shown the same way.
	floor=$(awk '/^show text\/200 window-thread cpu-ms/ { print $(NF-3) }' "$work/viewer.txt")
	# The scroll's floor: Fyne's own widget.List of the same text alone in a
	# window of the same size, scrolled the same paced way.
	bare_fps=$(awk '/^scroll-paced bare-list\/text-1m step 40 fps/ { print $(NF-3) }' "$work/viewer.txt")
	bare_cpf=$(awk '/^scroll-paced bare-list\/text-1m step 40 cpu-ms\/frame/ { print $(NF-3) }' "$work/viewer.txt")
	while read -r line; do
		[[ $line == *" median "* ]] || continue
		key=${line%% median *}
		key=$(echo "$key" | sed 's/ *$//')
		read -r med spread < <(echo "${line#* median }" | awk '{ print $1, $3 }')
		lo=${spread%%–*} hi=${spread##*–}
		unit=${key##* } name="viewer: ${key% *}"
		op= goal=
		case "$key" in
		"show text/40k window-thread cpu-ms" | "show json/40k window-thread cpu-ms") op="<=" goal=25 ;;
		"show text/1m wall-ms" | "show json/1m wall-ms") op="<=" goal=100 ;;
		"show markdown/1m wall-ms") op="<=" goal=500 ;;
		"scroll text/1m step 40 fps" | "scroll markdown/1m step 40 fps" | \
			"scroll-paced text/1m step 40 fps" | "scroll-paced markdown/1m step 40 fps") op=">=" goal=60 ;;
		esac
		met=-
		[ -n "$goal" ] && { met=no; awk -v f="$med" -v g="$goal" -v op="$op" 'BEGIN { exit !((op == "<=") ? f <= g : f >= g) }' && met=yes; }
		fl=-
		[[ $unit == cpu-ms && $key == show* && -n $floor ]] && fl="200-byte text body $(fmt "$floor") ms"
		[[ $key == scroll-paced*step\ 40\ fps && $key != *bare-list* && -n $bare_fps ]] && fl="bare widget.List $(fmt "$bare_fps") fps"
		[[ $key == scroll-paced*step\ 40\ cpu-ms/frame && $key != *bare-list* && -n $bare_cpf ]] && fl="bare widget.List $(fmt "$bare_cpf") ms"
		rows+=("$name|$(fmt "$med") $unit|$(fmt "$lo")–$(fmt "$hi")|$fl|${goal:+$op $goal $unit}|$met")
	done <"$work/viewer.txt"
fi

# --- the first frame against an empty Fyne window ----------------------

if ! skip startup; then
	if [ -x scripts/bench-startup.sh ]; then
		ROUNDS=$ROUNDS scripts/bench-startup.sh >"$work/startup.txt" || say "the start-up benchmark failed"
		# benchpair runs the app first and prints "ratio empty app wall
		# MEDIAN MIN MAX" as empty/app, round by round: inverted, that is
		# app/empty (the median of the inverses, ROUNDS being odd).
		ratio=$(awk '$1 == "ratio" && $2 == "empty" && $3 == "app" && $4 == "wall" { print 1 / $5, 1 / $7, 1 / $6 }' "$work/startup.txt")
		app=$(awk '$1 == "time" && $3 == "wall" && $2 == "app" { print $4 }' "$work/startup.txt")
		empty=$(awk '$1 == "time" && $3 == "wall" && $2 == "empty" { print $4 }' "$work/startup.txt")
		if [ -n "$ratio" ]; then
			read -r med lo hi <<<"$ratio"
			met=no
			awk -v f="$med" 'BEGIN { exit !(f <= 1.35) }' && met=yes
			rows+=("first frame, large state / empty Fyne window, paired|$(fmt "$med") ×|$(fmt "$lo")–$(fmt "$hi") ($ROUNDS)|empty window $(fmt "$empty") ms, app $(fmt "$app") ms|<= 1.35 ×|$met")
		else
			rows+=("first frame, large state / empty Fyne window, paired|not measured|-|-|<= 1.35 ×|-")
		fi
	fi
fi

# --- whole processes: attachectl against MCP Inspector's CLI -----------

if ! skip cli; then
	say "whole processes, interleaved: attachectl, its floor and MCP Inspector's CLI, $CLIRUNS rounds"
	go build -o bin/attachectl ./cmd/attachectl
	[ -d cmd/attachectl-full ] && go build -o bin/attachectl-full ./cmd/attachectl-full
	go build -o bin/readfloor ./internal/benchpair/readfloor
	insp=$PWD/.peers/node_modules/@modelcontextprotocol/inspector
	have=$(node -p "require('$insp/package.json').version" 2>/dev/null || true)
	if [ "$have" != "$INSPECTOR" ]; then
		[ -n "$have" ] && say ".peers has inspector $have, not $INSPECTOR: using a private install"
		insp="$HOME/.cache/attache-bench/inspector-$INSPECTOR/node_modules/@modelcontextprotocol/inspector"
		if [ ! -f "$insp/package.json" ]; then
			say "installing @modelcontextprotocol/inspector@$INSPECTOR into ~/.cache/attache-bench"
			mkdir -p "$HOME/.cache/attache-bench/inspector-$INSPECTOR"
			(cd "$HOME/.cache/attache-bench/inspector-$INSPECTOR" &&
				npm install --no-audit --no-fund --loglevel=error "@modelcontextprotocol/inspector@$INSPECTOR" >/dev/null)
		fi
	fi
	have=$(node -p "require('$insp/package.json').version")
	cli=$(node -p "const p = require('$insp/package.json'); typeof p.bin == 'string' ? p.bin : (p.bin['mcp-inspector'] || Object.values(p.bin)[0])")
	data="$work/data"
	mkdir -p "$data"
	echo '{"servers": []}' >"$work/config.json"
	export ATTACHE_CONFIG="$work/config.json" ATTACHE_DATA_DIR="$data"
	id=$(bin/attachectl --account acme complete demo 'threengram://memory/{id}' id m | awk 'NR == 1')
	uri="threengram://memory/$id"
	bin/attachectl --account acme read demo "$uri" >/dev/null # the miss that fills the cache
	ours="bin/attachectl --account acme read demo $uri"
	bin/benchpair -runs "$CLIRUNS" -warm 1 -expect content \
		-c "attachectl=$ours" \
		-c "floor=bin/readfloor $data/cache.db $uri" \
		-c "inspector=node $insp/$cli --cli --method resources/read --uri $uri -e THREENGRAM_TENANT=acme -- bin/attachectl demo-server --db $data/demo-threengram.db" \
		-c "server=bin/attachectl --account acme read --no-cache demo $uri" \
		>"$work/cli.txt"
	cat "$work/cli.txt" >&2
	pick() { awk -v k="$1" -v w="$2" '$1 == "ratio" && $2 == k && $4 == w { print $5, $6, $7 } $1 == "time" && $2 == k && $3 == w { print $4, $7, $8 }' "$work/cli.txt"; }
	cliRow() { # MEASURE UNIT OP GOAL FLOOR, from "MEDIAN MIN MAX"
		local med lo hi met=-
		read -r med lo hi
		[ -n "$4" ] && { met=no; awk -v f="$med" -v g="$4" -v op="$3" 'BEGIN { exit !((op == "<=") ? f <= g : f >= g) }' && met=yes; }
		rows+=("$1|$(fmt "$med") $2|$(fmt "$lo")–$(fmt "$hi") ($CLIRUNS)|${5:--}|${4:+$3 $4 $2}|$met")
	}
	floorms=$(pick floor wall | awk '{ print $1 }')
	inspms=$(pick inspector wall | awk '{ print $1 }')
	pick attachectl wall | cliRow "attachectl read, cached, whole process" ms "" "" "readfloor $(fmt "$floorms") ms"
	pick inspector wall | cliRow "inspector $have CLI read over stdio, whole process" ms "" "" ""
	awk '$1 == "ratio" && $2 == "inspector" && $4 == "wall" { print $5, $6, $7 }' "$work/cli.txt" |
		cliRow "inspector CLI / attachectl read, paired" × ">=" 60 \
		"inspector / readfloor, medians: $(fmt "$(awk -v a="$inspms" -v b="$floorms" 'BEGIN { print a / b }')") ×"
	awk '$1 == "ratio" && $2 == "inspector" && $4 == "cpu" { print $5, $6, $7 }' "$work/cli.txt" |
		cliRow "inspector CLI / attachectl read, paired, by CPU" × "" "" ""
	awk '$1 == "ratio" && $2 == "server" && $4 == "wall" { print $5, $6, $7 }' "$work/cli.txt" |
		cliRow "fresh process: read from a fresh stdio server / cached read, paired" × ">=" 30 \
		"server read / readfloor, medians: $(fmt "$(awk -v a="$(pick server wall | awk '{ print $1 }')" -v b="$floorms" 'BEGIN { print a / b }')") ×"
fi

{
	echo "measure|median|spread (min–max, runs)|floor, same run|goal|met"
	echo "---|---|---|---|---|---"
	printf '%s\n' "${rows[@]}"
} | column -t -s '|' -o ' | '
