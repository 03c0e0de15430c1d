package hostcore_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/pack"
)

// annotatedServer serves a template test://ann/{id} for the assistant
// (priority 0.9) and two resources it matches that are also listed: one
// for the user only, one with only a priority of its own.
func annotatedServer(t *testing.T) config.ServerConfig {
	s := mcp.NewServer(&mcp.Implementation{Name: "annotated"}, nil)
	read := func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "body of " + req.Params.URI}}}, nil
	}
	s.AddResource(&mcp.Resource{URI: "test://ann/private", Name: "private", Title: "User only", MIMEType: "text/plain",
		Annotations: &mcp.Annotations{Audience: []mcp.Role{"user"}}}, read)
	s.AddResource(&mcp.Resource{URI: "test://ann/ranked", Name: "ranked", MIMEType: "text/plain",
		Annotations: &mcp.Annotations{Priority: 0.2}}, read)
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://ann/{id}", Name: "by id", MIMEType: "text/plain",
		Annotations: &mcp.Annotations{Audience: []mcp.Role{"assistant"}, Priority: 0.9}}, read)
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(srv.Close)
	return config.ServerConfig{Name: "annotated", URL: srv.URL}
}

func prio(p float64) *float64 { return &p }

// TestDirectAttachPrefersTheListing attaches by uri and by id: an exact
// entry in the listing is more specific than the template the URI also
// matches, so its annotations win, field by field.
func TestDirectAttachPrefersTheListing(t *testing.T) {
	sc := annotatedServer(t)
	h := configuredHost(t, nil, sc)
	cv := hostcore.NewConversations(h, openState(t))
	c := conn(t, h, sc, "")
	ctx := context.Background()
	for _, tt := range []struct {
		id    string
		title string
		want  pack.Annotations
	}{
		{"private", "User only", pack.Annotations{Audience: []string{"user"}, Priority: prio(0.9)}},
		{"ranked", "ranked", pack.Annotations{Audience: []string{"assistant"}, Priority: prio(0.2)}},
		{"unlisted", "by id", pack.Annotations{Audience: []string{"assistant"}, Priority: prio(0.9)}},
	} {
		for _, how := range []string{"uri", "id"} {
			t.Run(tt.id+" by "+how, func(t *testing.T) {
				conv, err := cv.Create(ctx, tt.id+" by "+how)
				if err != nil {
					t.Fatal(err)
				}
				var a hostcore.Attachment
				if how == "uri" {
					a, err = cv.AttachURI(ctx, conv.ID, c, "test://ann/"+tt.id)
				} else {
					a, err = cv.AttachID(ctx, conv.ID, c, tt.id)
				}
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, a.Annotations); diff != "" || a.Title != tt.title {
					t.Errorf("title %q, annotations (-want +got):\n%s", a.Title, diff)
				}
				p, _, err := cv.Rank(ctx, conv.ID, nil)
				if err != nil {
					t.Fatal(err)
				}
				wantVerdict := pack.VerdictIncluded
				if tt.id == "private" {
					wantVerdict = pack.VerdictHeldAudience
				}
				if got := p.Decisions[0].Verdict; got != wantVerdict {
					t.Errorf("verdict %s (%s); want %s", got, p.Decisions[0].Reason, wantVerdict)
				}
			})
		}
	}
}
