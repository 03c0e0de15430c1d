package resend_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// Package resend sits beside the sessions: it checks a request a tester
// resends and sends the plain ones on a go-sdk session, and imports no
// hostcore session code, no store and no screen. Of the module it imports
// fault and consent (a tools/call's arguments are checked as the gate
// reads them) only; hostcore's Conn.Resend does the sending that changes the
// host's state (a tools/call through the consent gate, a subscription).
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/hostcore/resend",
		"github.com/attache/attache/hostcore$",
		"github.com/attache/attache/hostcore/chat",
		"github.com/attache/attache/cache",
		"github.com/attache/attache/internal/state",
		"github.com/attache/attache/ui",
		"database/sql$",
		"fyne.io",
	)
}
