package main

import (
	"errors"
	"fmt"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/consent"
)

// The compare scenario opens the Compare window and replays the bundled
// replay against the built-in demo, as acme, until its charts show.
func init() {
	scenarios["compare"] = compareScene
	scenarios["compare-approval"] = compareApproval
	scenarios["compare-denied"] = compareDenied
}

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

// compareApproval replays a one-turn replay that records an archive of a
// demo memory, the window asking (its default): the consent dialog open.
func compareApproval(s *script) error {
	s.do(s.app.OpenCompare)
	if err := s.settle(); err != nil {
		return err
	}
	id, err := s.demoID()
	if err != nil {
		return err
	}
	replay := fmt.Sprintf(`{"session":"s1","turn":1,"at":"2026-11-30T10:00:00Z","user":"Tidy up my notes","toolCalls":[{"name":"archive","arguments":{"id":%q}}]}`+"\n", id)
	if err := s.try(func() error {
		return s.app.RunCompareFile(hostcore.DemoServerName, "acme", "tidy-up.jsonl", []byte(replay))
	}); err != nil {
		return err
	}
	s.holding = true // the replay waits for the dialog's answer, on purpose
	return s.until("the consent dialog", s.app.CompareAsking)
}

// compareDenied is the same call denied for the run: the table says what
// was not run, and why.
func compareDenied(s *script) error {
	if err := compareApproval(s); err != nil {
		return err
	}
	s.holding = false
	if err := s.try(func() error { return s.app.AnswerCompare(consent.ApproveNever) }); err != nil {
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

// compareFailures replays two turns whose attachments came from demo/acme
// and a server-memory this host does not have: the table shows the
// failure, the warning names server-memory, the legend is open.
func compareFailures(s *script) error {
	s.do(s.app.OpenCompare)
	if err := s.settle(); err != nil {
		return err
	}
	id, err := s.demoID()
	if err != nil {
		return err
	}
	m := "threengram://memory/" + id
	replay := fmt.Sprintf(`{"session":"s1","turn":1,"at":"2026-11-30T10:00:00Z","user":"acme's","relevant":[%q],"attached":[%q],"origins":[{"server":"demo","account":"acme"}]}
{"session":"s1","turn":2,"at":"2026-11-30T10:01:00Z","user":"the entity","relevant":["memory://entities/x"],"attached":["memory://entities/x"],"origins":[{"server":"server-memory"}]}
`, m, m)
	if err := s.try(func() error {
		return s.app.RunCompareFile(hostcore.DemoServerName, "acme", "mixed.jsonl", []byte(replay))
	}); err != nil {
		return err
	}
	if err := s.settle(); err != nil {
		return err
	}
	s.do(s.app.OpenCompareLegend) // focused: its ring shows
	return nil
}

func init() { scenarios["compare-failures"] = compareFailures }
