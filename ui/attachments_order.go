package ui

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A pin or a priority changed from a row re-ranks the attachments, which
// would move the row the person just clicked from under the pointer (a
// second click would then pin another). So the list keeps the order it
// showed, each row with its new rank number, and says so; Re-sort, or the
// next change that does not come from a row (a budget, an attachment
// added or removed, another conversation), puts it in rank order.

// heldOrder is the order the list keeps after a row's change.
type heldOrder struct {
	next  []int64 // the order to keep at the next ranking shown, if any
	held  bool    // the rows shown are not in rank order
	note  *fyne.Container
	label *widget.Label
}

// buildOrderNote is the line that says the order is held, with Re-sort.
func (p *attachmentsPanel) buildOrderNote() fyne.CanvasObject {
	o := &p.order
	o.label = caption("The list keeps its order after your change; the numbers are the new ranks.")
	o.label.Wrapping = fyne.TextWrapWord
	resort := newButton("Re-sort", theme.MenuDropDownIcon(), p.resort)
	resort.Importance = widget.LowImportance
	o.note = container.NewBorder(nil, nil, nil, resort, o.label)
	o.note.Hide()
	return o.note
}

// holdOrder asks the next ranking shown to keep the rows where they are.
func (p *attachmentsPanel) holdOrder() {
	p.order.next = make([]int64, len(p.rows))
	for i, x := range p.rows {
		p.order.next[i] = x.att.ID
	}
}

// keepOrder puts the rows just ranked in the order held, if one was
// asked for; attachments not in it go last, in rank order. It runs once:
// the ranking after it sorts again.
func (p *attachmentsPanel) keepOrder() {
	o := &p.order
	want := o.next
	o.next, o.held = nil, false
	if want != nil {
		pos := func(x ranked) int {
			if i := slices.Index(want, x.att.ID); i >= 0 {
				return i
			}
			return len(want) + x.dec.Rank
		}
		slices.SortStableFunc(p.rows, func(a, b ranked) int { return pos(a) - pos(b) })
		o.held = !slices.IsSortedFunc(p.rows, func(a, b ranked) int { return a.dec.Rank - b.dec.Rank })
	}
	if o.note != nil {
		o.note.Hidden = !o.held
		o.note.Refresh()
	}
}

// resort puts the rows in rank order.
func (p *attachmentsPanel) resort() {
	slices.SortStableFunc(p.rows, func(a, b ranked) int { return a.dec.Rank - b.dec.Rank })
	p.order.held = false
	p.order.note.Hide()
	p.list.Refresh()
}
