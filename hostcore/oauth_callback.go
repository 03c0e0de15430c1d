package hostcore

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"html"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// The loopback redirect listener (RFC 8252 §7.3) of one sign-in, honest
// about what happened:
//
//   - only a request that carries the state of the authorization request
//     the host made is the answer to it; one with another state, or none,
//     is not (a forged link, a stale tab): it gets an error page, and the
//     sign-in keeps waiting for the real answer;
//   - the answer's page waits for the outcome (the code exchanged for a
//     grant, or why not) and says it: "signed in" only once the host is.

// callbackOutcomeWait bounds how long the answer's page waits for the
// outcome before saying the host is still finishing.
const callbackOutcomeWait = time.Minute

// callback is a sign-in's loopback listener.
type callback struct {
	server   string // names the server on the pages
	ln       net.Listener
	srv      *http.Server
	redirect string // the redirect_uri: http://127.0.0.1:PORT/callback

	mu      sync.Mutex
	state   string // the state the answer must carry; "" until known
	answers chan url.Values
	taken   bool        // the answer came
	outcome chan string // the answer's page, once the sign-in ended
	ended   bool
}

// listenCallback listens on a fresh loopback port.
func listenCallback(server string) (*callback, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listening for the sign-in redirect: %w", err)
	}
	cb := &callback{server: server, ln: ln, redirect: "http://" + ln.Addr().String() + "/callback",
		answers: make(chan url.Values, 1), outcome: make(chan string, 1)}
	cb.srv = &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(cb.serve)}
	go cb.srv.Serve(ln)
	return cb, nil
}

// expect sets the state of the authorization request and returns where
// its answer arrives.
func (cb *callback) expect(state string) <-chan url.Values {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	cb.state = state
	return cb.answers
}

func (cb *callback) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/callback" {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	cb.mu.Lock()
	state, taken := cb.state, cb.taken
	ok := state != "" && subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(state)) == 1
	if ok && !taken {
		cb.taken = true
		cb.answers <- q
	}
	cb.mu.Unlock()
	switch {
	case !ok:
		cb.page(w, http.StatusBadRequest, "This address is not the answer to the sign-in to "+cb.server+
			" that Attaché is waiting for (its state does not match), so Attaché ignored it. That sign-in is still waiting: finish it in the page Attaché opened.")
	case taken:
		cb.page(w, http.StatusBadRequest, "The sign-in to "+cb.server+" was answered already. You may close this tab.")
	default:
		cb.answer(w, r)
	}
}

// answer writes the outcome's page once the sign-in has ended.
func (cb *callback) answer(w http.ResponseWriter, r *http.Request) {
	t := time.NewTimer(callbackOutcomeWait)
	defer t.Stop()
	select {
	case msg := <-cb.outcome:
		status := http.StatusOK
		if msg != cb.signedIn() {
			status = http.StatusBadRequest
		}
		cb.page(w, status, msg)
	case <-t.C:
		cb.page(w, http.StatusAccepted, "Attaché is still finishing the sign-in to "+cb.server+"; its window says when it is done.")
	case <-r.Context().Done():
	}
}

func (cb *callback) signedIn() string {
	return "You are signed in to " + cb.server + ". You may close this tab."
}

// finish tells the answer's page how the sign-in ended: err nil is signed
// in. It does nothing when no answer came.
func (cb *callback) finish(err error) {
	cb.mu.Lock()
	defer cb.mu.Unlock()
	if !cb.taken || cb.ended {
		return
	}
	cb.ended = true
	msg := cb.signedIn()
	if err != nil {
		msg = "The sign-in to " + cb.server + " did not succeed: " + signInReason(err) + ". You may close this tab."
	}
	cb.outcome <- msg
}

// signInReason is what a page may say of a failed sign-in: the message of
// a host error (safe to show), else that it failed.
func signInReason(err error) string {
	if he := (*Error)(nil); errors.As(err, &he) {
		return he.Message()
	}
	return "the host could not finish it"
}

func (cb *callback) page(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html><title>Attaché</title><p style=\"font:16px sans-serif;margin:3em\">%s</p>", html.EscapeString(msg))
}

// close stops listening. It lets the answer's page finish first: a closed
// connection would show the person an error for a sign-in that worked.
func (cb *callback) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if cb.srv.Shutdown(ctx) != nil {
		cb.srv.Close()
	}
}
