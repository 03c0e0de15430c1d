package ui

import (
	"net/url"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/signin"
)

// Signing in to HTTP servers that use OAuth. The card of such a server has
// a row per account, a view of where the account's sign-in stands in the
// host (signin.State, told of changes by OnSignInChange) and of
// what the panel did itself (a Sign in or a Sign out in flight, whether a
// browser could be opened, the kept grant). It never guesses: the host
// says when a wait begins, which page it waits on, and when it ends.
//
//   - Sign in (Host.Login) is the person asking; so is a read they started
//     (ui marks its work with signin.MayStart). Nothing else starts a
//     sign-in: not a watcher, not a poll, not a Sign out or a Cancel.
//   - While the host waits, the row shows the page's address, Copy and
//     Cancel; when no browser could be opened, it says so.
//   - Cancel ends the account's wait, whoever started it (Host.CancelSignIn).
//   - Signed in, the row names whom the grant is for, when the server says,
//     and where, for what and until when (never a token), with Sign out.
//   - When the server's authorization server changed (SEP-2352), it says
//     where the server now signs in, with Sign in.

// signInKey names an account of a server.
type signInKey struct{ server, account string }

// signIn is what the panel itself knows of one account's sign-in. It is
// used on the main goroutine only.
type signIn struct {
	login     func()        // cancels the Sign in in flight, if any
	grant     *signin.Grant // the kept sign-in; nil: none
	busy      bool          // signing out
	noBrowser string        // why no browser opened the page the host waits on
	shownPage string        // the page noBrowser is about
	// gen is bumped by every change, so that a grant load that started
	// before one lands on nothing.
	gen uint64
}

// signInRow shows one account's sign-in on its server's card: lines of
// text, full width (a narrow column wraps them), then its buttons.
type signInRow struct {
	key    signInKey
	status *widget.Label
	detail *widget.Label
	link   *link   // the page's host and path; the whole address opens
	action *button // Sign in or Sign out
	copy   *button
	cancel *button
	root   fyne.CanvasObject
}

func newSignInRow(p *serversPanel, key signInKey) *signInRow {
	r := &signInRow{key: key, status: widget.NewLabel(""), detail: widget.NewLabel(""), link: newLink("")}
	r.status.Wrapping = fyne.TextWrapWord
	r.detail.Wrapping = fyne.TextWrapWord
	r.detail.SizeName = theme.SizeNameCaptionText
	r.link.Truncation = fyne.TextTruncateEllipsis
	r.link.SizeName = theme.SizeNameCaptionText
	r.action = newButton("", nil, nil)
	r.copy = newButton("Copy link", theme.ContentCopyIcon(), func() { p.copyPage(key) })
	r.cancel = newButton("Cancel", theme.CancelIcon(), func() { p.cancelSignIn(key) })
	r.root = container.NewVBox(container.New(rowsLayout{}, r.status, r.detail, r.link),
		container.NewHBox(r.action, r.copy, r.cancel))
	return r
}

// rowView is what one row shows: the host's state and the panel's.
type rowView struct {
	host signin.State
	own  *signIn
}

// show renders v.
func (r *signInRow) show(p *serversPanel, v rowView) {
	name, st, hs := r.key.account, v.own, v.host
	detail, link := "", ""
	r.status.Importance = widget.MediumImportance
	r.action.Enable()
	switch {
	case hs.Waiting && hs.Page != "" && st.noBrowser != "" && st.shownPage == hs.Page:
		r.status.SetText(name + " · no browser could be opened: open this page in a browser to sign in")
		r.status.Importance = widget.WarningImportance
		detail, link = st.noBrowser, hs.Page
	case hs.Waiting && hs.Page != "":
		r.status.SetText(name + " · waiting for the sign-in in your browser…")
		link = hs.Page
	case hs.Waiting || st.login != nil:
		r.status.SetText(name + " · signing in…")
	case st.busy:
		r.status.SetText(name + " · signing out…")
		r.action.Disable()
	case hs.MovedTo != "":
		r.status.SetText(name + " · the server now signs in at " + hostOf(hs.MovedTo))
		r.status.Importance = widget.WarningImportance
		detail = "Sign in there to go on reading; the sign-in at the old server is not carried over."
		r.setAction("Sign in", theme.LoginIcon(), func() { p.signIn(r.key) })
	case st.grant != nil:
		r.status.SetText(name + " · " + signedInAs(st.grant))
		detail = grantText(st.grant)
		r.setAction("Sign out", theme.LogoutIcon(), func() { p.signOut(r.key) })
	default:
		r.status.SetText(name + " · not signed in")
		detail = endedText(hs.Ended)
		r.setAction("Sign in", theme.LoginIcon(), func() { p.signIn(r.key) })
	}
	waiting := hs.Waiting || st.login != nil
	r.detail.SetText(detail)
	r.detail.Hidden = detail == ""
	r.link.Text, r.link.URL = pageText(link), webURL(link)
	r.link.Hidden = link == ""
	r.link.Refresh()
	r.copy.Hidden = link == ""
	r.cancel.Hidden = !waiting
	r.action.Hidden = waiting
	for _, b := range []*button{r.action, r.copy, r.cancel} {
		b.Refresh() // a button shown again lays out from its own size, not the one it had hidden
	}
	r.status.Refresh()
	r.root.Refresh()
}

func (r *signInRow) setAction(text string, icon fyne.Resource, tapped func()) {
	r.action.SetText(text)
	r.action.SetIcon(icon)
	r.action.OnTapped = tapped
}

// signedInAs is the status of a row signed in with g: whom the grant is
// for, when the server said.
func signedInAs(g *signin.Grant) string {
	if g.Subject != "" {
		return "signed in as " + g.Subject
	}
	return "signed in"
}

// endedText is why as a sentence: why an account is not signed in, when
// the person ended its last sign-in, or why no browser opened.
func endedText(why string) string {
	if why == "" {
		return ""
	}
	return strings.ToUpper(why[:1]) + why[1:] + "."
}

// hostOf is a URL's host and path, for a row.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	return u.Host + strings.TrimSuffix(u.Path, "/")
}

// webURL is raw parsed, if it is an http(s) address: the only kind a
// sign-in page is opened at (a server names it, and xdg-open would run
// whatever handles another scheme).
func webURL(raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil
	}
	return u
}

// pageText is the part of a sign-in page's address worth reading in a
// narrow column: its host and path, which say whose page it is. The query
// (the request) is long and says nothing to a person; Copy link copies all.
func pageText(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	return u.Host + u.Path
}

// grantText says where a grant was given, for what, and until when: the
// issuer, the scopes and the access token's expiry, never a token.
func grantText(g *signin.Grant) string {
	lines := []string{"at " + g.Issuer}
	if len(g.Scopes) > 0 {
		lines = append(lines, "scopes "+strings.Join(g.Scopes, " "))
	}
	if t := g.Token; t != nil {
		renews := t.RefreshToken != ""
		switch {
		case t.Expiry.IsZero():
			lines = append(lines, "token does not expire")
		case renews:
			lines = append(lines, "token until "+clockTime(t.Expiry)+", then renewed")
		default:
			lines = append(lines, "token until "+clockTime(t.Expiry)+", then sign in again")
		}
	}
	return strings.Join(lines, "\n")
}

// clockTime is t as a time of day, with the date when it is not within a
// day of now. A token's expiry is stamped on the real clock (by
// golang.org/x/oauth2), so it is compared with the real clock.
func clockTime(t time.Time) string {
	t = t.Local()
	if d := time.Until(t); d > 20*time.Hour || d < -20*time.Hour {
		return t.Format("2 Jan 15:04")
	}
	return t.Format("15:04")
}
