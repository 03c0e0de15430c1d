package ui

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/subrecord"
)

// The inspector's body is a snapshot of one read. Subscribe asks the
// server to say when the resource changes (resources/subscribe, or
// 2026-07-28 subscriptions/listen: the host's Subscriptions, which counts
// the person's borrow beside the attachments' own); a server that does not
// declare resources.subscribe gets no Subscribe, and the inspector says
// so. When an update arrives (on any subscription of the resource) the
// body says it is stale, with Re-read, which reads it again, and Diff,
// which shows what changed between the body read before and the one read
// after. All of it follows the host's record (Subscriptions.OnChange).
type inspectorWatch struct {
	in *inspector

	subscribe *button
	note      *widget.Label
	stale     *widget.Label
	reread    *button
	diff      *button
	bar       *fyne.Container // the stale line, shown with the body

	open       *subrecord.OpenBody // the body shown, nil when none
	pending    *subrecord.OpenBody // the body a read under way will show, nil when none
	offers     bool                // the body's server declares resources.subscribe
	openConn   *hostcore.Conn      // the last body shown came from openConn, openURI
	openURI    string
	current    []pack.Content // the last body shown
	previous   []pack.Content // the body before the last re-read, for Diff
	thenDiff   bool           // show the diff when the re-read lands
	unregister func()
}

func newInspectorWatch(in *inspector) *inspectorWatch {
	w := &inspectorWatch{in: in}
	w.subscribe = newButton("Subscribe", theme.VisibilityIcon(), w.toggle)
	w.note = caption("")
	w.note.Wrapping = fyne.TextWrapWord
	w.stale = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	w.stale.Wrapping = fyne.TextWrapWord
	w.reread = newButton("Re-read", theme.ViewRefreshIcon(), w.rereadNow)
	w.diff = newButton("Diff", theme.ContentCopyIcon(), w.showDiff)
	w.bar = container.NewBorder(nil, nil, nil, container.NewHBox(w.reread, w.diff), container.NewVBox(w.stale, w.note))
	w.bar.Hide()
	w.subscribe.Hide()
	w.unregister = in.sh.host.Subscriptions().OnChange(func() { deliverFromHook(w.follow) })
	return w
}

// close lets go of the body and stops following the host's record.
func (w *inspectorWatch) close() {
	w.forget()
	w.dropReading()
	if w.unregister != nil {
		w.unregister()
	}
}

// reading is told that a read of r begins. The body it will show is
// recorded open from now, not from when it is shown: an update that lands
// while the read is on its way (after the server answered, before the body
// is on screen) makes it stale.
func (w *inspectorWatch) reading(r readRequest) {
	w.dropReading()
	w.pending = w.in.sh.host.Subscriptions().Open(r.conn, r.uri)
}

func (w *inspectorWatch) dropReading() {
	if w.pending != nil {
		w.pending.Close()
		w.pending = nil
	}
}

// shown is told that the inspector shows a new read of r: a re-read of the
// same resource keeps the body it replaces for Diff.
func (w *inspectorWatch) shown(r readRequest, contents []pack.Content, offers bool) {
	if w.openConn == r.conn && w.openURI == r.uri && w.current != nil {
		w.previous = w.current
	} else {
		w.previous = nil
	}
	w.forget()
	w.current, w.offers, w.openConn, w.openURI = contents, offers, r.conn, r.uri
	w.open, w.pending = w.pending, nil
	if w.open == nil { // shown without a read begun here
		w.open = w.in.sh.host.Subscriptions().Open(r.conn, r.uri)
	}
	w.follow()
	if w.thenDiff {
		w.thenDiff = false
		w.showDiff()
	}
}

// forget tells the host's record that the body is no longer shown (a
// read under way, an error); it is kept, for the Diff of a re-read.
func (w *inspectorWatch) forget() {
	if w.open != nil {
		w.open.Close()
		w.open = nil
	}
}

// hidden is told that the inspector shows no body for now (a read under
// way, canceled).
func (w *inspectorWatch) hidden() {
	w.forget()
	w.dropReading()
	w.follow()
}

// failed is told that the inspector shows an error instead of a body:
// nothing is left to compare.
func (w *inspectorWatch) failed() {
	w.forget()
	w.dropReading()
	w.current, w.previous, w.thenDiff, w.openConn, w.openURI = nil, nil, false, nil, ""
	w.follow()
}

// follow shows what the host's record says of the body's resource.
func (w *inspectorWatch) follow() {
	if w.open == nil {
		w.subscribe.Hide()
		w.bar.Hide()
		return
	}
	r := w.in.req
	sub, held := w.in.sh.host.Subscriptions().Find(r.conn, r.uri)
	w.showButton(sub, held)
	w.note.SetText(subscriptionNote(r.conn, sub, held, w.offers))
	st := w.open.State()
	w.stale.Hidden = !st.Stale && !held
	if st.Stale {
		w.stale.Importance = widget.WarningImportance
		w.stale.SetText(fmt.Sprintf("Stale: the server said %s changed (%s, the last at %s) after this body was read.",
			r.uri, plural(st.Updates, "update", "updates"), st.LastUpdate.Format("15:04:05")))
	} else {
		w.stale.Importance = widget.SuccessImportance
		w.stale.SetText("Current: no update since this body was read.")
	}
	w.stale.Refresh()
	show(w.reread, st.Stale)
	show(w.diff, st.Stale || w.previous != nil)
	w.bar.Show()
}

// showButton offers Subscribe or Unsubscribe, where the server has
// subscriptions.
func (w *inspectorWatch) showButton(sub subrecord.Subscription, held bool) {
	if !w.offers {
		w.subscribe.Hide()
		return
	}
	if held && sub.Yours {
		w.subscribe.SetText("Unsubscribe")
		w.subscribe.SetIcon(theme.VisibilityOffIcon())
	} else {
		w.subscribe.SetText("Subscribe")
		w.subscribe.SetIcon(theme.VisibilityIcon())
	}
	w.subscribe.Show()
}

// subscriptionNote says how the body's resource is kept current.
func subscriptionNote(c *hostcore.Conn, sub subrecord.Subscription, held, offers bool) string {
	switch {
	case !offers:
		return c.Server.Name + " does not declare resources.subscribe: it cannot say when this resource changes, so Subscribe is not offered. Refresh reads it again."
	case !held:
		return "Not subscribed. Subscribe asks " + c.Server.Name + " to say when it changes."
	}
	who := "you"
	switch others := sub.Borrowers - boolInt(sub.Yours); {
	case !sub.Yours && others > 0:
		who = "the attachments' watch"
	case others > 0:
		who = "you and the attachments' watch"
	}
	s := fmt.Sprintf("Subscribed (%s, held by %s) since %s · %s", sub.Method, who, sub.Since.Format("15:04:05"),
		plural(sub.Updates, "update", "updates"))
	if !sub.LastUpdate.IsZero() {
		s += ", the last at " + sub.LastUpdate.Format("15:04:05")
	}
	return s
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// toggle subscribes, or gives back the person's subscription.
func (w *inspectorWatch) toggle() {
	r := w.in.req
	if r.conn == nil || w.open == nil {
		return
	}
	subs := w.in.sh.host.Subscriptions()
	sub, held := subs.Find(r.conn, r.uri)
	if held && sub.Yours {
		w.in.sh.act(func(ctx context.Context) error { return subs.Unsubscribe(ctx, r.conn, r.uri) }, func() {
			w.in.sh.notify("Unsubscribed from " + r.uri)
		})
		return
	}
	w.in.sh.act(func(ctx context.Context) error { return subs.Subscribe(ctx, r.conn, r.uri) }, func() {
		w.in.sh.notify("Subscribed to " + r.uri + " on " + r.conn.Server.Name + ": the body here says when it goes stale")
	})
}

// rereadNow reads the resource again from the server.
func (w *inspectorWatch) rereadNow() { w.in.again(hostcore.ReadRefresh) }

// showDiff shows what changed: after a re-read, between the body before
// and the one now; a stale body is read again first.
func (w *inspectorWatch) showDiff() {
	r := w.in.req
	if w.open != nil && w.open.State().Stale {
		w.thenDiff = true
		w.rereadNow()
		return
	}
	if w.previous == nil {
		w.in.sh.notify("Nothing to compare: " + r.uri + " was not read again since it was opened")
		return
	}
	diff := subrecord.DiffContents(r.uri, w.previous, w.current)
	if diff == "" {
		diff = "The text did not change at the last re-read: the server said the resource changed, and it reads the same."
	}
	showDiffDialog(w.in.sh.win, "Changes to "+r.uri, diff)
}
