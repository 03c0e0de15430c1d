// Package consent is the host's consent gate: the one gate every tool
// call passes, whatever starts it (chat, the lab, a person's own call from
// the CLI or a tools panel, the host's own features). It decides from what
// the server lists of the tool, the policy of the caller's scope, the
// grants the person gave (kept per conversation and per server identity)
// and, when it must, the person's answer. It knows a connection only as a
// Conn (its server entry, its account and its tools), so it sits under
// hostcore, which holds the one capability to approve the host's own calls.
package consent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/toolcall"
)

// The consent gate. Every tool call the host makes passes one gate,
// whatever starts it: a model in a conversation (chat), the comparison
// lab (a recorded call, or a live model's), a person asking for a call
// (attachectl call, a tools panel's Call button), or one of the host's
// own features (a memory's lifecycle, a memory search). The gate decides
// from what the server says of the tool (its annotations, from the gate's
// own listing, never from the caller), from the policy the person chose
// (off, read-only, ask, auto), from the grants the person gave ("Always",
// kept per conversation and per server identity: see grants.go)
// and, when it must, from the person's answer. Its ToolDecision is the only
// thing Conn.CallTool runs: a call without one, or with a refusal, is not
// sent. Every decision is recorded (Consent.Recent, Consent.OnDecision)
// with who or what approved it, or why it was not run, so that each
// feature can show it.
//
// The gate knows nothing of the model loop or the lab: they hand it a
// ToolRequest and get a ToolDecision back.

// Caller names the feature that asks to run a tool.
type Caller string

// The callers.
const (
	// CallerChat is a model in a conversation (Chat.Send).
	CallerChat Caller = "chat"
	// CallerLab is the comparison lab: a recorded call of a replay, or a
	// live model's.
	CallerLab Caller = "lab"
	// CallerPerson is a person asking for this very call: attachectl
	// call, a tools panel's Call. The request is the approval; a tool the
	// server says is destructive is confirmed first.
	CallerPerson Caller = "person"
	// CallerHost is one of the host's own features, each making one fixed
	// call with arguments the host builds (get_memories for a memory's
	// lifecycle, search when the person presses Search). Only hostcore
	// makes such decisions.
	CallerHost Caller = "host"
)

// ToolPolicy is what the person chose about a feature's tool calls.
type ToolPolicy string

// The tool policies. Each caller reads them in its own way:
//
//	caller  off    read-only             ask                                auto
//	chat    none   read-only tools only  every call asked, unless "Always"  every call runs
//	lab     none   read-only tools only  read-only run, the others asked    every call runs
//	person  none   read-only tools only  destructive ones confirmed         every call runs
const (
	// ToolsOff offers no tool and runs none.
	ToolsOff ToolPolicy = "off"
	// ToolsReadOnly offers and runs only the tools the server marks
	// read-only (readOnlyHint); a call of any other is not run. The lab's
	// default.
	ToolsReadOnly ToolPolicy = "read-only"
	// ToolsAsk asks the person (ScopeOptions.Ask) before a call that the
	// policy does not run by itself.
	ToolsAsk ToolPolicy = "ask"
	// ToolsAuto runs every call, for scripts: the person chose so.
	ToolsAuto ToolPolicy = "auto"
)

// ParseToolPolicy reads a policy as a person types it ("read-only" or
// "readonly", any case). "" is an error: each front end picks its own
// default.
func ParseToolPolicy(s string) (ToolPolicy, error) {
	switch p := ToolPolicy(strings.ToLower(strings.TrimSpace(s))); p {
	case ToolsOff, ToolsReadOnly, ToolsAsk, ToolsAuto:
		return p, nil
	case "readonly":
		return ToolsReadOnly, nil
	}
	return "", fault.New(fault.KindUsage, nil, "tools %q: use off, read-only, ask or auto", s)
}

// Approval is the person's answer to a call.
type Approval string

// The answers to a call.
const (
	// ApproveOnce runs this call.
	ApproveOnce Approval = "once"
	// ApproveAlways runs it and every later call of this tool of this
	// server: in the conversation (kept, see GrantStore), or for the rest
	// of a lab run or a panel's session.
	ApproveAlways Approval = "always"
	// ApproveDeny does not run it; the model is told.
	ApproveDeny Approval = "deny"
	// ApproveNever does not run it, nor any later call of this tool in
	// the same scope (a lab run); never kept.
	ApproveNever Approval = "never"
)

// AskFunc asks the person about a call. It is called on the goroutine of
// the feature that makes the call and may block until the person answers;
// an error, or ctx ending, counts as no answer (the call is not run).
type AskFunc func(ctx context.Context, req ToolRequest) (Approval, error)

// ToolRequest is a call waiting for the gate, and what the person is
// shown when asked.
type ToolRequest struct {
	Caller         Caller `json:"caller"`
	ConversationID int64  `json:"conversationId,omitempty"`
	// Turn is the turn's Seq (chat) or the replay turn's number (lab),
	// Round its request.
	Turn  int `json:"turn,omitempty"`
	Round int `json:"round,omitempty"`
	// Recorded marks a call read from a replay, which no model is asking
	// for now.
	Recorded bool `json:"recorded,omitempty"`
	// Server and Account name the connection; Tool is the tool as the
	// server listed it (the gate fills in its annotations from its own
	// listing before asking).
	Server  string        `json:"server"`
	Account string        `json:"account,omitempty"`
	Tool    toolcall.Tool `json:"tool"`
	// Name is the name the model called the tool by, when it differs.
	Name string `json:"name,omitempty"`
	// Arguments is the call's arguments as written; the gate checks that
	// they are a JSON object.
	Arguments json.RawMessage `json:"arguments"`
}

// Approver says who or what approved a call that ran.
type Approver string

// The approvers.
const (
	// ApprovedReadOnly: the policy runs tools the server marks read-only.
	ApprovedReadOnly Approver = "read-only"
	// ApprovedAuto: the person chose to run every call (--tools auto).
	ApprovedAuto Approver = "auto"
	// ApprovedOnce: the person allowed this call.
	ApprovedOnce Approver = "once"
	// ApprovedAlways: the person allowed this call and the tool's later
	// ones (in the conversation, or the run).
	ApprovedAlways Approver = "always"
	// ApprovedGrant: an "Always" the person gave earlier, to this tool of
	// this server as it now runs (same command or URL, same credentials).
	ApprovedGrant Approver = "grant"
	// ApprovedRequest: the person asked for this very call.
	ApprovedRequest Approver = "request"
	// ApprovedConfirmed: the person asked for a destructive call and
	// confirmed it.
	ApprovedConfirmed Approver = "confirmed"
	// ApprovedHost: one of the host's own features (see CallerHost).
	ApprovedHost Approver = "host"
)

// Refusal says why a call was not run.
type Refusal string

// The refusals.
const (
	// RefusedNotReadOnly: the policy runs only read-only tools, and the
	// server does not mark this one so.
	RefusedNotReadOnly Refusal = "not read-only"
	// RefusedDenied: the person said no.
	RefusedDenied Refusal = "denied"
	// RefusedNoAnswer: the person was asked and did not answer (the
	// window closed, the turn was stopped, no terminal).
	RefusedNoAnswer Refusal = "not answered"
	// RefusedNotConfirmed: a destructive call the person asked for was
	// not confirmed.
	RefusedNotConfirmed Refusal = "not confirmed"
	// RefusedToolsOff: the policy is off.
	RefusedToolsOff Refusal = "tools are off"
	// RefusedNotListed: the server does not list a tool of that name to
	// this host.
	RefusedNotListed Refusal = "not listed by the server"
	// RefusedBadArguments: the arguments are not a JSON object.
	RefusedBadArguments Refusal = "arguments are not a JSON object"
	// RefusedUnlisted: the server's tools could not be listed, so nothing
	// is known of the tool.
	RefusedUnlisted Refusal = "the server's tools could not be listed"
)

// ToolDecision is the gate's answer to one call, as it is recorded and
// shown.
type ToolDecision struct {
	At             time.Time `json:"at"`
	Caller         Caller    `json:"caller"`
	ConversationID int64     `json:"conversationId,omitempty"`
	Server         string    `json:"server,omitempty"`
	Account        string    `json:"account,omitempty"`
	Tool           string    `json:"tool"`
	// Run says whether the call may run; By says who or what approved
	// it, Refusal why not.
	Run     bool     `json:"run"`
	By      Approver `json:"by,omitempty"`
	Refusal Refusal  `json:"refusal,omitempty"`
	// Note adds what the person should know: the feature of a host call,
	// why the arguments are not an object.
	Note string `json:"note,omitempty"`
}

// Permit is a decision as the gate hands it to the feature that asked:
// its record, and, when the call may run, the approval Conn.CallTool
// takes (Permit.Take). Only the gate makes a permit that runs, and each
// runs at most once.
type Permit struct {
	ToolDecision
	conn     Conn
	args     map[string]any
	approved bool
	spent    atomic.Bool
}

// String says what was decided, as the lab and the CLI show it: "ran:
// read-only", "not run: not read-only".
func (d *ToolDecision) String() string {
	if d.Run {
		return "ran: " + approverWords[d.By]
	}
	return "not run: " + string(d.Refusal)
}

// approverWords say who approved, after "ran: ".
var approverWords = map[Approver]string{
	ApprovedReadOnly:  "read-only",
	ApprovedAuto:      "auto",
	ApprovedOnce:      "allowed once",
	ApprovedAlways:    "allowed always",
	ApprovedGrant:     "allowed always earlier",
	ApprovedRequest:   "asked for by the person",
	ApprovedConfirmed: "confirmed by the person",
	ApprovedHost:      "the host's own read",
}

// Approval is the decision as the person's answer: once, always or deny.
func (d *ToolDecision) Approval() Approval {
	switch {
	case !d.Run:
		return ApproveDeny
	case d.By == ApprovedAlways || d.By == ApprovedGrant:
		return ApproveAlways
	}
	return ApproveOnce
}

// ModelText is what a model is told of a call that was not run, so that
// it can go on.
func (d *ToolDecision) ModelText() string {
	switch d.Refusal {
	case RefusedNotReadOnly:
		return fmt.Sprintf("The host did not run %s: the server does not mark it read-only, and only read-only tools run here.", d.Tool)
	case RefusedDenied, RefusedNoAnswer:
		return "The person denied this call; it was not run."
	case RefusedNotConfirmed:
		return "The person did not confirm this call; it was not run."
	case RefusedNotListed:
		return fmt.Sprintf("There is no tool named %q in this conversation.", d.Tool)
	case RefusedBadArguments:
		return "The tool was not called: its arguments are not a valid JSON object (" + d.Note + ")."
	}
	return "The host did not run this call: " + string(d.Refusal) + "."
}

// notApproved is Take's error for a call the gate did not approve.
func notApproved(d *Permit, why string) error {
	tool := "a tool"
	if d != nil && d.Tool != "" {
		tool = fmt.Sprintf("%q", d.Tool)
	}
	return fault.New(fault.KindNotApproved, nil, "the host did not run %s: %s", tool, why)
}

// Take checks that d is the gate's approval to run its tool on c, and
// spends it; it returns the arguments to send. The connection's CallTool
// takes it before it sends anything.
func (d *Permit) Take(c Conn) (map[string]any, error) {
	switch {
	case d == nil:
		return nil, notApproved(d, "no decision of the consent gate")
	case !d.approved:
		if d.Refusal != "" {
			return nil, notApproved(d, string(d.Refusal))
		}
		return nil, notApproved(d, "the consent gate did not approve it")
	case d.conn != c:
		return nil, notApproved(d, "it was approved for another connection")
	case !d.spent.CompareAndSwap(false, true):
		return nil, notApproved(d, "its approval was already used")
	}
	return d.args, nil
}
