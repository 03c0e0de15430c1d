package chat

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/consent"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/pack"
)

// DefaultMaxToolRounds bounds the tool rounds of a turn: after this many
// replies that called tools, the model is asked once more with tool choice
// "none", for its answer.
const DefaultMaxToolRounds = 8

// DefaultMaxToolResultBytes bounds what one tool result sends back to the
// model; the rest is cut, and the model is told how much.
const DefaultMaxToolResultBytes = 64 << 10

// Options configures a Chat. The zero value, and nil, are usable.
type Options struct {
	// Now is the clock; nil means the host's.
	Now hostcore.Clock
	// Tokens counts the host's side of each request; nil means
	// pack.DefaultTokenCounter().
	Tokens pack.TokenCounter
	// MaxToolRounds is DefaultMaxToolRounds when 0 or less.
	MaxToolRounds int
	// MaxToolResultBytes is DefaultMaxToolResultBytes when 0 or less.
	MaxToolResultBytes int
}

// Chat is the model loop of the person's conversations: it sends a
// message with the conversation's assembled context and tools to a model,
// runs the tool calls the person approves, and stores every turn as it
// happens. It is safe for concurrent use; turns of one conversation should
// be sent one at a time (a front end disables Send while one runs).
type Chat struct {
	cv    *hostcore.Conversations
	store TurnStore
	opts  Options
}

// New returns the model loop over cv's conversations, keeping turns in
// store (the state package's Store implements both hostcore.StateStore
// and TurnStore).
func New(cv *hostcore.Conversations, store TurnStore, opts *Options) *Chat {
	ch := &Chat{cv: cv, store: store}
	if opts != nil {
		ch.opts = *opts
	}
	if ch.opts.Now == nil {
		ch.opts.Now = cv.Host().Clock()
	}
	if ch.opts.Tokens == nil {
		ch.opts.Tokens = pack.DefaultTokenCounter()
	}
	if ch.opts.MaxToolRounds <= 0 {
		ch.opts.MaxToolRounds = DefaultMaxToolRounds
	}
	if ch.opts.MaxToolResultBytes <= 0 {
		ch.opts.MaxToolResultBytes = DefaultMaxToolResultBytes
	}
	return ch
}

// Turns returns conversation conv's turns, oldest first, whole.
func (ch *Chat) Turns(ctx context.Context, conv int64) ([]Turn, error) {
	return ch.store.Turns(ctx, conv)
}

// Turn returns turn seq of conversation conv, or an error of kind not
// found.
func (ch *Chat) Turn(ctx context.Context, conv int64, seq int) (Turn, error) {
	turns, err := ch.store.Turns(ctx, conv)
	if err != nil {
		return Turn{}, err
	}
	for _, t := range turns {
		if t.Seq == seq {
			return t, nil
		}
	}
	return Turn{}, fault.New(fault.KindNotFound, nil, "turn %d is not in the conversation any more", seq)
}

// SendOptions are one Send's.
type SendOptions struct {
	// Model answers; required.
	Model Model
	// Provider and ModelName are recorded with the turn.
	Provider, ModelName string
	// Budget is the context's token budget; 0 means DefaultBudget.
	Budget int
	// Tools says which tools are offered and how the consent gate decides
	// on their calls (see ToolPolicy); "" means ToolsOff.
	Tools consent.ToolPolicy
	// Approve asks the person about a call, for ToolsAsk (required then).
	// It is called on Send's goroutine and may block until the person
	// answers; an error, or ctx ending, counts as a denial. ApproveAlways
	// is kept with the conversation, for the server as it now runs.
	Approve consent.AskFunc
	// OnEvent, if not nil, is told what happens as it happens, on Send's
	// goroutine and in order (a Fyne front end hands each event to
	// fyne.Do). It must not call Send.
	OnEvent func(Event)
}

// EventKind says what an Event reports.
type EventKind string

// The kinds of event, in the order a turn produces them.
const (
	// EventStarted: the turn is stored, with its context and tools (Turn).
	EventStarted EventKind = "started"
	// EventWarning: something the person should know (Text), such as a
	// server whose tools could not be listed, or arguments that were not
	// valid JSON.
	EventWarning EventKind = "warning"
	// EventRequest: a request is being sent (Request, with the host's
	// count).
	EventRequest EventKind = "request"
	// EventText: a piece of the model's reply, as it streams (Text).
	EventText EventKind = "text"
	// EventReply: a request was answered (Request, with the provider's
	// usage).
	EventReply EventKind = "reply"
	// EventToolCall: the model asks to call a tool (Call, Tool); approval
	// is asked next.
	EventToolCall EventKind = "tool-call"
	// EventToolResult: a call's result, sent back to the model (Call,
	// Result, Approval, and the consent gate's Decision).
	EventToolResult EventKind = "tool-result"
)

// Event is one thing that happened in a turn.
type Event struct {
	Kind     EventKind
	Round    int
	Text     string
	Turn     *Turn
	Request  *RequestRecord
	Call     *ToolCall
	Tool     *OfferedTool
	Result   *Message
	Approval consent.Approval
	Decision *consent.ToolDecision
}

// Send sends text in conversation conv and runs the turn to its end: the
// model's final answer, a failure, or ctx ending (Stop). It returns the
// turn as stored. On failure the turn is stored too, with what arrived
// before the failure, and the error is an *Error (see Model for the kinds
// of a provider's failures); a turn stopped by ctx returns an error of
// kind canceled.
func (ch *Chat) Send(ctx context.Context, conv int64, text string, opts SendOptions) (Turn, error) {
	if err := opts.check(text); err != nil {
		return Turn{}, err
	}
	vision := visionOf(opts.Model)
	n, err := ch.next(ctx, conv, opts.Budget, &vision)
	if err != nil {
		return Turn{}, err
	}
	sc, reads, earlier := n.sc, n.reads, n.earlier
	r := &turnRun{ch: ch, opts: opts, tools: map[string]OfferedTool{}}
	if r.scope, err = ch.cv.Host().Consent().Scope(consent.ScopeOptions{Caller: consent.CallerChat, Policy: opts.Tools,
		Ask: opts.Approve, ConversationID: conv}); err != nil {
		return Turn{}, err
	}
	var offered []OfferedTool
	var warnings []string
	if opts.Tools != consent.ToolsOff && opts.Tools != "" {
		settings, err := ch.store.ToolSettings(ctx, conv)
		if err != nil {
			return Turn{}, err
		}
		servers, w := toolServers(ch.cv, reads, settings)
		offered, r.conns, warnings = offerTools(ctx, r.scope, servers)
		warnings = append(w, warnings...)
	}
	t := Turn{ConversationID: conv, Provider: opts.Provider, Model: opts.ModelName, StartedAt: now(ch.opts.Now),
		Status: TurnRunning, Context: sc, Tools: offered, ListingTokens: ListingTokens(offered, ch.opts.Tokens),
		Messages: []Message{{Role: RoleUser, Text: text}}}
	if t, err = ch.store.StartTurn(ctx, t); err != nil {
		return Turn{}, err
	}
	r.turn = &t
	for _, o := range offered {
		r.tools[o.Name] = o
	}
	r.emit(Event{Kind: EventStarted, Turn: &t})
	for _, w := range warnings {
		r.emit(Event{Kind: EventWarning, Text: w})
	}
	runErr := r.loop(ctx, append(historyOf(earlier), t.Messages[0]))
	return r.finish(ctx, runErr)
}

// check refuses options Send cannot work with.
func (o SendOptions) check(text string) error {
	switch {
	case o.Model == nil:
		return fault.New(fault.KindUsage, nil, "no model to send to: configure a provider")
	case strings.TrimSpace(text) == "":
		return fault.New(fault.KindUsage, nil, "there is nothing to send: the message is empty")
	case o.Tools != "" && o.Tools != consent.ToolsOff && o.Tools != consent.ToolsReadOnly && o.Tools != consent.ToolsAsk && o.Tools != consent.ToolsAuto:
		return fault.New(fault.KindUsage, nil, "tools %q: use off, read-only, ask or auto", o.Tools)
	case o.Tools == consent.ToolsAsk && o.Approve == nil:
		return fault.New(fault.KindUsage, nil, "tools are to be asked about, but nothing asks the person")
	}
	return nil
}

// turnRun is one Send under way.
type turnRun struct {
	ch    *Chat
	opts  SendOptions
	turn  *Turn
	tools map[string]OfferedTool    // by the name the model calls
	conns map[string]*hostcore.Conn // by server
	scope *consent.Scope            // the consent gate's, for this turn
}

func (r *turnRun) emit(e Event) {
	if r.opts.OnEvent != nil {
		r.opts.OnEvent(e)
	}
}

// saveCtx is ctx without its cancellation: what happened before a Stop is
// stored all the same.
func saveCtx(ctx context.Context) context.Context { return context.WithoutCancel(ctx) }

// loop asks the model until it answers without calling tools.
func (r *turnRun) loop(ctx context.Context, msgs []Message) error {
	specs := make([]ToolSpec, len(r.turn.Tools))
	for i, t := range r.turn.Tools {
		specs[i] = t.Spec()
	}
	for round := 1; ; round++ {
		last := round > r.ch.opts.MaxToolRounds
		req := ModelRequest{System: r.turn.Context.System, Messages: msgs, Images: r.turn.Context.Images, Tools: specs,
			NoToolCalls: last && len(specs) > 0}
		rec := RequestRecord{Round: round, Counted: r.count(req), NoToolCalls: req.NoToolCalls}
		r.emit(Event{Kind: EventRequest, Round: round, Request: &rec})
		reply, err := r.opts.Model.Complete(ctx, req, func(s string) { r.emit(Event{Kind: EventText, Round: round, Text: s}) })
		rec.Usage, rec.Model, rec.StopReason = reply.Usage, reply.Model, reply.StopReason
		if serr := r.addRequest(ctx, rec); serr != nil {
			return serr
		}
		r.emit(Event{Kind: EventReply, Round: round, Request: &rec})
		if reply.Text != "" || len(reply.ToolCalls) > 0 {
			m := Message{Role: RoleAssistant, Text: reply.Text, ToolCalls: reply.ToolCalls}
			if serr := r.addMessage(ctx, m); serr != nil {
				return serr
			}
			msgs = append(msgs, m)
		}
		switch {
		case err != nil:
			return err
		case len(reply.ToolCalls) == 0:
			return nil
		case last:
			return fault.New(fault.KindServerFault, nil, "the model called tools again after %d tool rounds, the limit of a turn", r.ch.opts.MaxToolRounds)
		}
		for _, call := range reply.ToolCalls {
			if ctx.Err() != nil {
				return modelStopped(ctx, ctx.Err())
			}
			res := r.runTool(ctx, round, call)
			if serr := r.addMessage(ctx, res); serr != nil {
				return serr
			}
			msgs = append(msgs, res)
		}
	}
}

func (r *turnRun) addRequest(ctx context.Context, rec RequestRecord) error {
	if err := r.ch.store.AddRequest(saveCtx(ctx), r.turn.ID, rec); err != nil {
		return err
	}
	r.turn.Requests = append(r.turn.Requests, rec)
	return nil
}

func (r *turnRun) addMessage(ctx context.Context, m Message) error {
	if err := r.ch.store.AddMessage(saveCtx(ctx), r.turn.ID, m); err != nil {
		return err
	}
	r.turn.Messages = append(r.turn.Messages, m)
	return nil
}

// count is the host's count of a request's input.
func (r *turnRun) count(req ModelRequest) RequestTokens {
	c := r.ch.opts.Tokens
	n := RequestTokens{System: c.Count(req.System), Tools: r.turn.ListingTokens, Images: imageTokens(req.Images)}
	for _, m := range req.Messages {
		n.Messages += c.Count(m.Text)
		for _, tc := range m.ToolCalls {
			n.Messages += c.Count(tc.Name) + c.Count(tc.Arguments)
		}
	}
	n.Total = n.System + n.Messages + n.Tools + n.Images
	return n
}

// finish records how the turn ended and returns it.
func (r *turnRun) finish(ctx context.Context, runErr error) (Turn, error) {
	t := r.turn
	t.Status, t.FinishedAt = TurnDone, now(r.ch.opts.Now)
	var he *fault.Error
	if runErr != nil {
		if !errors.As(runErr, &he) {
			he = fault.New(fault.KindServerFault, runErr, "the turn failed")
		}
		if ctx.Err() != nil && he.Kind() != fault.KindCanceled && he.Kind() != fault.KindTimeout {
			he = modelStopped(ctx, runErr)
		}
		t.Status, t.ErrorKind, t.Error = TurnFailed, he.Kind(), he.Message()
		if he.Kind() == fault.KindCanceled {
			t.Status = TurnStopped
		}
	}
	if err := r.ch.store.FinishTurn(saveCtx(ctx), t.ID, t.Status, t.ErrorKind, t.Error, t.FinishedAt); err != nil && runErr == nil {
		return *t, err
	}
	if he != nil {
		return *t, he
	}
	return *t, nil
}

// historyOf returns the messages of earlier turns that a new request
// carries. A turn that ended before the model said anything (a provider
// that was down, a key refused) is left out: the person sends again, and
// the model should not read the message twice. It stays in the store and
// in the transcript. A tool call left without a result (a turn stopped or
// failed between the call and its result) gets one saying so, since both
// APIs refuse a call without its result.
func historyOf(turns []Turn) []Message {
	var out []Message
	for _, t := range turns {
		if !answered(t) {
			continue
		}
		var pending []ToolCall
		flush := func() {
			for _, c := range pending {
				out = append(out, Message{Role: RoleTool, ToolCallID: c.ID, ToolName: c.Name, IsError: true,
					Text: "This call was not run: the turn ended before it."})
			}
			pending = nil
		}
		for _, m := range t.Messages {
			switch m.Role {
			case RoleTool:
				pending = dropCall(pending, m.ToolCallID)
			default:
				flush()
			}
			out = append(out, m)
			if m.Role == RoleAssistant {
				pending = append(pending, m.ToolCalls...)
			}
		}
		flush()
	}
	return out
}

// answered reports whether the model said anything in t.
func answered(t Turn) bool {
	for _, m := range t.Messages {
		if m.Role == RoleAssistant {
			return true
		}
	}
	return false
}

func dropCall(calls []ToolCall, id string) []ToolCall {
	for i, c := range calls {
		if c.ID == id {
			return append(calls[:i:i], calls[i+1:]...)
		}
	}
	return calls
}

// ReplayRequest rebuilds the first request of the turn numbered seq from
// the stored turns of its conversation (oldest first, as TurnStore.Turns
// returns them): the system prompt and tools it sent, and the messages
// before it. Sent again, it asks the model the same question with the same
// context.
func ReplayRequest(turns []Turn, seq int) (ModelRequest, error) {
	for i, t := range turns {
		if t.Seq != seq {
			continue
		}
		if len(t.Messages) == 0 || t.Messages[0].Role != RoleUser {
			return ModelRequest{}, fault.New(fault.KindProtocol, nil, "turn %d has no message of the person's", seq)
		}
		req := ModelRequest{System: t.Context.System, Messages: append(historyOf(turns[:i]), t.Messages[0]),
			Images: t.Context.Images}
		for _, o := range t.Tools {
			req.Tools = append(req.Tools, o.Spec())
		}
		return req, nil
	}
	return ModelRequest{}, fault.New(fault.KindNotFound, nil, "no turn %d", seq)
}

// now reads c, the host's clock when the options gave none.
func now(c hostcore.Clock) time.Time {
	if c == nil {
		return time.Now()
	}
	return c()
}
