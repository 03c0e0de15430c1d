package ui

import (
	"context"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
)

// searchPage is how many memories a search shows at a time.
const searchPage = 10

// memorySearch is "Search memories" in the Memories tab: the person types
// words and presses Enter or Search, and the server's search tool answers
// with excerpts, each memory's type, topic, project and date, and its
// lifecycle as the server says it now. Each result can be read or
// attached. The host never searches on its own.
type memorySearch struct {
	sh   *shell
	conn *hostcore.Conn
	ask  job

	query   *keyEntry
	search  *button
	more    *button
	status  *widget.Label
	results *fyne.Container
	rows    []*keyRow         // the results, one a hit, for the keyboard
	scroll  *container.Scroll // the tab's scroll, which a row the keys reach comes into

	hits   []hostcore.MemoryHit
	cursor string // the next page's, "" on the last
	asked  string // the query the results answer
}

func newMemorySearch(sh *shell) *memorySearch { return &memorySearch{sh: sh} }

func (m *memorySearch) buildUI() fyne.CanvasObject {
	m.query = newKeyEntry()
	m.query.SetPlaceHolder("words in a memory's content, topic or tags")
	m.query.OnSubmitted = func(string) { m.run(false) }
	m.query.onDown = func() { m.focus(0) }
	m.search = newButton("Search", theme.SearchIcon(), func() { m.run(false) })
	m.more = newButton("More results", nil, func() { m.run(true) })
	m.more.Hide()
	m.status = caption("")
	m.results = container.NewVBox()
	return container.NewVBox(heading("Search memories"),
		container.NewBorder(nil, nil, nil, m.search, m.query), m.status, m.results, container.NewHBox(m.more))
}

// setConn clears the results: they were another account's.
func (m *memorySearch) setConn(c *hostcore.Conn) {
	m.conn = c
	m.ask.stop()
	m.hits, m.rows, m.cursor, m.asked = nil, nil, "", ""
	m.results.RemoveAll()
	m.more.Hide()
	m.status.SetText("")
}

// run asks the server's search tool for the query, or for the next page
// of the last one (more).
func (m *memorySearch) run(more bool) {
	q := strings.TrimSpace(m.query.Text)
	if more {
		q = m.asked
	}
	if q == "" || m.conn == nil {
		m.status.SetText("Type some words to search for.")
		return
	}
	cursor := ""
	if more {
		cursor = m.cursor
	}
	c := m.conn
	ctx, gen := m.ask.start(m.sh.asked())
	m.status.SetText("Searching " + c.Server.Name + " for “" + q + "”…")
	run(m.sh.work, ctx, func(ctx context.Context) (hostcore.MemorySearch, error) {
		return c.SearchMemories(ctx, q, cursor, searchPage)
	}, func(res hostcore.MemorySearch, err error) {
		if !m.ask.current(gen) {
			return
		}
		m.ask.finish(gen)
		if err != nil {
			_, msg, _, _ := explain(err)
			m.status.SetText("The search failed: " + msg)
			return
		}
		if !more {
			m.hits, m.rows = nil, nil
			m.results.RemoveAll()
		}
		m.asked, m.cursor = q, res.NextCursor
		m.hits = append(m.hits, res.Hits...)
		for _, h := range res.Hits {
			m.results.Add(m.hitRow(h))
		}
		m.more.Hidden = res.NextCursor == ""
		m.more.Refresh()
		switch {
		case len(m.hits) == 0:
			m.status.SetText("No memory of " + c.Account.Name + " matches “" + q + "”.")
		case res.NextCursor != "":
			m.status.SetText("The first " + pack.QuantityOf(len(m.hits), "memory", "memories") + " matching “" + q + "”:")
		default:
			m.status.SetText(pack.QuantityOf(len(m.hits), "memory", "memories") + " matching “" + q + "”:")
		}
	})
}

// focus moves the keyboard onto the i-th result; above the first, back to
// the search field.
func (m *memorySearch) focus(i int) {
	if i < 0 {
		m.sh.win.Canvas().Focus(m.query)
		return
	}
	focusRow(m.sh.win, m.scroll, m.rows, i)
}

// hitRow is one result: the id, type, topic, project and date, its state
// if it is not current, the excerpt, and Read and Attach. The keyboard
// reaches it from the search field with Down; Enter reads it.
func (m *memorySearch) hitRow(h hostcore.MemoryHit) fyne.CanvasObject {
	head := widget.NewLabelWithStyle(h.ID+" · "+h.Line(), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	head.Truncation = fyne.TextTruncateEllipsis
	excerpt := h.Excerpt
	if h.Truncated {
		excerpt += " …"
	}
	body := widget.NewLabel(oneLineSpaces(excerpt))
	body.Wrapping = fyne.TextWrapWord
	read := newButton("Read", theme.VisibilityIcon(), func() { m.read(h) })
	attach := newButton("Attach", theme.ContentAddIcon(), func() { m.attach(h) })
	read.Importance, attach.Importance = widget.LowImportance, widget.LowImportance
	var right fyne.CanvasObject = container.NewHBox(read, attach)
	if label := h.State.Label(); label != "" {
		state := widget.NewLabelWithStyle(label, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		state.Importance = widget.WarningImportance
		right = container.NewHBox(state, read, attach)
	}
	row := newKeyRow(container.NewVBox(container.NewBorder(nil, nil, nil, right, head), body, widget.NewSeparator()))
	i := len(m.rows)
	row.onUp, row.onDown = func() { m.focus(i - 1) }, func() { m.focus(i + 1) }
	row.onEnter = func() { m.read(h) }
	m.rows = append(m.rows, row)
	return row
}

// read shows the memory in the inspector, through the cache.
func (m *memorySearch) read(h hostcore.MemoryHit) {
	if m.conn == nil {
		return
	}
	m.sh.read(readRequest{conn: m.conn, uri: h.URI, title: "Memory " + h.ID})
}

// attach attaches the memory by its id, through the server's id template.
func (m *memorySearch) attach(h hostcore.MemoryHit) {
	cv, id := m.sh.cv, h.ID
	m.sh.attach("from a search", func(ctx context.Context, conv int64, c *hostcore.Conn) (hostcore.Attachment, error) {
		return cv.AttachID(ctx, conv, c, id)
	})
}

// oneLineSpaces folds the excerpt's line breaks into spaces.
func oneLineSpaces(s string) string { return strings.Join(strings.Fields(s), " ") }
