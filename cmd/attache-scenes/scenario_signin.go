package main

import (
	"errors"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/internal/desktop"
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
	if err := desktop.ApproveSignIn(page, tenant); err != nil {
		return err
	}
	s.holding = false
	return s.settle()
}

// hiddenInput is a hidden field of threengram's login form.
