package hostcore

import (
	"context"
	"fmt"
)

// The demo conversation is what a first run of the app opens on: three
// memories of the demo's acme tenant attached, and the demo model to ask
// (DemoProvider), so that Send works at once on a machine with no model
// and no key. The memories are the sample corpus's (assets/corpus.json),
// whose ids are fixed.

// DemoConversationTitle is the demo conversation's title.
const DemoConversationTitle = "Demo: ask the demo model"

// DemoQuestion is the question the demo conversation's window offers
// before its first turn: the first memory attached answers it.
const DemoQuestion = "What did we decide about the API gateway?"

// demoAccount and demoMemories are what the demo conversation attaches.
const demoAccount = "acme"

var demoMemories = []string{"m9caykqgjw", "mvqqm2ec9p", "mbqt5zgh7x"}

// CreateDemoConversation creates the demo conversation and attaches its
// memories through the built-in demo server. The conversation is kept
// even when an attach fails (the demo server cannot start, say): it is
// returned with the error, and nothing is lost.
func (cv *Conversations) CreateDemoConversation(ctx context.Context) (Conversation, error) {
	conv, err := cv.store.CreateConversation(ctx, DemoConversationTitle)
	if err != nil {
		return Conversation{}, err
	}
	c, err := cv.host.Conn(DemoServerName, demoAccount)
	if err != nil {
		return conv, fmt.Errorf("attaching the demo's memories: %w", err)
	}
	for _, id := range demoMemories {
		if _, err := cv.AttachID(ctx, conv.ID, c, id); err != nil {
			return conv, fmt.Errorf("attaching the demo's memory %s: %w", id, err)
		}
	}
	return conv, nil
}
