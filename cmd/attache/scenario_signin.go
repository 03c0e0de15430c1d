package main

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/attache/attache/hostcore"
)

// The sign-in scenarios (sign-in, sign-in-waiting, signed-in, signed-out)
// script the card of the built-in "demo-oauth" server: Sign in, the wait
// for the browser, the signed-in account, and Sign out.
// The script is the person at the browser: it opens the page the card
// shows, picks a tenant on threengram's login page and approves, as a
// browser would post the form.

// signedOut signs in, then taps Sign out.
func signedOut(s *script) error {
	if err := s.signInAs("acme"); err != nil {
		return err
	}
	return s.try(func() error { return s.app.SignOut(hostcore.DemoOAuthServerName, "") })
}

// startSignIn taps Sign in and waits until the card shows the page the
// host waits on. The scene then holds that work in flight: the window
// settles on its frames, not on its work being done.
func (s *script) startSignIn() (string, error) {
	if err := s.try(func() error { return s.app.SignIn(hostcore.DemoOAuthServerName, "") }); err != nil {
		return "", err
	}
	deadline := time.Now().Add(settleTimeout)
	for {
		var page string
		s.do(func() { page = s.app.SignInPage(hostcore.DemoOAuthServerName, "") })
		if page != "" {
			s.holding = true
			return page, nil
		}
		if time.Now().After(deadline) {
			return "", errors.New("the card did not show the sign-in page")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// signInAs signs the demo's account in as tenant and waits for the card
// to show it.
func (s *script) signInAs(tenant string) error {
	page, err := s.startSignIn()
	if err != nil {
		return err
	}
	if err := approveAs(page, tenant); err != nil {
		return err
	}
	s.holding = false
	return s.settle()
}

// hiddenInput is a hidden field of threengram's login form.
var hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)

// approveAs opens the authorization page, picks tenant and approves, as a
// person does in the browser; the browser then follows the redirect back
// to the host's loopback listener.
func approveAs(page, tenant string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	body, err := fetch(ctx, http.MethodGet, page, nil)
	if err != nil {
		return fmt.Errorf("opening the sign-in page: %w", err)
	}
	form := url.Values{"tenant": {tenant}, "action": {"approve"}}
	for _, m := range hiddenInput.FindAllStringSubmatch(body, -1) {
		form.Set(html.UnescapeString(m[1]), html.UnescapeString(m[2]))
	}
	if form.Get("csrf") == "" {
		return errors.New("the sign-in page has no login form")
	}
	u, err := url.Parse(page)
	if err != nil {
		return err
	}
	u.RawQuery = ""
	if _, err := fetch(ctx, http.MethodPost, u.String(), form); err != nil {
		return fmt.Errorf("approving the sign-in: %w", err)
	}
	return nil
}

// fetch sends a request as a browser would (following redirects) and
// returns the body of the page it ends at.
func fetch(ctx context.Context, method, target string, form url.Values) (string, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, target, body)
	if err != nil {
		return "", err
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s%s answered %s", resp.Request.URL.Host, resp.Request.URL.Path, resp.Status)
	}
	return string(b), err
}
