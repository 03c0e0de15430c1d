package hostcore_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/toolcall"
	"github.com/attache/attache/internal/state"
)

// grantScope is a conversation's consent scope that answers ans.
func grantScope(t *testing.T, h *hostcore.Host, conv int64, ans consent.Approval) (*consent.Scope, *asker) {
	t.Helper()
	k := &asker{a: ans}
	s, err := h.Consent().Scope(consent.ScopeOptions{Caller: consent.CallerChat, Policy: consent.ToolsAsk, Ask: k.ask, ConversationID: conv})
	if err != nil {
		t.Fatal(err)
	}
	return s, k
}

// decideSearch asks the gate about a search on server as acme.
func decideSearch(t *testing.T, h *hostcore.Host, s *consent.Scope, server string) *consent.Permit {
	t.Helper()
	c, err := h.Conn(server, "acme")
	if err != nil {
		t.Fatal(err)
	}
	return s.Decide(context.Background(), c, consent.ToolRequest{Tool: toolcall.Tool{Name: "search"}, Arguments: []byte(`{"query":"x"}`)})
}

// give grants Always for search on server in a new conversation, checks
// the next turn is not asked, and returns the conversation.
func give(t *testing.T, h *hostcore.Host, st *state.Store, server string) int64 {
	t.Helper()
	conv, err := st.CreateConversation(context.Background(), "grants")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := grantScope(t, h, conv.ID, consent.ApproveAlways)
	if d := decideSearch(t, h, s, server); d.String() != "ran: allowed always" {
		t.Fatalf("the first call: %s", d)
	}
	s, k := grantScope(t, h, conv.ID, consent.ApproveDeny)
	if d := decideSearch(t, h, s, server); d.String() != "ran: allowed always earlier" || len(k.asked) != 0 {
		t.Fatalf("the next turn: %s, asked %v", d, k.asked)
	}
	return conv.ID
}

// "Always" is given to what a server runs or where it points, and to the
// credentials it is sent, never to its name: editing any of them through
// the host forgets the server's grants, and the next call asks again; a
// new title keeps them; removing the server forgets them.
func TestGrantsFollowServerIdentity(t *testing.T) {
	stdio := threengramStdio(t)
	web, _ := threengramHTTP(t)
	edits := []struct {
		name  string
		base  config.ServerConfig
		edit  func(*config.ServerConfig)
		keeps bool
	}{
		{"another database (args)", stdio, func(s *config.ServerConfig) { s.Args = append(slices.Clone(s.Args), "-v") }, false},
		{"another command", stdio, func(s *config.ServerConfig) {
			link := filepath.Join(t.TempDir(), "tg")
			if err := os.Symlink(s.Command, link); err != nil {
				t.Fatal(err)
			}
			s.Command = link
		}, false},
		{"another working directory", stdio, func(s *config.ServerConfig) { s.Cwd = t.TempDir() }, false},
		{"an environment value", stdio, func(s *config.ServerConfig) { s.Env = map[string]string{"EXTRA": "1"} }, false},
		{"the account's tenant", stdio, func(s *config.ServerConfig) {
			s.Accounts = slices.Clone(s.Accounts)
			s.Accounts[0].Env = map[string]string{"THREENGRAM_TENANT": "acme", "MORE": "x"}
		}, false},
		{"another URL", web, func(s *config.ServerConfig) { s.URL += "?v=2" }, false},
		{"URL userinfo", web, func(s *config.ServerConfig) { s.URL = strings.Replace(s.URL, "http://", "http://u:p@", 1) }, false},
		{"a header", web, func(s *config.ServerConfig) { s.Headers = map[string]string{"X-Tenant": "acme"} }, false},
		{"the transport", web, func(s *config.ServerConfig) { s.Transport = config.TransportStreamable }, false},
		{"a new title only", stdio, func(s *config.ServerConfig) { s.Title = "Memories" }, true},
	}
	for _, tt := range edits {
		t.Run(tt.name, func(t *testing.T) {
			st := openState(t)
			h := configuredHost(t, &hostcore.HostOptions{Grants: st}, tt.base)
			conv := give(t, h, st, tt.base.Name)
			edited := tt.base
			tt.edit(&edited)
			if err := h.ReplaceServer(context.Background(), edited); err != nil {
				t.Fatal(err)
			}
			grants, err := h.Consent().Grants(context.Background(), conv)
			if err != nil || (len(grants) == 1) != tt.keeps {
				t.Errorf("grants after the edit: %+v, %v; kept: want %v", grants, err, tt.keeps)
			}
			s, k := grantScope(t, h, conv, consent.ApproveDeny)
			d := decideSearch(t, h, s, tt.base.Name)
			if asked := len(k.asked) == 1; asked == tt.keeps || d.Run != tt.keeps {
				t.Errorf("the call after the edit: %s, asked %v", d, k.asked)
			}
		})
	}
	t.Run("removed", func(t *testing.T) {
		st := openState(t)
		h := configuredHost(t, &hostcore.HostOptions{Grants: st}, stdio)
		conv := give(t, h, st, stdio.Name)
		if err := h.RemoveServer(context.Background(), stdio.Name); err != nil {
			t.Fatal(err)
		}
		if grants, err := st.ToolGrants(context.Background(), conv); err != nil || len(grants) != 0 {
			t.Errorf("grants of a removed server: %+v, %v", grants, err)
		}
	})
}

// The config edited by hand, outside the host: kgA now runs against
// another database. The next process's kgA__search is asked about again,
// and the stale grant is forgotten, not listed.
func TestGrantOfAServerEditedByHand(t *testing.T) {
	st := openState(t)
	dir := t.TempDir()
	kgA := threengramStdio(t)
	kgA.Name = "kgA"
	h := configuredHost(t, &hostcore.HostOptions{Grants: st}, kgA)
	conv := give(t, h, st, "kgA")
	h.Close()
	kgA.Args = []string{"--db", filepath.Join(dir, "elsewhere.db"), "--seed", "--stdio"}
	again := configuredHost(t, &hostcore.HostOptions{Grants: st}, kgA)
	if grants, err := again.Consent().Grants(context.Background(), conv); err != nil || len(grants) != 0 {
		t.Errorf("the stale grant is listed: %+v, %v", grants, err)
	}
	s, k := grantScope(t, again, conv, consent.ApproveDeny)
	if d := decideSearch(t, again, s, "kgA"); d.Run || len(k.asked) != 1 {
		t.Errorf("kgA, edited by hand: %s, asked %v; want asked, denied", d, k.asked)
	}
	if grants, err := st.ToolGrants(context.Background(), conv); err != nil || len(grants) != 0 {
		t.Errorf("the stale grant is still stored: %+v, %v", grants, err)
	}
}

// A grant keeps a digest of the credentials, never the credentials: the
// bearer token of an HTTP account and the URL's password are nowhere in
// the state database's files.
func TestGrantKeepsNoSecret(t *testing.T) {
	dir := t.TempDir()
	st, err := state.Open(filepath.Join(dir, "state.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	web, _ := threengramHTTP(t)
	web.URL = strings.Replace(web.URL, "http://", "http://user:pw-very-secret-123@", 1)
	h := configuredHost(t, &hostcore.HostOptions{Grants: st}, web)
	give(t, h, st, web.Name)
	acct, _ := web.Account("acme")
	token := strings.TrimPrefix(acct.Headers["Authorization"], "Bearer ")
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "state.db*"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte(token)) || bytes.Contains(b, []byte("pw-very-secret-123")) {
			t.Errorf("%s holds a credential", f)
		}
	}
}

// An attachment stored when every ad-hoc server was called "ad-hoc" is
// reached under the name it has now, derived from what it runs, the same
// as a new ad-hoc server's.
func TestLegacyAdHocAttachment(t *testing.T) {
	h := newHost(t, nil)
	cv := hostcore.NewConversations(h, openState(t))
	sc := config.ServerConfig{Command: "threengram", Args: []string{"--stdio", "--db", "a.db"}}
	got, err := cv.ServerFor(hostcore.ServerRef{Name: "ad-hoc", Command: sc.Command, Args: sc.Args})
	if err != nil || got.Name != hostcore.AdHoc(sc).Name || !strings.HasPrefix(got.Name, "ad-hoc-threengram-") {
		t.Errorf("ServerFor a legacy ad-hoc attachment: %q, %v; want %q", got.Name, err, hostcore.AdHoc(sc).Name)
	}
	other := hostcore.AdHoc(config.ServerConfig{Command: "threengram", Args: []string{"--stdio", "--db", "b.db"}})
	web := hostcore.AdHoc(config.ServerConfig{URL: "https://user:secret@mcp.example.com/mcp"})
	if other.Name == got.Name || web.Name != hostcore.AdHoc(config.ServerConfig{URL: "https://mcp.example.com/mcp"}).Name ||
		!strings.HasPrefix(web.Name, "ad-hoc-mcp.example.com-") || strings.Contains(web.Name, "secret") {
		t.Errorf("ad-hoc names: %q, %q", other.Name, web.Name)
	}
}
