#!/usr/bin/env bash
# Packages Attaché for Linux with the fyne CLI: dist/Attaché.tar.xz, which
# holds the binary, the icon and a .desktop entry (and a Makefile to install
# them; see the README). The app's ID, name, version and build number come
# from FyneApp.toml. The fyne CLI is installed into bin/ (ignored by git) on
# first use. Installs what a fresh Debian or Ubuntu machine lacks first.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

FYNE_TOOLS_VERSION=${FYNE_TOOLS_VERSION:-v1.7.4}

ensure_go
ensure_packages $FYNE_PACKAGES
mkdir -p bin dist
if [ ! -x bin/fyne ]; then
	say "installing the fyne CLI (fyne.io/tools $FYNE_TOOLS_VERSION) into bin/"
	GOBIN="$PWD/bin" go install "fyne.io/tools/cmd/fyne@$FYNE_TOOLS_VERSION"
fi
say "building bin/attache"
go build -ldflags "-s -w" -o bin/attache ./cmd/attache
# --src . reads FyneApp.toml (and the icon it names) from the repository's
# root; --exe packages the binary just built instead of building again.
work=$(mktemp -d)
# fyne package writes an incremented build number back into FyneApp.toml;
# the build number is the repository's to set, so the file is put back.
cp FyneApp.toml "$work/FyneApp.toml.kept"
trap 'cp "$work/FyneApp.toml.kept" FyneApp.toml; rm -rf "$work"' EXIT
cp bin/attache "$work/attache"
(cd "$work" && "$OLDPWD/bin/fyne" package --target linux --exe "$work/attache" --src "$OLDPWD" --release)
archive=$(ls "$work"/*.tar.xz 2>/dev/null || ls ./*.tar.xz)
mv "$archive" dist/
out="dist/$(basename "$archive")"
say "wrote $out:"
tar -tJf "$out" | sed 's/^/  /' >&2
