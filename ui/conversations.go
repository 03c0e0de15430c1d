package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
)

// firstTitle is the title of the conversation made on first launch.
const firstTitle = "First conversation"

// conversationBar chooses the conversation attachments belong to: switch,
// create, rename. The last one used is remembered.
type conversationBar struct {
	sh  *shell
	use func(hostcore.Conversation)

	all     []hostcore.Conversation
	choose  *selectBox
	undo    *button
	removed int64 // the conversation Undo brings back
}

func newConversationBar(sh *shell, use func(hostcore.Conversation)) *conversationBar {
	return &conversationBar{sh: sh, use: use}
}

func (b *conversationBar) buildUI() fyne.CanvasObject {
	b.choose = newSelect(nil, func(string) {
		if i := b.choose.SelectedIndex(); i >= 0 && i < len(b.all) && b.all[i].ID != b.sh.conv.ID {
			b.use(b.all[i])
		}
	})
	b.choose.PlaceHolder = "loading…" // short: a long one sets the window's least width
	create := newButton("", theme.ContentAddIcon(), b.askCreate)
	rename := newButton("", theme.DocumentCreateIcon(), b.askRename)
	remove := newButton("", theme.DeleteIcon(), b.remove)
	b.undo = newButton("Undo", theme.ContentUndoIcon(), b.restore)
	b.undo.Hide()
	return container.NewBorder(nil, nil, heading("Conversation"), container.NewHBox(b.undo, create, rename, remove), b.choose)
}

// load lists the conversations and switches to want (0: the newest),
// creating a first one when there is none, so a first launch has a
// conversation ready.
func (b *conversationBar) load(want int) {
	cv := b.sh.cv
	first := b.sh.opts.FirstConversation
	type listed struct {
		all  []hostcore.Conversation
		pick int64
	}
	run(b.sh.work, b.sh.ctx, func(ctx context.Context) (listed, error) {
		all, err := cv.List(ctx)
		if err != nil || len(all) > 0 && (first == nil || !b.untouched(ctx, all)) {
			return listed{all, int64(want)}, err
		}
		if first == nil {
			c, err := cv.Create(ctx, firstTitle)
			return listed{[]hostcore.Conversation{c}, c.ID}, err
		}
		c, err := first(ctx)
		if c.ID != 0 {
			all = append(all, c)
		}
		return listed{all, c.ID}, err
	}, func(l listed, err error) {
		if err != nil {
			b.sh.fail(err)
		}
		if len(l.all) > 0 {
			b.show(l.all, l.pick)
		}
	})
}

// untouched reports whether all is only the empty conversation an earlier
// first launch made: then the first conversation is made as if none were
// there (the demo's, beside it).
func (b *conversationBar) untouched(ctx context.Context, all []hostcore.Conversation) bool {
	if len(all) != 1 || all[0].Title != firstTitle {
		return false
	}
	atts, err := b.sh.cv.Attachments(ctx, all[0].ID)
	if err != nil || len(atts) > 0 {
		return false
	}
	if ch := b.sh.opts.Chat; ch != nil {
		if turns, err := ch.Turns(ctx, all[0].ID); err != nil || len(turns) > 0 {
			return false
		}
	}
	return true
}

// show lists all and switches to the conversation with id want, else the
// newest.
func (b *conversationBar) show(all []hostcore.Conversation, want int64) {
	b.all = all
	names := make([]string, len(all))
	seen := map[string]bool{}
	pick := -1
	for i, c := range all {
		names[i] = c.Title
		if seen[c.Title] { // the select tells options apart by their text
			names[i] = fmt.Sprintf("%s (#%d)", c.Title, c.ID)
		}
		seen[c.Title] = true
		if c.ID == want {
			pick = i
		}
	}
	if pick < 0 {
		pick = newest(all)
	}
	b.choose.SetOptions(names)
	if pick < 0 {
		return
	}
	if all[pick].ID == b.sh.conv.ID {
		b.sh.conv = all[pick] // a rename: same conversation, new title
		b.choose.Selected = names[pick]
		b.choose.Refresh()
		return
	}
	b.choose.SetSelectedIndex(pick) // calls use
}

// newest is the index of the most recently updated conversation.
func newest(all []hostcore.Conversation) int {
	best := -1
	for i, c := range all {
		if best < 0 || c.UpdatedAt.After(all[best].UpdatedAt) {
			best = i
		}
	}
	return best
}

func (b *conversationBar) askCreate() {
	b.ask("New conversation", fmt.Sprintf("Conversation %d", len(b.all)+1), "Create", b.create)
}

func (b *conversationBar) askRename() {
	if b.sh.conv.ID == 0 {
		return
	}
	b.ask("Rename conversation", b.sh.conv.Title, "Rename", b.rename)
}

// ask asks for a title.
func (b *conversationBar) ask(title, initial, confirm string, then func(string)) {
	e := newKeyEntry()
	e.SetText(initial)
	d := newFormDialog(title, confirm, "Cancel", []*widget.FormItem{widget.NewFormItem("Title", e)}, func(ok bool) {
		if t := strings.TrimSpace(e.Text); ok && t != "" {
			then(t)
		}
	}, b.sh.win)
	d.Resize(fyne.NewSize(420, 0))
	closeOnEscape(b.sh.win, d, d.Submit, e) // Enter saves, Escape cancels
	d.Show()
	b.sh.win.Canvas().Focus(e)
}

// create makes a conversation and switches to it.
func (b *conversationBar) create(title string) {
	cv := b.sh.cv
	b.change(func(ctx context.Context) (int64, error) {
		c, err := cv.Create(ctx, title)
		return c.ID, err
	}, "Created “"+title+"”")
}

// rename retitles the current conversation.
func (b *conversationBar) rename(title string) {
	cv, id := b.sh.cv, b.sh.conv.ID
	b.change(func(ctx context.Context) (int64, error) {
		return id, cv.Rename(ctx, id, title)
	}, "Renamed the conversation to “"+title+"”")
}

// change runs f, then lists the conversations again and switches to the
// one f names.
func (b *conversationBar) change(f func(ctx context.Context) (int64, error), done string) {
	cv := b.sh.cv
	type outcome struct {
		id  int64
		all []hostcore.Conversation
	}
	run(b.sh.work, b.sh.ctx, func(ctx context.Context) (outcome, error) {
		id, err := f(ctx)
		if err != nil {
			return outcome{}, err
		}
		all, err := cv.List(ctx)
		return outcome{id, all}, err
	}, func(o outcome, err error) {
		if err != nil {
			b.sh.fail(err)
			return
		}
		b.show(o.all, o.id)
		b.sh.notify(done)
	})
}

// remove takes the current conversation (and its attachments) away and
// switches to the newest other one, offering Undo until the app quits.
func (b *conversationBar) remove() {
	c := b.sh.conv
	if c.ID == 0 {
		return
	}
	cv := b.sh.cv
	b.removed = c.ID
	b.change(func(ctx context.Context) (int64, error) {
		if err := cv.Remove(ctx, c.ID); err != nil {
			return 0, err
		}
		all, err := cv.List(ctx)
		if err != nil || len(all) > 0 {
			return all[max(newest(all), 0)].ID, err
		}
		first, err := cv.Create(ctx, firstTitle)
		return first.ID, err
	}, "Removed “"+c.Title+"”: Undo brings it back until you quit")
	b.undo.Show()
}

// restore brings back the conversation removed last.
func (b *conversationBar) restore() {
	id, cv := b.removed, b.sh.cv
	b.undo.Hide()
	b.change(func(ctx context.Context) (int64, error) {
		return id, cv.Restore(ctx, id)
	}, "Restored the conversation")
}
