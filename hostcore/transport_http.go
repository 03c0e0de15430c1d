package hostcore

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/attache/attache/hostcore/signin"

	"github.com/attache/attache/hostcore/toolcall"
	"github.com/attache/attache/hostcore/wire"
)

// credentialRoundTripper sends the authorization context's headers to the
// context's own origin and nowhere else, records the JSON-RPC bodies in the
// tap, and records what it learns of each request in that request's
// context (see withStatus): go-sdk's errors carry the HTTP status, the
// media type and a body over the limit only as text, so each call is
// classified from its own requests' records instead.
//
// A redirect to another origin is followed without any credential: the
// configured headers are not added, and the Authorization net/http derives
// from URL userinfo, cookies and every configured header name are removed.
// net/http itself would keep them on a redirect to another port of the
// same host.
//
// Every response to a POST is bounded to maxBody bytes in all (go-sdk reads
// a JSON body whole, however large, and an event stream for as long as it
// lasts); a body whose Content-Length is over the bound is refused before a
// byte of it is read. A 429 with a Retry-After is retried once (see
// retryWait). When hurry is done (the host is shutting down and out of
// time), every request still running is cancelled.
type credentialRoundTripper struct {
	base    http.RoundTripper
	origin  string
	headers map[string]string
	tap     *wire.Tap
	maxBody int64
	now     func() time.Time
	sleep   func(context.Context, time.Duration) error
	hurry   context.Context
	// signsIn is set for a connection that signs in (OAuth): every
	// Authorization header it carries is a grant's bearer token, which
	// goes only over TLS or to loopback (package signin).
	signsIn string // the server's name, for the refusal
}

func newCredentialRoundTripper(base http.RoundTripper, auth *authContext, tap *wire.Tap, maxBody int64) *credentialRoundTripper {
	rt := &credentialRoundTripper{base: base, headers: auth.headers, tap: tap, maxBody: maxBody, now: time.Now, sleep: sleepCtx}
	if u, err := url.Parse(auth.url); err == nil {
		rt.origin = origin(u)
	}
	return rt
}

// forHost gives rt the host's clock, its sleep (for Retry-After) and its
// hurry (see Host.Shutdown).
func (rt *credentialRoundTripper) forHost(h *Host) *credentialRoundTripper {
	rt.now, rt.sleep, rt.hurry = h.opts.Now.now, h.opts.Sleep, h.hurry
	return rt
}

// origin is a URL's scheme, host and port, with the default port explicit.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

func (rt *credentialRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	unhurry := func() bool { return false }
	if rt.hurry != nil {
		unhurry = context.AfterFunc(rt.hurry, cancel)
	}
	release := func() { unhurry(); cancel() }
	if rt.signsIn != "" && req.Header.Get("Authorization") != "" && !signin.TokensMayGo(req.URL) {
		// The last guard: the token source refuses such a resource first.
		release()
		err := signin.RefuseCleartext(rt.signsIn, req.URL.String())
		statusOf(req.Context()).refused(err)
		return nil, err
	}
	req = rt.credentials(req.Clone(ctx))
	var body []byte
	if req.Body != nil && req.Method == http.MethodPost {
		var err error
		body, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			release()
			return nil, err
		}
		rt.tap.Record(wire.Sent, body)
	}
	resp, err := rt.send(req, body)
	if err == nil && resp.StatusCode == http.StatusTooManyRequests {
		resp, err = rt.retry(req, body, resp)
	}
	if err != nil {
		release()
		return nil, err
	}
	rt.receive(req, resp)
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: release}
	return resp, nil
}

// credentials sets or strips the configured headers by the request's origin.
func (rt *credentialRoundTripper) credentials(req *http.Request) *http.Request {
	if rt.origin != "" && origin(req.URL) == rt.origin {
		for k, v := range rt.headers {
			req.Header.Set(k, v)
		}
		for k, v := range toolcall.ParamHeadersOf(req.Context()) { // SEP-2243, this call's only (toolheaders.go)
			req.Header.Set(k, v)
		}
		return req
	}
	req.URL.User = nil
	for _, k := range []string{"Authorization", "Proxy-Authorization", "Cookie"} {
		req.Header.Del(k)
	}
	for k := range rt.headers {
		req.Header.Del(k)
	}
	return req
}

// send sends one attempt of req, with body replayed from memory.
func (rt *credentialRoundTripper) send(req *http.Request, body []byte) (*http.Response, error) {
	r := req.Clone(req.Context())
	if body != nil {
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	return rt.base.RoundTrip(r)
}

// maxRetryAfter is the longest Retry-After the host waits for.
const maxRetryAfter = 30 * time.Second

// retry honours a 429's Retry-After once: it waits as asked and sends the
// request again. It does not wait when the header is absent or unreadable,
// asks for more than maxRetryAfter, or would outlast the request's
// deadline; the 429 then stands, and the wait asked for is recorded.
func (rt *credentialRoundTripper) retry(req *http.Request, body []byte, resp *http.Response) (*http.Response, error) {
	wait, ok := retryWait(resp.Header.Get("Retry-After"), rt.now())
	if !ok {
		return resp, nil
	}
	deadline, bounded := req.Context().Deadline()
	if wait > maxRetryAfter || bounded && time.Until(deadline) < wait {
		statusOf(req.Context()).setRetryAfter(wait)
		return resp, nil
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // so the connection can be reused
	resp.Body.Close()
	if err := rt.sleep(req.Context(), wait); err != nil {
		return nil, err
	}
	return rt.send(req, body)
}

// retryWait reads a Retry-After value: delay-seconds or an HTTP date
// (RFC 9110, section 10.2.3). A date in the past means no wait.
func retryWait(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if strings.Trim(v, "0123456789") == "" {
		secs, err := strconv.ParseInt(v, 10, 64)
		if err != nil || secs > int64(24*time.Hour/time.Second) {
			return 24 * time.Hour, true // absurdly long: never waited for
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// receive records what the response says of the request and bounds and taps
// its body.
func (rt *credentialRoundTripper) receive(req *http.Request, resp *http.Response) {
	st := statusOf(req.Context())
	mt := mediaType(resp.Header.Get("Content-Type"))
	if scope, ok := signin.InsufficientScope(resp); ok {
		st.scopeRefused(scope)
	} else if resp.StatusCode/100 == 2 {
		st.scopeRefused("") // a step-up that worked
	}
	switch {
	case resp.StatusCode >= 400:
		st.fail(resp.StatusCode, mt, req.URL)
	case req.Method == http.MethodPost && resp.StatusCode/100 == 2 &&
		resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusNoContent &&
		mt != "application/json" && mt != "text/event-stream":
		st.answeredNotMCP(mt, req.URL)
	}
	if rt.maxBody > 0 && req.Method == http.MethodPost {
		resp.Body = newLimitedBody(resp.Body, rt.maxBody, resp.ContentLength, st)
	}
	resp.Body = gateResponse(resp, rt.tap, int(rt.maxBody), st)
}

// releasingBody releases the request's resources when the body is closed.
type releasingBody struct {
	io.ReadCloser
	once    sync.Once
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.release)
	return err
}

// mediaType returns the lowercased media type of a Content-Type value.
func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt, _, _ = strings.Cut(ct, ";")
	}
	return strings.ToLower(strings.TrimSpace(mt))
}

// requestStatus is what the transports learned of the requests of one
// call or one connect: the status and URL of an HTTP failure, a 2xx answer
// in a media type that is not MCP's, a body over the size limit, a 429's
// Retry-After that was not waited for, and the stdio process started. A
// holder made inside another (a connect attempt inside a connect) records
// into both. Its methods are safe on nil (no holder in the context) and
// for concurrent use.
type requestStatus struct {
	parent *requestStatus

	mu       sync.Mutex
	code     int
	url      string // of the failing request, without userinfo or query
	notMCP   string // the media type of an answer that is not MCP
	failType string // the media type of a failing status's body
	tooLarge bool
	retryIn  time.Duration
	breach   error // a reply that is not JSON (see framer)
	proc     *process
	refusal  error // the host's own refusal (a sign-in it would not make, see package signin)
	// scope is what the last 403 insufficient_scope asked for, until a
	// request succeeds: go-sdk retries once after a step-up, and a 403 on
	// the retry is final (then it falls back to initialize, whose own
	// failure says nothing of it).
	scope       string
	scopeRefuse bool
}

type statusKey struct{}

// withStatus returns a context whose requests record their outcome in the
// returned holder. Each call (and each connect) has its own, so concurrent
// requests on one connection never take each other's status.
func withStatus(ctx context.Context) (context.Context, *requestStatus) {
	s := &requestStatus{parent: statusOf(ctx)}
	return context.WithValue(ctx, statusKey{}, s), s
}

func statusOf(ctx context.Context) *requestStatus {
	s, _ := ctx.Value(statusKey{}).(*requestStatus)
	return s
}

// update changes s and its ancestors.
func (s *requestStatus) update(f func(*requestStatus)) {
	for ; s != nil; s = s.parent {
		s.mu.Lock()
		f(s)
		s.mu.Unlock()
	}
}

// fail records a failing status, the media type of its body and the URL
// that answered it.
func (s *requestStatus) fail(code int, mt string, u *url.URL) {
	s.update(func(s *requestStatus) { s.code, s.failType, s.url = code, mt, displayURL(u) })
}

// notMCP records a successful answer in media type mt, which MCP never sends.
func (s *requestStatus) answeredNotMCP(mt string, u *url.URL) {
	if mt == "" {
		mt = "no Content-Type"
	}
	s.update(func(s *requestStatus) { s.notMCP, s.url = mt, displayURL(u) })
}

// breached records a reply that broke the rules: over the size limit, or
// not JSON.
func (s *requestStatus) breached(err error) {
	if errors.Is(err, wire.ErrTooLarge) {
		s.setTooLarge()
		return
	}
	s.update(func(s *requestStatus) {
		if s.breach == nil {
			s.breach = err
		}
	})
}

// refused records the host's own refusal to go on (a sign-in it will not
// make or finish): it explains the failure better than whatever the
// transport meets after it (go-sdk falls back from server/discover to
// initialize on any error).
func (s *requestStatus) refused(err error) {
	s.update(func(s *requestStatus) {
		if s.refusal == nil {
			s.refusal = err
		}
	})
}

// scopeRefused records a 403 insufficient_scope asking for scope, or, with
// "", a success that ends one.
func (s *requestStatus) scopeRefused(scope string) {
	s.update(func(s *requestStatus) { s.scope, s.scopeRefuse = scope, scope != "" })
}

func (s *requestStatus) setTooLarge() { s.update(func(s *requestStatus) { s.tooLarge = true }) }

func (s *requestStatus) setRetryAfter(d time.Duration) {
	s.update(func(s *requestStatus) { s.retryIn = d })
}

// started records the stdio process of the attempt.
func (s *requestStatus) started(p *process) { s.update(func(s *requestStatus) { s.proc = p }) }

// get returns the recorded HTTP status of a failure, or 0.
func (s *requestStatus) get() int { return s.outcome().code }

// process returns the recorded stdio process, or nil.
func (s *requestStatus) process() *process {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.proc
}

// httpOutcome is what a requestStatus holds of HTTP.
type httpOutcome struct {
	code     int
	failType string
	url      string
	notMCP   string
	tooLarge bool
	retryIn  time.Duration
	breach   error
	refusal  error
	scope    string // a final 403 insufficient_scope's, see requestStatus
}

func (s *requestStatus) outcome() httpOutcome {
	if s == nil {
		return httpOutcome{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := httpOutcome{s.code, s.failType, s.url, s.notMCP, s.tooLarge, s.retryIn, s.breach, s.refusal, ""}
	if s.scopeRefuse {
		o.scope = s.scope
	}
	return o
}

// displayURL is u as a message may show it: without userinfo, query or
// fragment, which may carry secrets.
func displayURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	v := *u
	v.User, v.RawQuery, v.ForceQuery, v.Fragment, v.RawFragment = nil, "", false, "", ""
	return v.String()
}

// limitedBody fails a read past its limit instead of truncating silently,
// and records the failure in the request's status. A body that announces
// a length over the limit fails at its first read, before anything is
// buffered.
type limitedBody struct {
	io.ReadCloser
	left int64 // bytes still allowed; -1 once over
	st   *requestStatus
}

func newLimitedBody(body io.ReadCloser, limit, contentLength int64, st *requestStatus) *limitedBody {
	l := &limitedBody{ReadCloser: body, left: limit, st: st}
	if contentLength > limit {
		l.left = -1
	}
	return l
}

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.left < 0 {
		l.st.setTooLarge()
		return 0, wire.ErrTooLarge
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1] // one byte more than allowed tells a body at the limit from one over it
	}
	n, err := l.ReadCloser.Read(p)
	if int64(n) > l.left {
		n, l.left = int(l.left), -1
		l.st.setTooLarge()
		return n, wire.ErrTooLarge
	}
	l.left -= int64(n)
	return n, err
}

// gateResponse gates a response body (see gate): a JSON body is one
// message, an event stream a message an event. Each message goes to the
// tap whole (an event, its data), and a breach is recorded in st. The
// bound is per message: a POST's response is also bounded in all.
func gateResponse(resp *http.Response, tap *wire.Tap, limit int, st *requestStatus) io.ReadCloser {
	var g *wire.Gate
	switch mediaType(resp.Header.Get("Content-Type")) {
	case "text/event-stream":
		g = wire.NewGate(resp.Body, limit, wire.SSEEvents())
		g.Record = func(event []byte, truncated bool) { recordEvent(tap, event, truncated) }
	case "application/json":
		g = wire.NewGate(resp.Body, limit, wire.JSONValues())
		g.Record = func(msg []byte, truncated bool) { tap.Keep(wire.Received, msg, truncated) }
		g.KeepBig = func(msg []byte, values []wire.Elided) { tap.KeepElided(wire.Received, msg, values) }
	default:
		return resp.Body
	}
	g.Fault = st.breached
	return struct {
		io.Reader
		io.Closer
	}{g, resp.Body}
}

// recordEvent records the data of one server-sent event.
func recordEvent(tap *wire.Tap, event []byte, truncated bool) {
	var data []byte
	for line := range bytes.Lines(event) {
		line = bytes.TrimRight(line, "\r\n")
		if rest, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, bytes.TrimPrefix(rest, []byte(" "))...)
		}
	}
	if len(data) > 0 {
		tap.Keep(wire.Received, data, truncated)
	}
}
