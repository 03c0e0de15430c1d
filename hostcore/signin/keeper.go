// Package signin signs a host's accounts in to MCP servers that follow
// the MCP authorization spec, and keeps what a sign-in leaves: the grants,
// their store and its cross-process lock, the token source that refreshes
// them, and where each account's sign-in stands.
//
// The flow itself (protected resource metadata, authorization server
// metadata, client registration, PKCE S256, RFC 8707 resource, the RFC 9207
// iss check, step-up scopes) is go-sdk's auth.AuthorizationCodeHandler over
// golang.org/x/oauth2. The package adds what a desktop host needs around
// it: a loopback redirect listener that answers honestly (callback.go),
// grants kept between runs in a TokenStore, refresh that persists and that
// processes take turns at (grant_lock.go), a sign-in the person drives
// (board.go), tokens only over TLS or to loopback (tls.go), refusals that
// say why (refusal.go), a move to another authorization server (move.go),
// and who the grant is for (subject.go).
//
// The package knows no session: the host gives each connection that signs
// in a Handler (Keeper.Handler), which go-sdk's Streamable HTTP transport
// asks for tokens, and mixes the handler's grant into the connection's
// cache partition (Partition). It imports no hostcore session code, no
// store and no screen.
package signin

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"golang.org/x/oauth2"
)

// Options configures signing in. A nil *Options turns OAuth off: a 401 is
// then final.
type Options struct {
	// Tokens keeps grants between runs; nil keeps them in memory for the
	// Keeper's life.
	Tokens TokenStore
	// Present points the person (or, for test servers that approve without
	// one, an HTTP client) at the authorization page. The host waits for
	// the redirect on its loopback listener meanwhile: Present may return
	// at once, or hold the page up until ctx ends, which it does when the
	// sign-in ends (it succeeded, failed, timed out or was abandoned). An
	// error from Present abandons the sign-in; return context.Canceled
	// when the person canceled it. Present is called on a goroutine of the
	// host's, never on the one that asked for the read. Nil means the host
	// never starts a sign-in: a server that asks for one gets
	// Unauthorized, saying how to sign in.
	Present func(ctx context.Context, page Page) error
	// ClientMetadataURL is the https URL of the host's Client ID Metadata
	// Document, used as its client_id where the authorization server
	// supports it (and no pre-registered client is configured).
	ClientMetadataURL string
	// Timeout bounds the wait for the redirect; 0 means 5 minutes.
	Timeout time.Duration
	// ClientName is the name registered with Dynamic Client Registration;
	// "" means "Attaché".
	ClientName string
	// SignInOnMove lets a request that may sign in (MayStart) do so at a
	// server's new authorization server, when the server moved to another
	// (SEP-2352): a command-line host, whose every command is the
	// person's. Unset (a window), the account waits, moved, until the
	// person signs in (Login).
	SignInOnMove bool
}

// Page is an authorization page to show: whose sign-in it is, and where.
type Page struct {
	// Server and Account name the configured server and the account that
	// signs in.
	Server, Account string
	// URL is the authorization server's page, with the request in its
	// query. It holds no secret (PKCE keeps the verifier at home), so it
	// may be shown and copied.
	URL string
}

// Env is what a Keeper uses of the host it serves.
type Env struct {
	// Transport carries metadata, registration, introspection and token
	// requests, without any server's credentials; nil is
	// http.DefaultTransport.
	Transport http.RoundTripper
	// Timeout bounds each of those requests, and a refresh.
	Timeout time.Duration
	// Now is the clock that stamps a grant's SignedInAt; nil is time.Now.
	// (Token expiry is stamped by oauth2 on the real clock, and read on it.)
	Now func() time.Time
	// Log records sign-ins, refreshes and revocations (never a token);
	// nil discards.
	Log *slog.Logger
	// Hurry, when done, cuts refreshes short: the host is out of time.
	Hurry context.Context
}

// Keeper holds one host's sign-ins: the options, the grant store, where
// each account's sign-in stands, and the locks that let one refresh of a
// grant run at a time. It is safe for concurrent use.
type Keeper struct {
	opts  *Options
	env   Env
	mem   memoryTokens
	board board
	locks keyedLocks
}

// NewKeeper returns the keeper of a host whose sign-ins opts configures
// (nil: OAuth is off).
func NewKeeper(opts *Options, env Env) *Keeper {
	if env.Transport == nil {
		env.Transport = http.DefaultTransport
	}
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.Log == nil {
		env.Log = slog.New(slog.DiscardHandler)
	}
	if env.Hurry == nil {
		env.Hurry = context.Background()
	}
	return &Keeper{opts: opts, env: env}
}

// On reports whether signing in is on (the Options were not nil).
func (k *Keeper) On() bool { return k.opts != nil }

// Tokens returns the store of the grants: the Options', else the
// Keeper's memory.
func (k *Keeper) Tokens() TokenStore {
	if k.opts != nil && k.opts.Tokens != nil {
		return k.opts.Tokens
	}
	return &k.mem
}

// httpClient is the client for metadata, registration and token requests:
// the host's transport, without any server's credentials.
func (k *Keeper) httpClient() *http.Client {
	return &http.Client{Transport: k.env.Transport, Timeout: k.env.Timeout}
}

// oauthContext carries that client to golang.org/x/oauth2.
func (k *Keeper) oauthContext() context.Context {
	return context.WithValue(context.Background(), oauth2.HTTPClient, k.httpClient())
}
