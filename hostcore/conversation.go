package hostcore

import (
	"context"
	"time"

	"github.com/attache/attache/hostcore/pack"
)

// A conversation and its attachments are the person's data: they live in a
// state database of their own, apart from the cache, so that losing or
// purging the cache never loses a conversation. The state package's SQLite
// store implements StateStore; cmd/ wires it.

// Conversation is a named set of attachments.
type Conversation struct {
	ID        int64     `json:"id"`
	Title     string    `json:"title"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

// Origin says how an attachment was chosen.
type Origin string

// Origins of an attachment.
const (
	FromList     Origin = "list"     // picked from resources/list
	FromTemplate Origin = "template" // an expanded resource template
	FromID       Origin = "id"       // a threengram memory id
	FromTool     Origin = "tool"     // embedded in or linked from a tool's result
)

// ServerRef remembers which server an attachment came from, so that later
// commands reach the same server: a configured server by name, or an ad-hoc
// one by its command line or URL. Credentials are never stored here: a
// configured server's accounts hold them.
type ServerRef struct {
	Name    string   `json:"name"`
	Command string   `json:"command,omitempty"`
	Args    []string `json:"args,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
	URL     string   `json:"url,omitempty"`
}

// Attachment is one resource attached to a conversation.
type Attachment struct {
	ID             int64     `json:"id"`
	ConversationID int64     `json:"conversationId"`
	Server         ServerRef `json:"server"`
	Account        string    `json:"account"`
	URI            string    `json:"uri"`
	Origin         Origin    `json:"origin"`
	// Template is the URI template an expanded attachment came from.
	Template string `json:"template,omitempty"`
	// Title is what the person saw when attaching (resource or template name).
	Title   string    `json:"title,omitempty"`
	AddedAt time.Time `json:"addedAt"`
	Pinned  bool      `json:"pinned"`
	// PriorityOverride is the person's priority, which wins over the
	// server's annotation; nil when not set.
	PriorityOverride *float64 `json:"priorityOverride,omitempty"`
	// Annotations are the server's, from the listing or the template, as
	// they were when attached.
	Annotations pack.Annotations `json:"annotations,omitzero"`
	// Position is the order of attaching within the conversation.
	Position int `json:"position"`
}

// StateStore keeps conversations and attachments. Removals are soft until
// the store is closed, so that a person can undo them within the session.
// Implementations are safe for concurrent use and commit every change before
// returning (a killed process loses nothing that was acknowledged).
type StateStore interface {
	CreateConversation(ctx context.Context, title string) (Conversation, error)
	Conversation(ctx context.Context, id int64) (Conversation, error)
	Conversations(ctx context.Context) ([]Conversation, error)
	RenameConversation(ctx context.Context, id int64, title string) error
	// RemoveConversation hides a conversation and its attachments;
	// RestoreConversation brings them back (within the session).
	RemoveConversation(ctx context.Context, id int64) error
	RestoreConversation(ctx context.Context, id int64) error

	// AddAttachment stores a (ID and Position are assigned) and returns it.
	AddAttachment(ctx context.Context, a Attachment) (Attachment, error)
	Attachments(ctx context.Context, conversationID int64) ([]Attachment, error)
	// UpdateAttachment saves Pinned, PriorityOverride and Annotations.
	UpdateAttachment(ctx context.Context, a Attachment) error
	RemoveAttachment(ctx context.Context, id int64) error
	RestoreAttachment(ctx context.Context, id int64) error
}
