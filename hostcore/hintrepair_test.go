package hostcore_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/internal/mcptest"
)

// TestOddTTLNeverFailsTheRead: a ttlMs that is an integer written another
// way (1.5e4, -0.0) is read as that integer, as MCP Inspector reads it and
// as JSON Schema's "integer" allows; one that is no integer is treated as
// absent; neither fails the read, and the hints say what was made of them.
func TestOddTTLNeverFailsTheRead(t *testing.T) {
	cases := []struct {
		lit  string
		ttl  time.Duration
		sent bool
		note string
	}{
		{"15000", 15 * time.Second, true, ""},
		{"1.5e4", 15 * time.Second, true, "read as the integer 15000"},
		{"-0.0", 0, true, "read as the integer 0"},
		{"1.5", 0, false, "is not an integer; treated as absent"},
		{`"soon"`, 0, false, "is not a number; treated as absent"},
		{"1e400", 0, false, "is not an integer; treated as absent"},
	}
	for _, transport := range []string{"stdio", "http"} {
		sc := mcptestStdio(t, mcptest.ModeOddTTL)
		if transport == "http" {
			sc = mcptestHTTP(t, mcptest.ModeOddTTL)
		}
		c := conn(t, newHost(t, nil), sc, "")
		for _, tt := range cases {
			res, err := c.ReadServer(context.Background(), mcptest.OddTTLURI(tt.lit))
			if err != nil {
				t.Errorf("%s, ttlMs %s: %v; want the read", transport, tt.lit, err)
				continue
			}
			h := res.Hints
			if h.TTL != tt.ttl || h.TTLSent != tt.sent || !strings.Contains(h.Note, tt.note) || (tt.note == "") != (h.Note == "") || h.Scope != "public" {
				t.Errorf("%s, ttlMs %s: hints %+v; want ttl %s, sent %v, a note saying %q", transport, tt.lit, h, tt.ttl, tt.sent, tt.note)
			}
		}
	}
}

// TestNullResultAndReasonedNotFound: a null result is named as such (not
// an empty contents array); a -32002 keeps the server's reason, as a
// -32602 does.
func TestNullResultAndReasonedNotFound(t *testing.T) {
	for _, tt := range []struct {
		mode string
		kind error
		says string
	}{
		{mcptest.ModeNullResult, fault.ErrProtocol, "answered null instead of a result"},
		{mcptest.ModeNotFoundReason, fault.ErrNotFound, "no such resource (the server says: " + mcptest.NotFoundReason + ")"},
		{mcptest.ModeNotFound32002, fault.ErrNotFound, "no such resource"},
	} {
		c := conn(t, newHost(t, nil), mcptestMem(t, tt.mode, nil), "")
		_, err := c.ReadServer(context.Background(), mcptest.RawResourceURI)
		var he *fault.Error
		if !errors.Is(err, tt.kind) || !errors.As(err, &he) || !strings.HasSuffix(he.Message(), tt.says) {
			t.Errorf("%s: %v; want %v ending %q", tt.mode, err, tt.kind, tt.says)
		}
	}
}
