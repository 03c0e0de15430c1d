#!/usr/bin/env bash
# Measures the body viewer in the real window under Xvfb: the window
# thread's CPU time and the wall time to show a body ("show": from the
# read's result landing on the window's thread, prepared on the read's
# goroutine as the app does, to the painted frame that shows it;
# "read-and-show": from the person's read, a cache hit, which adds the
# frames the progress bar paints meanwhile), for text and JSON of
# 40 KiB and 1 MiB, 1 MiB of Markdown and of HTML, beside a 200-byte body
# (the floor), and the frames painted a second while a 1 MiB body scrolls,
# beside a loop that only repaints (attache-scenes --scenario measure-body, with
# mcptestd --mode bodies). RUNS launches (default 3) of 5 shows each;
# prints, per measure, the median of every run and the spread (min–max).
# SCENARIO=measure-scroll runs the scrolls alone. A scroll is measured two
# ways: "scroll", a step queued every 60th of a second from a ticker of
# the scene's own (which beats against Fyne's 60 Hz frame ticker, so a
# frame with no step in it is lost even when painting costs nothing: see
# the loop that only repaints), and "scroll-paced", a step queued once the
# last frame is painted, as the wheel's events are polled before each
# frame: the frames the window can paint a second, at most 60. After each
# launch of the app, internal/startup/scrollfloor scrolls Fyne's own
# widget.List of the 1 MiB text's lines, alone in a window of the same
# size, the paced way: the floor of scrolling in Fyne on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
RUNS=${RUNS:-3}
if [ -z "${ATTACHE_BENCH_UNDER_XVFB:-}" ]; then
	ensure_go
	ensure_packages $FYNE_PACKAGES xvfb xauth >&2
	mkdir -p bin
	say "building the app's scenes and mcptestd"
	go build -o bin/attache-scenes ./cmd/attache-scenes
	go build -o bin/mcptestd ./internal/mcptest/mcptestd
	go build -o bin/scrollfloor ./internal/startup/scrollfloor
	export ATTACHE_BENCH_UNDER_XVFB=1
	if [ -z "${DISPLAY:-}" ]; then
		exec xvfb-run -a -s "-screen 0 1280x800x24" "$0" "$@"
	fi
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/config.json" <<JSON
{"servers": [{"name": "bodies", "title": "mcptest bodies", "command": "$PWD/bin/mcptestd", "args": ["--mode", "bodies", "--stdio"]}]}
JSON
for i in $(seq "$RUNS"); do
	rm -rf "$dir/data" "$dir/xdg"
	LANG=en_US.UTF-8 XDG_CONFIG_HOME="$dir/xdg" ATTACHE_CONFIG="$dir/config.json" ATTACHE_DATA_DIR="$dir/data" \
		timeout 600 bin/attache-scenes --scenario "${SCENARIO:-measure-body}" </dev/null | grep '^measure ' >>"$dir/lines"
	timeout 120 bin/scrollfloor </dev/null | grep '^measure ' >>"$dir/lines"
	say "run $i done"
done
# show lines: measure show KIND wall-ms W cpu-ms C; scroll lines:
# measure scroll[-paced] KIND step S fps F cpu-ms-per-frame C
awk '
function report(key, vals, n,   i, j, t, med) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (vals[j] < vals[i]) { t = vals[i]; vals[i] = vals[j]; vals[j] = t }
	med = (n % 2) ? vals[(n + 1) / 2] : (vals[n / 2] + vals[n / 2 + 1]) / 2
	printf "%-44s median %8.2f   spread %.2f–%.2f   (n=%d)\n", key, med, vals[1], vals[n], n
}
$2 == "show" || $2 == "read-and-show" { k = $2 " " $3; wall[k, ++nw[k]] = $5; cpu[k, ++nc[k]] = $7; keys[k] = 1 }
$2 == "scroll" || $2 == "scroll-paced" { k = $2 " " $3 " step " $5; fps[k, ++nf[k]] = $7; cpf[k, ++np[k]] = $9; skeys[k] = 1 }
END {
	for (k in keys) {
		delete v; for (i = 1; i <= nc[k]; i++) v[i] = cpu[k, i]; report(k " window-thread cpu-ms", v, nc[k])
		delete v; for (i = 1; i <= nw[k]; i++) v[i] = wall[k, i]; report(k " wall-ms", v, nw[k])
	}
	for (k in skeys) {
		delete v; for (i = 1; i <= nf[k]; i++) v[i] = fps[k, i]; report(k " fps", v, nf[k])
		delete v; for (i = 1; i <= np[k]; i++) v[i] = cpf[k, i]; report(k " cpu-ms/frame", v, np[k])
	}
}' "$dir/lines" | sort
