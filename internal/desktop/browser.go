package desktop

import (
	"fmt"
	"net/url"
	"os/exec"
	"runtime"
	"time"
)

// Opening a sign-in page in the person's browser, and knowing whether that
// worked: the sign-in row says "waiting for the sign-in in your browser"
// only when a browser was asked and did not refuse, and otherwise that no
// browser could be opened, with the page's address to copy. Fyne's
// OpenURL starts xdg-open without waiting, so it reports neither a
// machine without xdg-open's browser nor xdg-open's own failure.

// browserCommand opens a URL in the desktop's browser.
func browserCommand() string {
	if runtime.GOOS == "darwin" {
		return "open"
	}
	return "xdg-open"
}

// browserWait is how long the opener waits for the command's verdict: it
// exits at once when it finds no browser; one still running after this is
// taken to be showing the page (some browsers keep xdg-open until they
// close).
const browserWait = 3 * time.Second

// openBrowser opens u with the desktop's command.
func openBrowser(u *url.URL) error { return OpenWith(exec.LookPath, u) }

// openWith opens u with the command look finds.
func OpenWith(look func(string) (string, error), u *url.URL) error {
	name := browserCommand()
	path, err := look(name)
	if err != nil {
		return fmt.Errorf("%s, which opens a browser, is not installed (%v)", name, err)
	}
	cmd := exec.Command(path, u.String())
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s could not be started: %v", name, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t := time.NewTimer(browserWait)
	defer t.Stop()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("%s found no browser to open (%v)", name, err)
		}
		return nil
	case <-t.C:
		return nil
	}
}
