// Command attache is the Attaché desktop app: an MCP host that lets a person
// attach resources, above all threengram memories, to a model's context.
//
// "attache demo-server --db PATH" serves the embedded threengram demo over
// stdio (the built-in "demo" server runs the app's own binary that way); it
// is handled before Fyne starts.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/attache/attache/assets"
	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/ui"
)

func main() {
	start := time.Now()
	if len(os.Args) > 1 && os.Args[1] == hostcore.DemoCommand {
		os.Exit(serveDemo(os.Args[2:]))
	}
	f, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(0)
	} else if err != nil {
		fmt.Fprintln(os.Stderr, "attache:", err)
		os.Exit(2)
	}
	logger := newLogger(f.verbose)
	timing := newStartup(start, logger)
	timing.mark("main")
	fa := app.NewWithID("dev.attache.app")
	fa.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	ui.ApplyTheme(fa)
	ui.WarmFonts()
	timing.mark("fyne app")
	w, err := wire(fa, f, logger, timing)
	if err != nil {
		fmt.Fprintln(os.Stderr, "attache:", err)
		os.Exit(1)
	}
	exitCode := quitOnSignal(fa, w.app.Close)
	w.app.Window().ShowAndRun()
	os.Exit(exitCode(w.close()))
}
