package ui

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/wire"
)

// inspector is the centre's lower half: one read, as the host saw it. The
// body rendered by type; the metadata (uri, mimeType, size, annotations);
// a cache badge (hit, miss or stale, TTL left, scope, account); the raw
// JSON-RPC request and response; the time the server took. A failed read
// shows its kind and what to do next.
type inspector struct {
	sh   *shell
	req  readRequest
	busy job
	// shownScope is the cache scope of the body shown ("" for none): a
	// public body stays when the person browses another account.
	shownScope string

	uri      *widget.Label
	badge    *widget.Label
	elapsed  *widget.Label
	progress *fyne.Container
	modes    *fyne.Container
	facts    *fyne.Container
	tabs     *container.AppTabs
	body     *fyne.Container // the viewer, or a placeholder or error in a scroll
	viewer   *bodyViewer     // made by bodyViewer, on first use
	meta     *fyne.Container // what is known of the resource, made when its tab shows
	raw      *fyne.Container // the exchange, made when its tab shows
	watch    *inspectorWatch // Subscribe, and the body going stale
	// due makes the content of a tab that was not shown since the last
	// read, for when it is (see later).
	due map[*fyne.Container]func() fyne.CanvasObject
}

func newInspector(sh *shell) *inspector { return &inspector{sh: sh} }

// close stops following the host's subscriptions.
func (in *inspector) close() { in.watch.close() }

func (in *inspector) buildUI() fyne.CanvasObject {
	in.uri = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	in.uri.Truncation = fyne.TextTruncateEllipsis
	in.badge = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	in.badge.Wrapping = fyne.TextWrapWord
	in.elapsed = widget.NewLabel("")
	cancel := newButton("Cancel", theme.CancelIcon(), func() { in.cancel() })
	in.progress = container.NewBorder(nil, nil, nil, cancel, widget.NewProgressBarInfinite())
	in.progress.Hide()
	refresh := newButton("Refresh", theme.ViewRefreshIcon(), func() { in.again(hostcore.ReadRefresh) })
	bypass := newButton("Bypass cache", nil, func() { in.again(hostcore.ReadBypass) })
	in.watch = newInspectorWatch(in)
	in.modes = container.NewHBox(in.watch.subscribe, refresh, bypass)
	in.modes.Hide()
	in.body = container.NewStack()
	in.meta, in.raw = container.NewStack(), container.NewStack()
	in.due = map[*fyne.Container]func() fyne.CanvasObject{}
	in.tabs = container.NewAppTabs(
		container.NewTabItem("Body", in.body),
		container.NewTabItem("Metadata", in.meta),
		container.NewTabItem("Raw JSON-RPC", in.raw),
	)
	in.tabs.OnSelected = func(*container.TabItem) { in.showDue() }
	in.facts = container.NewBorder(nil, nil, nil, in.elapsed, in.badge)
	in.facts.Hide()
	head := container.NewVBox(
		container.NewBorder(nil, nil, heading("Inspector"), in.modes, in.uri),
		in.facts, in.watch.bar, in.progress)
	in.showEmpty()
	return container.NewBorder(head, nil, nil, nil, in.tabs)
}

// cancel stops the read in progress (Cancel, or Escape in the window), if
// there is one, and reports whether there was.
func (in *inspector) cancel() bool {
	if !in.busy.running() {
		return false
	}
	in.busy.stop()
	in.progress.Hide()
	in.modes.Show() // Refresh reads it again
	in.showPlaceholder("canceled", "The read of "+in.req.uri+" was canceled. Refresh reads it again.")
	in.sh.notify("Read canceled")
	return true
}

// showEmpty says how to get something to inspect.
func (in *inspector) showEmpty() {
	hint := widget.NewLabel("Nothing read yet. Choose a resource, fill a template or type a memory id, " +
		"then Read (Enter). The body, what the cache did and the exact JSON-RPC exchange show here.")
	hint.Wrapping = fyne.TextWrapWord
	hint.TextStyle.Italic = true
	in.setBody(hint)
}

// bodyViewer is the viewer of the bodies read, made on first use: the
// first screen shows none, and making one costs the first frame its
// controls, their renderers and a find bar.
func (in *inspector) bodyViewer() *bodyViewer {
	if in.viewer == nil {
		in.viewer = newBodyViewer(&viewerOptions{save: in.save, link: in.follow, notify: in.sh.notify})
	}
	return in.viewer
}

// setBody shows o in the body tab, in a scroll, and keeps no body.
func (in *inspector) setBody(o fyne.CanvasObject) {
	if in.viewer != nil {
		in.viewer.Clear()
	}
	in.body.Objects = []fyne.CanvasObject{container.NewVScroll(container.NewPadded(o))}
	in.body.Refresh()
}

// later makes tab box show what make makes once it is shown (at once if
// it is): a body's exchange can be as big as the body, and its metadata
// costs a dozen wrapped labels, and nobody may look at either.
func (in *inspector) later(box *fyne.Container, make func() fyne.CanvasObject) {
	in.due[box] = make
	box.Objects = nil
	box.Refresh()
	in.showDue()
}

// showDue fills the tab shown, if its content is due.
func (in *inspector) showDue() {
	sel := in.tabs.Selected()
	if sel == nil {
		return
	}
	box, _ := sel.Content.(*fyne.Container)
	make := in.due[box]
	if make == nil {
		return
	}
	delete(in.due, box)
	box.Objects = []fyne.CanvasObject{make()}
	box.Refresh()
}

// setRaw makes the raw tab show ex once it is shown.
func (in *inspector) setRaw(ex wire.Exchange, fromCache bool) {
	in.later(in.raw, func() fyne.CanvasObject { return rawView(ex, fromCache) })
}

// setMeta makes the metadata tab show what is known of r (and of res,
// when the read gave one) once it is shown.
func (in *inspector) setMeta(r readRequest, res *hostcore.ReadResult) {
	in.later(in.meta, func() fyne.CanvasObject {
		s := container.NewVScroll(metadataView(r, res))
		followFocus(s) // Tab through the values keeps the focus in view
		return s
	})
}

// again reads the last resource again in another cache mode.
func (in *inspector) again(mode hostcore.ReadMode) {
	if in.req.conn == nil {
		return
	}
	r := in.req
	r.mode = mode
	in.read(r)
}

// read reads r on a goroutine and shows the outcome; a newer read, or
// Cancel, drops it.
func (in *inspector) read(r readRequest) {
	if r.conn == nil {
		in.sh.fail(hostcore.NewUsageError("choose a server first"))
		return
	}
	in.req = r
	ctx, gen := in.busy.start(in.sh.asked()) // a read the person asked for
	in.uri.SetText(r.uri)
	in.progress.Show()
	// The new uri is never shown above the previous read's body and badge.
	in.showPlaceholder("reading…", "Reading "+r.uri+" from "+r.conn.Server.Name+"…")
	in.watch.reading(r)
	run(in.sh.work, ctx, func(ctx context.Context) (shownRead, error) {
		res, err := r.conn.Read(ctx, r.uri, r.mode)
		if err != nil {
			return shownRead{}, err
		}
		offers, _ := r.conn.Offers(ctx, hostcore.FeatureSubscribe)        // the session is open: no request
		return shownRead{res, prepareContents(res.Contents), offers}, nil // the body is made ready here, off the window's thread
	}, func(read shownRead, err error) {
		if !in.busy.current(gen) {
			return
		}
		in.busy.finish(gen)
		in.progress.Hide()
		in.modes.Show()
		in.facts.Show()
		if err != nil {
			in.showError(r, err)
			return
		}
		in.showResult(r, read)
	})
}

// shownRead is a read's result with its entries made ready to show.
type shownRead struct {
	*hostcore.ReadResult
	bodies preparedContents
	offers bool // the server declares resources.subscribe
}

// showPlaceholder empties the badge, the body and the exchange, saying
// why (a read under way, a read canceled).
func (in *inspector) showPlaceholder(badge, why string) {
	in.shownScope = ""
	in.badge.Importance = widget.MediumImportance
	in.badge.SetText(badge)
	in.elapsed.SetText("")
	l := widget.NewLabel(why)
	l.Wrapping, l.TextStyle.Italic = fyne.TextWrapWord, true
	in.setBody(l)
	in.watch.hidden()
	in.later(in.meta, func() fyne.CanvasObject { return widget.NewLabel("") })
	in.setRaw(wire.Exchange{}, false)
}

// showResult fills every part of the inspector from a read.
func (in *inspector) showResult(r readRequest, read shownRead) {
	res := read.ReadResult
	text, imp := cacheBadge(res.Cache)
	in.badge.Importance = imp
	in.badge.SetText(text)
	if res.Cache.Status == hostcore.CacheHit || res.Cache.Status == hostcore.CacheStale {
		in.elapsed.SetText("from the cache")
	} else {
		in.elapsed.SetText("server answered in " + span(res.Elapsed))
	}
	in.shownScope = res.Cache.Scope
	in.bodyViewer().ShowPrepared(read.bodies)
	in.body.Objects = []fyne.CanvasObject{in.viewer}
	in.body.Refresh()
	in.watch.shown(r, res.Contents, read.offers)
	in.setMeta(r, res)
	in.setRaw(res.Raw, res.Cache.Status == hostcore.CacheHit || res.Cache.Status == hostcore.CacheStale)
}

// showError shows a failed read by its kind, with what to do next, and the
// exchange that failed.
func (in *inspector) showError(r readRequest, err error) {
	in.badge.Importance = widget.DangerImportance
	kind, _, _, _ := explain(err)
	in.badge.SetText("FAILED · " + string(kind))
	in.elapsed.SetText("")
	in.setBody(errorView(err))
	in.watch.failed()
	in.setMeta(r, nil)
	ex, ok := r.conn.Tap().Find("resources/read", r.uri)
	if !ok {
		ex = wire.Exchange{}
	}
	in.setRaw(ex, false)
	in.tabs.SelectIndex(0)
	in.sh.fail(err)
}

// errorView is a failure as a person reads it: the kind as a heading, the
// message, what to do next, and the detail for whoever debugs it.
func errorView(err error) fyne.CanvasObject {
	kind, msg, hint, detail := explain(err)
	title := widget.NewLabelWithStyle(kindTitle(kind), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Importance = widget.DangerImportance
	title.SizeName = theme.SizeNameSubHeadingText
	message := widget.NewLabel(msg)
	message.Wrapping = fyne.TextWrapWord
	box := container.NewVBox(container.NewHBox(widget.NewIcon(theme.ErrorIcon()), title), message)
	if hint != "" {
		next := widget.NewLabel("What to do next: " + hint)
		next.Wrapping = fyne.TextWrapWord
		next.Importance = widget.HighImportance
		box.Add(next)
	}
	if detail != "" {
		box.Add(caption("Detail: " + detail))
	}
	return box
}

// metadataView lists what is known of the resource and the read.
func metadataView(r readRequest, res *hostcore.ReadResult) fyne.CanvasObject {
	rows := [][2]string{{"URI", r.uri}, {"Title", r.title},
		{"Server", r.conn.Server.Name + " as " + r.conn.Account.Name}}
	if res != nil {
		var mimes []string
		for _, c := range res.Contents {
			mimes = append(mimes, mimeOf(c))
		}
		rows = append(rows, [2]string{"MIME type", strings.Join(mimes, ", ")},
			[2]string{"Size", pack.Quantity(int(res.Size()), "byte") + " in " + pack.QuantityOf(len(res.Contents), "entry", "entries")},
			[2]string{"Protocol", res.ProtocolVersion},
			[2]string{"Cache hints", cacheHints(res.Hints)})
		if res.Cache.NotStored != "" {
			rows = append(rows, [2]string{"Not cached", res.Cache.NotStored})
		}
	}
	a := r.annotations
	rows = append(rows, [2]string{"Audience", orNone(strings.Join(a.Audience, ", "), "not given (user and assistant)")})
	prio := fmt.Sprintf("not given (%s by default)", priorityText(pack.DefaultPriority))
	if a.Priority != nil {
		prio = priorityText(*a.Priority)
	}
	rows = append(rows, [2]string{"Priority", prio}, [2]string{"Last modified", orNone(a.LastModified, "not given")})
	grid := container.New(layout.NewFormLayout())
	for _, row := range rows {
		key := widget.NewLabelWithStyle(row[0], fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
		grid.Add(key)
		grid.Add(newCopyValue(row[1])) // Tab reaches each, Ctrl+C copies it
	}
	return grid
}

func cacheHints(h hostcore.CacheHints) string {
	scope := h.Scope
	if scope == "" {
		scope = "absent (private)"
	}
	return fmt.Sprintf("ttlMs %s, cacheScope %s", count(h.TTL.Milliseconds()), scope)
}

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

// rawView shows the JSON-RPC request and response as they crossed the
// wire, each in a viewer (indented, or as sent; searchable).
func rawView(ex wire.Exchange, fromCache bool) fyne.CanvasObject {
	if fromCache {
		return container.NewPadded(caption("Answered from the cache: nothing was sent to the server for this read."))
	}
	if len(ex.Request) == 0 && len(ex.Response) == 0 {
		return container.NewPadded(caption("No exchange was recorded for this read."))
	}
	req, resp := newBodyViewer(nil), newBodyViewer(nil)
	req.SetMessage("application/json", string(ex.Request))
	resp.SetMessage("application/json", string(ex.Response))
	top := container.NewBorder(heading("Request"), nil, nil, nil, req)
	bottom := container.NewBorder(heading("Response"), nil, nil, nil, resp)
	if ex.Truncated {
		bottom = container.NewBorder(heading("Response"), caption("The exchange was cut to bound memory."), nil, nil, resp)
	}
	split := container.NewVSplit(top, bottom)
	split.Offset = 0.35
	return split
}

// follow follows a link of a rendered body: a web address opens in the
// browser; any other (a resource the body names, such as a relative link
// of a server's Markdown) is read from the same server and account.
func (in *inspector) follow(u *url.URL) {
	switch u.Scheme {
	case "http", "https":
		if err := fyne.CurrentApp().OpenURL(u); err != nil {
			in.sh.fail(fmt.Errorf("opening %s: %w", u, err))
		}
	case "":
	default:
		if in.req.conn != nil {
			in.read(readRequest{conn: in.req.conn, uri: u.String(), title: u.String()})
		}
	}
}

// save writes a blob to a file the person chooses.
func (in *inspector) save(c pack.Content) {
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil {
			in.sh.fail(err)
			return
		}
		if wc == nil {
			return
		}
		data := c.Blob
		run(in.sh.work, in.sh.ctx, func(context.Context) (string, error) {
			defer wc.Close()
			_, err := wc.Write(data)
			return wc.URI().Path(), err
		}, func(path string, err error) {
			if err != nil {
				in.sh.fail(err)
				return
			}
			in.sh.notify("Saved " + byteSize(int64(len(data))) + " to " + path)
		})
	}, in.sh.win)
	d.SetFileName(saveName(c))
	d.Show()
}
