#!/usr/bin/env bash
# Builds Attaché and opens it on its embedded default: the demo threengram
# memory server with its sample corpus. Installs what a fresh Debian or Ubuntu
# machine lacks first. Extra arguments go to the app.
#
# Without a display (neither DISPLAY nor WAYLAND_DISPLAY is set) it says so,
# runs the app under a virtual X server (Xvfb), writes a screenshot of the
# first screen to the file it names (SHOT=PATH to choose it; default
# screenshots/run-first-screen.png), and keeps the app running until Ctrl+C.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

if [ -n "${ATTACHE_RUN_UNDER_XVFB:-}" ]; then
	# Under xvfb-run: start the app (its scenes' command, at the first
	# screen, which says when it is ready), wait for its first screen, capture it
	# through the X server, then hold until Ctrl+C (or the app ends).
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	mkfifo "$work/stdin"
	# In a session of its own, so that Ctrl+C reaches this script, which
	# stops the app, and not the app itself.
	setsid bin/attache-scenes --scenario first-screen "$@" <"$work/stdin" >"$work/stdout" &
	pid=$!
	exec 3>"$work/stdin" # the app runs until this closes
	stop() {
		exec 3>&- # the app closes its servers and stores, then exits
		wait "$pid" 2>/dev/null || true
		exit 0
	}
	trap stop INT TERM
	for _ in $(seq 1200); do
		grep -q "^scenario first-screen ready" "$work/stdout" && break
		if ! kill -0 "$pid" 2>/dev/null; then
			say "the app ended before showing its first screen"
			exit 1
		fi
		sleep 0.1
	done
	wid=$(xdotool search --sync --onlyvisible --name '^Attach' | head -1)
	import -window "$wid" "$SHOT"
	say "the first screen is in $SHOT"
	say "the app is running under Xvfb, where no one can see it; press Ctrl+C to stop it"
	wait "$pid" || true
	exit 0
fi

# run_under_xvfb runs a command on a virtual X server of its own. Ctrl+C
# stops the command first (it stops the app) and the X server after it,
# then says so: the X server runs in a session of its own, which the
# terminal's Ctrl+C does not reach.
run_under_xvfb() {
	local n=99
	while [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
	setsid Xvfb ":$n" -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
	local xvfb=$!
	for _ in $(seq 100); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done
	DISPLAY=":$n" "$@" &
	local cmd=$! rc=0
	# A command in the background ignores Ctrl+C's SIGINT: hand it a SIGTERM,
	# then wait for it to stop.
	trap 'kill -TERM "$cmd" 2>/dev/null' INT TERM
	while kill -0 "$cmd" 2>/dev/null; do wait "$cmd" && rc=0 || rc=$?; done
	trap - INT TERM
	kill "$xvfb" 2>/dev/null && wait "$xvfb" 2>/dev/null || true
	say "stopped the app, then the virtual X server"
	return "$rc"
}

ensure_go
ensure_packages $FYNE_PACKAGES
mkdir -p bin
say "building (the first build compiles Fyne and SQLite: a few minutes)"
go build -o bin/attache ./cmd/attache
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
	SHOT=${SHOT:-screenshots/run-first-screen.png}
	mkdir -p "$(dirname "$SHOT")"
	say "no display: neither DISPLAY nor WAYLAND_DISPLAY is set, so no window can be shown here"
	say "running the app under a virtual X server (Xvfb) instead; a screenshot of its first screen will be written to $SHOT"
	ensure_packages xvfb xauth imagemagick xdotool
	# The app as released cannot say when its first screen is ready; its
	# scenes' command (the same app, scripted) can.
	go build -o bin/attache-scenes ./cmd/attache-scenes
	export ATTACHE_RUN_UNDER_XVFB=1 SHOT
	run_under_xvfb "$0" "$@"
	exit $?
fi
exec bin/attache "$@"
