#!/usr/bin/env bash
# Prints the milliseconds from launch to the app's first frame under Xvfb
# (attache --measure-startup) with issue 15's large state: 10 servers, 500
# attachments in 20 conversations, a warm 50,000-entry catalog (see
# internal/benchstate). RUNS launches (default 5); prints the mean, and the
# runs on stderr. Used by scripts/bench.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
RUNS=${RUNS:-5}
if [ -z "${ATTACHE_BENCH_UNDER_XVFB:-}" ]; then
	ensure_go
	ensure_packages $FYNE_PACKAGES xvfb xauth >&2
	mkdir -p bin
	say "building the app, mcptestd and benchstate"
	go build -o bin/attache ./cmd/attache
	go build -o bin/mcptestd ./internal/mcptest/mcptestd
	go build -o bin/benchstate ./internal/benchstate
	export ATTACHE_BENCH_UNDER_XVFB=1
	exec xvfb-run -a -s "-screen 0 1280x800x24" "$0" "$@"
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
say "laying out the large state"
bin/benchstate --dir "$dir" --mcptestd "$PWD/bin/mcptestd"
total=0
for i in $(seq "$RUNS"); do
	out=$(LANG=en_US.UTF-8 XDG_CONFIG_HOME="$dir/xdg" ATTACHE_CONFIG="$dir/config.json" \
		timeout 120 bin/attache --data-dir "$dir/data" --measure-startup)
	ms=$(printf '%s\n' "$out" | awk '/^first frame:/ { print $3 }')
	say "run $i: $(printf '%s' "$out" | tr '\n' ';')"
	total=$((total + ms))
done
awk -v t="$total" -v n="$RUNS" 'BEGIN { print t / n }'
