package hostcore

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Session is c's live session, for hostcore's own tests only, which set a
// server up or watch a session's life through it: outside them a session
// is hostcore's alone, so that no caller reaches a server past the consent
// gate.
func (c *Conn) Session(ctx context.Context) (*mcp.ClientSession, error) { return c.session(ctx) }
