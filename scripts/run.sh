#!/usr/bin/env bash
# Builds Attaché and opens it on its embedded default: the demo threengram
# memory server with its sample corpus. Installs what a fresh Debian or Ubuntu
# machine lacks first. Extra arguments go to the app.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_go
ensure_packages $FYNE_PACKAGES
mkdir -p bin
say "building (the first build compiles Fyne and SQLite: a few minutes)"
go build -o bin/attache ./cmd/attache
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
	say "no display found: running under a virtual X server (xvfb-run)"
	ensure_packages xvfb xauth
	exec xvfb-run -a -s "-screen 0 1280x800x24" bin/attache "$@"
fi
exec bin/attache "$@"
