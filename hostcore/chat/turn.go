package chat

import (
	"context"
	"encoding/json"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
)

// A turn is one message of the person and everything the host did for it:
// the context it assembled, the tools it offered, each request to the model
// with the tokens counted on both sides, the replies, the tool calls and
// their results. A turn is stored as it happens, so a failure or a Stop
// loses nothing, and it keeps the exact system prompt and tools it sent, so
// it can be inspected and replayed (see ReplayRequest).

// TurnStatus says how a turn ended.
type TurnStatus string

// The statuses of a turn.
const (
	TurnRunning TurnStatus = "running" // still going, or the process died during it
	TurnDone    TurnStatus = "done"    // the model gave its final answer
	TurnFailed  TurnStatus = "failed"  // the provider failed, see Error
	TurnStopped TurnStatus = "stopped" // the person stopped it
)

// Turn is one turn of a conversation.
type Turn struct {
	ID             int64 `json:"id"`
	ConversationID int64 `json:"conversationId"`
	// Seq is the turn's 1-based position in the conversation.
	Seq int `json:"seq"`
	// Provider and Model say who was asked; Model is the configured one,
	// each request's reply says which model answered.
	Provider   string     `json:"provider"`
	Model      string     `json:"model"`
	StartedAt  time.Time  `json:"startedAt"`
	FinishedAt time.Time  `json:"finishedAt,omitzero"`
	Status     TurnStatus `json:"status"`
	// ErrorKind and Error say why a failed or stopped turn ended.
	ErrorKind fault.Kind `json:"errorKind,omitempty"`
	Error     string     `json:"error,omitempty"`
	// Context is the context sent with the turn.
	Context SentContext `json:"context"`
	// Tools are the tools offered with every request of the turn, and
	// ListingTokens what their listing costs in each request.
	Tools         []OfferedTool `json:"tools"`
	ListingTokens int           `json:"listingTokens"`
	// Requests are the requests made to the model, one per tool round.
	Requests []RequestRecord `json:"requests"`
	// Messages are the turn's messages in order: the person's, then the
	// model's and the tools' results.
	Messages []Message `json:"messages"`
	// Relevant are the resources the person marked as needed by the turn:
	// the comparison lab's ground truth (see LabTurns).
	Relevant []string `json:"relevant,omitempty"`
}

// SentContext is the context a turn sent: the system prompt exactly as
// sent, and how every attachment fared.
type SentContext struct {
	// System is the system prompt of every request of the turn.
	System string `json:"system"`
	// Images are the context's images, sent as images with every request
	// of the turn; Vision names whose estimate counted them (pack.Vision).
	Images []ContextImage `json:"images,omitempty"`
	Vision string         `json:"vision,omitempty"`
	// Budget, Used and Exceeded are the packing's (see pack.Packing).
	Budget   int `json:"budget"`
	Used     int `json:"used"`
	Exceeded int `json:"exceeded"`
	// Items are every attachment, in rank order, sent or not.
	Items []SentItem `json:"items"`
	// Supersessions are the notes of attachments that changed since an
	// earlier turn sent them.
	Supersessions []Supersession `json:"supersessions,omitempty"`
}

// SentItem is one attachment as a turn saw it.
type SentItem struct {
	Rank         int          `json:"rank"`
	AttachmentID int64        `json:"attachmentId"`
	Server       string       `json:"server"`
	Account      string       `json:"account,omitempty"`
	URI          string       `json:"uri"`
	Verdict      pack.Verdict `json:"verdict"`
	Priority     float64      `json:"priority"`
	Pinned       bool         `json:"pinned,omitempty"`
	Tokens       int          `json:"tokens"`
	Reason       string       `json:"reason"`
	// Cache says how the cache served the body (hit, miss, stale...).
	Cache hostcore.CacheStatus `json:"cache,omitempty"`
	// Digest is a SHA-256 of the body as read (every entry's uri, type and
	// bytes): a later turn compares it to tell that the body changed.
	// Empty for an unreadable item.
	Digest string `json:"digest,omitempty"`
	// LastModified is the item's lastModified annotation.
	LastModified string `json:"lastModified,omitempty"`
}

// Sent reports whether the item's body went to the model.
func (it SentItem) Sent() bool { return it.Verdict == pack.VerdictIncluded }

// Supersession says that an attachment a previous turn sent has changed.
type Supersession struct {
	AttachmentID int64  `json:"attachmentId"`
	URI          string `json:"uri"`
	// SentInTurn is the turn (Seq) that last sent the earlier body.
	SentInTurn int `json:"sentInTurn"`
	// UpdatedAt is when it changed: its lastModified annotation if it has
	// one, else when the host read the new body.
	UpdatedAt time.Time `json:"updatedAt"`
	// InContext is false when the new body is not sent with this turn
	// (dropped for the budget, held back, unreadable).
	InContext bool `json:"inContext"`
	// Note is the sentence the model is given.
	Note string `json:"note"`
}

// OfferedTool is a server's tool as offered to the model. Names are unique
// within a turn: a tool's own name when no other offered server has a tool
// of that name, else prefixed with its server's name.
type OfferedTool struct {
	// Name is the name the model sees and calls.
	Name        string          `json:"name"`
	Server      string          `json:"server"`
	Account     string          `json:"account,omitempty"`
	Tool        string          `json:"tool"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema"`
	// ReadOnly and Destructive are the server's hints (see Tool).
	ReadOnly    bool `json:"readOnly,omitempty"`
	Destructive bool `json:"destructive,omitempty"`
}

// Spec returns the tool as the model is told of it.
func (t OfferedTool) Spec() ToolSpec {
	return ToolSpec{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
}

// RequestRecord is one request of a turn to the model.
type RequestRecord struct {
	// Round is the request's 1-based position in the turn.
	Round int `json:"round"`
	// Counted is the host's own count of the request (tiktoken, see
	// TokenEncoding), next to what the provider reported in Usage.
	Counted RequestTokens `json:"counted"`
	Usage   Usage         `json:"usage"`
	// Model is the model that answered, as the provider reported it.
	Model      string `json:"model,omitempty"`
	StopReason string `json:"stopReason,omitempty"`
	// NoToolCalls is set on the request that ended a turn at its limit of
	// tool rounds.
	NoToolCalls bool `json:"noToolCalls,omitempty"`
}

// RequestTokens is the host's count of a request's input.
type RequestTokens struct {
	System   int `json:"system"`
	Messages int `json:"messages"`
	// Tools is the cost of the tool listing.
	Tools int `json:"tools"`
	// Images is the context's images, by their vendor's estimate.
	Images int `json:"images,omitempty"`
	Total  int `json:"total"`
}

// TurnStore keeps turns and the per-conversation tool settings. The state
// package's SQLite store implements it beside StateStore. Implementations
// are safe for concurrent use and commit every change before returning.
type TurnStore interface {
	// StartTurn stores t (ID and Seq are assigned, its Requests and
	// Messages too) and returns it.
	StartTurn(ctx context.Context, t Turn) (Turn, error)
	// AddMessage appends a message to turn id.
	AddMessage(ctx context.Context, turnID int64, m Message) error
	// AddRequest records a request of turn id.
	AddRequest(ctx context.Context, turnID int64, r RequestRecord) error
	// FinishTurn records how turn id ended.
	FinishTurn(ctx context.Context, turnID int64, status TurnStatus, kind fault.Kind, msg string, at time.Time) error
	// Turns returns a conversation's turns, oldest first, whole.
	Turns(ctx context.Context, conversationID int64) ([]Turn, error)

	// ToolSettings returns a conversation's tool switches (its grants are
	// the consent gate's: see GrantStore).
	ToolSettings(ctx context.Context, conversationID int64) (ToolSettings, error)
	// SetServerTools switches a server's tools on or off in a
	// conversation.
	SetServerTools(ctx context.Context, conversationID int64, server string, on bool) error
}

// RelevanceStore keeps the person's relevance marks on turns. The state
// package's store implements it beside TurnStore.
type RelevanceStore interface {
	// SetRelevant marks uri as needed by turn turnID, or not.
	SetRelevant(ctx context.Context, turnID int64, uri string, relevant bool) error
}

// ToolSettings are which servers' tools the person switched on or off in
// a conversation. The calls the person approved for good are the consent
// gate's grants (Consent.Grants).
type ToolSettings struct {
	// Servers switches servers on (true) or off (false); a server not
	// named follows the default: on for the servers of the conversation's
	// attachments, off for the others.
	Servers map[string]bool `json:"servers"`
}

// Replay sends turn seq of conversation conv again: its first request,
// rebuilt by ReplayRequest with the exact system prompt and tools it sent,
// to m. It returns the model's reply and stores nothing, runs no tool the
// reply calls, and reads nothing: it asks what a model (the same one, or
// another) makes of the same context now. onText is as for Model.Complete.
func (ch *Chat) Replay(ctx context.Context, conv int64, seq int, m Model, onText func(string)) (ModelReply, error) {
	if m == nil {
		return ModelReply{}, fault.New(fault.KindUsage, nil, "no model to send to: configure a provider")
	}
	turns, err := ch.store.Turns(ctx, conv)
	if err != nil {
		return ModelReply{}, err
	}
	req, err := ReplayRequest(turns, seq)
	if err != nil {
		return ModelReply{}, err
	}
	return m.Complete(ctx, req, onText)
}

// MarkRelevant marks uri as needed by turn turnID, or not: the comparison
// lab's ground truth, kept with the turn.
func (ch *Chat) MarkRelevant(ctx context.Context, turnID int64, uri string, relevant bool) error {
	rs, ok := ch.store.(RelevanceStore)
	if !ok {
		return fault.New(fault.KindUsage, nil, "this turn store keeps no relevance marks")
	}
	return rs.SetRelevant(ctx, turnID, uri, relevant)
}
