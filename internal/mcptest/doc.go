// Package mcptest holds the MCP servers that the host's interop and error
// tests connect to: real servers, over real stdio (a subprocess, see
// command mcptestd) and over loopback HTTP (Handler, with httptest or a
// listener). Each server is a mode, named by ModeNames:
//
//	| mode                  | over  | what goes on the wire                                               |
//	|-----------------------|-------|---------------------------------------------------------------------|
//	| v2026                 | both  | go-sdk pinned to 2026-07-28 (server/discover); the era resources    |
//	| v2025-11              | both  | go-sdk pinned to 2025-11-25 (initialize); the era resources         |
//	| v2025-06              | both  | go-sdk pinned to 2025-06-18 (initialize); the era resources         |
//	| paged                 | both  | go-sdk; Resources resources, Templates templates, PageSize a page   |
//	| image                 | both  | go-sdk; a 96×64 PNG and JPEG as blobs, each with a data: PNG icon   |
//	| hostile               | both  | go-sdk; terminal escapes in every string (see Hostile*)             |
//	| cursor-cycle          | both  | go-sdk; list cursors first→a→b→a…, one item a page                  |
//	| bodies                | both  | go-sdk; generated bodies of any kind and size (see Body)            |
//	| empty-contents        | both  | raw; read result {"contents":[]}                                    |
//	| both-text-and-blob    | both  | raw; one entry with "text":"text" and "blob":"YmxvYg=="             |
//	| neither-text-nor-blob | both  | raw; one entry with uri and mimeType only                           |
//	| bad-base64            | both  | raw; one entry with "blob":"!!!not base64!!!"                       |
//	| result-not-object     | both  | raw; "result":"just a string"                                       |
//	| not-json              | both  | raw; the reply is the bytes `this is not json`                      |
//	| oversize              | both  | raw; one text entry of BodyBytes bytes (40 MiB), streamed           |
//	| wrong-uri             | both  | raw; one text entry whose uri is RawWrongURI                        |
//	| not-found-32002       | both  | raw; error -32002 "Resource not found", data {"uri":URI}            |
//	| not-found-32602       | both  | raw; error -32602 "Resource not found", data {"uri":URI}, as go-sdk |
//	| invalid-params        | both  | raw; error -32602 "Invalid params: ...", no data (still a not-found)|
//	| server-fault          | both  | raw; error -32603 "Internal error"                                  |
//	| version-mismatch      | both  | raw; error -32022, data {"supported":["2026-07-28"],"requested":V}  |
//	| slow                  | both  | raw; a proper read after Delay (10s); none if cancelled             |
//	| die-on-read           | both  | raw; the process exits 3 on resources/read (see Options.Exit)       |
//	| unauthorized          | HTTP  | raw; 401 to every request, WWW-Authenticate: Bearer realm="mcptest" |
//	| forbidden             | HTTP  | raw; 403 to every request, Bearer error="insufficient_scope"        |
//	| not-json-initialize   | both  | raw; initialize gets `this is not json`, after 25 stderr lines      |
//	| spawner               | stdio | go-sdk; starts a child for good, "child-pid=N" on stderr            |
//	| null-result           | both  | raw; the read's result is null                                      |
//	| not-found-reason      | both  | raw; error -32002 NotFoundReason, data {"uri":URI}                  |
//	| odd-ttl               | both  | raw; one text entry, ttlMs as OddTTLURI's query writes it, public   |
//	| big-blob              | both  | raw; one blob of BodyBytes bytes, streamed, ttlMs 60000 private     |
//
// Over HTTP the modes that speak 2026-07-28 (v2026, paged, image) are
// stateless, as go-sdk v1.8.0 needs for that version (GET and DELETE get
// 405); the legacy era modes keep sessions (Mcp-Session-Id, a GET stream).
// In the version-mismatch reply, V is the request's _meta protocol version,
// or 2025-11-25 (what initialize negotiated) when it has none.
//
// # The era modes
//
// Each era mode is a go-sdk server whose ServerOptions.SupportedProtocolVersions
// holds only its version. A go-sdk v1.8.0 client first probes with
// server/discover: v2026 answers it, the others answer -32022 and the client
// falls back to initialize, which they answer with their version. Each serves:
//
//   - ReadmeURI, text/markdown, audience user+assistant, priority 1,
//     lastModified ReadmeLastModified; read with ttlMs ReadmeTTLMs, public.
//   - LogoURI, image/png blob (LogoPNG), audience user, priority 0.25,
//     lastModified LogoLastModified; read with ttlMs LogoTTLMs, private.
//   - NotesURI, text/plain, no annotations; read with no cache hint at all
//     (v2026 removes ttlMs and cacheScope from the wire, which go-sdk alone
//     cannot do).
//   - ItemsTemplate, completing category from Items and name from the names
//     of context.arguments["category"] (every name when none is chosen). An
//     item that Items lacks, like any unknown URI, is mcp.ResourceNotFoundError
//     (-32602, data {uri}).
//   - Subscriptions (capability resources.subscribe; legacy
//     resources/subscribe, or 2026-07-28 subscriptions/listen) and the tool
//     touch {uri}, which sends notifications/resources/updated for uri.
//   - The tools deliver (embedded resources, one for the user only, and a
//     resource link) and measure (structuredContent against an
//     outputSchema, conforming or not): see DeliverTool, MeasureTool.
//
// The cache hints are set only by v2026 (and by paged with ListTTL). go-sdk v1.8.0 nevertheless writes
// "ttlMs":0,"cacheScope":"public" on every list and read result of every
// era, so the legacy modes carry those defaults too, as any go-sdk server
// would.
//
// # The paged mode
//
// A go-sdk server (all versions) whose resources/list, resources/templates/list
// and resources/read are answered by generation, a page at a time: no more
// than one page of resources exists at once. Resource i is PagedURI(i) with
// body PagedText(i); template i is PagedTemplate(i). Cursors are opaque; one
// that this list did not hand out is -32602. With Options.ListTTL (mcptestd
// --list-ttl) its list pages carry that ttlMs, scope public, so that a host
// caches the catalog (issue 15's warm catalog); its reads never do.
//
// # The hostile mode
//
// A go-sdk server (all versions) whose every string a host may print to a
// terminal carries escapes (HostileOSC, HostileCSI, HostileC1) and forged
// lines (HostileNewline): serverInfo name, title and version, instructions,
// HostileURI's name, title, description (HostileLong, HostileLongLen bytes)
// and mimeType, HostileTemplate's name and title (HostileLong), completion
// values, and the message HostileError of the -32603 that every read but
// HostileURI's gets. HostileURI reads as HostileBody.
//
// # The cursor-cycle mode
//
// A go-sdk server (all versions) whose resources/list and
// resources/templates/list hand out CycleCursorA on the first page,
// CycleCursorB on page A and CycleCursorA again on page B, one item a page
// (CycleURI(i), CycleTemplate(i)): a host that only notices a cursor repeated
// twice in a row lists for ever.
//
// # The bodies mode
//
// A go-sdk server (all versions) that reads BodiesURI(kind, size) as
// Body(kind, size) generates it, through BodiesTemplate, each read
// cacheable for BodiesTTLMs, public; it lists a few (text and JSON of 40k
// and 1m, Markdown of 8k and 1m, HTML, a text/plain blob, an ISO-8859-1
// blob, a binary blob). A kind or size it cannot make is -32602.
//
// # The spawner mode
//
// A go-sdk server over stdio that starts Options.Child (sleep 300) with no
// stdio of its own, writes "child-pid=N" to stderr and serves ChildPIDURI
// (N as text). It never stops the child: closing the session ends the server
// and leaves the child running, so only a host that kills the process group
// leaves no orphan.
//
// # The raw modes
//
// The raw modes (every mode from empty-contents to not-json-initialize) are
// hand-written JSON-RPC, newline-delimited over stdio and, over HTTP, one
// application/json response per POST. They answer initialize with 2025-11-25
// and capabilities {resources:{}}, server/discover and unknown methods with
// -32601, ping with {}, resources/list with RawResourceURI and
// resources/templates/list with RawTemplate; notifications get nothing (HTTP
// 202), GET gets 405 and DELETE 200. Every resources/read, whatever its uri,
// gets the mode's scripted reply; ids are echoed byte for byte.
// not-json-initialize first writes InitStderrLines lines ("stderr line N")
// to Options.Stderr, then answers initialize with `this is not json`.
package mcptest
