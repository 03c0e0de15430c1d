package hostcore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/internal/mcptest"
)

// faultCases are the replies a read can get that the host must turn into a
// typed error with a clear message.
var faultCases = []struct {
	mode  string
	kind  error
	says  string // in the message shown to a person
	flags []string
}{
	{mcptest.ModeEmptyContents, fault.ErrProtocol, "empty contents array", nil},
	{mcptest.ModeBothTextAndBlob, fault.ErrProtocol, "both text and blob", nil},
	{mcptest.ModeNeitherTextNorBlob, fault.ErrProtocol, "neither text nor blob", nil},
	{mcptest.ModeBadBase64, fault.ErrProtocol, "could not be understood", nil},
	{mcptest.ModeResultNotObject, fault.ErrProtocol, "could not be understood", nil},
	{mcptest.ModeNotJSON, fault.ErrProtocol, "which is not JSON-RPC", nil},
	{mcptest.ModeOversize, fault.ErrProtocol, "size limit", []string{"--body-bytes", "3000000"}},
	{mcptest.ModeWrongURI, fault.ErrProtocol, "another uri", nil},
	{mcptest.ModeNotFound32002, fault.ErrNotFound, "no such resource", nil},
	{mcptest.ModeNotFound32602, fault.ErrNotFound, "no such resource", nil},
	// On resources/read the one parameter is the uri: -32602 is how
	// 2026-07-28 says "no such resource", whatever the message says.
	{mcptest.ModeInvalidParams, fault.ErrNotFound, "uri must not contain a fragment", nil},
	{mcptest.ModeServerFault, fault.ErrServerFault, "-32603", nil},
	{mcptest.ModeVersionMismatch, fault.ErrVersionMismatch, "protocol version", nil},
	{mcptest.ModeDieOnRead, fault.ErrTransport, "connection", nil},
}

func TestMalformedReplies(t *testing.T) {
	for _, tt := range faultCases {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(tt.mode+"/"+transport, func(t *testing.T) {
				sc := mcptestStdio(t, tt.mode, tt.flags...)
				if transport == "http" {
					if tt.mode == mcptest.ModeDieOnRead {
						t.Skip("die-on-read over HTTP is the same transport failure; stdio covers the dead process")
					}
					sc = mcptestHTTP(t, tt.mode, tt.flags...)
				}
				// A limit of 1 MB makes the oversize case cheap.
				h := newHost(t, &hostcore.HostOptions{MaxBodyBytes: 1 << 20})
				_, err := conn(t, h, sc, "").ReadServer(context.Background(), mcptest.RawResourceURI)
				var he *fault.Error
				if !errors.Is(err, tt.kind) || !errors.As(err, &he) {
					t.Fatalf("read = %v; want %v", err, tt.kind)
				}
				if !strings.Contains(he.Message(), tt.says) || strings.Contains(he.Message(), "\n") {
					t.Errorf("message %q; want one line mentioning %q", he.Message(), tt.says)
				}
			})
		}
	}
}

func TestHTTPUnauthorizedAndForbidden(t *testing.T) {
	for mode, want := range map[string]error{mcptest.ModeUnauthorized: fault.ErrUnauthorized, mcptest.ModeForbidden: fault.ErrForbidden} {
		t.Run(mode, func(t *testing.T) {
			h := newHost(t, nil)
			_, err := conn(t, h, mcptestHTTP(t, mode), "").ReadServer(context.Background(), mcptest.RawResourceURI)
			var he *fault.Error
			if !errors.Is(err, want) || !errors.As(err, &he) || he.HTTPStatus == 0 {
				t.Errorf("read = %v; want %v with its HTTP status", err, want)
			}
		})
	}
}
