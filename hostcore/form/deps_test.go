package form_test

import (
	"testing"

	"github.com/attache/attache/internal/layering"
)

// An elicitation's form is pure: it reads a schema and checks values, and
// reaches no session, HTTP, process, store or screen. Its own code
// imports the standard library only (net/mail, which parses an email
// address, imports net for its address types, so net itself is allowed;
// nothing here dials).
func TestDependencies(t *testing.T) {
	layering.Check(t, "github.com/attache/attache/hostcore/form",
		"github.com/attache/attache/",
		"github.com/modelcontextprotocol",
		"net/http",
		"os/exec",
		"database/sql",
		"fyne.io",
	)
	layering.CheckOwn(t, "github.com/attache/attache/hostcore/form", layering.OwnRule{StandardOnly: true})
}
