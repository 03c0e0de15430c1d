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

// consolePages pages a list by hand, one page at a time: First page asks
// for page 1, Next page for the page at the last reply's nextCursor. Each
// page shows the cursor it was asked with, the id of its request, how many
// items it held and the nextCursor it gave; the chosen page lists its
// items. Every request goes to the server (never the cache) on the
// console's connection, and shows in the history. Used on the main
// goroutine only.
type consolePages struct {
	c *console

	method *selectBox
	first  *button
	next   *button
	status *widget.Label
	list   *keyList
	items  *widget.Label

	conn   *hostcore.Conn // the connection the pages are of
	pages  []hostcore.ListPage
	chosen int
	busy   job
}

func newConsolePages(c *console) *consolePages { return &consolePages{c: c, chosen: -1} }

func (p *consolePages) buildUI() fyne.CanvasObject {
	p.method = newSelect(hostcore.PagedMethods, func(string) { p.reset() })
	p.method.SetSelectedIndex(0)
	p.first = newButton("First page", theme.MediaSkipPreviousIcon(), func() { p.fetch("") })
	p.next = newButton("Next page", theme.MediaSkipNextIcon(), p.fetchNext)
	p.next.Disable()
	p.status = widget.NewLabel("")
	p.status.Wrapping = fyne.TextWrapWord
	p.list = newKeyList(func() int { return len(p.pages) }, func() fyne.CanvasObject {
		l := widget.NewLabel("")
		l.TextStyle.Monospace = true
		l.Truncation = fyne.TextTruncateEllipsis
		return l
	}, func(id widget.ListItemID, o fyne.CanvasObject) { o.(*widget.Label).SetText(pageLine(id, p.pages[id])) })
	p.list.OnSelected = p.choose
	p.items = monospace("", dialogColumns)
	p.items.Selectable = true
	bar := container.NewHBox(widget.NewLabel("List"), p.method, p.first, p.next)
	split := container.NewVSplit(p.list, container.NewBorder(heading("Items of the chosen page"), nil, nil, nil, container.NewScroll(p.items)))
	split.Offset = 0.4
	p.reset()
	return container.NewBorder(container.NewVBox(bar, p.status), nil, nil, nil, split)
}

// reset forgets the pages (another method, another connection).
func (p *consolePages) reset() {
	if p.list == nil {
		return
	}
	p.busy.stop()
	p.pages, p.chosen, p.conn = nil, -1, p.c.conn
	p.items.SetText("")
	p.next.Disable()
	p.status.SetText("First page asks the server for page 1 of " + p.method.Selected + "; Next page asks for the page at the last reply's nextCursor.")
	p.list.UnselectAll()
	p.list.Refresh()
}

// fetchNext asks for the page after the last.
func (p *consolePages) fetchNext() {
	if n := len(p.pages); n > 0 && p.pages[n-1].Next != "" {
		p.fetch(p.pages[n-1].Next)
	}
}

// fetch asks for the page at cursor; the first page starts the list again.
func (p *consolePages) fetch(cursor string) {
	if p.c.conn == nil {
		return
	}
	if cursor == "" || p.conn != p.c.conn {
		p.reset()
	}
	conn, method := p.c.conn, p.method.Selected
	ctx, gen := p.busy.start(p.c.sh.ctx)
	p.first.Disable()
	p.next.Disable()
	p.status.SetText(fmt.Sprintf("Asking for %s with cursor %s…", method, cursorWords(cursor)))
	run(p.c.sh.work, ctx, func(ctx context.Context) (hostcore.ListPage, error) {
		return conn.ListPage(ctx, method, cursor)
	}, func(page hostcore.ListPage, err error) {
		if !p.busy.current(gen) {
			return
		}
		p.busy.finish(gen)
		p.first.Enable()
		p.c.selectSeq = page.Seq
		p.c.refresh()
		if err != nil {
			p.status.Importance = widget.DangerImportance
			p.status.SetText(fmt.Sprintf("%s with cursor %s failed: %s", method, cursorWords(cursor), oneLine(err)))
			enable(p.next, len(p.pages) > 0 && p.pages[len(p.pages)-1].Next != "")
			return
		}
		p.landed(page)
	})
}

// landed shows a page that came back.
func (p *consolePages) landed(page hostcore.ListPage) {
	p.pages = append(p.pages, page)
	p.status.Importance = widget.MediumImportance
	if page.Next == "" {
		p.status.SetText(fmt.Sprintf("Page %d is the last: the reply has no nextCursor.", len(p.pages)))
	} else {
		p.status.SetText(fmt.Sprintf("Page %d came with nextCursor %s: Next page asks for it.", len(p.pages), cursorWords(page.Next)))
	}
	enable(p.next, page.Next != "")
	p.list.Refresh()
	p.list.Select(len(p.pages) - 1)
}

// choose lists the items of a page.
func (p *consolePages) choose(id widget.ListItemID) {
	p.chosen = id
	if id < 0 || id >= len(p.pages) {
		p.items.SetText("")
		return
	}
	pg := p.pages[id]
	if len(pg.Items) == 0 {
		p.items.SetText("(no items on this page)")
		return
	}
	p.items.SetText(softWrap(strings.Join(pg.Items, "\n"), dialogColumns))
}

// pageLine is one page as a row: its number, the cursor it was asked
// with, its request's id, its items and its nextCursor.
func pageLine(i int, pg hostcore.ListPage) string {
	id := "not recorded"
	if pg.ID != "" {
		id = "#" + pg.ID
	}
	next := "none (last page)"
	if pg.Next != "" {
		next = cursorWords(pg.Next)
	}
	return fmt.Sprintf("page %d · cursor %s · %s · %s · nextCursor %s", i+1, cursorWords(pg.Cursor), id,
		plural(len(pg.Items), "item", "items"), next)
}

// cursorWords shows a cursor, quoted; "" is the first page's.
func cursorWords(c string) string {
	if c == "" {
		return "none (first page)"
	}
	if len(c) > 48 {
		c = c[:48] + "…"
	}
	return fmt.Sprintf("%q", c)
}
