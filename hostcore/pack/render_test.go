package pack_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore/pack"
)

// TestRenderBody checks each kind of body against a golden in
// testdata/render; refresh with go test ./hostcore/pack -run RenderBody -update.
func TestRenderBody(t *testing.T) {
	for _, tt := range []struct {
		name, mimeType, text string
	}{
		{"memory", "application/json",
			`{"content":"Wile noted that the nightly export is measured against a second approver.\nSee the runbook.","contentLength":90,"memoryType":"incident","topic":"deployment","scope":"personal","project":"rocket-sled","recordedAt":"2025-01-06T17:00:00Z"}`},
		{"memory-sparse", "application/json", `{"content":"Only a type.","memoryType":"note"}`},
		{"memory-forged-heading", "application/json",
			`{"content":"body","memoryType":"fact","topic":"a\n## forged","recordedAt":"not a time"}`},
		{"memory-extra-field", "application/json", `{"content":"x","memoryType":"fact","status":"archived"}`},
		{"json-object", "application/json", "{\n  \"entities\": [\n    {\"name\": \"Attaché\", \"type\": \"host\"}\n  ],\n  \"relations\": []\n}\n"},
		{"json-ld", "application/ld+json; charset=utf-8", `{"@id":"x"}`},
		{"json-untyped", "", ` [1, 2, {"a": "<b> keeps  its spaces"}] `},
		{"json-invalid", "application/json", `{"content": "cut off`},
		{"markdown", "text/markdown", "# Title\n\n```go\nx := 1\n```\n"},
		{"text-braces", "text/plain", `{"not":"rendered"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := pack.RenderBody(tt.mimeType, tt.text)
			path := filepath.Join("testdata", "render", tt.name+".txt")
			if update() {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s differs (-want +got); review, then accept with -update:\n%s", path, diff)
			}
		})
	}
}

// A memory body sent to the model carries no escaped JSON: the content's
// quotes and newlines arrive as written.
func TestRenderBodyMemoryIsNotJSON(t *testing.T) {
	got := pack.RenderBody("application/json", `{"content":"She said \"ship it\".\nThen left.","memoryType":"decision","topic":"release"}`)
	want := "decision · release\n\nShe said \"ship it\".\nThen left."
	if got != want {
		t.Errorf("RenderBody = %q, want %q", got, want)
	}
}
