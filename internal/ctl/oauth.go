package ctl

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/redact"
	"github.com/attache/attache/hostcore/signin"
	"github.com/attache/attache/internal/secretstore"
)

// Ways to show the person the authorization page (--authorize-with).
const (
	authorizeBrowser = "browser"  // open the system browser, and print the URL
	authorizePrint   = "print"    // print the URL for the person to open
	authorizeHTTPGet = "http-get" // fetch it and follow the redirects: test servers that approve without a person
)

// hasDisplay reports whether a browser could be shown.
func hasDisplay() bool { return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" }

// oauthOptions are the host's sign-in settings: grants in the OS keyring
// (or a 0600 file beside the config), and the page shown as the flag says.
func (a *app) oauthOptions(configPath string) (*signin.Options, error) {
	mode := a.flags.authorizeWith
	if mode == "" {
		mode = authorizePrint
		if hasDisplay() {
			mode = authorizeBrowser
		}
	}
	var present func(ctx context.Context, page signin.Page) error
	switch mode {
	case authorizeBrowser:
		present = a.presentBrowser
	case authorizePrint:
		present = a.presentPrint
	case authorizeHTTPGet:
		extra, err := keyValues(a.flags.authorizeParams)
		if err != nil {
			return nil, err
		}
		present = func(ctx context.Context, page signin.Page) error {
			return presentHTTPGet(ctx, withParams(page.URL, extra))
		}
	default:
		return nil, usageError(fmt.Sprintf("--authorize-with %q: want browser, print or http-get", mode))
	}
	store := secretstore.Open(filepath.Dir(configPath), &secretstore.Options{
		File: os.Getenv("ATTACHE_TOKEN_STORE") == "file",
		Warn: func(msg string) { fmt.Fprintln(a.stderr, "attachectl: "+msg) },
	})
	// A server that moved to another authorization server (SEP-2352) is
	// signed in there, as --authorize-with says: the command is the
	// person's, and the page shows where.
	return &signin.Options{Tokens: store, Present: present, ClientMetadataURL: os.Getenv("ATTACHE_CLIENT_METADATA_URL"),
		SignInOnMove: true}, nil
}

func (a *app) presentPrint(_ context.Context, page signin.Page) error {
	fmt.Fprintf(a.stderr, "attachectl: %s asks you to sign in. Open this page in a browser (waiting for it):\n%s\n", page.Server, page.URL)
	return nil
}

func (a *app) presentBrowser(ctx context.Context, page signin.Page) error {
	a.presentPrint(ctx, page)
	if err := exec.Command("xdg-open", page.URL).Start(); err != nil {
		fmt.Fprintf(a.stderr, "attachectl: could not open a browser (%v); open the page yourself\n", err)
	}
	return nil
}

// presentHTTPGet fetches the authorization page and follows its redirects,
// the last of which reaches the host's loopback listener. It is for test
// authorization servers that approve without a person (the conformance
// suite, threengram --oauth-auto-approve).
//
// The fetch outlives the sign-in's context (the host's answer page, at the
// end of the redirects, comes once the sign-in has ended), bounded by its
// own timeout.
func presentHTTPGet(ctx context.Context, authURL string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode >= 400 {
		return fmt.Errorf("the authorization page answered %s", resp.Status)
	}
	// Approval ends at the redirect_uri; anything else is a page waiting
	// for a person, which http-get cannot be.
	if u, err := url.Parse(authURL); err == nil {
		if want := u.Query().Get("redirect_uri"); want != "" && !strings.HasPrefix(resp.Request.URL.String(), want) {
			return fmt.Errorf("the authorization page did not redirect back by itself (it waits for a person at %s); use --authorize-with browser or print",
				redact.URL(resp.Request.URL.Scheme+"://"+resp.Request.URL.Host+resp.Request.URL.Path))
		}
	}
	return nil
}

func (a *app) loginCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "login SERVER | login --url URL",
		Short: "Sign in to an HTTP server that uses OAuth (an earlier sign-in of the account is dropped)",
		Args:  a.serverArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			h, sc, err := a.serverConfig(args)
			if err != nil {
				return err
			}
			g, err := h.Login(cmd.Context(), sc, a.flags.account)
			if err != nil {
				return err
			}
			who := ""
			if g.Subject != "" {
				who = " (the server's account " + a.line(g.Subject) + ")"
			}
			fmt.Fprintf(a.stdout, "signed in to %s as %s%s at %s (scopes: %s)\n", a.line(sc.Name), a.line(g.Account), who,
				a.line(g.Issuer), a.line(strings.Join(g.Scopes, " ")))
			return nil
		},
	}
}

func (a *app) logoutCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "logout SERVER | logout --url URL",
		Short: "Sign an account out: its sign-in, its sessions and its private cache entries go",
		Args:  a.serverArgs(0),
		RunE: func(cmd *cobra.Command, args []string) error {
			h, sc, err := a.serverConfig(args)
			if err != nil {
				return err
			}
			acct, err := sc.Account(a.flags.account)
			if err != nil {
				return err
			}
			if err := h.Logout(cmd.Context(), sc, acct.Name); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "signed out of %s as %s\n", a.line(sc.Name), a.line(acct.Name))
			return nil
		},
	}
}

func (a *app) accountsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "accounts",
		Short: "Show who is signed in where: issuer, scopes and token expiry (never a token)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			h, err := a.hostFor()
			if err != nil {
				return err
			}
			grants, err := h.SignIns().Grants(cmd.Context())
			if err != nil {
				return err
			}
			type row struct {
				Server     string    `json:"server"`
				Account    string    `json:"account"`
				Subject    string    `json:"subject,omitempty"` // whom the server says the grant is for
				Resource   string    `json:"resource"`
				Issuer     string    `json:"issuer"`
				Scopes     []string  `json:"scopes"`
				Expires    time.Time `json:"expires,omitzero"`
				Refresh    bool      `json:"canRefresh"`
				SignedInAt time.Time `json:"signedInAt"`
			}
			rows := []row{}
			for _, g := range grants {
				r := row{Server: g.Server, Account: g.Account, Subject: g.Subject, Resource: redact.URL(g.Resource), Issuer: g.Issuer,
					Scopes: g.Scopes, SignedInAt: g.SignedInAt}
				if g.Token != nil {
					r.Expires, r.Refresh = g.Token.Expiry, g.Token.RefreshToken != ""
				}
				rows = append(rows, r)
			}
			if a.flags.json {
				return a.printJSON(rows)
			}
			if len(rows) == 0 {
				fmt.Fprintln(a.stdout, "not signed in anywhere")
				return nil
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "SERVER\tACCOUNT\tSIGNED IN AS\tISSUER\tSCOPES\tEXPIRES\tREFRESH")
			for _, r := range rows {
				exp := "never"
				if !r.Expires.IsZero() {
					exp = time.Until(r.Expires).Round(time.Second).String()
					if time.Until(r.Expires) < 0 {
						exp = "expired"
					}
				}
				as := r.Subject
				if as == "" {
					as = "(not said)"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%t\n", a.line(r.Server), a.line(r.Account), a.line(as), a.line(r.Issuer),
					a.line(strings.Join(r.Scopes, " ")), exp, r.Refresh)
			}
			return tw.Flush()
		},
	}
}

// withParams adds query parameters to a URL: a test server's own approval
// parameter (threengram's tenant=NAME), given with --authorize-param.
func withParams(raw string, params map[string]string) string {
	if len(params) == 0 {
		return raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	q := u.Query()
	for k, v := range params {
		q.Set(k, v)
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// serverConfig resolves a named server (args[0]) or the ad-hoc one.
func (a *app) serverConfig(args []string) (*hostcore.Host, config.ServerConfig, error) {
	h, err := a.hostFor()
	if err != nil {
		return nil, config.ServerConfig{}, err
	}
	if a.adHoc() {
		sc, err := a.adHocServer()
		return h, sc, err
	}
	sc, err := h.Config().Find(args[0], h.Builtin()...)
	return h, sc, err
}
