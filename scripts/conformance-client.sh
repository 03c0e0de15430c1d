#!/usr/bin/env bash
# The adapter between the MCP conformance suite and attachectl: the suite
# runs it as
#   conformance client --command scripts/conformance-client.sh --scenario auth/NAME
# with the mock server's URL as the last argument, the scenario's name in
# MCP_CONFORMANCE_SCENARIO and its context (a pre-registered client's id and
# secret, for instance) as JSON in MCP_CONFORMANCE_CONTEXT.
#
# It drives the real attachectl ($ATTACHECTL, else bin/attachectl; build it
# with `go build -o bin/attachectl ./cmd/attachectl`) as a person would, one
# command at a time, in a private config and data directory (grants in a
# file there, ATTACHE_TOKEN_STORE=file, so a sign-in carries over from one
# command to the next, and the cache too):
#   1. info: connect (server/discover or initialize; a sign-in when asked);
#   2. tools --json: list the tools (tools with invalid x-mcp-header
#      annotations are left out, as go-sdk leaves them out);
#   3. call: each call the scenario asks for, with the arguments it gives
#      (the context's toolCalls), else each listed tool with arguments made
#      from its schema; the hidden conformance-calls command works out the
#      list, and no call is made by anything but `attachectl call`;
#   4. resources, then read: the first three resources listed.
# A server that asks for input is answered with the form's defaults
# (--elicit accept), as a person pressing Enter would. The suite's
# authorization server redirects /authorize straight back with a code, so
# --authorize-with http-get stands in for the person.
#
# Two settings come from the suite, not from a user:
#   - a context with client_id becomes the server's pre-registered client
#     ("oauth" in the config), which the host tries first;
#   - ATTACHE_CLIENT_METADATA_URL is the Client ID Metadata Document URL the
#     suite expects (https://conformance-test.local/client-metadata.json; it
#     is never fetched). A real user points it at where they host
#     assets/oauth-client-metadata.json (see the README).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ]; then
	echo "usage: $0 [ARGS...] SERVER_URL (run by the MCP conformance suite)" >&2
	exit 2
fi
url=${!#}
bin=${ATTACHECTL:-$root/bin/attachectl}
if [ ! -x "$bin" ]; then
	echo "$0: no attachectl at $bin: go build -o bin/attachectl ./cmd/attachectl, or set ATTACHECTL" >&2
	exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The config: one server, "conformance", at the suite's URL, with the
# pre-registered client when the scenario gives one. node is on PATH: the
# suite runs on it.
node -e '
	const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");
	const server = { name: "conformance", url: process.argv[1] };
	if (ctx.client_id) {
		server.oauth = { clientId: ctx.client_id };
		if (ctx.client_secret) server.oauth.clientSecret = ctx.client_secret;
	}
	console.log(JSON.stringify({ servers: [server] }, null, 2));
' "$url" >"$tmp/config.json"

ac() {
	ATTACHE_TOKEN_STORE=file \
		ATTACHE_CLIENT_METADATA_URL=https://conformance-test.local/client-metadata.json \
		"$bin" --config "$tmp/config.json" --data-dir "$tmp/data" \
		--authorize-with http-get --timeout 20s --elicit accept --verbose "$@"
}

ac info conformance
ac --json tools conformance >"$tmp/tools.json"
cat "$tmp/tools.json"
# A call that fails is reported and the next one made: the suite's checks,
# not this script's exit code, say what passed.
ac conformance-calls <"$tmp/tools.json" >"$tmp/calls"
while IFS=$'\t' read -r name args; do
	ac call conformance "$name" --args "$args" --yes </dev/null || echo "conformance-client: call $name failed" >&2
done <"$tmp/calls"
ac resources conformance >"$tmp/resources" || exit 0
cut -f1 "$tmp/resources" | head -n 3 | while read -r uri; do
	ac read conformance "$uri" </dev/null >/dev/null || echo "conformance-client: read $uri failed" >&2
done
