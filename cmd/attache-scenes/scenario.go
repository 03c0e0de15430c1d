package main

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/expand"
	"github.com/attache/attache/internal/desktop"
	"github.com/attache/attache/ui"
)

// A scenario scripts the window into a state worth looking at, through the
// ui package's exported methods (the same work a tap or a keystroke starts),
// for scripts/screenshots.sh. The scenarios that read from "everything",
// "images" and "files" expect servers of those names in the config: the
// npm server-everything, mcptestd --mode image and the npm
// server-filesystem (tools only: no resources capability).
var scenarios = map[string]func(s *script) error{
	"first-screen": func(*script) error { return nil },
	"template-suggestions": func(s *script) error {
		s.do(func() { s.app.ShowPicker(ui.TabTemplates) })
		return s.try(func() error { return s.app.TypeInTemplate("id", "m1") })
	},
	"narrow-window": func(s *script) error { // 800×600, a memory attached
		s.do(func() { s.app.ResizeWindow(800, 600) })
		s.do(func() { s.app.AttachID(s.app.FirstSuggestion()) })
		return s.settle()
	},
	"search-memories": func(s *script) error {
		s.do(func() { s.app.SearchMemories("release") })
		if err := s.settle(); err != nil {
			return err
		}
		s.do(func() { s.app.AttachID(s.app.SearchHit(0)) })
		if err := s.settle(); err != nil {
			return err
		}
		s.do(func() { s.app.FocusSearchHit(1) }) // the keys on the second result
		return nil
	},
	"read-markdown": func(s *script) error {
		return s.readListed("everything", "demo://resource/static/document/architecture.md")
	},
	"read-image": func(s *script) error { return s.readListed("images", "test://image/png") },
	"read-error": func(s *script) error {
		s.do(func() { s.app.ReadID("doesnotexist") })
		return nil
	},
	"over-budget": overBudget,
	"no-resources": func(s *script) error {
		return s.showTools("files", ui.TabResources)
	},
	"no-templates": func(s *script) error {
		return s.showTools("files", ui.TabTemplates)
	},
	"sign-in":         func(*script) error { return nil }, // the demo-oauth card as it starts
	"sign-in-waiting": func(s *script) error { _, err := s.startSignIn(); return err },
	// the wait on a machine with no browser to open (wire.go's opener)
	"sign-in-no-browser": func(s *script) error { _, err := s.startSignIn(); return err },
	"signed-in":          func(s *script) error { return s.signInAs("acme") },
	"signed-out":         signedOut,
	"chat-answer":        chatAnswer,
	"chat-approval":      chatApproval,
	"chat-tool-result":   chatToolResult,
	"chat-inspect":       chatInspect,
	"chat-providers":     chatProviders,
}

// scenarioNames lists the scenarios, for error messages.
func scenarioNames() string {
	var names []string
	for n := range scenarios {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// script drives the window from its own goroutine.
type script struct {
	app  *ui.App
	host *hostcore.Host
	run  *desktop.Run
	// holding says the scene keeps work in flight on purpose (a sign-in
	// waiting for the browser): settling then waits for frames only.
	holding bool
}

// settleTimeout bounds the wait for the window to show an action's outcome.
const settleTimeout = 60 * time.Second

// do runs f on the main goroutine and waits for it.
func (s *script) do(f func()) { fyne.DoAndWait(f) }

// try runs f on the main goroutine and returns its error.
func (s *script) try(f func() error) error {
	var err error
	s.do(func() { err = f() })
	return err
}

// settle waits until the window has shown the outcome of everything it
// started, and painted it.
func (s *script) settle() error {
	deadline := time.Now().Add(settleTimeout)
	for !s.holding && !s.app.Idle() {
		if time.Now().After(deadline) {
			return errors.New("the window did not settle")
		}
		time.Sleep(20 * time.Millisecond)
	}
	for range 2 {
		if err := s.run.NextFrame(10 * time.Second); err != nil {
			return err
		}
	}
	return nil
}

// readListed switches to server and selects (reads) its resource uri.
func (s *script) readListed(server, uri string) error {
	if err := s.try(func() error { return s.app.SelectServer(server, "") }); err != nil {
		return err
	}
	if err := s.settle(); err != nil {
		return err
	}
	return s.try(func() error { return s.app.SelectResource(uri) })
}

// showTools switches to server and brings tab to the front.
func (s *script) showTools(server string, tab ui.PickerTab) error {
	if err := s.try(func() error { return s.app.SelectServer(server, "") }); err != nil {
		return err
	}
	s.do(func() { s.app.ShowPicker(tab) })
	return nil
}

// overBudget attaches four demo memories under a small budget and makes two
// of them required (priority 1), so the required ones overflow it.
func overBudget(s *script) error {
	c, err := s.host.Conn(hostcore.DemoServerName, "")
	if err != nil {
		return err
	}
	ctx := context.Background()
	tpl, err := c.IDTemplate(ctx)
	if err != nil {
		return err
	}
	got, err := c.Complete(ctx, tpl.URITemplate, "id", "m2", nil)
	if err != nil || len(got.Values) < 4 {
		return fmt.Errorf("finding four memory ids: %v (got %d)", err, len(got.Values))
	}
	for _, id := range got.Values[:4] {
		s.do(func() { s.app.AttachID(id) })
		if err := s.settle(); err != nil {
			return err
		}
	}
	s.do(func() { s.app.SetBudget(150) })
	if err := s.settle(); err != nil {
		return err
	}
	one := 1.0
	for _, id := range got.Values[1:3] {
		uri, _ := expand.URI(tpl.URITemplate, map[string]string{"id": id})
		if err := s.try(func() error { return s.app.SetPriority(uri, &one) }); err != nil {
			return err
		}
		if err := s.settle(); err != nil {
			return err
		}
	}
	return nil
}

// runScenario waits for the first screen and runs the scenario. With shot,
// it captures the window into that PNG file and exits. Without, it says
// "scenario NAME ready" on stdout and holds the state until stdin ends, so
// that a script can capture the window through the X server: under Xvfb,
// Mesa's software OpenGL answers a read of the window's pixels with a blank
// image. It returns the process's exit code.
func runScenario(r *desktop.Run, name, shot string) int {
	if err := playScenario(r, name); err != nil {
		fmt.Fprintf(os.Stderr, "%s: scenario %s: %v\n", command, name, err)
		return 1
	}
	if shot != "" {
		if err := capture(r.App.Window(), shot); err != nil {
			fmt.Fprintf(os.Stderr, "%s: scenario %s: %v\n", command, name, err)
			return 1
		}
		return 0
	}
	fmt.Printf("scenario %s ready\n", name)
	io.Copy(io.Discard, os.Stdin)
	return 0
}

// playScenario waits for the first screen to be ready, then scripts it.
func playScenario(r *desktop.Run, name string) error {
	f, ok := scenarios[name]
	if !ok {
		return fmt.Errorf("no scenario %q (have %s)", name, scenarioNames())
	}
	<-r.Ready()
	s := &script{app: r.App, host: r.Host, run: r}
	if err := s.settle(); err != nil {
		return err
	}
	if err := f(s); err != nil {
		return err
	}
	return s.settle()
}

// capture writes the window's canvas, as last painted, to a PNG file.
func capture(win fyne.Window, path string) error {
	var img image.Image
	fyne.DoAndWait(func() { img = win.Canvas().Capture() })
	if blank(img) {
		return errors.New("the OpenGL driver gave a blank capture (Mesa under Xvfb does): use scripts/screenshots.sh, which captures through X")
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// blank reports whether every pixel of img is fully transparent.
func blank(img image.Image) bool {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if _, _, _, a := img.At(x, y).RGBA(); a != 0 {
				return false
			}
		}
	}
	return true
}
