package ui

import (
	"context"
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore/subrecord"
)

// subscriptionsView is the Subscriptions window (View › Subscriptions):
// every resource subscription the host holds, on every connection, with
// its server, account and how it subscribes, who holds it (you, the
// attachments' watch), when it began, how many updates the server sent and
// the time of the last, and whether the inspector's open body of it is
// stale. Unsubscribe gives back your subscription only: one the
// attachments hold stays. It follows the host's record
// (Subscriptions.OnChange). Used on the main goroutine only.
type subscriptionsView struct {
	sh  *shell
	win fyne.Window // nil while closed

	subs       []subrecord.Subscription
	table      *widget.Table
	summary    *widget.Label
	unregister func()
}

// The columns of the table.
var subscriptionColumns = []struct {
	title string
	width float32
}{
	{"URI", 225}, {"Server", 100}, {"Account", 80}, {"Subscribed with", 145}, {"Held by", 105},
	{"Since", 72}, {"Updates", 68}, {"Last update", 92}, {"Open body", 185}, {"", 140},
}

func newSubscriptionsView(sh *shell) *subscriptionsView { return &subscriptionsView{sh: sh} }

// show opens the window, or brings it forward.
func (v *subscriptionsView) show() {
	if v.win != nil {
		v.win.RequestFocus()
		return
	}
	v.win = fyne.CurrentApp().NewWindow("Subscriptions")
	v.win.SetContent(v.buildUI())
	v.win.Resize(fyne.NewSize(1250, 420))
	v.unregister = v.sh.host.Subscriptions().OnChange(func() { deliverFromHook(v.refresh) })
	v.win.SetOnClosed(func() {
		v.unregister()
		v.win = nil
	})
	v.refresh()
	v.win.Show()
}

// close closes the window, if open.
func (v *subscriptionsView) close() {
	if v.win != nil {
		v.win.Close()
	}
}

func (v *subscriptionsView) buildUI() fyne.CanvasObject {
	v.summary = widget.NewLabel("")
	v.summary.Wrapping = fyne.TextWrapWord
	v.table = widget.NewTable(func() (int, int) { return len(v.subs), len(subscriptionColumns) }, newSubscriptionCell, v.updateCell)
	v.table.ShowHeaderRow = true
	v.table.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	v.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 {
			o.(*widget.Label).SetText(subscriptionColumns[id.Col].title)
		}
	}
	for i, c := range subscriptionColumns {
		v.table.SetColumnWidth(i, c.width)
	}
	return container.NewBorder(container.NewVBox(heading("Subscriptions"), v.summary), nil, nil, nil, v.table)
}

// newSubscriptionCell is a cell: a label, or the Unsubscribe button.
func newSubscriptionCell() fyne.CanvasObject {
	l := widget.NewLabel("")
	l.Truncation = fyne.TextTruncateEllipsis
	b := newButton("Unsubscribe", theme.VisibilityOffIcon(), nil)
	return container.NewStack(l, b)
}

func (v *subscriptionsView) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	cell := o.(*fyne.Container)
	l, b := cell.Objects[0].(*widget.Label), cell.Objects[1].(*button)
	if id.Row >= len(v.subs) {
		return
	}
	sub := v.subs[id.Row]
	last := id.Col == len(subscriptionColumns)-1
	show(l, !last)
	show(b, last)
	if last {
		b.OnTapped = func() { v.unsubscribe(sub) }
		if sub.Yours {
			b.Enable()
		} else {
			b.Disable()
		}
		return
	}
	l.Importance = widget.MediumImportance
	if id.Col == 8 && sub.Stale {
		l.Importance = widget.WarningImportance
	}
	l.SetText(subscriptionCell(sub, id.Col))
}

// subscriptionCell is the text of one column of a subscription.
func subscriptionCell(sub subrecord.Subscription, col int) string {
	switch col {
	case 0:
		return sub.URI
	case 1:
		return sub.Server
	case 2:
		return sub.Account
	case 3:
		return sub.Method
	case 4:
		return heldBy(sub)
	case 5:
		return sub.Since.Format("15:04:05")
	case 6:
		return fmt.Sprint(sub.Updates)
	case 7:
		if sub.LastUpdate.IsZero() {
			return "none yet"
		}
		return sub.LastUpdate.Format("15:04:05")
	case 8:
		switch {
		case sub.Stale:
			return "stale: updated since read"
		case sub.Open:
			return "current"
		}
		return "not open"
	}
	return ""
}

// heldBy says who holds a subscription.
func heldBy(sub subrecord.Subscription) string {
	others := sub.Borrowers - boolInt(sub.Yours)
	switch {
	case sub.Yours && others == 0:
		return "you"
	case sub.Yours:
		return fmt.Sprintf("you + attachments (%d)", others)
	}
	return fmt.Sprintf("attachments' watch (%d)", others)
}

// refresh reads the host's record again.
func (v *subscriptionsView) refresh() {
	if v.win == nil {
		return
	}
	v.subs = v.sh.host.Subscriptions().List()
	v.summary.SetText(subscriptionsSummary(v.subs))
	v.table.Refresh()
}

// subscriptionsSummary says what the table holds, and how to fill it.
func subscriptionsSummary(subs []subrecord.Subscription) string {
	if len(subs) == 0 {
		return "No subscriptions. Read a resource and press Subscribe in the inspector (on a server that declares " +
			"resources.subscribe), or attach one: the attachments' watch subscribes to what it can."
	}
	updates, stale := 0, 0
	for _, s := range subs {
		updates += s.Updates
		if s.Stale {
			stale++
		}
	}
	return fmt.Sprintf("%s, %s from the servers since they began, %s stale in the inspector. Unsubscribe gives back yours; "+
		"the attachments' own subscriptions stay until they are detached.",
		plural(len(subs), "subscription", "subscriptions"), plural(updates, "update", "updates"), plural(stale, "open body", "open bodies"))
}

// unsubscribe gives back the person's subscription.
func (v *subscriptionsView) unsubscribe(sub subrecord.Subscription) {
	subs := v.sh.host.Subscriptions()
	v.sh.act(func(ctx context.Context) error { return subs.Unsubscribe(ctx, sub.Conn, sub.URI) }, func() {
		v.sh.notify("Unsubscribed from " + sub.URI + " on " + sub.Server)
	})
}
