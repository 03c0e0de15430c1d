package ui

import (
	"fmt"
	"path"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
)

// ranked is one attachment with the ranker's decision on it and what the
// watcher knows of its freshness.
type ranked struct {
	att     hostcore.Attachment
	dec     pack.Decision
	watch   hostcore.WatchState
	watched bool
	// kept is what the live conversation keeps of it: the body in use,
	// whether it is stale, the body before its last change.
	kept hostcore.LiveItem
	// memory is what tells a memory apart, read from the body the ranking
	// read (zero for other resources); life is its lifecycle, as
	// get_memories last said it.
	memory hostcore.MemoryMeta
	life   hostcore.Lifecycle
}

// priorityChoices are the priority overrides a person can pick; the first
// clears the override.
var priorityChoices = []string{"server's", "1 (required)", "0.75", "0.5", "0.25", "0"}

var priorityValues = []float64{-1, 1, 0.75, 0.5, 0.25, 0}

// attachmentRow is one line of the attachments list, reused by the
// virtualized list for whichever attachment it shows.
type attachmentRow struct {
	widget.BaseWidget
	box      *fyne.Container
	rank     *widget.Label
	verdict  *widget.Label
	title    *tipLabel
	life     *widget.Label
	stale    *widget.Label
	reason   *tipLabel
	where    *widget.Label
	pin      *check
	priority *selectBox
	reread   *button
	diff     *button
	remove   *button
}

// rowActions are what the buttons of a row do, given its attachment.
type rowActions struct {
	pin      func(a hostcore.Attachment, on bool)
	priority func(a hostcore.Attachment, p *float64)
	reread   func(a hostcore.Attachment)
	diff     func(a hostcore.Attachment)
	remove   func(a hostcore.Attachment)
}

func newAttachmentRow() *attachmentRow {
	r := &attachmentRow{rank: widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		verdict: widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		title:   newTipLabel(), life: widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		stale:  widget.NewLabelWithStyle("stale", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		reason: newTipLabel(), where: widget.NewLabel(""), pin: newCheck("Pin", nil),
		priority: newSelect(priorityChoices, nil),
		reread:   newButton("Re-read", theme.ViewRefreshIcon(), nil),
		diff:     newButton("Diff", theme.ContentCopyIcon(), nil),
		remove:   newButton("", theme.DeleteIcon(), nil)}
	r.stale.Importance = widget.WarningImportance
	r.life.Importance = widget.WarningImportance
	r.where.Truncation = fyne.TextTruncateEllipsis
	r.where.SizeName = theme.SizeNameCaptionText
	r.priority.PlaceHolder = "priority"
	// Remove sits on the title's line, so the controls' line is short
	// enough for a window 800 wide.
	top := container.NewBorder(nil, nil, container.NewHBox(r.rank, r.verdict), container.NewHBox(r.life, r.stale, r.remove), r.title)
	prio := container.NewGridWrap(fyne.NewSize(136, r.priority.MinSize().Height), r.priority)
	controls := container.NewHBox(r.pin, prio, r.reread, r.diff, layout.NewSpacer())
	r.box = container.New(rowsLayout{}, top, r.reason, r.where, controls)
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer lays the row out.
func (r *attachmentRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(ringRoom(r.box))
}

// show fills the row with x, wiring its controls to act on x's attachment;
// checked says how long ago the watcher last looked at it.
func (r *attachmentRow) show(x ranked, checked string, act rowActions) {
	a := x.att
	r.rank.SetText(fmt.Sprintf("%d.", x.dec.Rank))
	text, imp := verdictBadge(x.dec.Verdict)
	r.verdict.Importance = imp
	r.verdict.SetText(text)
	r.title.SetText(memoryTitle(x))
	r.life.SetText(x.life.Label())
	r.life.Hidden = r.life.Text == ""
	r.life.Refresh()
	r.stale.Hidden = !x.kept.Stale
	r.stale.Refresh()
	r.reason.Importance = reasonImportance(x.dec.Verdict)
	r.reason.SetText(fmt.Sprintf("%s · priority %s", x.dec.Reason, priorityText(x.dec.Priority)))
	r.where.SetText(whereText(x, checked))

	r.pin.OnChanged = nil // setting the state must not act
	r.pin.SetChecked(a.Pinned)
	r.pin.OnChanged = func(on bool) { act.pin(a, on) }
	r.priority.OnChanged = nil
	r.priority.SetSelectedIndex(priorityIndex(a.PriorityOverride))
	r.priority.OnChanged = func(string) {
		if v := priorityValues[r.priority.SelectedIndex()]; v >= 0 {
			act.priority(a, &v)
		} else {
			act.priority(a, nil)
		}
	}
	r.reread.OnTapped = func() { act.reread(a) }
	setEnabled(r.reread, x.watched)
	r.diff.OnTapped = func() { act.diff(a) }
	setEnabled(r.diff, x.kept.Previous != nil)
	r.remove.OnTapped = func() { act.remove(a) }
}

// rowTitle names an attachment: its title and, for one made from a
// template (every memory is titled "Memory"), the last segment of its uri.
func rowTitle(a hostcore.Attachment) string {
	if a.Title == "" {
		return a.URI
	}
	if a.Origin == hostcore.FromList || a.Origin == hostcore.FromTool {
		return a.Title
	}
	return a.Title + " " + path.Base(a.URI)
}

// verdictBadge is a verdict as a short word and how prominent to make it.
func verdictBadge(v pack.Verdict) (string, widget.Importance) {
	switch v {
	case pack.VerdictIncluded:
		return "included", widget.SuccessImportance
	case pack.VerdictDroppedBudget:
		return "dropped", widget.WarningImportance
	case pack.VerdictHeldAudience:
		return "held back", widget.LowImportance
	case pack.VerdictUnreadable:
		return "unreadable", widget.DangerImportance
	}
	return string(v), widget.MediumImportance
}

func reasonImportance(v pack.Verdict) widget.Importance {
	if v == pack.VerdictUnreadable {
		return widget.DangerImportance
	}
	return widget.MediumImportance
}

// whereText is a row's last line: the uri, the server and account it is
// read as, and how it is kept current.
func whereText(x ranked, checked string) string {
	a := x.att
	parts := []string{a.URI, a.Server.Name + "/" + a.Account}
	if x.watched {
		parts = append(parts, string(x.watch.Mode)+", checked "+checked)
	}
	return strings.Join(parts, " · ")
}

func priorityIndex(p *float64) int {
	if p == nil {
		return 0
	}
	for i, v := range priorityValues {
		if v == *p {
			return i
		}
	}
	return 0
}
