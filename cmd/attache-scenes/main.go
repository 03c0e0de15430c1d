// Command attache-scenes is the Attaché desktop app driven by a script: it
// scripts the window into a named state worth looking at (a scenario, see
// scenario.go), for scripts/screenshots.sh and the viewer's measures
// (scripts/bench-viewer.sh). It is the app as released (internal/desktop),
// plus the scenes and the scripted model server they talk to
// (internal/modeltest), which the release binary, cmd/attache, does not
// link.
//
//	attache-scenes --scenario NAME [--screenshot FILE] [--config FILE] [--data-dir DIR] [-v]
//
// With --screenshot it writes a PNG of the window and quits; without, it
// says "scenario NAME ready" and holds the state until stdin ends.
package main

import (
	"errors"
	"flag"
	"net/url"
	"os"
	"os/exec"
	"time"

	"github.com/attache/attache/internal/desktop"
)

// command is the program's name in messages.
const command = "attache-scenes"

func main() {
	start := time.Now()
	os.Exit(desktop.Main(start, os.Args[1:], options()))
}

// options are the scenes' flags over the app's, and the script they run.
func options() *desktop.Options {
	var scenario, screenshot string
	return &desktop.Options{
		Name: command,
		Flags: func(fs *flag.FlagSet) {
			fs.StringVar(&scenario, "scenario", "", "script the window into a named state (see scenario.go)")
			fs.StringVar(&screenshot, "screenshot", "", "write a PNG of the window here, then quit")
		},
		Check: func() error {
			if scenario == "" {
				return errors.New("--scenario is required (have " + scenarioNames() + ")")
			}
			return nil
		},
		Script: func(r *desktop.Run) int { return runScenario(r, scenario, screenshot) },
		// A script plays the browser itself, so pages open nowhere; but
		// the scene of a machine without a browser looks for one on a PATH
		// that has none.
		OpenURL: func(u *url.URL) error {
			if scenario == "sign-in-no-browser" {
				return desktop.OpenWith(func(string) (string, error) { return "", exec.ErrNotFound }, u)
			}
			return nil
		},
	}
}
