package mcptest

import "net/url"

// The mode names. Each is described in the package doc's table.
const (
	ModeV2026    = "v2026"        // go-sdk server pinned to 2026-07-28
	ModeV2025Nov = "v2025-11"     // go-sdk server pinned to 2025-11-25
	ModeV2025Jun = "v2025-06"     // go-sdk server pinned to 2025-06-18
	ModePaged    = "paged"        // generated resources and templates, many pages
	ModeImage    = "image"        // one PNG and one JPEG blob
	ModeHostile  = "hostile"      // terminal escapes in every string a host may print
	ModeCycle    = "cursor-cycle" // list cursors that go a→b→a
	ModeSpawner  = "spawner"      // stdio server with a long-lived child process
	ModeBodies   = "bodies"       // generated bodies of any kind and size

	ModeEmptyContents      = "empty-contents"        // read: {"contents":[]}
	ModeBothTextAndBlob    = "both-text-and-blob"    // read: an entry with text and blob
	ModeNeitherTextNorBlob = "neither-text-nor-blob" // read: an entry with neither
	ModeBadBase64          = "bad-base64"            // read: a blob that is not base64
	ModeResultNotObject    = "result-not-object"     // read: "result":"just a string"
	ModeNotJSON            = "not-json"              // read: a reply that is not JSON
	ModeOversize           = "oversize"              // read: a text of Options.BodyBytes
	ModeWrongURI           = "wrong-uri"             // read: contents for another uri
	ModeNotFound32002      = "not-found-32002"       // read: error -32002
	ModeNotFound32602      = "not-found-32602"       // read: error -32602 "Resource not found"
	ModeInvalidParams      = "invalid-params"        // read: error -32602 "Invalid params"
	ModeServerFault        = "server-fault"          // read: error -32603
	ModeVersionMismatch    = "version-mismatch"      // read: error -32022
	ModeSlow               = "slow"                  // read: answered after Options.Delay
	ModeDieOnRead          = "die-on-read"           // read: the server dies
	ModeUnauthorized       = "unauthorized"          // HTTP 401 to everything
	ModeForbidden          = "forbidden"             // HTTP 403 to everything
	ModeNotJSONInit        = "not-json-initialize"   // initialize: a reply that is not JSON
	ModeNullResult         = "null-result"           // read: "result":null
	ModeNotFoundReason     = "not-found-reason"      // read: error -32002 with a reason of its own
	ModeOddTTL             = "odd-ttl"               // read: ttlMs written as the uri's query says
	ModeBigBlob            = "big-blob"              // read: a blob of Options.BodyBytes, cacheable
)

// NotFoundReason is the message of the not-found-reason mode's -32002.
const NotFoundReason = "memory m1 was erased on 2026-01-02"

// OddTTLURI is a uri the odd-ttl mode reads with its ttlMs written as lit,
// a JSON value as it goes on the wire ("1.5e4", "-0.0", "\"soon\"").
func OddTTLURI(lit string) string { return RawResourceURI + "?ttl=" + url.QueryEscape(lit) }

// faultNames lists the raw modes in the doc table's order.
var faultNames = []string{
	ModeEmptyContents, ModeBothTextAndBlob, ModeNeitherTextNorBlob, ModeBadBase64,
	ModeResultNotObject, ModeNotJSON, ModeOversize, ModeWrongURI,
	ModeNotFound32002, ModeNotFound32602, ModeInvalidParams, ModeServerFault,
	ModeVersionMismatch, ModeSlow, ModeDieOnRead, ModeUnauthorized, ModeForbidden,
	ModeNotJSONInit, ModeNullResult, ModeNotFoundReason, ModeOddTTL, ModeBigBlob,
}

// overFor says which transports a raw mode is served over: the HTTP status
// modes have no stdio form.
func overFor(name string) transports {
	if name == ModeUnauthorized || name == ModeForbidden {
		return overHTTP
	}
	return overBoth
}
