// Package desktop is the Attaché desktop app's wiring: its command line, the
// stores, the host, the built-in demo servers, the model providers and the
// window, and their closing in order. cmd/attache runs it as it is;
// cmd/attache-scenes, the screenshot scenes, runs it with a script. So the
// release binary links the product only, and the scenes (and the scripted
// model server they talk to) live in a command of their own.
//
// "NAME demo-server --db PATH" serves the embedded threengram demo over
// stdio (the built-in "demo" server runs the app's own binary that way); it
// is handled before Fyne starts.
package desktop

import (
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/internal/startup"
	"github.com/attache/attache/ui"
)

// Options are what a command adds to the app. The zero value, and nil,
// are the app as released.
type Options struct {
	// Name is the command's, for messages and the usage line; "" means
	// "attache".
	Name string
	// Flags adds the command's own flags, left out of the usage text.
	Flags func(*flag.FlagSet)
	// Check, if not nil, checks the flags once parsed.
	Check func() error
	// Script, when set, drives the window: it runs on a goroutine of its
	// own once the window is built, and what it returns is the process's
	// exit code. Sign-in pages open no browser then: the script answers
	// them.
	Script func(*Run) int
	// OpenURL, if not nil, opens sign-in pages in place of the system
	// browser (a scene of a machine without one).
	OpenURL func(*url.URL) error
	// EmptyFirstConversation, if not nil and true once the flags are
	// parsed, makes a first launch open on an empty conversation instead
	// of the demo conversation (a scene that scripts its own).
	EmptyFirstConversation func() bool
}

func (o *Options) name() string {
	if o == nil || o.Name == "" {
		return "attache"
	}
	return o.Name
}

// Main runs the app with args (the command line after the program's name)
// and returns the process's exit code. start is when main began, for the
// startup measurement.
func Main(start time.Time, args []string, opts *Options) int {
	if opts == nil {
		opts = &Options{}
	}
	if len(args) > 0 && args[0] == hostcore.DemoCommand {
		return serveDemo(args[1:])
	}
	f, err := parseFlags(args, opts)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	} else if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", opts.name(), err)
		return 2
	}
	logger := newLogger(f.verbose)
	timing := startup.New(start, logger)
	timing.Mark("main")
	fa := app.NewWithID("dev.attache.app")
	fa.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	ui.ApplyTheme(fa)
	warmed := ui.WarmFonts()
	go func() { <-warmed; timing.Mark("fonts warmed") }()
	timing.Mark("fyne app")
	w, err := wire(fa, f, opts, logger, timing, warmed)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", opts.name(), err)
		return 1
	}
	exitCode := quitOnSignal(fa, w.app.Close)
	w.app.Window().ShowAndRun()
	return exitCode(w.close())
}

// Run is what a script (Options.Script) drives: the window and the host,
// and the window's frames, to wait for what it shows.
type Run struct {
	App   *ui.App
	Host  *hostcore.Host
	start *startup.Timing
}

// Ready is closed once the first screen is ready (the demo's memories
// listed).
func (r *Run) Ready() <-chan struct{} { return r.start.ReadyCh() }

// NextFrame waits until the window has painted a frame that began after
// the call, or timeout, polling.
func (r *Run) NextFrame(timeout time.Duration) error { return r.start.NextFrame(timeout) }

// WaitFrame waits for such a frame without polling: for measures that time
// frames.
func (r *Run) WaitFrame(timeout time.Duration) error { return r.start.WaitFrame(timeout) }

// Frames counts the frames the window has painted.
func (r *Run) Frames() int64 { return r.start.Frames() }

// Repaint asks for a frame; call it on the main goroutine (fyne.Do).
func (r *Run) Repaint() { r.start.Repaint() }
