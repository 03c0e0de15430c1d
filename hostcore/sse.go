package hostcore

import (
	"context"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An HTTP server is reached over Streamable HTTP or over the legacy
// HTTP+SSE transport of 2024-11-05 (a GET that streams the server's
// messages, whose first event names the endpoint the client POSTs to).
// The config chooses (ServerConfig.Transport), or the host finds out as
// the specification's backwards-compatibility section says: a POST to the
// URL that fails with a 4xx status is followed by a GET that waits for an
// endpoint event, and the legacy transport is used if one comes. The
// handshake memory (handshake.go) remembers what was found, so that later
// connects go straight to it.
//
// Both transports send through the same credential round tripper: the
// authorization context's headers go to its own origin only, the tap
// records every message (the GET's event stream one event at a time), and
// each request's HTTP status reaches the error of that request.

// sseTransport opens the legacy transport through go-sdk's
// SSEClientTransport. go-sdk ties the event stream's GET to the context
// given to Connect, but the host's connect context ends with the
// handshake; so the GET gets a context of its own, which only the
// connect's deadline or cancellation ends until the endpoint event has
// come, and the connection's Close after that.
type sseTransport struct {
	inner *mcp.SSEClientTransport
}

// sseTransport builds the legacy transport from the resolved authorization
// context, with the same round tripper as Streamable HTTP.
func (c *Conn) sseTransport(auth *authContext) mcp.Transport {
	maxLine := int(c.host.opts.MaxBodyBytes*2) + 1<<20 // base64 and JSON escaping, as for Streamable HTTP
	rt := newCredentialRoundTripper(c.host.opts.HTTPTransport, auth, c.tap, int64(maxLine)).forHost(c.host)
	return &sseTransport{inner: &mcp.SSEClientTransport{
		Endpoint:     auth.url,
		HTTPClient:   &http.Client{Transport: rt},
		MaxEventSize: maxLine,
	}}
}

func (t *sseTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	// WithoutCancel keeps the values: the GET's status reaches the connect's
	// error, as a POST's does.
	stream, cancel := context.WithCancel(context.WithoutCancel(ctx))
	stop := context.AfterFunc(ctx, cancel)
	conn, err := t.inner.Connect(stream)
	if !stop() { // the connect ended first: the stream is being canceled
		if conn != nil {
			conn.Close()
		}
		cancel()
		if err == nil {
			err = ctx.Err()
		}
		return nil, err
	}
	if err != nil {
		cancel()
		return nil, err
	}
	return &sseConn{Connection: conn, cancel: cancel}, nil
}

// sseConn ends the event stream's context when the connection closes.
type sseConn struct {
	mcp.Connection
	cancel context.CancelFunc
	once   sync.Once
}

func (c *sseConn) Close() error {
	err := c.Connection.Close()
	c.once.Do(c.cancel)
	return err
}

// legacyFallback reports whether a failed Streamable HTTP connect whose
// last request got status should be tried again over HTTP+SSE: any 4xx
// but those that say something else than "no such transport here"
// (credentials, a timeout, a rate limit).
func legacyFallback(status int) bool {
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusRequestTimeout, http.StatusTooManyRequests:
		return false
	}
	return status >= 400 && status < 500
}
