package ctl

import (
	"errors"

	"github.com/attache/attache/hostcore/chat"
	"github.com/attache/attache/hostcore/labrun"
	"github.com/attache/attache/hostcore/models"
	"github.com/attache/attache/internal/apikey"
)

// Full is what attachectl-full links and attachectl does not: the model
// SDKs (every provider's adapter) and the chart libraries of the lab's
// report. Linking them costs every process their package inits and page
// faults, whatever the command, so attachectl leaves them out and hands
// the commands that need them to attachectl-full (see handOver).
type Full struct {
	// NewModel returns the model of a provider entry, its key found in
	// the environment or in keys.
	NewModel func(pc models.Provider, keys apikey.Store) (chat.Model, error)
	// WriteReport writes a lab report into dir (Markdown, JSON and the
	// charts) and returns the files' paths.
	WriteReport func(dir string, rep *labrun.Report) ([]string, error)
}

// errNotLinked is what a command gets when it reaches for what this binary
// does not link: handOver should have sent it to attachectl-full first.
var errNotLinked = errors.New("unreachable: this command was not handed over to " + FullCommand)

// newModel is Full.NewModel, or errNotLinked.
func (a *app) newModel(pc models.Provider, keys apikey.Store) (chat.Model, error) {
	if a.full == nil || a.full.NewModel == nil {
		return nil, errNotLinked
	}
	return a.full.NewModel(pc, keys)
}

// writeReport is Full.WriteReport, or errNotLinked.
func (a *app) writeReport(dir string, rep *labrun.Report) ([]string, error) {
	if a.full == nil || a.full.WriteReport == nil {
		return nil, errNotLinked
	}
	return a.full.WriteReport(dir, rep)
}
