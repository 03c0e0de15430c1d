package ui

import (
	"context"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
)

// resourcesTab lists every resource of every page of the server in use, in
// a virtualized list, with a search box that filters as you type. Pages are
// shown as they arrive, under a progress bar with a Cancel button.
type resourcesTab struct {
	sh     *shell
	loaded func(n int)
	icons  *iconCache

	conn *hostcore.Conn
	// all points into the pages as they landed: growing a slice of
	// pointers copies 8 bytes a resource, where a slice of resources
	// copied the whole of each (some 170 bytes) every time it grew.
	all   []*hostcore.Resource
	keys  []string // lower-cased text each resource is searched by
	shown []int    // indices into all that match the search
	sel   int      // index into shown, or -1
	list  job
	// query is what shown matches: a keystroke that adds to it narrows
	// shown instead of searching every key again.
	query string
	// firstRows, when set, is told how long after page 1 arrived its rows
	// were on the list (the catalog benchmarks set it).
	firstRows func(time.Duration)
	refreshed time.Time // when the list was last refreshed

	search   *keyEntry
	noMatch  *widget.Label // says when the search hides every resource
	rows     *keyList
	empty    *widget.Label
	progress *fyne.Container
	pages    *widget.Label
}

func newResourcesTab(sh *shell, loaded func(n int)) *resourcesTab {
	t := &resourcesTab{sh: sh, loaded: loaded, sel: -1}
	t.icons = newIconCache(sh, func() { t.rows.Refresh() })
	return t
}

func (t *resourcesTab) buildUI() fyne.CanvasObject {
	t.search = newKeyEntry()
	t.search.onDown = func() { focusList(t.sh.win, t.rows, len(t.shown)) }
	t.search.SetPlaceHolder("Search resources (Ctrl+K)")
	t.search.OnChanged = func(string) { t.filter() }
	t.search.OnSubmitted = func(string) { t.read() }
	t.rows = newKeyList(func() int { return len(t.shown) }, newResourceRow, t.updateRow)
	t.rows.OnSelected = func(id widget.ListItemID) {
		t.sel = id
		t.read()
	}
	t.empty = widget.NewLabel("")
	t.empty.Wrapping = fyne.TextWrapWord
	t.empty.Alignment = fyne.TextAlignCenter
	t.empty.Hide()
	t.noMatch = widget.NewLabel("")
	t.noMatch.Wrapping = fyne.TextWrapWord
	t.noMatch.Importance = widget.WarningImportance
	t.noMatch.Hide()
	t.pages = widget.NewLabel("")
	cancel := newButton("Cancel", theme.CancelIcon(), func() { t.stop("Listing canceled") })
	t.progress = container.NewBorder(nil, nil, nil, cancel, container.NewStack(widget.NewProgressBarInfinite(), t.pages))
	t.progress.Hide()
	top := container.NewVBox(t.search, t.noMatch, t.progress)
	return container.NewBorder(top, nil, nil, nil, container.NewStack(t.rows, container.NewPadded(t.empty)))
}

func newResourceRow() fyne.CanvasObject {
	icon := canvas.NewImageFromResource(theme.FileIcon())
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSquareSize(28))
	name := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	name.Truncation = fyne.TextTruncateEllipsis
	detail := widget.NewLabel("")
	detail.Truncation = fyne.TextTruncateEllipsis
	detail.SizeName = theme.SizeNameCaptionText
	return container.NewBorder(nil, nil, icon, nil, container.New(&rowsLayout{}, name, detail))
}

func (t *resourcesTab) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	if id >= len(t.shown) {
		return
	}
	r := t.all[t.shown[id]]
	box := o.(*fyne.Container)
	texts := box.Objects[0].(*fyne.Container)
	icon := box.Objects[1].(*canvas.Image)
	setText(texts.Objects[0].(*widget.Label), r.DisplayName())
	setText(texts.Objects[1].(*widget.Label), resourceDetail(*r))
	res := t.icons.forResource(*r)
	if res == nil {
		res = theme.FileIcon()
	}
	if icon.Resource != res {
		icon.Resource = res
		icon.Refresh()
	}
}

// setText sets l's text unless it is already that: setting it shapes the
// text again (truncation shapes it several times), which a list refreshed
// for rows added below the visible ones would pay for every visible row.
func setText(l *widget.Label, text string) {
	if l.Text != text {
		l.SetText(text)
	}
}

// resourceDetail is a resource's second line: its uri, type and size.
func resourceDetail(r hostcore.Resource) string {
	parts := []string{r.URI}
	if r.MIMEType != "" {
		parts = append(parts, r.MIMEType)
	}
	if r.Size > 0 {
		parts = append(parts, byteSize(r.Size))
	}
	return strings.Join(parts, " · ")
}

// setConn lists c's resources, canceling the listing in flight.
func (t *resourcesTab) setConn(c *hostcore.Conn) {
	t.conn = c
	t.all, t.keys, t.shown, t.sel = nil, nil, nil, -1
	t.query = strings.ToLower(strings.TrimSpace(t.search.Text))
	t.rows.UnselectAll()
	t.rows.Refresh()
	t.empty.Hide()
	if c == nil {
		t.list.stop()
		return
	}
	t.load(c)
}

// load fetches every page on a goroutine, handing each page on as soon as
// its last resource has come out of the listing, before the next page is
// asked for: the first rows are on the list right after page 1 arrives,
// whatever the server's pace. The pages land through a landing, which
// makes their search keys off the main goroutine, and which the listing
// never waits for.
func (t *resourcesTab) load(c *hostcore.Conn) {
	ctx, gen := t.list.start(t.sh.listing())
	t.pages.SetText("Listing resources…")
	t.progress.Show()
	t.sh.work.add()
	land := &landing[pageLanding]{land: func(pages []pageLanding, final func()) {
		for i := range pages {
			pages[i].keys = searchKeys(pages[i].items)
		}
		counted := func() {
			if final != nil {
				t.sh.work.done() // the listing has landed, or nobody is left to show it
			}
		}
		deliverThen(func() {
			for _, p := range pages {
				t.landed(gen, p.items, p.keys, p.progress)
				if p.progress != nil && p.progress.Pages == 1 && t.firstRows != nil && t.list.current(gen) {
					t.firstRows(time.Since(p.arrived))
				}
			}
			if final != nil {
				final()
			}
		}, counted)
	}}
	go func() {
		var page pageLanding
		hand := func() {
			land.add(page)
			page = pageLanding{}
		}
		n := 0 // resources out of the listing so far
		onPage := func(p hostcore.ListProgress) {
			if len(page.items) > 0 {
				hand()
			}
			page = pageLanding{progress: &p, arrived: time.Now(), items: make([]hostcore.Resource, 0, max(p.Items-n, 0))}
			if cap(page.items) == 0 {
				hand() // an empty page: only the progress to show
			}
		}
		var err error
		for r, e := range c.Resources(ctx, onPage) {
			if e != nil {
				err = e
				break
			}
			page.items = append(page.items, r)
			n++
			if page.progress != nil && n == page.progress.Items {
				hand() // the page's last resource
			}
		}
		caps := hostcore.Capabilities{Resources: true}
		if err == nil && n == 0 { // connected already: no request
			caps, err = c.Capabilities(ctx)
		}
		if len(page.items) > 0 {
			hand() // what a listing cut short left of its page
		}
		land.end(func() { t.finished(gen, caps, err) })
	}()
}

// pageLanding is a page of resources on its way to the list.
type pageLanding struct {
	items    []hostcore.Resource
	keys     []string               // the items' search keys
	progress *hostcore.ListProgress // how far the listing is, with this page
	arrived  time.Time              // when the page came from the host
}

// searchKeys are the lower-cased text each resource is searched by. The
// keys of a page share one allocation (a listing of 50,000 made 50,000):
// they are cut from one string, built of each field lower-cased
// (strings.ToLower allocates only for a field it changes).
func searchKeys(rs []hostcore.Resource) []string {
	n := 0
	for _, r := range rs {
		n += len(r.Name) + len(r.Title) + len(r.URI) + len(r.Description) + 3
	}
	var b strings.Builder
	b.Grow(n)
	ends := make([]int, len(rs))
	for i, r := range rs {
		b.WriteString(strings.ToLower(r.Name))
		b.WriteByte(0)
		b.WriteString(strings.ToLower(r.Title))
		b.WriteByte(0)
		b.WriteString(strings.ToLower(r.URI))
		b.WriteByte(0)
		b.WriteString(strings.ToLower(r.Description))
		ends[i] = b.Len()
	}
	all := b.String()
	keys := make([]string, len(rs))
	start := 0
	for i, end := range ends {
		keys[i], start = all[start:end], end
	}
	return keys
}

// landed adds a page of resources and their search keys; p, when set, says
// how far the listing is.
func (t *resourcesTab) landed(gen uint64, page []hostcore.Resource, keys []string, p *hostcore.ListProgress) {
	if !t.list.current(gen) {
		return
	}
	for i := range page {
		t.all = append(t.all, &page[i])
	}
	t.keys = append(t.keys, keys...)
	if p != nil && (p.Pages == 1 || time.Since(t.refreshed) >= listRefreshEvery) {
		t.pages.SetText("Listing: " + pack.Quantity(p.Pages, "page") + ", " + pack.Quantity(p.Items, "resource") + " so far…")
	}
	if len(page) > 0 {
		t.filterFrom(len(t.all) - len(page))
	}
}

// listRefreshEvery spaces the list's refreshes while pages land: a page of
// 100 rows arrives every few milliseconds, and each refresh lays out the
// visible rows again, which was most of the host's cost of listing 50,000
// resources. The first page and the last are shown at once.
const listRefreshEvery = 100 * time.Millisecond

// finished ends a listing: an error goes to the status line, an empty list
// says where else to look, or that the server offers no resources at all.
func (t *resourcesTab) finished(gen uint64, caps hostcore.Capabilities, err error) {
	if !t.list.current(gen) {
		return
	}
	t.list.finish(gen)
	t.refreshRows() // the rows that landed since the last refresh
	t.progress.Hide()
	if err != nil {
		t.sh.fail(err)
	}
	if len(t.all) == 0 {
		t.empty.SetText("This server lists no resources.\nUse Templates, or Memories for a threengram memory (by id or search).")
		if !caps.Offers(hostcore.FeatureResources) && err == nil {
			t.empty.SetText(notOffered(t.conn, caps))
		}
		if err != nil {
			t.empty.SetText("The resources could not be listed:\n" + oneLine(err))
		}
		t.empty.Show()
	}
	t.loaded(len(t.all))
}

// notOffered is the empty state of a server that declares no resources
// capability: nothing was asked of it, and nothing can be. It says what
// the server does declare, so that the person knows where it is useful.
func notOffered(c *hostcore.Conn, caps hostcore.Capabilities) string {
	var has []string
	for _, f := range []struct {
		on   bool
		name string
	}{{caps.Tools, "tools"}, {caps.Prompts, "prompts"}, {caps.Completions, "completions"}, {caps.Logging, "logging"}} {
		if f.on {
			has = append(has, f.name)
		}
	}
	offers := "nothing at all"
	if len(has) > 0 {
		offers = strings.Join(has, ", ") + " only"
	}
	return serverTitle(c.Server) + " offers no resources.\nIt declares " + offers +
		": there are no resources or templates to list, fill in or read here."
}

// stop cancels the listing in flight, keeping what has arrived.
func (t *resourcesTab) stop(msg string) {
	if !t.list.running() {
		return
	}
	t.list.stop()
	t.refreshRows()
	t.progress.Hide()
	t.sh.notify(msg + " after " + pack.Quantity(len(t.all), "resource"))
	t.loaded(len(t.all))
}

// filter shows the resources that match the search box. Typing on (the
// query grows) narrows what is shown, so a keystroke over 50,000 resources
// looks again only at those that matched the keystroke before.
func (t *resourcesTab) filter() {
	q := strings.ToLower(strings.TrimSpace(t.search.Text))
	if q != t.query && t.query != "" && strings.Contains(q, t.query) {
		t.shown = slices.DeleteFunc(t.shown, func(i int) bool { return !strings.Contains(t.keys[i], q) })
		t.query = q
		t.refreshRows()
		return
	}
	t.query = q
	t.shown = t.shown[:0]
	t.filterFrom(0)
}

// filterFrom adds to shown the resources from index from on that match
// the query (a page that just landed, or all of them).
func (t *resourcesTab) filterFrom(from int) {
	before := len(t.shown)
	for i := from; i < len(t.keys); i++ {
		if t.query == "" || strings.Contains(t.keys[i], t.query) {
			t.shown = append(t.shown, i)
		}
	}
	if from > 0 && before > 0 && time.Since(t.refreshed) < listRefreshEvery {
		return // rows added below the first ones: shown at the next refresh
	}
	t.refreshRows()
}

func (t *resourcesTab) refreshRows() {
	if t.sel >= len(t.shown) {
		t.sel = -1
	}
	if note := filterNote(strings.TrimSpace(t.search.Text), len(t.shown), len(t.keys), "resource", "search"); note != t.noMatch.Text || note == "" {
		t.noMatch.SetText(note)
		t.noMatch.Hidden = note == ""
	}
	t.rows.Refresh()
	t.refreshed = time.Now()
}

// chosen is the selected resource, else the first that matches the search.
func (t *resourcesTab) chosen() (hostcore.Resource, bool) {
	i := t.sel
	if i < 0 && len(t.shown) > 0 {
		i = 0
	}
	if i < 0 || i >= len(t.shown) {
		return hostcore.Resource{}, false
	}
	return *t.all[t.shown[i]], true
}

// selectURI selects the resource with uri, which reads it.
func (t *resourcesTab) selectURI(uri string) bool {
	for i, j := range t.shown {
		if t.all[j].URI == uri {
			t.rows.Select(i)
			t.rows.ScrollTo(i)
			return true
		}
	}
	return false
}

func (t *resourcesTab) read() {
	r, ok := t.chosen()
	if !ok {
		return
	}
	t.sh.read(readRequest{conn: t.conn, uri: r.URI, title: r.DisplayName(), annotations: r.Annotations})
}

func (t *resourcesTab) attach() {
	r, ok := t.chosen()
	if !ok {
		t.sh.fail(hostcore.NewUsageError("choose a resource to attach"))
		return
	}
	cv := t.sh.cv
	t.sh.attach("from the list", func(ctx context.Context, conv int64, c *hostcore.Conn) (hostcore.Attachment, error) {
		return cv.AttachResource(ctx, conv, c, r)
	})
}
