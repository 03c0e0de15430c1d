package mcptest_test

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/mcptest"
)

// eras maps each era mode to the version it must negotiate.
var eras = []struct{ mode, version string }{
	{mcptest.ModeV2026, mcptest.Version2026},
	{mcptest.ModeV2025Nov, mcptest.Version2025Nov},
	{mcptest.ModeV2025Jun, mcptest.Version2025Jun},
}

// eachEra runs f for every era mode over both transports.
func eachEra(t *testing.T, o *clientOpts, f func(t *testing.T, version string, cs *mcp.ClientSession)) {
	for _, era := range eras {
		t.Run(era.mode, func(t *testing.T) {
			t.Parallel()
			eachTransport(t, era.mode, o, func(t *testing.T, cs *mcp.ClientSession) { f(t, era.version, cs) })
		})
	}
}

func TestEraNegotiatesPinnedVersion(t *testing.T) {
	eachEra(t, nil, func(t *testing.T, version string, cs *mcp.ClientSession) {
		init := cs.InitializeResult()
		if init.ProtocolVersion != version {
			t.Errorf("negotiated %q, want %q", init.ProtocolVersion, version)
		}
		if r := init.Capabilities.Resources; r == nil || !r.Subscribe {
			t.Errorf("resources capability %+v, want subscribe", r)
		}
		if init.Capabilities.Completions == nil {
			t.Error("no completions capability")
		}
	})
}

func TestEraListings(t *testing.T) {
	want := []*mcp.Resource{
		{URI: mcptest.ReadmeURI, Name: "readme", Title: "Read me", MIMEType: "text/markdown",
			Size: int64(len(mcptest.ReadmeText)), Annotations: &mcp.Annotations{
				Audience: []mcp.Role{"user", "assistant"}, Priority: 1, LastModified: mcptest.ReadmeLastModified}},
		{URI: mcptest.LogoURI, Name: "logo", Title: "Logo", MIMEType: "image/png",
			Size: int64(len(mcptest.LogoPNG())), Annotations: &mcp.Annotations{
				Audience: []mcp.Role{"user"}, Priority: 0.25, LastModified: mcptest.LogoLastModified}},
		{URI: mcptest.NotesURI, Name: "notes", MIMEType: "text/plain"},
	}
	eachEra(t, nil, func(t *testing.T, _ string, cs *mcp.ClientSession) {
		ctx := testContext(t)
		res, err := cs.ListResources(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := slices.SortedFunc(slices.Values(res.Resources), func(a, b *mcp.Resource) int { return strings.Compare(a.URI, b.URI) })
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("resources (-want +got):\n%s", diff)
		}
		tmpl, err := cs.ListResourceTemplates(ctx, nil)
		if err != nil || len(tmpl.ResourceTemplates) != 1 || tmpl.ResourceTemplates[0].URITemplate != mcptest.ItemsTemplate {
			t.Errorf("templates = %+v, %v; want only %s", tmpl, err, mcptest.ItemsTemplate)
		}
	})
}

func TestEraReads(t *testing.T) {
	eachEra(t, nil, func(t *testing.T, _ string, cs *mcp.ClientSession) {
		if got := readOne(t, cs, mcptest.ReadmeURI); got.Text != mcptest.ReadmeText || got.MIMEType != "text/markdown" {
			t.Errorf("readme = %+v", got)
		}
		logo := readOne(t, cs, mcptest.LogoURI)
		if !bytes.Equal(logo.Blob, mcptest.LogoPNG()) || logo.MIMEType != "image/png" {
			t.Errorf("logo = %d bytes of %s, want the %d bytes of LogoPNG", len(logo.Blob), logo.MIMEType, len(mcptest.LogoPNG()))
		}
		if _, err := png.Decode(bytes.NewReader(logo.Blob)); err != nil {
			t.Errorf("logo is not a PNG: %v", err)
		}
		item := readOne(t, cs, "test://items/fruit/apple")
		if item.Text != mcptest.ItemText("fruit", "apple") {
			t.Errorf("item = %+v", item)
		}
	})
}

// readOne reads uri and returns its one content entry.
func readOne(t *testing.T, cs *mcp.ClientSession, uri string) *mcp.ResourceContents {
	t.Helper()
	res, err := cs.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("reading %s: %v", uri, err)
	}
	if len(res.Contents) != 1 || res.Contents[0].URI != uri {
		t.Fatalf("reading %s: contents %+v", uri, res.Contents)
	}
	return res.Contents[0]
}

func TestEraMissingResource(t *testing.T) {
	eachEra(t, nil, func(t *testing.T, _ string, cs *mcp.ClientSession) {
		for _, uri := range []string{"test://items/fruit/kiwi", "test://items/fruit", "test://nowhere"} {
			_, err := cs.ReadResource(testContext(t), &mcp.ReadResourceParams{URI: uri})
			var rpcErr *jsonrpc.Error
			if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInvalidParams || rpcErr.Message != "Resource not found" {
				t.Errorf("reading %s: %v, want -32602 Resource not found", uri, err)
			}
		}
	})
}

func TestEraCompletion(t *testing.T) {
	tests := []struct {
		name, variable, prefix string
		chosen                 map[string]string
		want                   []string
	}{
		{"categories", "category", "", nil, []string{"books", "fruit", "tools"}},
		{"category prefix", "category", "t", nil, []string{"tools"}},
		{"names of fruit", "name", "a", map[string]string{"category": "fruit"}, []string{"apple", "apricot"}},
		{"names of books", "name", "a", map[string]string{"category": "books"}, []string{"almanac", "atlas"}},
		{"names without category", "name", "a", nil, []string{"almanac", "apple", "apricot", "atlas"}},
		{"unknown category", "name", "", map[string]string{"category": "cars"}, []string{}},
	}
	eachEra(t, nil, func(t *testing.T, _ string, cs *mcp.ClientSession) {
		for _, tt := range tests {
			res, err := cs.Complete(testContext(t), &mcp.CompleteParams{
				Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: mcptest.ItemsTemplate},
				Argument: mcp.CompleteParamsArgument{Name: tt.variable, Value: tt.prefix},
				Context:  &mcp.CompleteContext{Arguments: tt.chosen},
			})
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if diff := cmp.Diff(tt.want, res.Completion.Values); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.name, diff)
			}
		}
	})
}

func TestEraSubscribeAndTouch(t *testing.T) {
	for _, era := range eras {
		for _, tr := range transports {
			t.Run(era.mode+"/"+tr.name, func(t *testing.T) {
				t.Parallel()
				updated := make(chan string, 64)
				cs := tr.connect(t, era.mode, &clientOpts{client: &mcp.ClientOptions{
					ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
						updated <- req.Params.URI
					},
				}})
				ctx := testContext(t)
				if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: mcptest.ReadmeURI}); err != nil {
					t.Fatal(err)
				}
				// Under 2026-07-28 Subscribe returns before the server has the
				// subscription: touch until the notification comes.
				for {
					touch(t, cs, mcptest.ReadmeURI)
					select {
					case uri := <-updated:
						if uri != mcptest.ReadmeURI {
							t.Fatalf("updated %s, want %s", uri, mcptest.ReadmeURI)
						}
						return
					case <-time.After(50 * time.Millisecond):
					case <-ctx.Done():
						t.Fatal("no notifications/resources/updated after touch")
					}
				}
			})
		}
	}
}

// touch calls the touch tool for uri.
func touch(t *testing.T, cs *mcp.ClientSession, uri string) {
	t.Helper()
	res, err := cs.CallTool(testContext(t), &mcp.CallToolParams{Name: "touch", Arguments: map[string]any{"uri": uri}})
	if err != nil || res.IsError {
		t.Fatalf("touch %s: %+v, %v", uri, res, err)
	}
}
