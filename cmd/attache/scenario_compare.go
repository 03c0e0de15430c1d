package main

import (
	"errors"

	"github.com/attache/attache/hostcore"
)

// The compare scenario opens the Compare window and replays the bundled
// replay against the built-in demo, as acme, until its charts show.
func init() { scenarios["compare"] = compareScene }

func compareScene(s *script) error {
	s.do(s.app.OpenCompare)
	if err := s.settle(); err != nil {
		return err
	}
	if err := s.try(func() error { return s.app.RunCompare(hostcore.DemoServerName, "acme") }); err != nil {
		return err
	}
	if err := s.settle(); err != nil {
		return err
	}
	var shown bool
	s.do(func() { shown = s.app.CompareReport() != nil })
	if !shown {
		return errors.New("the replay ended without a report")
	}
	return nil
}
