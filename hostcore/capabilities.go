package hostcore

import (
	"context"
	"encoding/json"
	"maps"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/hostcore/icon"
)

// A server declares what it offers when the session opens (initialize or
// server/discover), and the host sends a request only for what was
// declared: a server that offers only tools never sees resources/list,
// resources/templates/list, completion/complete or resources/subscribe.
// Listings and completions of something not offered are empty rather than
// errors (there is nothing to list); callers that want to say why ask
// Conn.Offers.

// Capabilities is what a server declared it offers, in the host's terms.
type Capabilities struct {
	// Resources covers resources/list, resources/read and
	// resources/templates/list.
	Resources bool `json:"resources"`
	// Subscribe is resources.subscribe: resources/subscribe, or 2026-07-28
	// subscriptions/listen for resources.
	Subscribe bool `json:"subscribe"`
	// ResourceListChanged is resources.listChanged.
	ResourceListChanged bool `json:"resourceListChanged"`
	Completions         bool `json:"completions"`
	Tools               bool `json:"tools"`
	// ToolListChanged is tools.listChanged.
	ToolListChanged bool `json:"toolListChanged,omitempty"`
	Prompts         bool `json:"prompts"`
	// PromptListChanged is prompts.listChanged.
	PromptListChanged bool `json:"promptListChanged,omitempty"`
	Logging           bool `json:"logging"`
	// Experimental and Extensions are the names of the non-standard
	// capabilities and of the extensions the server declared, sorted.
	Experimental []string `json:"experimental,omitempty"`
	Extensions   []string `json:"extensions,omitempty"`
}

// ServerInfo is what a server says of itself when the session opens (its
// implementation), with MCP's field names.
type ServerInfo struct {
	Name        string        `json:"name"`
	Title       string        `json:"title,omitempty"`
	Description string        `json:"description,omitempty"`
	Version     string        `json:"version"`
	WebsiteURL  string        `json:"websiteUrl,omitempty"`
	Icons       []icon.Source `json:"icons,omitempty"`
}

// serverInfoOf converts go-sdk's implementation; nil stays nil.
func serverInfoOf(im *mcp.Implementation) *ServerInfo {
	if im == nil {
		return nil
	}
	return &ServerInfo{Name: im.Name, Title: im.Title, Description: im.Description, Version: im.Version,
		WebsiteURL: im.WebsiteURL, Icons: iconsOf(im.Icons)}
}

// declared is the capabilities object as the server declared it; nil for
// none.
func declared(sc *mcp.ServerCapabilities) json.RawMessage {
	if sc == nil {
		return nil
	}
	b, err := json.Marshal(sc)
	if err != nil {
		return nil
	}
	return b
}

// Feature names one thing a request needs the server to have declared.
type Feature string

// Features the host asks about before sending a request.
const (
	FeatureResources   Feature = "resources"           // resources/list
	FeatureTemplates   Feature = "resources/templates" // resources/templates/list: part of resources
	FeatureSubscribe   Feature = "resources.subscribe" // resources/subscribe
	FeatureCompletions Feature = "completions"         // completion/complete
)

// Offers reports whether the capabilities cover f.
func (c Capabilities) Offers(f Feature) bool {
	switch f {
	case FeatureResources, FeatureTemplates:
		return c.Resources
	case FeatureSubscribe:
		return c.Resources && c.Subscribe
	case FeatureCompletions:
		return c.Completions
	}
	return false
}

// capabilitiesOf converts go-sdk's capabilities; nil declares nothing.
func capabilitiesOf(sc *mcp.ServerCapabilities) Capabilities {
	if sc == nil {
		return Capabilities{}
	}
	out := Capabilities{Resources: sc.Resources != nil, Completions: sc.Completions != nil,
		Tools: sc.Tools != nil, Prompts: sc.Prompts != nil, Logging: sc.Logging != nil}
	if sc.Resources != nil {
		out.Subscribe, out.ResourceListChanged = sc.Resources.Subscribe, sc.Resources.ListChanged
	}
	if sc.Tools != nil {
		out.ToolListChanged = sc.Tools.ListChanged
	}
	if sc.Prompts != nil {
		out.PromptListChanged = sc.Prompts.ListChanged
	}
	if len(sc.Experimental) > 0 {
		out.Experimental = slices.Sorted(maps.Keys(sc.Experimental))
	}
	if len(sc.Extensions) > 0 {
		out.Extensions = slices.Sorted(maps.Keys(sc.Extensions))
	}
	return out
}

// Capabilities returns what the server declared when the current session
// opened, connecting first if there is no session.
func (c *Conn) Capabilities(ctx context.Context) (Capabilities, error) {
	cs, err := c.session(ctx)
	if err != nil {
		return Capabilities{}, err
	}
	if res := cs.InitializeResult(); res != nil {
		return capabilitiesOf(res.Capabilities), nil
	}
	return Capabilities{}, nil
}

// Offers reports whether the server declared f, connecting first if there
// is no session. The error is the connect's.
func (c *Conn) Offers(ctx context.Context, f Feature) (bool, error) {
	caps, err := c.Capabilities(ctx)
	if err != nil {
		return false, err
	}
	return caps.Offers(f), nil
}

// ErrNotOffered is the cause of an error about a request the server did
// not declare the capability for (errors.Is matches it), such as
// Subscribe to a server without resources.subscribe.
var ErrNotOffered error = notOffered{}

type notOffered struct{}

func (notOffered) Error() string { return "not in the capabilities the server declared" }

// listFeature is what each list method needs the server to have declared.
var listFeature = map[string]Feature{
	"resources/list":           FeatureResources,
	"resources/templates/list": FeatureTemplates,
}
