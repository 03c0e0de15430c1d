// Package ui holds Attaché's Fyne screens: servers and accounts on the left,
// the picker and the read inspector in the centre, the conversation's
// attachments and the model context on the right. It talks to hostcore
// only: no SQL, no protocol details, no os.Args. Everything it shows comes
// from hostcore; it adds screens, not logic.
//
// Concurrency: widgets are created and changed on Fyne's main goroutine
// only. Work that may block (a server, a database, the network) runs on
// goroutines and reports back through fyne.Do.
package ui

import (
	"context"
	"errors"
	"log/slog"
	"net/url"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/icon"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/hostcore/signin"
)

// Options configure the app. The zero value, and a nil *Options, are
// usable.
type Options struct {
	// Icons fetches the icons servers give resources; nil shows none.
	Icons *icon.Fetcher
	// Now is the clock behind "checked 3 s ago"; nil means time.Now.
	Now func() time.Time
	// RefreshEvery is how often connection states are looked at again
	// while nothing else happens; 0 means only after each action.
	RefreshEvery time.Duration
	// CompleteDelay is the pause in typing after which completion is
	// asked for; 0 means 200 ms.
	CompleteDelay time.Duration
	// Ready, if set, is called once on the main goroutine when the first
	// screen shows its server's catalog and the conversation.
	Ready func()
	// Logger receives what the person is not shown; nil discards it.
	Logger *slog.Logger
	// Chat sends the conversation's messages to a model, with Models
	// building the model of a provider of the config. With either nil,
	// Send only shows the context a model would receive.
	Chat   *chat.Chat
	Models func(models.Provider) (chat.Model, error)
	// Keys keeps the providers' API keys for the provider editor; nil
	// means keys come from environment variables only.
	Keys ProviderKeys
	// FirstConversation, if set, makes the conversation a first launch
	// opens on (the app's demo conversation), instead of an empty one. It
	// is called off the main goroutine; a conversation it returns with an
	// error is kept, and the error shown.
	FirstConversation func(ctx context.Context) (hostcore.Conversation, error)
	// OpenURL opens a sign-in page in the person's browser, and says
	// whether it could; it is called off the main goroutine. Nil opens
	// none: the sign-in rows say so and show the address to copy.
	OpenURL func(u *url.URL) error
	// AfterFirstFrame, if set, is handed the work New would otherwise
	// start at once (connecting to the remembered server and listing its
	// catalog, loading the conversation and its attachments, the periodic
	// refresh of states) and calls it on the main goroutine once the window
	// has shown its first frame. The first paint then waits for nothing
	// but the window's construction, and the work does not compete with it
	// for the CPU. nil starts the work inside New.
	AfterFirstFrame func(start func())
	// FontsWarmed, if set, is WarmFonts' channel: New waits for it to
	// close before it measures any text, so that the warming goroutine
	// and the window never shape with the same font faces at once.
	FontsWarmed <-chan struct{}
	// WrapContent, if set, wraps the window's content before the window
	// is given it (the start-up measurement lays its probe over it): set
	// once, the content is laid out once, where wrapping it afterwards
	// would lay the whole window out again.
	WrapContent func(fyne.CanvasObject) fyne.CanvasObject
}

// Preference keys.
const (
	prefWidth        = "window.width"
	prefHeight       = "window.height"
	prefConversation = "conversation"
	prefServer       = "server"
	prefAccount      = "account"
	prefBudget       = "budget"
)

// defaultSize is the window's size on first launch.
var defaultSize = fyne.NewSize(1280, 800)

// App is Attaché's main window and its screens.
type App struct {
	sh     *shell
	cancel context.CancelFunc

	servers       *serversPanel
	picker        *picker
	inspector     *inspector
	results       *toolResultPane
	attachments   *attachmentsPanel
	conversations *conversationBar
	status        *widget.Label
	lower         *fyne.Container // the inspector, or the tools tab's result
	resultsIn     bool            // the tools tab's result is in lower (showResults)
	compare       *compareView    // the comparison lab's window (compare.go), made on first use
	console       *console
	subscriptions *subscriptionsView
	settings      *settings

	// ready is Options.Ready, called once both the conversation and the
	// catalog of the first server are shown.
	ready                   func()
	convShown, catalogShown bool
	closed                  bool
	stopEnds                func() // unregisters watchContextEnds
	unfollow                func() // stops following the host's sign-ins
}

// New builds the main window of fa over the person's conversations (and
// the host they reach servers through), and starts connecting to the last
// used server (the built-in demo on first launch) and loading the last
// conversation (a new one on first launch). It returns at once: the window
// fills in as the work lands. Call it on the main goroutine.
func New(fa fyne.App, cv *hostcore.Conversations, opts *Options) *App {
	ctx, cancel := context.WithCancel(context.Background())
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.FontsWarmed != nil {
		<-o.FontsWarmed
	}
	a := &App{cancel: cancel, ready: o.Ready}
	a.sh = &shell{ctx: ctx, cv: cv, host: cv.Host(), opts: o, prefs: fa.Preferences(), work: &tracker{},
		win: fa.NewWindow("Attaché")}
	a.sh.read = func(r readRequest) { a.showResults(false); a.inspector.read(r) }
	a.sh.openConsole = func() { a.console.show() }
	a.sh.attached = func() { a.attachments.reload() }
	a.sh.notify = a.notify
	a.sh.fail = a.fail
	openWindows.Add(1)
	content := a.buildUI()
	a.watchContextEnds()
	a.unfollow = a.servers.followSignIns()
	restOfServers := a.showServers(o.AfterFirstFrame != nil)
	a.setContent(content)
	if o.AfterFirstFrame != nil {
		o.AfterFirstFrame(func() {
			restOfServers()
			a.start()
		})
	} else {
		a.start()
	}
	return a
}

// buildUI builds the screens, and returns the window's content.
func (a *App) buildUI() fyne.CanvasObject {
	sh := a.sh
	a.servers = newServersPanel(sh, a.useConn)
	a.results = newToolResultPane(sh)
	a.picker = newPicker(sh, a.results, a.pickerLoaded)
	a.inspector = newInspector(sh)
	a.conversations = newConversationBar(sh, a.useConversation)
	a.attachments = newAttachmentsPanel(sh, a.conversations)
	a.console = newConsole(sh)
	a.subscriptions = newSubscriptionsView(sh)
	a.settings = newSettings(sh)
	a.status = widget.NewLabel("Starting…")
	a.status.Truncation = fyne.TextTruncateEllipsis

	// The tools tab's result is made, and goes in behind the inspector,
	// when first shown: a stack lays out its hidden objects too.
	a.lower = container.NewStack(a.inspector.buildUI(), container.NewWithoutLayout())
	a.results.front = a.showResults
	a.showResults(false)
	centre := container.NewVSplit(a.picker.buildUI(), a.lower)
	centre.Offset = 0.45
	centreRight := container.NewHSplit(centre, a.attachments.buildUI())
	centreRight.Offset = 0.53
	columns := container.NewHSplit(a.servers.buildUI(), centreRight)
	columns.Offset = 0.18
	return container.NewBorder(nil, a.status, nil, nil, columns)
}

// setContent gives the window its content, its menu and its keys, and
// restores its size. New calls it once the servers' cards are in: Fyne
// lays the whole window out when it is given its content, and cards that
// come after are laid out again, as the list grows, on their own.
func (a *App) setContent(content fyne.CanvasObject) {
	sh := a.sh
	if wrap := sh.opts.WrapContent; wrap != nil {
		content = wrap(content)
	}
	sh.win.SetContent(content)
	sh.win.SetMainMenu(a.menu())
	// Escape cancels a read in progress: here when nothing has the focus,
	// and from a focused control, which hands Escape on (escapeToWindow).
	sh.win.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyEscape {
			a.inspector.cancel()
		}
	})
	sh.win.Resize(fyne.NewSize(
		float32(sh.prefs.FloatWithFallback(prefWidth, float64(defaultSize.Width))),
		float32(sh.prefs.FloatWithFallback(prefHeight, float64(defaultSize.Height)))))
	sh.win.SetCloseIntercept(func() {
		a.Close()
		sh.win.Close()
	})
}

// showServers lists the servers from the config, the remembered one (else
// the built-in demo, else the first) marked as in use. It reads nothing and
// connects to nothing: the first frame shows it.
//
// With onlyVisible, it builds the cards the window's height has room for,
// and returns what builds the others, to call once the first frame is on
// the screen.
func (a *App) showServers(onlyVisible bool) (rest func()) {
	a.sh.conn = a.defaultConn()
	if !onlyVisible {
		a.servers.reload()
		return func() {}
	}
	return a.servers.reloadWithin(float32(a.sh.prefs.FloatWithFallback(prefHeight, float64(defaultSize.Height))))
}

// start browses the server in use (connecting to it, listing its catalog)
// and loads the conversations.
func (a *App) start() {
	if a.closed {
		return
	}
	if c := a.sh.conn; c != nil {
		a.browse(c, false) // the remembered one: nobody asked for a sign-in yet
	} else {
		a.picker.setConn(nil)
	}
	a.conversations.load(a.sh.prefs.Int(prefConversation))
	if every := a.sh.opts.RefreshEvery; every > 0 {
		go a.refreshStates(every)
	}
}

// defaultConn is the remembered server and account, else the built-in
// demo, else the first server.
func (a *App) defaultConn() *hostcore.Conn {
	h := a.sh.host
	if c, err := h.Conn(a.sh.prefs.String(prefServer), a.sh.prefs.String(prefAccount)); err == nil && a.sh.prefs.String(prefServer) != "" {
		return c
	}
	for _, group := range [][]config.ServerConfig{h.Builtin(), h.Servers()} {
		for _, sc := range group {
			if c, err := h.ConnFor(sc, ""); err == nil {
				return c
			}
		}
	}
	return nil
}

// refreshStates looks at the connections and the watcher again now and
// then, so a server that died shows as disconnected, and an attachment's
// last check its true age, without anyone touching anything.
func (a *App) refreshStates(every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-a.sh.ctx.Done():
			return
		case <-t.C:
			deliver(func() {
				a.servers.refreshStates()
				a.attachments.refreshWatch() // "checked 12 s ago"
				a.console.refresh()
			})
		}
	}
}

// useConn makes c, which the person chose, the connection the picker
// browses and attaches through: its listings may ask for a sign-in.
func (a *App) useConn(c *hostcore.Conn) { a.browse(c, true) }

// browse makes c the connection the picker browses and attaches through;
// asked says the person chose it.
func (a *App) browse(c *hostcore.Conn, asked bool) {
	a.sh.conn = c
	a.sh.browsing = a.sh.ctx
	if asked {
		a.sh.browsing = signin.MayStart(a.sh.ctx)
	}
	a.sh.prefs.SetString(prefServer, c.Server.Name)
	a.sh.prefs.SetString(prefAccount, c.Account.Name)
	a.servers.showCurrent()
	a.picker.setConn(c)
	a.inspector.browsing(c)
	a.console.setConn(c)
	a.notify("Browsing " + c.Server.Name + " as " + c.Account.Name)
}

// useConversation makes conv the conversation attachments go to.
func (a *App) useConversation(conv hostcore.Conversation) {
	a.sh.conv = conv
	a.sh.prefs.SetInt(prefConversation, int(conv.ID))
	a.attachments.load()
	a.convShown = true
	a.checkReady()
}

// pickerLoaded is told when the picker has listed its server's catalog.
func (a *App) pickerLoaded() {
	a.servers.refreshStates()
	a.catalogShown = true
	a.checkReady()
}

func (a *App) checkReady() {
	if a.convShown && a.catalogShown && a.ready != nil {
		ready := a.ready
		a.ready = nil
		ready()
	}
}

func (a *App) notify(msg string) {
	a.status.Importance = widget.MediumImportance
	a.status.SetText(msg)
	a.servers.refreshStates()
}

func (a *App) fail(err error) {
	if errors.Is(err, context.Canceled) || errors.Is(err, fault.ErrCanceled) {
		a.notify("Canceled")
		return
	}
	a.sh.opts.Logger.Info("shown to the person", "err", err)
	a.status.Importance = widget.DangerImportance
	a.status.SetText(oneLine(err))
	a.servers.refreshStates()
}

// Window returns the main window.
func (a *App) Window() fyne.Window { return a.sh.win }

// Close stops the app's background work and remembers the window's size;
// from then on, work that lands changes no widget. The caller closes the
// host and the stores afterwards. Call it on the main goroutine, before
// Fyne's loop ends (the window's close, or a quit on a signal); a second
// call does nothing.
func (a *App) Close() {
	if a.closed {
		return
	}
	a.closed = true
	a.stopEnds()
	openWindows.Add(-1)
	size := a.sh.win.Canvas().Size()
	if size.Width > 0 && size.Height > 0 {
		a.sh.prefs.SetFloat(prefWidth, float64(size.Width))
		a.sh.prefs.SetFloat(prefHeight, float64(size.Height))
	}
	a.unfollow()
	a.attachments.close()
	a.inspector.close()
	a.console.close()
	a.subscriptions.close()
	a.cancel()
}

// showResults brings the tools tab's result (true) or the inspector
// (false) to the front of the centre's lower half.
func (a *App) showResults(on bool) {
	if on && !a.resultsIn {
		a.lower.Objects[1] = a.results.screen()
		a.resultsIn = true
		a.lower.Refresh()
	}
	ins, res := a.lower.Objects[0], a.lower.Objects[1]
	if on {
		ins.Hide()
		res.Show()
	} else {
		res.Hide()
		ins.Show()
	}
}
