package hostcore

import (
	"net"
	"net/url"
	"strings"

	"github.com/attache/attache/hostcore/redact"
)

// Tokens only over TLS or to loopback. OAuth 2.1 (section 1.5) and RFC 6750
// (section 5.3) require TLS for every request that carries a bearer token:
// anyone on the path reads a token sent in cleartext and acts as the
// account until it expires. The host refuses to sign in to, or send a
// grant's token to, a resource that is neither https nor on this machine
// (a loopback address, or localhost), whatever its metadata says: an
// https authorization server does not make a plain-http resource safe.
// go-sdk already refuses metadata and authorization server endpoints that
// are neither.

// loopbackHost reports whether host (a URL's Hostname) is this machine:
// localhost, a name under .localhost (RFC 6761), or a loopback address.
func loopbackHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// tokensMayGo reports whether a bearer token may be sent to u: https, or
// plain http to a loopback host.
func tokensMayGo(u *url.URL) bool {
	switch strings.ToLower(u.Scheme) {
	case "https":
		return true
	case "http":
		return loopbackHost(u.Hostname())
	}
	return false
}

// refuseCleartext returns the error of a sign-in, or a token, the host
// will not send to rawURL, or nil when it may.
func refuseCleartext(server, rawURL string) error {
	u, err := url.Parse(rawURL)
	if err == nil && tokensMayGo(u) {
		return nil
	}
	where := redact.URL(rawURL)
	if err == nil {
		where = u.Hostname()
	}
	e := newError(KindUsage, nil, "the host refuses to sign in to %s over plain http: a sign-in's tokens go only over https or to this machine (loopback), "+
		"as OAuth 2.1 and RFC 6750 require, and %s is neither; use the server's https address", server, where)
	e.Next = "Change the server's URL to its https address."
	return e
}
