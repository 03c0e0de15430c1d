#!/usr/bin/env bash
# The adapter between the MCP conformance suite and attachectl: the suite
# runs it as
#   conformance client --command scripts/conformance-client.sh --scenario auth/NAME
# with the mock server's URL as the last argument, the scenario's name in
# MCP_CONFORMANCE_SCENARIO and its context (a pre-registered client's id and
# secret, for instance) as JSON in MCP_CONFORMANCE_CONTEXT.
#
# It runs the real attachectl ($ATTACHECTL, else bin/attachectl; build it
# with `go build -o bin/attachectl ./cmd/attachectl`) in a private config and
# data directory, with grants in a file there (ATTACHE_TOKEN_STORE=file), and
# its hidden conformance-client command: connect, list the tools, call each.
# The suite's authorization server redirects /authorize straight back with a
# code, so --authorize-with http-get stands in for the person.
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

ATTACHE_TOKEN_STORE=file \
	ATTACHE_CLIENT_METADATA_URL=https://conformance-test.local/client-metadata.json \
	"$bin" --config "$tmp/config.json" --data-dir "$tmp/data" \
	--authorize-with http-get --timeout 20s --verbose \
	conformance-client conformance
