package toolform_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore/toolform"
)

// createEntities is the shape of server-memory's create_entities schema:
// an array of objects, each with an array of strings.
const createEntities = `{"type":"object","properties":{"entities":{"type":"array","items":{"type":"object",
 "properties":{"name":{"type":"string","description":"The name of the entity"},
 "entityType":{"type":"string"},"observations":{"type":"array","items":{"type":"string"}}},
 "required":["name","entityType","observations"]}}},"required":["entities"]}`

func parse(t *testing.T, schema string) *toolform.Field {
	t.Helper()
	f, err := toolform.Parse(json.RawMessage(schema))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// The fields keep the schema's order, kinds, required marks and
// descriptions, nested through arrays and objects.
func TestParseNested(t *testing.T) {
	f := parse(t, createEntities)
	if len(f.Fields) != 1 || f.Fields[0].Name != "entities" || f.Fields[0].Kind != toolform.KindArray || !f.Fields[0].Required {
		t.Fatalf("root fields: %+v", f.Fields)
	}
	item := f.Fields[0].Items
	var names []string
	for _, c := range item.Fields {
		names = append(names, c.Name+":"+string(c.Kind))
	}
	if diff := cmp.Diff([]string{"name:string", "entityType:string", "observations:array"}, names); diff != "" {
		t.Errorf("item fields in schema order (-want +got):\n%s", diff)
	}
	if item.Fields[0].Description != "The name of the entity" || item.Fields[2].Items.Kind != toolform.KindString {
		t.Errorf("item: %+v", item.Fields)
	}
}

// Each kind of schema gets its kind of field; what a form cannot hold is
// a JSON field that says why.
func TestParseKinds(t *testing.T) {
	for _, tt := range []struct {
		name, schema string
		kind         toolform.Kind
		nullable     bool
		hint, why    string
	}{
		{"string with format", `{"type":"string","format":"uri","minLength":1}`, toolform.KindString, false, "format uri, at least 1 characters", ""},
		{"integer range", `{"type":"integer","minimum":1,"maximum":10}`, toolform.KindInteger, false, "1 to 10", ""},
		{"number", `{"type":"number"}`, toolform.KindNumber, false, "", ""},
		{"boolean", `{"type":"boolean"}`, toolform.KindBoolean, false, "", ""},
		{"enum", `{"type":"string","enum":["a","b"]}`, toolform.KindEnum, false, "", ""},
		{"const", `{"const":"only"}`, toolform.KindEnum, false, "", ""},
		{"nullable type list", `{"type":["string","null"]}`, toolform.KindString, true, "", ""},
		{"nullable anyOf", `{"anyOf":[{"type":"integer"},{"type":"null"}],"description":"d"}`, toolform.KindInteger, true, "", ""},
		{"several types", `{"type":["string","number"]}`, toolform.KindJSON, false, "", "a value of several types (string, number)"},
		{"one of objects", `{"oneOf":[{"type":"object"},{"type":"string"}]}`, toolform.KindJSON, false, "", "one of several shapes"},
		{"map", `{"type":"object","additionalProperties":{"type":"string"}}`, toolform.KindJSON, false, "", "an object of any keys"},
		{"tuple", `{"type":"array","prefixItems":[{"type":"string"}]}`, toolform.KindJSON, false, "", "a tuple (prefixItems)"},
		{"no type", `{"description":"anything"}`, toolform.KindJSON, false, "", "the schema gives no type"},
		{"remote ref", `{"$ref":"https://example.com/s.json"}`, toolform.KindJSON, false, "", "a reference the form cannot follow: https://example.com/s.json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, `{"type":"object","properties":{"x":`+tt.schema+`}}`).Fields[0]
			if f.Kind != tt.kind || f.Nullable != tt.nullable || f.Hint != tt.hint || f.Why != tt.why {
				t.Errorf("kind %s nullable %v hint %q why %q; want %s %v %q %q", f.Kind, f.Nullable, f.Hint, f.Why, tt.kind, tt.nullable, tt.hint, tt.why)
			}
		})
	}
}

// Local references are followed, $defs and definitions alike; a schema
// that refers to itself stops at MaxDepth as a JSON field.
func TestParseRefs(t *testing.T) {
	f := parse(t, `{"type":"object","$defs":{"p":{"type":"object","properties":{"n":{"type":"integer"}}}},
		"definitions":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/p","description":"own"},"b":{"$ref":"#/definitions/s"}}}`)
	if a := f.Fields[0]; a.Kind != toolform.KindObject || a.Description != "own" || a.Fields[0].Kind != toolform.KindInteger {
		t.Errorf("a: %+v", a)
	}
	if b := f.Fields[1]; b.Kind != toolform.KindString {
		t.Errorf("b: %+v", b)
	}
	tree := parse(t, `{"type":"object","properties":{"node":{"$ref":"#/$defs/n"}},
		"$defs":{"n":{"type":"object","properties":{"child":{"$ref":"#/$defs/n"}}}}}`)
	depth, at := 0, tree.Fields[0]
	for at.Kind == toolform.KindObject {
		at, depth = at.Fields[0], depth+1
	}
	if at.Kind != toolform.KindJSON || depth != toolform.MaxDepth {
		t.Errorf("a recursive schema ends after %d levels in a %s field; want %d and json", depth, at.Kind, toolform.MaxDepth)
	}
}

// A schema that is no object schema is refused; none at all is a tool of
// no arguments.
func TestParseRoot(t *testing.T) {
	if _, err := toolform.Parse(json.RawMessage(`{"type":"string"}`)); err == nil {
		t.Error("a string schema for the arguments was accepted")
	}
	if _, err := toolform.Parse(json.RawMessage(`{"type":`)); err == nil {
		t.Error("a schema that is not JSON was accepted")
	}
	for _, s := range []string{``, `null`, `{"type":"object","properties":{}}`} {
		f, err := toolform.Parse(json.RawMessage(s))
		if err != nil || f.Kind != toolform.KindObject || len(f.Fields) != 0 {
			t.Errorf("schema %q: %+v, %v; want an object of no fields", s, f, err)
		}
		if args, probs := toolform.New(f).Arguments(); string(args) != "{}" || len(probs) != 0 {
			t.Errorf("schema %q: arguments %s, %v", s, args, probs)
		}
	}
}

// Filling the form gives the arguments in the schema's order; what the
// person leaves empty is left out, or is a problem when required.
func TestArguments(t *testing.T) {
	v := toolform.New(parse(t, createEntities))
	if _, probs := v.Arguments(); len(probs) != 0 {
		t.Errorf("an empty required array is sent as []: problems %v", probs)
	}
	e := v.Props[0].AddItem()
	e.Props[0].Text = "Ada"
	e.Props[2].AddItem().Text = "wrote the first program"
	args, probs := v.Arguments()
	if want := `{"entities":[{"name":"Ada","observations":["wrote the first program"]}]}`; string(args) != want {
		t.Errorf("arguments %s; want %s", args, want)
	}
	if diff := cmp.Diff([]toolform.Problem{{Path: "entities[0].entityType", Text: "required"}}, probs); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	e.Props[1].Text = "person"
	if args, probs = v.Arguments(); len(probs) != 0 || !strings.Contains(string(args), `"entityType":"person"`) {
		t.Errorf("filled: %s, %v", args, probs)
	}
}

// Defaults fill the form; numbers go as written, and a number that is not
// one, or an integer that is not whole, is a problem; an optional object
// left empty is left out, problems and all.
func TestDefaultsAndNumbers(t *testing.T) {
	f := parse(t, `{"type":"object","properties":{
		"count":{"type":"integer","default":3},"ratio":{"type":"number"},"on":{"type":"boolean","default":true},
		"kind":{"type":"string","enum":["text","blob"],"default":"blob"},
		"opt":{"type":"object","properties":{"need":{"type":"string"}},"required":["need"]}}}`)
	v := toolform.New(f)
	args, probs := v.Arguments()
	if want := `{"count":3,"on":true,"kind":"blob"}`; string(args) != want || len(probs) != 0 {
		t.Errorf("defaults: %s %v; want %s", args, probs, want)
	}
	v.Props[0].Text, v.Props[1].Text = "2.5", "1e-3"
	_, probs = v.Arguments()
	if diff := cmp.Diff([]toolform.Problem{{Path: "count", Text: `"2.5" is not a whole number`}}, probs); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	v.Props[0].Text, v.Props[1].Text = "4", "many"
	if _, probs = v.Arguments(); len(probs) != 1 || probs[0].Path != "ratio" {
		t.Errorf("a ratio of %q: %v", "many", probs)
	}
	v.Props[1].Text = ""
	v.Props[4].Props[0].Text = "x"
	if args, _ = v.Arguments(); !strings.HasSuffix(string(args), `"opt":{"need":"x"}}`) {
		t.Errorf("a filled optional object: %s", args)
	}
}

// JSON written in the raw tab fills the form when it fits, and gives the
// same arguments back; what the form cannot hold is said, with where.
func TestFromJSON(t *testing.T) {
	f := parse(t, createEntities)
	in := `{"entities":[{"name":"Ada","entityType":"person","observations":["a","b"]}]}`
	v, err := toolform.FromJSON(f, json.RawMessage(in))
	if err != nil {
		t.Fatal(err)
	}
	if args, probs := v.Arguments(); string(args) != in || len(probs) != 0 {
		t.Errorf("round trip: %s %v; want %s", args, probs, in)
	}
	for _, tt := range []struct{ in, want string }{
		{`{"entities":[{"name":1}]}`, "entities[0].name: not a string"},
		{`{"entities":{}}`, "entities: not an array"},
		{`{"other":true}`, `the arguments: the property "other", which the form does not have`},
		{`[1]`, "the arguments: not an object"},
		{`{"entities":null}`, "entities: null, which the form cannot hold"},
		{`{"entities":`, "the arguments: not valid JSON"},
	} {
		if _, err := toolform.FromJSON(f, json.RawMessage(tt.in)); err == nil || err.Error() != tt.want {
			t.Errorf("%s: %v; want %q", tt.in, err, tt.want)
		}
	}
	g := parse(t, `{"type":"object","properties":{"k":{"enum":[1,"two",{"a":1}]},"n":{"type":"integer"},"m":{"type":"object","additionalProperties":true}}}`)
	v, err = toolform.FromJSON(g, json.RawMessage(`{"k":{"a":1},"n":1e3,"m":{"free":[1]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if v.Props[0].Choice != 2 || g.Fields[0].ChoiceText(1) != "two" || g.Fields[0].ChoiceText(2) != `{"a":1}` || v.Props[2].Text != `{"free":[1]}` {
		t.Errorf("enum choice %d, map text %q", v.Props[0].Choice, v.Props[2].Text)
	}
	if _, err := toolform.FromJSON(g, json.RawMessage(`{"k":3}`)); err == nil || !strings.Contains(err.Error(), "3 is not one of the choices") {
		t.Errorf("an enum value not among the choices: %v", err)
	}
}
