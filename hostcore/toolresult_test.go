package hostcore_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/pack"
	"github.com/attache/attache/hostcore/toolcall"
	"github.com/attache/attache/internal/mcptest"
)

// panelCall calls tool of c as a person would from the tools panel,
// through the consent gate.
func panelCall(t *testing.T, h *hostcore.Host, c *hostcore.Conn, tool, args string) *hostcore.ToolResult {
	t.Helper()
	ctx := context.Background()
	scope, err := h.Consent().Scope(consent.ScopeOptions{Caller: consent.CallerPerson})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.CallTool(ctx, scope.Decide(ctx, c, consent.ToolRequest{Tool: toolcall.Tool{Name: tool}, Arguments: json.RawMessage(args)}))
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A tool result's entries keep their kinds, uris and annotations in the
// host's types, over real stdio: text, an embedded resource for the user
// only, one for both audiences, a resource link.
func TestToolResultContent(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, mcptestStdio(t, mcptest.ModeV2026), "")
	res := panelCall(t, h, c, mcptest.DeliverTool, `{}`)
	one := 1.0
	want := []toolcall.Content{
		{Kind: toolcall.ContentText, Text: mcptest.DeliverIntro},
		{Kind: toolcall.ContentResource, Resource: &pack.Content{URI: mcptest.NotesURI, MIMEType: "text/plain", Text: mcptest.DeliveredNotesText},
			Annotations: pack.Annotations{Audience: []string{"user"}}},
		{Kind: toolcall.ContentResource, Resource: &pack.Content{URI: mcptest.ReadmeURI, MIMEType: "text/markdown", Text: mcptest.ReadmeText},
			Annotations: pack.Annotations{Audience: []string{"user", "assistant"}, Priority: &one}},
		{Kind: toolcall.ContentLink, URI: mcptest.LogoURI, Name: "logo", Title: "Logo", MIMEType: "image/png", Description: "the test logo"},
	}
	if diff := cmp.Diff(want, res.Content); diff != "" {
		t.Errorf("content (-want +got):\n%s", diff)
	}
	if res.Text != mcptest.DeliverIntro || len(res.Omitted) != 3 {
		t.Errorf("text %q, omitted %q; want the intro and three entries described", res.Text, res.Omitted)
	}
}

// What the model is given of a result obeys the audience rule of
// attachments: the user-only embedded resource is left out, and said to
// be held back; the rest is there, the embedded Markdown with its body.
func TestToolResultModelTextHoldsBackUserOnly(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, mcptestStdio(t, mcptest.ModeV2026), "")
	res := panelCall(t, h, c, mcptest.DeliverTool, `{}`)
	text, held := res.ModelText()
	if strings.Contains(text, "launch code") || strings.Contains(text, mcptest.NotesURI) {
		t.Errorf("the model text holds the user-only resource:\n%s", text)
	}
	for _, want := range []string{mcptest.DeliverIntro, "[embedded resource " + mcptest.ReadmeURI + " (text/markdown",
		"A *static* markdown resource", "[resource link " + mcptest.LogoURI + ": Logo (the test logo)]",
		"[1 part of the result held back by the host: for the person only]"} {
		if !strings.Contains(text, want) {
			t.Errorf("the model text lacks %q:\n%s", want, text)
		}
	}
	wantHeld := []string{"embedded resource " + mcptest.NotesURI + " (text/plain, 52 bytes), audience user"}
	if diff := cmp.Diff(wantHeld, held); diff != "" {
		t.Errorf("held (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantHeld, res.HeldBack()); diff != "" {
		t.Errorf("HeldBack (-want +got):\n%s", diff)
	}
}

// A stored turn keeps an entry's body up to 64 KiB; past that, what the
// entry is and how big it was.
func TestToolResultKeptContent(t *testing.T) {
	big := strings.Repeat("x", 70<<10)
	res := &hostcore.ToolResult{Content: []toolcall.Content{
		{Kind: toolcall.ContentText, Text: "small"},
		{Kind: toolcall.ContentResource, Resource: &pack.Content{URI: "a://b", MIMEType: "text/plain", Text: big}},
	}}
	kept := res.KeptContent()
	if kept[0].Cut || kept[0].Text != "small" {
		t.Errorf("a small entry: %+v", kept[0])
	}
	if !kept[1].Cut || kept[1].Bytes != len(big) || kept[1].Resource.Text != "" || kept[1].Resource.URI != "a://b" {
		t.Errorf("a big entry: cut %v, bytes %d, text kept %d", kept[1].Cut, kept[1].Bytes, len(kept[1].Resource.Text))
	}
	if res.Content[1].Resource.Text != big {
		t.Error("KeptContent changed the result")
	}
	if got := kept[1].Describe(); got != "embedded resource a://b (text/plain, 71,680 bytes)" {
		t.Errorf("a cut entry describes itself as %q", got)
	}
}

// structuredContent is checked against the tool's outputSchema with a
// JSON Schema validator: a conforming result is valid, one whose field
// has the wrong type is invalid and says where.
func TestCheckStructured(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, mcptestStdio(t, mcptest.ModeV2026), "")
	tools, err := c.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var measure, deliver toolcall.Tool
	for _, tl := range tools {
		switch tl.Name {
		case mcptest.MeasureTool:
			measure = tl
		case mcptest.DeliverTool:
			deliver = tl
		}
	}
	if len(measure.OutputSchema) == 0 {
		t.Fatalf("measure has no outputSchema: %+v", measure)
	}
	if got := checkResult(measure, panelCall(t, h, c, mcptest.MeasureTool, `{}`)); got.Verdict != toolcall.SchemaValid {
		t.Errorf("a conforming result: %+v", got)
	}
	got := checkResult(measure, panelCall(t, h, c, mcptest.MeasureTool, `{"conform": false}`))
	if got.Verdict != toolcall.SchemaInvalid || !strings.Contains(got.Problem, "celsius") {
		t.Errorf("a result whose celsius is a string: %+v", got)
	}
	if got := checkResult(deliver, panelCall(t, h, c, mcptest.DeliverTool, `{}`)); got.Verdict != toolcall.SchemaNone {
		t.Errorf("a tool without an outputSchema: %+v", got)
	}
	if got := checkResult(measure, &hostcore.ToolResult{}); got.Verdict != toolcall.SchemaMissing {
		t.Errorf("a result without structuredContent: %+v", got)
	}
}

// A tool's schemas are kept as the server sent them, properties in its
// order (go-sdk's maps would sort them), and the hints a server left out
// are named.
func TestToolsAsSent(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, mcptestStdio(t, mcptest.ModeV2026), "")
	tools, err := c.Tools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools {
		switch tl.Name {
		case "touch": // no annotations at all
			if diff := cmp.Diff([]string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}, tl.Unstated); diff != "" {
				t.Errorf("touch's unstated hints (-want +got):\n%s", diff)
			}
			if !tl.Destructive || !tl.OpenWorld || tl.ReadOnly {
				t.Errorf("touch: %+v; want the protocol's defaults (destructive, open world)", tl)
			}
		case mcptest.DeliverTool: // readOnlyHint only (go-sdk writes idempotentHint false too)
			if !tl.ReadOnly || tl.Destructive || !contains(tl.Unstated, "openWorldHint") || contains(tl.Unstated, "readOnlyHint") {
				t.Errorf("deliver: %+v", tl)
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// A resource embedded in or linked from a tool result is attached by its
// uri through the attach path: the attachment reads the server's current
// body, not the delivered copy, and keeps the entry's annotations where
// the listing says nothing (the readme's listing wins where it does).
func TestAttachToolContent(t *testing.T) {
	sc := mcptestStdio(t, mcptest.ModeV2026)
	h := configuredHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())}, sc)
	cv := hostcore.NewConversations(h, openState(t))
	ctx := context.Background()
	c := conn(t, h, sc, "")
	conv, err := cv.Create(ctx, "tools")
	if err != nil {
		t.Fatal(err)
	}
	res := panelCall(t, h, c, mcptest.DeliverTool, `{}`)
	if _, err := cv.AttachToolContent(ctx, conv.ID, c, res.Content[0]); err == nil {
		t.Error("a text entry was attached")
	}
	notes, err := cv.AttachToolContent(ctx, conv.ID, c, res.Content[1])
	if err != nil {
		t.Fatal(err)
	}
	if notes.URI != mcptest.NotesURI || notes.Origin != hostcore.FromTool || !cmp.Equal(notes.Annotations.Audience, []string{"user"}) {
		t.Errorf("the embedded notes attached as %+v", notes)
	}
	logo, err := cv.AttachToolContent(ctx, conv.ID, c, res.Content[3])
	if err != nil {
		t.Fatal(err)
	}
	if logo.URI != mcptest.LogoURI || logo.Title != "Logo" || !cmp.Equal(logo.Annotations.Audience, []string{"user"}) {
		t.Errorf("the logo link attached as %+v", logo)
	}
	p, _, err := cv.Rank(ctx, conv.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range p.Decisions {
		if d.Item.URI == mcptest.NotesURI && d.Item.Contents[0].Text != mcptest.NotesText {
			t.Errorf("the attached notes read %q; want the server's body", d.Item.Contents[0].Text)
		}
		if d.Verdict != pack.VerdictHeldAudience {
			t.Errorf("%s: %s; want held back for the user", d.Item.URI, d.Verdict)
		}
	}
	gone := toolcall.Content{Kind: toolcall.ContentResource, Resource: &pack.Content{URI: "test://items/none/none", Text: "x"}}
	if _, err := cv.AttachToolContent(ctx, conv.ID, c, gone); err == nil || !strings.Contains(err.Error(), "is not attached; the tool's result keeps the body") {
		t.Errorf("an embedded resource the server cannot read: %v", err)
	}
}

// checkResult checks r's structuredContent against t's outputSchema.
func checkResult(t toolcall.Tool, r *hostcore.ToolResult) toolcall.SchemaCheck {
	return toolcall.CheckStructured(t, r.Structured, r.IsError)
}
