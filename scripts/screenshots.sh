#!/usr/bin/env bash
# Runs the real app in a real window under Xvfb and writes PNGs of its
# screens into screenshots/: the first screen on the embedded demo, the
# template workbench with suggestions open, the read inspector on a Markdown
# body (the npm server-everything), on an image blob (mcptestd --mode image)
# and on an error, the attachments panel over budget, and the resources and
# templates tabs of a server that offers no resources (the npm
# server-filesystem), and the sign-in on the card of the built-in demo over
# HTTP with OAuth (Sign in, the wait for the browser, the wait where no
# browser could be opened, signed in as the tenant, signed out; the script plays the browser, on threengram's login page), and the
# conversation's window against the scripted model provider (a streamed
# answer with its usage, a tool approval prompt, a tool result, the turn's
# inspector, the provider editor, a turn's inspector with the PNG it sent as
# an image), the demo model's answer in a first launch's demo conversation, the comparison lab's Compare window
# after a replay of the bundled replay against the demo (its table and
# charts), asking before a recorded archive, and after it was denied, the tester's console (a read in the JSON-RPC history,
# server-everything's stderr), a server whose script is missing, and the
# status colours with the settings' theme choice, the form a server asks
# the person to fill (elicitation), the conversation window's tools row
# with a server whose connect failed, and an attachment stale while
# server-everything keeps sending updates; each in
# the light and the dark theme (THEMES="light" for one, SCENARIOS="a b" for
# some; SHOTS_DISPLAY=:72 runs its virtual X server on that display instead
# of the first free one). Installs what a fresh Debian or Ubuntu machine
# lacks first.
#
# Each shot is a fresh first launch (its own config, data and preferences).
# The app scripts itself into the state (attache-scenes --scenario NAME:
# the app as released plus the scenes, through the ui package's exported
# methods), says so on stdout, and holds the state
# while this script captures its window through the X server.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh

SCENARIOS=${SCENARIOS:-"first-screen narrow-window template-suggestions search-memories read-markdown read-image read-error over-budget no-resources no-templates sign-in sign-in-waiting sign-in-no-browser signed-in signed-out chat-answer chat-approval chat-tool-result chat-inspect chat-providers chat-demo chat-image compare compare-failures compare-approval compare-denied tools-call console console-stderr console-resend meter-theme subscriptions missing-file light-contrast body-text-find body-json body-markdown body-markdown-source body-html body-blob-text body-latin1 elicit chat-tools-broken attachment-stale"}
THEMES=${THEMES:-"light dark"}
EVERYTHING=.peers/node_modules/@modelcontextprotocol/server-everything/dist/index.js
FILESYSTEM=.peers/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js

if [ -z "${ATTACHE_SHOTS_UNDER_XVFB:-}" ]; then
	ensure_go
	ensure_packages $FYNE_PACKAGES xvfb xauth imagemagick xdotool
	ensure_peers
	mkdir -p bin screenshots
	say "building the app's scenes and the image test server"
	go build -o bin/attache-scenes ./cmd/attache-scenes
	go build -o bin/mcptestd ./internal/mcptest/mcptestd
	export ATTACHE_SHOTS_UNDER_XVFB=1
	display=(-a) # the first free display, unless SHOTS_DISPLAY names one
	[ -z "${SHOTS_DISPLAY:-}" ] || display=(-n "${SHOTS_DISPLAY#:}")
	exec xvfb-run "${display[@]}" -s "-screen 0 1280x800x24" "$0" "$@"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# config DIR: the servers the scenarios read from, beside the built-in demo
# (server-filesystem serves DIR itself: it only needs a directory).
config() {
	cat >"$1/config.json" <<EOF
{"servers": [
  {"name": "everything", "title": "server-everything", "command": "node", "args": ["$PWD/$EVERYTHING", "stdio"]},
  {"name": "images", "title": "mcptest images", "command": "$PWD/bin/mcptestd", "args": ["--mode", "image", "--stdio"]},
  {"name": "bodies", "title": "mcptest bodies", "command": "$PWD/bin/mcptestd", "args": ["--mode", "bodies", "--stdio"]},
  {"name": "files", "title": "server-filesystem", "command": "node", "args": ["$PWD/$FILESYSTEM", "$1"]},
  {"name": "missing", "title": "a server whose script is missing", "command": "node", "args": ["$1/no-such-server/index.js"]}
]}
EOF
}

# shoot SCENARIO THEME OUT: one fresh launch, scripted, captured.
shoot() {
	local name=$1 theme=$2 out=$3 dir pid wid
	dir=$(mktemp -d -p "$work")
	mkdir -p "$dir/xdg"
	config "$dir"
	mkfifo "$dir/stdin"
	LANG=en_US.UTF-8 FYNE_THEME=$theme XDG_CONFIG_HOME="$dir/xdg" ATTACHE_CONFIG="$dir/config.json" \
		ATTACHE_DATA_DIR="$dir/data" ATTACHE_TOKEN_STORE=file bin/attache-scenes --scenario "$name" <"$dir/stdin" >"$dir/stdout" 2>"$dir/stderr" &
	pid=$!
	exec 3>"$dir/stdin" # the app holds its state until this closes
	for _ in $(seq 600); do
		grep -q "^scenario $name ready" "$dir/stdout" && break
		if ! kill -0 "$pid" 2>/dev/null; then
			say "$name ($theme) failed:"
			cat "$dir/stderr" >&2
			exec 3>&-
			return 1
		fi
		sleep 0.1
	done
	# the conversation scenes shoot the conversation's window
	local title='^Attach'
	case $name in
	chat-inspect | chat-image) title='^Turn ' ;;
	chat-providers) title='^Model providers' ;;
	chat-*) title='^Conversation' ;;
	compare*) title='^Compare' ;;
	console*) title='^Console' ;;
	subscriptions) title='^Subscriptions' ;;
	esac
	wid=$(xdotool search --sync --onlyvisible --name "$title" | head -1)
	import -window "$wid" "$out"
	exec 3>&-
	wait "$pid" || true
	say "wrote $out"
}

status=0
for theme in $THEMES; do
	for name in $SCENARIOS; do
		out=screenshots/$name.png
		[ "$theme" = light ] || out=screenshots/$name-$theme.png
		shoot "$name" "$theme" "$out" || status=1
	done
done
exit $status
