package main

import (
	"context"
	"fmt"
	"os"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/ui"
)

// The console scenes: the tester's console over the demo's history (a
// read chosen in it) and over server-everything's stderr, a server whose
// script is missing, and the light theme's status colours with the
// settings' theme choice.
func init() {
	scenarios["console"] = consoleHistory
	scenarios["console-stderr"] = consoleStderr
	scenarios["missing-file"] = missingFile
	scenarios["light-contrast"] = lightContrast
}

// demoID is the first memory id of the demo's tenant.
func (s *script) demoID() (string, error) {
	c, err := s.host.Conn(hostcore.DemoServerName, "")
	if err != nil {
		return "", err
	}
	ctx := context.Background()
	tpl, err := c.IDTemplate(ctx)
	if err != nil {
		return "", err
	}
	got, err := c.Complete(ctx, tpl.URITemplate, "id", "m", nil)
	if err != nil || len(got.Values) == 0 {
		return "", fmt.Errorf("finding a memory id: %v", err)
	}
	return got.Values[0], nil
}

// consoleHistory reads a demo memory, opens the console and chooses the
// read's response under a filter.
func consoleHistory(s *script) error {
	id, err := s.demoID()
	if err != nil {
		return err
	}
	s.do(func() { s.app.ReadID(id) })
	if err := s.settle(); err != nil {
		return err
	}
	s.do(s.app.ShowConsole)
	s.do(func() { s.app.ConsoleFilter("resources") })
	return s.try(func() error { return s.app.ConsoleSelect("resources/read") })
}

// consoleStderr shows the server log of server-everything, which tells on
// stderr what it starts.
func consoleStderr(s *script) error {
	if err := s.readListed("everything", "demo://resource/static/document/architecture.md"); err != nil {
		return err
	}
	if err := s.settle(); err != nil {
		return err
	}
	s.do(s.app.ShowConsole)
	s.do(func() { s.app.ConsoleTab(1) })
	return nil
}

// missingFile reads through a server whose script is not there: the
// inspector names the file and shows the tail of the interpreter's stderr.
func missingFile(s *script) error {
	if err := s.try(func() error { return s.app.SelectServer("missing", "") }); err != nil {
		return err
	}
	if err := s.settle(); err != nil {
		return err
	}
	s.do(func() { s.app.Read("test://anything") })
	return nil
}

// lightContrast reads a memory twice (a miss, then a green cache hit on
// the status colours) and opens the settings on the theme choice.
func lightContrast(s *script) error {
	id, err := s.demoID()
	if err != nil {
		return err
	}
	for range 2 {
		s.do(func() { s.app.ReadID(id) })
		if err := s.settle(); err != nil {
			return err
		}
	}
	s.do(s.app.ShowSettings)
	return nil
}

func init() { scenarios["meter-theme"] = meterTheme }

// meterTheme attaches two demo memories and then switches the theme live
// to the other one than it started in (FYNE_THEME): the budget meter after
// a theme switch, its text readable on its track.
func meterTheme(s *script) error {
	c, err := s.host.Conn(hostcore.DemoServerName, "")
	if err != nil {
		return err
	}
	tpl, err := c.IDTemplate(context.Background())
	if err != nil {
		return err
	}
	got, err := c.Complete(context.Background(), tpl.URITemplate, "id", "m2", nil)
	if err != nil || len(got.Values) < 2 {
		return fmt.Errorf("finding two memory ids: %v", err)
	}
	for _, id := range got.Values[:2] {
		s.do(func() { s.app.AttachID(id) })
		if err := s.settle(); err != nil {
			return err
		}
	}
	other := ui.ThemeDark
	if os.Getenv("FYNE_THEME") == "dark" {
		other = ui.ThemeLight
	}
	s.do(func() { s.app.SetTheme(other) })
	return s.settle()
}
