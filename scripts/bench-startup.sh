#!/usr/bin/env bash
# Measures the app's first frame against its floor, an empty Fyne window,
# under Xvfb: attache --measure-startup with issue 15's large state (10
# servers, 500 attachments in 20 conversations, a warm 50,000-entry
# catalog; see internal/benchstate) and internal/startup/emptywindow, which
# measures its first frame the same way (internal/startup). The two run
# interleaved through internal/benchpair, ROUNDS rounds (default 7) after
# one warm-up, app first, so that the ratio is app/empty. Prints
# benchpair's lines, which scripts/bench.sh reads:
#
#	time app|empty wall|cpu MEDIAN P25 P75 MIN MAX
#	ratio empty app wall|cpu MEDIAN MIN MAX    (empty/app: see bench.sh)
#
# "wall" is the first frame each process printed; "cpu" is the whole
# process's CPU time (it quits once its first screen is ready).
# BENCH_DISPLAY=:N uses that X display instead of starting Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ROUNDS=${ROUNDS:-7}
if [ -z "${ATTACHE_BENCH_UNDER_XVFB:-}" ]; then
	ensure_go
	ensure_packages $FYNE_PACKAGES xvfb xauth >&2
	mkdir -p bin
	say "building the app, the empty window, mcptestd, benchstate and benchpair"
	go build -o bin/attache ./cmd/attache
	go build -o bin/emptywindow ./internal/startup/emptywindow
	go build -o bin/mcptestd ./internal/mcptest/mcptestd
	go build -o bin/benchstate ./internal/benchstate
	go build -o bin/benchpair ./internal/benchpair
	export ATTACHE_BENCH_UNDER_XVFB=1
	if [ -n "${BENCH_DISPLAY:-}" ]; then
		DISPLAY=$BENCH_DISPLAY exec "$0" "$@"
	fi
	exec xvfb-run -a -s "-screen 0 1280x800x24" "$0" "$@"
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
say "laying out the large state"
bin/benchstate --dir "$dir" --mcptestd "$PWD/bin/mcptestd" >&2
env="LANG=en_US.UTF-8 XDG_CONFIG_HOME=$dir/xdg ATTACHE_CONFIG=$dir/config.json"
bin/benchpair -runs "$ROUNDS" -warm 1 -figure 'first frame: ([0-9.]+)' \
	-c "app=$env timeout 120 bin/attache --data-dir $dir/data --measure-startup" \
	-c "empty=$env timeout 120 bin/emptywindow"
