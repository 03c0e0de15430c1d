package chat

import (
	"context"
	"slices"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
)

// A conversation's tool settings, as the person edits them: which servers'
// tools are offered (on by default for the servers of its attachments, see
// ToolSettings) and the tools approved for good ("Always", the consent
// gate's grants). Front ends edit them here, never in the store behind.

// ServerSwitch says whether a server's tools are offered in a conversation.
type ServerSwitch struct {
	// Server is the server's name.
	Server string `json:"server"`
	// On is true when its tools are offered.
	On bool `json:"on"`
	// Set is true when the person switched it; otherwise On is the
	// default: on for a server of the conversation's attachments.
	Set bool `json:"set,omitempty"`
}

// ServerSwitches returns a switch for each server the host knows (its
// configured and built-in servers, in the host's order): whether its tools
// are offered in conversation conv.
func (ch *Chat) ServerSwitches(ctx context.Context, conv int64) ([]ServerSwitch, error) {
	settings, err := ch.store.ToolSettings(ctx, conv)
	if err != nil {
		return nil, err
	}
	atts, err := ch.cv.Attachments(ctx, conv)
	if err != nil {
		return nil, err
	}
	var out []ServerSwitch
	for _, sc := range ch.cv.Host().Servers() {
		on, set := settings.Servers[sc.Name]
		if !set {
			on = slices.ContainsFunc(atts, func(a hostcore.Attachment) bool { return a.Server.Name == sc.Name })
		}
		out = append(out, ServerSwitch{Server: sc.Name, On: on, Set: set})
	}
	return out, nil
}

// ToolSettings returns what the person switched in conversation conv.
func (ch *Chat) ToolSettings(ctx context.Context, conv int64) (ToolSettings, error) {
	return ch.store.ToolSettings(ctx, conv)
}

// SwitchServerTools switches the tools of server on or off in conversation
// conv, for its later turns. A server the host does not know is an error
// of kind usage.
func (ch *Chat) SwitchServerTools(ctx context.Context, conv int64, server string, on bool) error {
	if !slices.ContainsFunc(ch.cv.Host().Servers(), func(sc config.ServerConfig) bool { return sc.Name == server }) {
		return fault.New(fault.KindUsage, nil, "no server named %q", server)
	}
	if _, err := ch.cv.Conversation(ctx, conv); err != nil {
		return err
	}
	return ch.store.SetServerTools(ctx, conv, server, on)
}

// Grants returns the tools approved for good in conversation conv that
// still hold (see consent.Consent.Grants).
func (ch *Chat) Grants(ctx context.Context, conv int64) ([]consent.ToolGrant, error) {
	return ch.cv.Host().Consent().Grants(ctx, conv)
}

// Revoke forgets the person's "Always" for tool of server in conversation
// conv: its next call is asked about again.
func (ch *Chat) Revoke(ctx context.Context, conv int64, server, tool string) error {
	return ch.cv.Host().Consent().Revoke(ctx, conv, server, tool)
}
