package labrun

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/lab"
	"github.com/attache/attache/hostcore/pack"
)

// A recorded conversation's attachments may come from several servers and
// accounts (demo/acme, demo/globex, server-everything, server-memory). Each
// is replayed against its own: a memory of globex's read as acme would be
// another body, or none, and a server-memory entity read from threengram
// is not there at all. Where an attachment's own server or account cannot
// be used (not configured here, no such account, or it cannot be reached),
// its turn counts it as a failure, it does not reach the context, and the
// report names the server in a warning. An attachment without an origin
// (a replay written by hand) is read from the server the replay runs
// against.

// Unusable is a server (and account) some of the replay's attachments or
// tool calls came from, which the replay could not use.
type Unusable struct {
	// Origin is "server/account", or the server alone.
	Origin string `json:"origin"`
	// Reason says why, as the host words it.
	Reason string `json:"reason"`
	// Turns counts the turns that had an attachment or call from it.
	Turns int `json:"turns"`
}

// origins finds each origin's connection, once a run, and remembers the
// ones that cannot be used. Run's goroutine alone uses it.
type origins struct {
	primary  *hostcore.Conn
	conns    map[lab.Origin]*hostcore.Conn
	reasons  map[lab.Origin]string
	turns    map[lab.Origin]map[string]bool // the turns that needed an unusable origin
	used     map[string]bool                // "server/account" of each origin replayed against
	unusable []lab.Origin                   // in the order first met
}

func newOrigins(primary *hostcore.Conn) *origins {
	return &origins{primary: primary, conns: map[lab.Origin]*hostcore.Conn{}, reasons: map[lab.Origin]string{},
		turns: map[lab.Origin]map[string]bool{}, used: map[string]bool{}}
}

// conn returns the connection for o, or nil when o cannot be used; then
// the turn t is noted against it.
func (g *origins) conn(o lab.Origin, t lab.Turn) *hostcore.Conn {
	o = g.normal(o)
	if o == (lab.Origin{}) {
		g.used[g.name(g.primary)] = true
		return g.primary
	}
	if _, bad := g.reasons[o]; bad {
		g.noteTurn(o, t)
		return nil
	}
	c, ok := g.conns[o]
	if !ok {
		var err error
		if c, err = g.primary.Host().Conn(o.Server, o.Account); err != nil {
			g.refuse(o, t, err)
			return nil
		}
		g.conns[o] = c
	}
	g.used[g.name(c)] = true
	return c
}

// normal is o with the primary connection's own server and account made
// the empty origin.
func (g *origins) normal(o lab.Origin) lab.Origin {
	if o.Server == g.primary.Server.Name && (o.Account == "" || o.Account == g.primary.Account.Name) {
		return lab.Origin{}
	}
	return o
}

// failed reports whether err, from a request on the connection of o,
// means o cannot be used: it ends the replay on the replay's own server,
// and marks o unusable on another one, so the replay goes on without it.
func (g *origins) failed(ctx context.Context, o lab.Origin, t lab.Turn, err error) (fatalErr bool) {
	o = g.normal(o)
	if o == (lab.Origin{}) || ctx.Err() != nil {
		return true
	}
	g.refuse(o, t, err)
	return false
}

// refuse marks o unusable for err, with t as its first turn.
func (g *origins) refuse(o lab.Origin, t lab.Turn, err error) {
	var he *fault.Error
	reason := err.Error()
	if errors.As(err, &he) {
		reason = fault.Message(err)
	}
	g.reasons[o] = reason
	g.unusable = append(g.unusable, o)
	g.noteTurn(o, t)
}

func (g *origins) noteTurn(o lab.Origin, t lab.Turn) {
	if g.turns[o] == nil {
		g.turns[o] = map[string]bool{}
	}
	g.turns[o][fmt.Sprintf("%s\x00%d", t.Session, t.Turn)] = true
}

func (g *origins) name(c *hostcore.Conn) string {
	return lab.Origin{Server: c.Server.Name, Account: c.Account.Name}.String()
}

// report is what the run says of its origins: every server/account it
// replayed against, sorted, and the unusable ones.
func (g *origins) report() ([]string, []Unusable) {
	used := slices.Sorted(func(yield func(string) bool) {
		for k := range g.used {
			if !yield(k) {
				return
			}
		}
	})
	var out []Unusable
	for _, o := range g.unusable {
		out = append(out, Unusable{Origin: o.String(), Reason: g.reasons[o], Turns: len(g.turns[o])})
	}
	return used, out
}

// Warnings says, one line per server, which of the replay's servers could
// not be used, and what that did to the figures.
func Warnings(rep *Report) []string {
	var out []string
	for _, u := range rep.Replay.Unusable {
		reason := strings.TrimSuffix(u.Reason, ".")
		out = append(out, fmt.Sprintf("warning: %s could not be used (%s): its attachments and calls in %s are counted as failures and did not reach the context",
			u.Origin, reason, pack.Quantity(u.Turns, "turn")))
	}
	return out
}
