// A 2026-07-28 MCP server written with the official TypeScript SDK 2.x
// (@modelcontextprotocol/server 2.4.0, @modelcontextprotocol/node 2.1.2,
// installed into .peers/ by scripts/lib.sh ensure_peers), so that the host
// is tested against shapes no one here wrote. The Go side is
// internal/npmpeer.TS2 (HTTP) and TS2Stdio.
//
//   node server.mjs stdio          # over stdio
//   node server.mjs http           # Streamable HTTP on 127.0.0.1:PORT/mcp (PORT from the environment, 0 = any)
//
// What it serves:
//   - ts2://mrtr/state: the first read answers input_required with a
//     requestState and no inputRequests; a retry that echoes it byte for
//     byte reads "state echoed"; any other state is refused (-32602).
//   - ts2://mrtr/elicit: the first read asks for a name (form elicitation,
//     default "Ada") with a requestState; the retry reads "hello NAME", or
//     "no name (decline)" / "(cancel)".
//   - ts2://items/{n}: 25 resources listed 10 a page; cursors carry a
//     generation, and the tool expire_cursors starts a new one, after which
//     every earlier cursor is refused (-32602 "invalid cursor"). List pages
//     carry ttlMs 60000, private.
//   - the tool lookup(region, count, verbose, query): region, count and
//     verbose carry x-mcp-header annotations (Region, Count, Verbose); the
//     reply says which Mcp-Param-* headers arrived (over HTTP).
//   - the tool broken_header, whose x-mcp-header annotation is invalid (on a
//     number); a client must not call it.
//   - the tool confirm: asks (form elicitation) for confirmed, a boolean.
import { createServer } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const peers = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '.peers', 'node_modules', '@modelcontextprotocol');
const sdk = await import(pathToFileURL(join(peers, 'server', 'dist', 'index.mjs')).href);
const { Server, createMcpHandler, inputRequired, inputResponse, ProtocolError, ProtocolErrorCode } = sdk;

const PAGE = 10;
const TOTAL = 25;
let generation = 1; // shared by every request of this process

const STATE = 'opaque "state" {"n":1} ünïcode \u00e9 ✓';

function newServer(headers) {
	const server = new Server(
		{ name: 'ts2-test', version: '2.4.0' },
		{
			capabilities: { resources: {}, tools: {} },
			cacheHints: { 'resources/list': { ttlMs: 60000, cacheScope: 'private' }, 'tools/list': { ttlMs: 60000, cacheScope: 'private' } }
		}
	);
	server.setRequestHandler('resources/list', async (req) => {
		let offset = 0;
		const cursor = req.params?.cursor;
		if (cursor !== undefined) {
			const [gen, off] = cursor.split(':').map(Number);
			if (gen !== generation || !Number.isInteger(off)) {
				throw new ProtocolError(ProtocolErrorCode.InvalidParams, `invalid cursor ${cursor}`);
			}
			offset = off;
		}
		const resources = [];
		for (let i = offset; i < Math.min(offset + PAGE, TOTAL); i++) {
			resources.push({ uri: `ts2://items/${i}`, name: `item ${i} (gen ${generation})`, mimeType: 'text/plain' });
		}
		const next = offset + PAGE < TOTAL ? `${generation}:${offset + PAGE}` : undefined;
		return next ? { resources, nextCursor: next } : { resources };
	});
	server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: [] }));
	server.setRequestHandler('resources/read', async (req, ctx) => {
		const uri = req.params.uri;
		const state = ctx.mcpReq.requestState();
		const responses = ctx.mcpReq.inputResponses;
		if (uri === 'ts2://mrtr/state') {
			if (state === undefined) return inputRequired({ requestState: STATE });
			if (state !== STATE) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'requestState was not echoed byte for byte');
			return { contents: [{ uri, mimeType: 'text/plain', text: 'state echoed' }] };
		}
		if (uri === 'ts2://mrtr/elicit') {
			const answer = inputResponse(responses, 'name');
			if (answer.kind === 'missing') {
				return inputRequired({
					requestState: 'elicit-1',
					inputRequests: {
						name: inputRequired.elicit({
							message: 'Who is reading?',
							requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name', default: 'Ada' } }, required: ['name'] }
						})
					}
				});
			}
			if (state !== 'elicit-1') throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'requestState was not echoed');
			const text = answer.action === 'accept' ? `hello ${answer.content?.name}` : `no name (${answer.action})`;
			return { contents: [{ uri, mimeType: 'text/plain', text }] };
		}
		const m = /^ts2:\/\/items\/(\d+)$/.exec(uri);
		if (m && Number(m[1]) < TOTAL) return { contents: [{ uri, mimeType: 'text/plain', text: `item ${m[1]}\n` }] };
		throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: ${uri}`, { uri });
	});
	server.setRequestHandler('tools/list', async () => ({
		tools: [
			{
				name: 'lookup',
				description: 'Echoes the Mcp-Param-* headers it received',
				inputSchema: {
					type: 'object',
					properties: {
						region: { type: 'string', 'x-mcp-header': 'Region' },
						count: { type: 'integer', 'x-mcp-header': 'Count' },
						verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
						query: { type: 'string' }
					},
					required: ['region']
				}
			},
			{
				name: 'broken_header',
				description: 'x-mcp-header on a number: invalid, never to be called',
				inputSchema: { type: 'object', properties: { ratio: { type: 'number', 'x-mcp-header': 'Ratio' } } }
			},
			{ name: 'expire_cursors', description: 'Starts a new cursor generation', inputSchema: { type: 'object', properties: {} } },
			{ name: 'confirm', description: 'Asks the person to confirm', inputSchema: { type: 'object', properties: {} } }
		]
	}));
	server.setRequestHandler('tools/call', async (req, ctx) => {
		const { name } = req.params;
		if (name === 'lookup') {
			const got = Object.keys(headers ?? {})
				.filter((k) => k.startsWith('mcp-param-'))
				.sort()
				.map((k) => `${k}: ${headers[k]}`);
			return { content: [{ type: 'text', text: got.join('\n') || 'no Mcp-Param headers' }] };
		}
		if (name === 'broken_header') return { content: [{ type: 'text', text: 'broken_header was called' }] };
		if (name === 'expire_cursors') {
			generation++;
			return { content: [{ type: 'text', text: `generation ${generation}` }] };
		}
		if (name === 'confirm') {
			const answer = inputResponse(ctx.mcpReq.inputResponses, 'ok');
			if (answer.kind === 'missing') {
				return inputRequired({
					inputRequests: {
						ok: inputRequired.elicit({
							message: 'Go ahead?',
							requestedSchema: { type: 'object', properties: { confirmed: { type: 'boolean', default: true } } }
						})
					}
				});
			}
			return { content: [{ type: 'text', text: `${answer.action} ${JSON.stringify(answer.content ?? {})}` }] };
		}
		throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown tool ${name}`);
	});
	return server;
}

// The request's headers, for the lookup tool (HTTP only).
function headersOf(ctx) {
	const out = {};
	ctx?.requestInfo?.headers?.forEach((v, k) => (out[k] = v));
	return out;
}

const mode = process.argv[2] ?? 'stdio';
if (mode === 'stdio') {
	const { serveStdio } = await import(pathToFileURL(join(peers, 'server', 'dist', 'stdio.mjs')).href);
	serveStdio(() => newServer(undefined));
} else {
	const { toNodeHandler } = await import(pathToFileURL(join(peers, 'node', 'dist', 'index.mjs')).href);
	const handler = toNodeHandler(createMcpHandler((ctx) => newServer(headersOf(ctx))));
	const http = createServer((req, res) => handler(req, res));
	http.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
		console.error(`ts2-test listening on http://127.0.0.1:${http.address().port}/mcp`);
	});
}
