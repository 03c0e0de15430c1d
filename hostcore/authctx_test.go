package hostcore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/internal/threengram"
)

// requestLog records the credentials of every request a server receives.
type requestLog struct {
	mu   sync.Mutex
	seen []string // "METHOD auth=... user=... key=..."
}

func (l *requestLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, _ := r.BasicAuth()
		l.mu.Lock()
		l.seen = append(l.seen, fmt.Sprintf("%s auth=%q basic=%q:%q key=%q", r.Method,
			r.Header.Get("Authorization"), user, pass, r.Header.Get("X-Api-Key")))
		l.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

func (l *requestLog) entries() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.seen)
}

// loggedThreengram serves threengram over HTTP behind a request log, with a
// token per tenant.
func loggedThreengram(t *testing.T) (endpoint string, tokens map[string]string, log *requestLog, store *threengram.Store) {
	t.Helper()
	s := seededStore(t)
	ctx := context.Background()
	tokens = map[string]string{}
	var err error
	for _, tn := range []string{"acme", "globex"} {
		if tokens[tn], err = s.IssueToken(ctx, tn, []string{threengram.ScopeRead}); err != nil {
			t.Fatal(err)
		}
	}
	log = &requestLog{}
	srv := httptest.NewServer(log.wrap(threengram.NewHTTPHandler(s, nil)))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp", tokens, log, s
}

// TestLogoutWhileWatcherPolls: a watcher polls an attachment; the account
// logs out. No request with the removed credentials reaches the server
// afterwards, however often the watcher polls, and the purged partition
// stays empty.
func TestLogoutWhileWatcherPolls(t *testing.T) {
	endpoint, tokens, log, store := loggedThreengram(t)
	ctx := context.Background()
	sc := config.ServerConfig{Name: "tg", URL: endpoint, Accounts: []config.Account{
		{Name: "acme", Headers: map[string]string{"Authorization": "Bearer " + tokens["acme"]}}}}
	clk := newClock()
	bodies := openCache(t, t.TempDir())
	h := configuredHost(t, &hostcore.HostOptions{Cache: bodies, Now: clk.Now}, sc)
	cv := hostcore.NewConversations(h, openState(t))
	c, err := h.Conn("tg", "acme")
	if err != nil {
		t.Fatal(err)
	}
	ids, _, _ := store.IDsWithPrefix(ctx, "acme", "", 1)
	conv, _ := cv.Create(ctx, "watched")
	if _, err := cv.AttachURI(ctx, conv.ID, c, "threengram://memory/"+ids[0]); err != nil {
		t.Fatal(err)
	}
	w, err := cv.Watch(ctx, conv.ID, &hostcore.WatchOptions{Interval: time.Second, Jitter: func() float64 { return 0 }})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	clk.Advance(2 * time.Second)
	if n := w.Poll(ctx); n != 1 {
		t.Fatalf("polled %d items; want 1", n)
	}
	before := len(log.entries())
	if err := h.Logout(ctx, sc, "acme"); err != nil {
		t.Fatal(err)
	}
	var pollErr error
	for range 5 {
		clk.Advance(time.Minute)
		w.Poll(ctx)
		st, _ := w.State(1)
		pollErr = st.Err
	}
	after := log.entries()[before:]
	for _, e := range after {
		if strings.Contains(e, tokens["acme"]) {
			t.Errorf("after logout the server received the removed credential: %s", e)
		}
	}
	if len(after) != 0 {
		t.Errorf("after logout the watcher sent %d requests: %v", len(after), after)
	}
	if !errors.Is(pollErr, fault.ErrCanceled) {
		t.Errorf("a poll after logout: %v; want the closed connection's error", pollErr)
	}
	if st, _ := h.CacheStats(ctx, hostcore.CacheFilter{Server: sc.Identity(), PrivateOnly: true}); st.Private != 0 {
		t.Errorf("the partition holds %d private entries after logout and polls", st.Private)
	}
	if !c.Closed() {
		t.Error("the logged-out connection is not closed")
	}
	if _, err := c.Session(ctx); err == nil {
		t.Error("a closed connection connected again")
	}
}

// TestRedirectToAnotherOriginCarriesNoCredential: the configured server
// redirects to a server on another port, which logs what it receives: no
// Authorization, no configured header and no userinfo arrive there.
func TestRedirectToAnotherOriginCarriesNoCredential(t *testing.T) {
	endpoint, tokens, target, _ := loggedThreengram(t)
	origin := &requestLog{}
	redirector := httptest.NewServer(origin.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, endpoint, http.StatusTemporaryRedirect)
	})))
	t.Cleanup(redirector.Close)
	u := strings.Replace(redirector.URL, "http://", "http://user:"+tokens["globex"]+"@", 1) + "/mcp"
	sc := config.ServerConfig{Name: "redirecting", URL: u,
		Headers: map[string]string{"Authorization": "Bearer " + tokens["acme"], "X-Api-Key": "key-" + tokens["acme"]}}
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir()), ConnectTimeout: 10 * time.Second})
	_, err := conn(t, h, sc, "").Read(context.Background(), "threengram://memory/x", hostcore.ReadUse)
	if err == nil {
		t.Fatal("a read through a redirect without credentials succeeded")
	}
	if len(origin.entries()) == 0 || !strings.Contains(origin.entries()[0], tokens["acme"]) {
		t.Fatalf("the server's own origin did not get the credential: %v", origin.entries())
	}
	got := target.entries()
	if len(got) == 0 {
		t.Fatal("the redirect was not followed: the target logged nothing")
	}
	for _, e := range got {
		if strings.Contains(e, tokens["acme"]) || strings.Contains(e, tokens["globex"]) || strings.Contains(e, "user") && !strings.Contains(e, `basic="":""`) {
			t.Errorf("the other origin received a credential: %s", e)
		}
	}
	if !errors.Is(err, fault.ErrUnauthorized) {
		t.Errorf("error %v; want unauthorized (the target refuses a request without credentials)", err)
	}
	if strings.Contains(err.Error(), tokens["globex"]) {
		t.Errorf("the error shows the userinfo: %v", err)
	}
}

// TestStatusIsPerRequest: eight concurrent reads on one connection; the
// server answers one with 401 while three others are in flight (the most
// a connection's read limit lets beside it), and the rest after it,
// three of them not found. Only the one is unauthorized.
func TestStatusIsPerRequest(t *testing.T) {
	s := seededStore(t)
	ctx := context.Background()
	tok, _ := s.IssueToken(ctx, "acme", []string{threengram.ScopeRead})
	mine, _, _ := s.IDsWithPrefix(ctx, "acme", "", 4)
	theirs, _, _ := s.IDsWithPrefix(ctx, "globex", "", 3)
	refused := "threengram://memory/" + mine[0]
	sent401, arrived, others := make(chan struct{}), make(chan struct{}), make(chan struct{}, 8)
	handler := threengram.NewHTTPHandler(s, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		switch {
		case bytes.Contains(body, []byte(refused)):
			close(arrived)
			for range 3 { // the others a connection's read limit lets in beside it
				<-others
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32001,"message":"token expired"}}`, rpcID(body))
			close(sent401)
			return
		case bytes.Contains(body, []byte(`"resources/read"`)):
			others <- struct{}{}
			<-sent401 // every other read is answered after the 401
		}
		handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	sc := config.ServerConfig{Name: "tg", URL: srv.URL + "/mcp", Headers: map[string]string{"Authorization": "Bearer " + tok}}
	h := newHost(t, nil)
	c := conn(t, h, sc, "")
	if _, err := c.Session(ctx); err != nil {
		t.Fatal(err)
	}
	uris := []string{refused}
	for _, id := range mine[1:] {
		uris = append(uris, "threengram://memory/"+id)
	}
	for _, id := range theirs {
		uris = append(uris, "threengram://memory/"+id)
	}
	errs := make([]error, len(uris))
	var wg sync.WaitGroup
	for i, uri := range uris {
		wg.Go(func() { _, errs[i] = c.Read(ctx, uri, hostcore.ReadUse) })
		if i == 0 {
			<-arrived // the refused read holds a place before the others ask
		}
	}
	wg.Wait()
	for i, err := range errs {
		switch {
		case i == 0:
			if !errors.Is(err, fault.ErrUnauthorized) {
				t.Errorf("the refused read: %v; want unauthorized", err)
			}
		case i <= 3:
			if err != nil {
				t.Errorf("read %d of acme's own memory: %v", i, err)
			}
		default:
			if !errors.Is(err, fault.ErrNotFound) {
				t.Errorf("read %d of another tenant's memory: %v; want not found", i, err)
			}
		}
	}
}

// rpcID returns the id of a JSON-RPC request body.
func rpcID(body []byte) string {
	i := bytes.Index(body, []byte(`"id":`))
	if i < 0 {
		return "null"
	}
	rest := body[i+5:]
	j := bytes.IndexAny(rest, ",}")
	return string(rest[:j])
}

// TestChildGetsMinimalEnvironment: a stdio child gets HOME, PATH and the
// like, what the config declares and what it passes with ${env:}, and
// nothing else of the host's environment.
func TestChildGetsMinimalEnvironment(t *testing.T) {
	t.Setenv("ATTACHE_TEST_SECRET", "s3cr3t-inherited")
	t.Setenv("ATTACHE_TEST_PASSED", "passed-on-purpose")
	t.Setenv("LC_TIME", "C")
	out := filepath.Join(t.TempDir(), "env.txt")
	sh := `env > "$0"; exec cat >/dev/null`
	sc := config.ServerConfig{Name: "envdump", Command: "/bin/sh", Args: []string{"-c", sh, out},
		Env: map[string]string{"DECLARED": "yes", "PASSED": "${env:ATTACHE_TEST_PASSED}"}}
	h := newHost(t, &hostcore.HostOptions{ConnectTimeout: 2 * time.Second})
	conn(t, h, sc, "").Session(context.Background()) // fails: the child never answers
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		k, v, _ := strings.Cut(line, "=")
		env[k] = v
	}
	if _, ok := env["ATTACHE_TEST_SECRET"]; ok {
		t.Error("the child inherited a variable the config never declared")
	}
	for k, want := range map[string]string{"DECLARED": "yes", "PASSED": "passed-on-purpose", "LC_TIME": "C",
		"PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME")} {
		if env[k] != want {
			t.Errorf("child's %s = %q; want %q", k, env[k], want)
		}
	}
	for k := range env {
		allowed := []string{"DECLARED", "PASSED", "HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LANGUAGE", "PWD", "SHLVL", "_", "OLDPWD"}
		if !slices.Contains(allowed, k) && !strings.HasPrefix(k, "LC_") {
			t.Errorf("the child got %s, which nothing passed on", k)
		}
	}
}

// TestInputAskedOnceAndWithdrawn: connections that need the same VS Code
// input share one question; when every waiter gives up, the question's own
// context ends (a dialog closes), and nothing is remembered.
func TestInputAskedOnceAndWithdrawn(t *testing.T) {
	asked := make(chan context.Context, 4)
	answer := make(chan string)
	h := newHost(t, &hostcore.HostOptions{PromptInput: func(ctx context.Context, _ string, _ config.Input) (string, error) {
		asked <- ctx
		select {
		case v := <-answer:
			return v, nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}})
	sc := config.ServerConfig{Name: "vs", URL: "http://127.0.0.1:1/mcp",
		Headers:  map[string]string{"Authorization": "Bearer ${input:token}"},
		Inputs:   []config.Input{{ID: "token", Type: "promptString"}},
		Accounts: []config.Account{{Name: "a"}, {Name: "b", Headers: map[string]string{"X-Other": "1"}}}}
	ctx := context.Background()
	parts := make(chan string, 2)
	for _, acct := range []string{"a", "b"} {
		go func() {
			p, err := conn(t, h, sc, acct).Partition(ctx)
			if err != nil {
				t.Error(err)
			}
			parts <- p
		}()
	}
	<-asked
	answer <- "typed-value"
	p1, p2 := <-parts, <-parts
	if len(asked) != 0 || p1 == "" || p2 == "" || p1 == p2 {
		t.Errorf("asked %d more times; partitions %q %q (want two different ones from one answer)", len(asked), p1, p2)
	}

	// A waiter that gives up alone withdraws the question.
	sc.Name = "vs2"
	wctx, cancel := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() { _, err := conn(t, h, sc, "a").Partition(wctx); errc <- err }()
	qctx := <-asked
	cancel()
	if err := <-errc; !errors.Is(err, fault.ErrCanceled) {
		t.Errorf("the waiter got %v; want canceled", err)
	}
	select {
	case <-qctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the question stayed open with no one waiting")
	}
	go func() { conn(t, h, sc, "b").Partition(ctx) }()
	select {
	case <-asked: // asked again: the withdrawn question left no answer behind
	case <-time.After(5 * time.Second):
		t.Fatal("a later connection was not asked")
	}
}

// TestSubscriptionsCounted: two borrowers subscribe to one uri on one
// connection; the server hears one subscribe, and one unsubscribe only when
// the last borrower gives its subscription back.
func TestSubscriptionsCounted(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, mcptestMem(t, "v2025-11", nil), "")
	ctx := context.Background()
	if _, err := c.Session(ctx); err != nil {
		t.Fatal(err)
	}
	uri := "test://items/1"
	for range 2 {
		if err := c.Subscribe(ctx, uri); err != nil {
			t.Fatal(err)
		}
	}
	if n := countSent(c, "resources/subscribe"); n != 1 || c.Subscriptions()[uri] != 2 {
		t.Fatalf("sent %d subscribes, count %d; want 1 sent, 2 held", n, c.Subscriptions()[uri])
	}
	c.Unsubscribe(ctx, uri)
	if n := countSent(c, "resources/unsubscribe"); n != 0 {
		t.Fatalf("sent %d unsubscribes while a borrower still holds it", n)
	}
	if err := c.Unsubscribe(ctx, uri); err != nil {
		t.Fatal(err)
	}
	if n := countSent(c, "resources/unsubscribe"); n != 1 || len(c.Subscriptions()) != 0 {
		t.Errorf("sent %d unsubscribes, %v held; want 1 and none", n, c.Subscriptions())
	}
}
