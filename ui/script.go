package ui

import (
	"fmt"

	"fyne.io/fyne/v2"

	"github.com/attache/attache/hostcore/pack"
)

// The methods below let a script drive the window as a person would (the
// screenshot scenes of cmd/attache-scenes use them). Except for Idle, call them
// on the main goroutine (fyne.DoAndWait from a script's goroutine). Each
// starts the same work a tap or a keystroke would and returns at once; wait
// for Idle to see its outcome.

// Idle reports whether every piece of background work the window started
// has reported back, including completions scheduled by typing. It is safe
// to call from any goroutine.
func (a *App) Idle() bool { return a.sh.work.idle() }

// SelectServer makes the named server and account ("" for its first) the
// one the picker browses, as choosing the account in the servers panel does.
func (a *App) SelectServer(name, account string) error {
	c, err := a.sh.host.Conn(name, account)
	if err != nil {
		return err
	}
	a.useConn(c)
	return nil
}

// ShowPicker brings a picker tab to the front.
func (a *App) ShowPicker(tab PickerTab) { a.picker.show(tab) }

// TypeInTemplate types text into the template field of variable, a rune at
// a time as a keyboard would: the preview follows each rune and completion
// is asked for when the typing pauses.
func (a *App) TypeInTemplate(variable, text string) error {
	e, ok := a.picker.templates.fields[variable]
	if !ok {
		return fmt.Errorf("the template in the workbench has no variable %q", variable)
	}
	a.picker.show(TabTemplates)
	a.sh.win.Canvas().Focus(e)
	for _, r := range text {
		e.TypedRune(r)
	}
	return nil
}

// SelectResource selects, and so reads, the listed resource with uri.
func (a *App) SelectResource(uri string) error {
	a.picker.show(TabResources)
	if !a.picker.resources.selectURI(uri) {
		return fmt.Errorf("%s is not listed", uri)
	}
	return nil
}

// Read reads uri through the connection in use and shows it in the
// inspector.
func (a *App) Read(uri string) {
	a.inspector.read(readRequest{conn: a.sh.conn, uri: uri, title: uri})
}

// AttachID types id into the Memories tab and attaches it.
func (a *App) AttachID(id string) {
	a.picker.show(TabByID)
	a.picker.byID.id.SetText(id)
	a.picker.byID.attach()
}

// ReadID types id into the Memories tab and reads it, as Enter there does.
func (a *App) ReadID(id string) {
	a.picker.show(TabByID)
	a.picker.byID.id.SetText(id)
	a.picker.byID.read()
}

// SetBudget sets the token budget the attachments are packed into.
func (a *App) SetBudget(tokens int) {
	a.attachments.budget.SetText(fmt.Sprint(tokens))
}

// SetPriority overrides the priority of the attachment of uri (nil: back
// to the server's), as its priority menu does.
func (a *App) SetPriority(uri string, p *float64) error {
	for _, x := range a.attachments.rows {
		if x.att.URI == uri {
			a.attachments.setPriority(x.att, p)
			return nil
		}
	}
	return fmt.Errorf("%s is not attached", uri)
}

// Decisions returns the ranking the attachments panel shows, in rank order.
func (a *App) Decisions() []pack.Decision {
	out := make([]pack.Decision, len(a.attachments.rows))
	for i, x := range a.attachments.rows {
		out[i] = x.dec
	}
	return out
}

// Content returns the window's content, for captures of part of it.
func (a *App) Content() fyne.CanvasObject { return a.sh.win.Content() }

// SignIn taps Sign in on the card of server for account ("" for its
// first).
func (a *App) SignIn(server, account string) error {
	key, err := a.signInKey(server, account)
	if err == nil {
		a.servers.signIn(key)
	}
	return err
}

// CancelSignIn taps Cancel while the sign-in of server's account waits.
func (a *App) CancelSignIn(server, account string) error {
	key, err := a.signInKey(server, account)
	if err == nil {
		a.servers.cancelSignIn(key)
	}
	return err
}

// SignOut taps Sign out on the card of server for account.
func (a *App) SignOut(server, account string) error {
	key, err := a.signInKey(server, account)
	if err == nil {
		a.servers.signOut(key)
	}
	return err
}

// SignInPage returns the address of the sign-in page that the card of
// server shows for account while the host waits on it, or "".
func (a *App) SignInPage(server, account string) string {
	key, err := a.signInKey(server, account)
	if err != nil {
		return ""
	}
	return a.servers.viewOf(key).host.Page
}

// signInKey names the sign-in row of server's account ("" for its first).
func (a *App) signInKey(server, account string) (signInKey, error) {
	c := a.servers.cardOf(server)
	if c == nil {
		return signInKey{}, fmt.Errorf("no card for server %q", server)
	}
	acct, err := c.sc.Account(account)
	if err != nil {
		return signInKey{}, err
	}
	key := signInKey{server, acct.Name}
	if a.servers.rowOf(key) == nil {
		return signInKey{}, fmt.Errorf("%s does not sign in as %s", server, acct.Name)
	}
	return key, nil
}
