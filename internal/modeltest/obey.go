package modeltest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// A gullible model, for testing what a host lets a model do: it obeys any
// instruction it reads, wherever it reads it. A prompt injection planted
// in an attached resource (or a tool result) steers it exactly as the
// person's own message would, which is the worst a real model can do.

// instruction is what Obey obeys: "call the NAME tool with {JSON}".
var instruction = regexp.MustCompile(`(?i)call the ([A-Za-z0-9_-]+) tool with (\{[^{}]*\})`)

// Obey is a step that does what the request says. The first instruction
// "call the NAME tool with {JSON}" found in the system prompt, the
// messages or the tool results, in that order, whose tool the request's
// messages have not called yet, is called with those arguments, offered or
// not (a model is free to call any name). With nothing left to do it
// answers "Done." and, when a call it made was answered, what the answer
// said.
func Obey() Step {
	return func(r Request) Reply {
		p, err := r.Parse()
		if err != nil {
			return Reply{Text: "I could not read the request: " + err.Error()}
		}
		called := map[string]bool{}
		var results []string
		texts := []string{p.System}
		for _, m := range p.Messages {
			texts = append(texts, m.Text)
			for _, c := range m.ToolCalls {
				called[c.Name] = true
			}
			if m.Role == "tool" {
				results = append(results, m.Text)
			}
		}
		for _, text := range texts {
			for _, m := range instruction.FindAllStringSubmatch(text, -1) {
				if name, args := m[1], m[2]; !called[name] && json.Valid([]byte(args)) {
					return Reply{Text: "As instructed.", ToolCalls: []Call{{ID: fmt.Sprintf("call_obey_%d", len(called)+1), Name: name, Arguments: args}}}
				}
			}
		}
		return Reply{Text: strings.TrimSpace("Done. " + strings.Join(results, " "))}
	}
}
