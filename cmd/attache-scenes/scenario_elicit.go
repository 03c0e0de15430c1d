package main

import (
	"context"

	"github.com/attache/attache/hostcore/form"

	"github.com/attache/attache/hostcore"
)

// The elicit scene shows the form a server asks the person to fill
// (form elicitation): every kind of field, each with its default.
func init() { scenarios["elicit"] = elicitScene }

// sampleElicitation is the form of the scene.
var sampleElicitation = hostcore.ElicitRequest{
	Server: "ts2", Account: "default", Via: "reading ts2://reports/weekly",
	Message: "Which week should the report cover, and for whom?",
	Fields: func() []form.Field {
		one, ten := 1.0, 53.0
		return []form.Field{
			{Name: "name", Title: "Your name", Type: "string", Default: "Ada", Required: true},
			{Name: "week", Title: "Week", Type: "integer", Minimum: &one, Maximum: &ten, Default: int64(48), Description: "1 to 53"},
			{Name: "team", Title: "Team", Type: "string", Options: []form.Option{{Value: "eng", Title: "Engineering"}, {Value: "ops", Title: "Operations"}}, Default: "eng"},
			{Name: "sections", Title: "Sections", Type: "array", Options: []form.Option{{Value: "summary", Title: "Summary"}, {Value: "risks", Title: "Risks"}, {Value: "metrics", Title: "Metrics"}}, Default: []string{"summary", "risks"}},
			{Name: "email", Title: "Send a copy to", Type: "string", Format: "email"},
			{Name: "draft", Title: "Mark as draft", Type: "boolean", Default: true},
		}
	}(),
}

func elicitScene(s *script) error {
	go s.app.Elicit(context.Background(), sampleElicitation)
	if err := s.until("the elicitation dialog", func() bool { return s.app.Window().Canvas().Overlays().Top() != nil }); err != nil {
		return err
	}
	return s.settle()
}
