package mcptest

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"
)

// readParams are the parameters of resources/read that the faults use.
type readParams struct {
	URI  string         `json:"uri"`
	Meta map[string]any `json:"_meta"`
}

// rawContents is one entry of a read result as the raw server writes it:
// text and blob are independent, so an entry may carry both or neither.
type rawContents struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     string `json:"blob,omitempty"`
}

// contents is the result of a read with the given entries.
func contents(entries ...rawContents) message {
	return result(map[string]any{"contents": entries})
}

// readFaults are the scripted replies to resources/read that need nothing
// but the request. The slow, die-on-read and oversize modes are in read.
var readFaults = map[string]func(readParams) message{
	ModeEmptyContents: func(readParams) message { return result(map[string]any{"contents": []any{}}) },
	ModeBothTextAndBlob: func(p readParams) message {
		return contents(rawContents{URI: p.URI, MIMEType: "text/plain", Text: "text", Blob: "YmxvYg=="})
	},
	ModeNeitherTextNorBlob: func(p readParams) message {
		return contents(rawContents{URI: p.URI, MIMEType: "text/plain"})
	},
	ModeBadBase64: func(p readParams) message {
		return contents(rawContents{URI: p.URI, MIMEType: "application/octet-stream", Blob: "!!!not base64!!!"})
	},
	ModeResultNotObject: func(readParams) message { return result("just a string") },
	ModeNotJSON:         func(readParams) message { return notJSON("this is not json") },
	ModeWrongURI: func(readParams) message {
		return contents(rawContents{URI: RawWrongURI, MIMEType: "text/plain", Text: RawText})
	},
	ModeNotFound32002: func(p readParams) message {
		return rpcError(codeResourceNotFound, "Resource not found", map[string]string{"uri": p.URI})
	},
	ModeNotFound32602: func(p readParams) message {
		return rpcError(codeInvalidParams, "Resource not found", map[string]string{"uri": p.URI})
	},
	ModeInvalidParams: func(readParams) message {
		return rpcError(codeInvalidParams, "Invalid params: uri must not contain a fragment", nil)
	},
	ModeServerFault: func(readParams) message { return rpcError(codeInternalError, "Internal error", nil) },
	ModeNullResult:  func(readParams) message { return result(json.RawMessage("null")) },
	ModeNotFoundReason: func(p readParams) message {
		return rpcError(codeResourceNotFound, NotFoundReason, map[string]string{"uri": p.URI})
	},
	ModeOddTTL: func(p readParams) message {
		lit := "0"
		if u, err := url.Parse(p.URI); err == nil && json.Valid([]byte(u.Query().Get("ttl"))) {
			lit = u.Query().Get("ttl")
		}
		return result(map[string]any{"contents": []rawContents{{URI: p.URI, MIMEType: "text/plain", Text: RawText}},
			"ttlMs": json.RawMessage(lit), "cacheScope": "public"})
	},
	ModeVersionMismatch: func(p readParams) message {
		requested, _ := p.Meta["io.modelcontextprotocol/protocolVersion"].(string)
		if requested == "" {
			requested = Version2025Nov // what initialize negotiated
		}
		return rpcError(codeUnsupportedVersion, "Unsupported protocol version",
			map[string]any{"supported": []string{Version2026}, "requested": requested})
	},
}

// read answers resources/read with the mode's scripted reply. A mode with
// no fault (unauthorized and forbidden, which never get this far) reads
// properly.
func (s *rawServer) read(ctx context.Context, params json.RawMessage) (message, error) {
	var p readParams
	if err := json.Unmarshal(params, &p); err != nil || p.URI == "" {
		return rpcError(codeInvalidParams, "Invalid params: uri is required", nil), nil
	}
	switch s.mode {
	case ModeSlow:
		t := time.NewTimer(s.opts.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return nil, fmt.Errorf("slow read of %s: %w", p.URI, ctx.Err())
		}
	case ModeDieOnRead:
		return nil, s.die()
	case ModeOversize:
		return oversize(p.URI, s.opts.BodyBytes), nil
	case ModeBigBlob:
		return bigBlob(p.URI, s.opts.BodyBytes), nil
	}
	if fault, ok := readFaults[s.mode]; ok {
		return fault(p), nil
	}
	return contents(rawContents{URI: p.URI, MIMEType: "text/plain", Text: RawText}), nil
}

// OversizeFill is the repeated text of the oversize body: 64 bytes of
// plain ASCII that need no JSON escaping, so the text is exactly BodyBytes long.
const OversizeFill = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-."

// oversize streams a read result whose one text entry is n bytes long,
// without building it in memory.
func oversize(uri string, n int64) message {
	return func(w io.Writer, id json.RawMessage) error {
		quoted, err := json.Marshal(uri)
		if err != nil {
			return err
		}
		if len(id) == 0 {
			id = json.RawMessage("null")
		}
		head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"contents":[{"uri":%s,"mimeType":"text/plain","text":"`, id, quoted)
		if _, err := io.WriteString(w, head); err != nil {
			return err
		}
		if err := writeFill(w, n); err != nil {
			return err
		}
		_, err = io.WriteString(w, `"}]}}`)
		return err
	}
}

// bigBlob streams a read result whose one blob entry decodes to n bytes of
// OversizeFill, cacheable for a minute (private), without building it in
// memory: the memory a read costs is the host's alone.
func bigBlob(uri string, n int64) message {
	return func(w io.Writer, id json.RawMessage) error {
		quoted, err := json.Marshal(uri)
		if err != nil {
			return err
		}
		if len(id) == 0 {
			id = json.RawMessage("null")
		}
		head := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"contents":[{"uri":%s,"mimeType":"application/octet-stream","blob":"`, id, quoted)
		if _, err := io.WriteString(w, head); err != nil {
			return err
		}
		enc := base64.NewEncoder(base64.StdEncoding, w)
		if err := writeFill(enc, n); err != nil {
			return err
		}
		if err := enc.Close(); err != nil {
			return err
		}
		_, err = io.WriteString(w, `"}],"ttlMs":60000,"cacheScope":"private"}}`)
		return err
	}
}

// writeFill writes n bytes of OversizeFill, 64 KiB at a time.
func writeFill(w io.Writer, n int64) error {
	chunk := strings.Repeat(OversizeFill, 1024)
	for n > 0 {
		part := chunk[:min(int64(len(chunk)), n)]
		if _, err := io.WriteString(w, part); err != nil {
			return err
		}
		n -= int64(len(part))
	}
	return nil
}
