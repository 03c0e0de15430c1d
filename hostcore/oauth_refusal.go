package hostcore

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"golang.org/x/oauth2"

	"github.com/attache/attache/hostcore/config"
)

// Refusals say why. go-sdk's sign-in refuses metadata that breaks the
// rules (an authorization server whose metadata names another issuer, one
// that offers no PKCE, resource metadata for another resource) with errors
// that are text only, and the 401 that started the sign-in then made the
// failure read as "the server refused the credentials", though none were
// sent. The host watches what the sign-in's own requests fetch (the
// metadata documents, the registration) and, when the sign-in fails,
// names the rule that the fetched documents broke, from those facts,
// without reading go-sdk's words.

// signInFacts is what one sign-in's requests fetched. It is safe for
// concurrent use.
type signInFacts struct {
	mcpURL string // the request that asked for the sign-in

	mu        sync.Mutex
	answered  bool   // the authorization response came
	iss       string // its RFC 9207 iss
	resources []resourceSeen
	servers   []authServerSeen
	register  int // the HTTP status of a refused registration
}

// resourceSeen is a protected resource metadata document (RFC 9728): the
// resource it names, and the one it was fetched for.
type resourceSeen struct {
	url, resource, expected string
	authServers             []string
}

// authServerSeen is an authorization server metadata document (RFC 8414):
// the issuer its URL was built from, and what it says.
type authServerSeen struct {
	url, expected string
	meta          authServerMeta
}

// authServerMeta is what the host reads of authorization server metadata.
type authServerMeta struct {
	Issuer                string   `json:"issuer"`
	RegistrationEndpoint  string   `json:"registration_endpoint"`
	IntrospectionEndpoint string   `json:"introspection_endpoint"`
	PKCE                  []string `json:"code_challenge_methods_supported"`
	IssInResponse         bool     `json:"authorization_response_iss_parameter_supported"`
}

// client returns an HTTP client whose requests record into f.
func (f *signInFacts) client(base *http.Client) *http.Client {
	c := *base
	next := c.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c.Transport = factsRecorder{f: f, next: next}
	return &c
}

type factsRecorder struct {
	f    *signInFacts
	next http.RoundTripper
}

func (r factsRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	switch {
	case req.Method == http.MethodGet && resp.StatusCode == http.StatusOK && strings.Contains(req.URL.Path, "/.well-known/"):
		body, rerr := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errorReader{rerr}))
		r.f.saw(req.URL, body)
	case req.Method == http.MethodPost && resp.StatusCode >= 400 && r.f.isRegistration(req.URL):
		r.f.mu.Lock()
		r.f.register = resp.StatusCode
		r.f.mu.Unlock()
	}
	return resp, nil
}

// errorReader ends a replayed body with the error its reading met, if any.
type errorReader struct{ err error }

func (e errorReader) Read([]byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return 0, io.EOF
}

// saw records a metadata document fetched from u.
func (f *signInFacts) saw(u *url.URL, body []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if strings.Contains(u.Path, "/.well-known/oauth-protected-resource") {
		var prm struct {
			Resource    string   `json:"resource"`
			AuthServers []string `json:"authorization_servers"`
		}
		if json.Unmarshal(body, &prm) == nil {
			f.resources = append(f.resources, resourceSeen{url: u.String(), resource: prm.Resource,
				expected: f.resourceOf(u), authServers: prm.AuthServers})
		}
		return
	}
	expected, ok := issuerOfMetadataURL(u)
	var meta authServerMeta
	if ok && json.Unmarshal(body, &meta) == nil {
		f.servers = append(f.servers, authServerSeen{url: u.String(), expected: expected, meta: meta})
	}
}

// resourceOf is the resource go-sdk expects the document at u to name: the
// server's origin at the root well-known URL, else the MCP endpoint.
func (f *signInFacts) resourceOf(u *url.URL) string {
	if u.Path == "/.well-known/oauth-protected-resource" {
		return u.Scheme + "://" + u.Host
	}
	return f.mcpURL
}

func (f *signInFacts) isRegistration(u *url.URL) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.servers {
		if s.meta.RegistrationEndpoint != "" && s.meta.RegistrationEndpoint == u.String() {
			return true
		}
	}
	return false
}

// issuerOfMetadataURL inverts the well-known URLs of RFC 8414 and OpenID
// Connect discovery (with path insertion, and OIDC's path appending):
// the issuer u was built from.
func issuerOfMetadataURL(u *url.URL) (string, bool) {
	base := u.Scheme + "://" + u.Host
	for _, wk := range []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"} {
		if rest, ok := strings.CutPrefix(u.Path, wk); ok && (rest == "" || strings.HasPrefix(rest, "/")) {
			return base + rest, true
		}
	}
	if head, ok := strings.CutSuffix(u.Path, "/.well-known/openid-configuration"); ok {
		return base + head, true
	}
	return "", false
}

// sameIssuer compares issuers as go-sdk does: exactly, but for a trailing
// slash.
func sameIssuer(a, b string) bool { return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/") }

// accepted returns the authorization server metadata the sign-in used: the
// last document whose issuer is the one its URL was built from.
func (f *signInFacts) accepted() (authServerSeen, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(f.servers) - 1; i >= 0; i-- {
		if sameIssuer(f.servers[i].meta.Issuer, f.servers[i].expected) {
			return f.servers[i], true
		}
	}
	return authServerSeen{}, false
}

// authServer returns the authorization server the resource's metadata
// named first, or "".
func (f *signInFacts) authServer() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := len(f.resources) - 1; i >= 0; i-- {
		if as := f.resources[i].authServers; len(as) > 0 {
			return as[0]
		}
	}
	return ""
}

// answer records the authorization response's iss.
func (f *signInFacts) answer(iss string) {
	f.mu.Lock()
	f.answered, f.iss = true, iss
	f.mu.Unlock()
}

// refusal names the rule a fetched document, or the authorization
// response, broke; nil if none.
func (f *signInFacts) refusal(server string) *Error {
	if e := f.issRefusal(server); e != nil {
		return e
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.servers {
		switch {
		case !sameIssuer(s.meta.Issuer, s.expected):
			return refused("the host refused %s's sign-in metadata: its issuer is %q, not %q, the authorization server it was fetched for (RFC 8414 §3.3)",
				server, s.meta.Issuer, s.expected)
		case len(s.meta.PKCE) == 0:
			return refused("the host refused to sign in to %s at %s: its metadata offers no PKCE (code_challenge_methods_supported), which MCP requires",
				server, s.expected)
		}
	}
	var matched bool
	var wrong *resourceSeen
	for i, r := range f.resources {
		if config.CanonicalURL(r.resource) == config.CanonicalURL(r.expected) {
			matched = true
		} else if wrong == nil {
			wrong = &f.resources[i]
		}
	}
	if wrong != nil && !matched {
		return refused("the host refused %s's resource metadata: it is for %q, not %q (RFC 9728 §3.3)", server, wrong.resource, wrong.expected)
	}
	if f.register != 0 {
		return newError(KindUnauthorized, nil, "the authorization server of %s refused to register the host as a client (HTTP %d)", server, f.register)
	}
	return nil
}

// issRefusal names an RFC 9207 breach of the authorization response: an
// iss that is not the issuer of the metadata the sign-in used (a mix-up),
// or none where that metadata promised one.
func (f *signInFacts) issRefusal(server string) *Error {
	meta, ok := f.accepted()
	f.mu.Lock()
	answered, iss := f.answered, f.iss
	f.mu.Unlock()
	switch {
	case !ok || !answered:
		return nil
	case iss != "" && iss != meta.meta.Issuer:
		return refused("the host refused the answer to the sign-in to %s: it names the issuer %q, not %q, whose sign-in it started (RFC 9207), so it may come from another server",
			server, iss, meta.meta.Issuer)
	case iss == "" && meta.meta.IssInResponse:
		return refused("the host refused the answer to the sign-in to %s: it names no issuer, though the authorization server's metadata says it always does (RFC 9207)", server)
	}
	return nil
}

// refused is a refusal of the host's own, of metadata the protocol does
// not allow.
func refused(format string, args ...any) *Error {
	e := newError(KindProtocol, nil, format, args...)
	e.Next = "The server's sign-in is misconfigured; tell its administrator what the message says."
	return e
}

// explainSignIn gives a failed sign-in a kind and a message that says why,
// from the error's type and the facts the sign-in's requests recorded.
func (o *oauthHandler) explainSignIn(err error, f *signInFacts) error {
	var he *Error
	var re *oauth2.RetrieveError
	switch {
	case errors.As(err, &he):
		return err
	case errors.As(err, &re):
		msg := re.ErrorCode
		if re.ErrorDescription != "" {
			msg += ": " + re.ErrorDescription
		}
		if msg == "" {
			msg = fmt.Sprintf("HTTP %d", re.Response.StatusCode)
		}
		return newError(KindUnauthorized, err, "signing in to %s: the authorization server refused the sign-in's code (%s)", o.c.Server.Name, clip(msg))
	}
	if r := f.refusal(o.c.Server.Name); r != nil {
		return r.WithCause(err)
	}
	return newError(KindUnauthorized, err, "signing in to %s failed: %s", o.c.Server.Name, clip(err.Error()))
}
