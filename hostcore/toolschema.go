package hostcore

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
)

// A tool that declares an outputSchema promises structuredContent that
// conforms to it; a host should check (the specification's SHOULD). The
// host checks with the JSON Schema validator go-sdk itself uses
// (github.com/google/jsonschema-go, drafts 2020-12 and 07), and says what
// it found; it never drops a result that does not conform: a tester wants
// to see it.

// SchemaVerdict says how a result's structuredContent compares with its
// tool's outputSchema.
type SchemaVerdict string

// The verdicts of CheckStructured.
const (
	// SchemaValid: the structuredContent conforms to the outputSchema.
	SchemaValid SchemaVerdict = "valid"
	// SchemaInvalid: it does not; Problem says where.
	SchemaInvalid SchemaVerdict = "invalid"
	// SchemaMissing: the tool declares an outputSchema, and the result
	// has no structuredContent.
	SchemaMissing SchemaVerdict = "missing"
	// SchemaNone: the tool declares no outputSchema, so there is nothing
	// to check against.
	SchemaNone SchemaVerdict = "no schema"
	// SchemaUnusable: the outputSchema cannot be used (not JSON Schema, or
	// a reference to a schema elsewhere); Problem says why.
	SchemaUnusable SchemaVerdict = "unusable schema"
	// SchemaSkipped: the tool reported an error and sent no
	// structuredContent, which an error result need not carry.
	SchemaSkipped SchemaVerdict = "not checked"
)

// SchemaCheck is what CheckStructured found.
type SchemaCheck struct {
	Verdict SchemaVerdict `json:"verdict"`
	// Problem is the validator's words, for an invalid result or an
	// unusable schema.
	Problem string `json:"problem,omitempty"`
}

// CheckStructured checks res's structuredContent against t's
// outputSchema.
func CheckStructured(t Tool, res *ToolResult) SchemaCheck {
	switch {
	case len(t.OutputSchema) == 0:
		return SchemaCheck{Verdict: SchemaNone}
	case len(res.Structured) == 0 && res.IsError:
		return SchemaCheck{Verdict: SchemaSkipped}
	case len(res.Structured) == 0:
		return SchemaCheck{Verdict: SchemaMissing}
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(t.OutputSchema, &s); err != nil {
		return SchemaCheck{Verdict: SchemaUnusable, Problem: clip(err.Error())}
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return SchemaCheck{Verdict: SchemaUnusable, Problem: clip(err.Error())}
	}
	var v any
	if err := json.Unmarshal(res.Structured, &v); err != nil {
		return SchemaCheck{Verdict: SchemaInvalid, Problem: "not JSON: " + clip(err.Error())}
	}
	if err := rs.Validate(v); err != nil {
		return SchemaCheck{Verdict: SchemaInvalid, Problem: clip(err.Error())}
	}
	return SchemaCheck{Verdict: SchemaValid}
}
