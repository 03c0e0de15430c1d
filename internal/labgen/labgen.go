// Command labgen writes the comparison lab's bundled replay,
// assets/replay.jsonl: support-style sessions over the demo corpus's acme
// memories (the demo server's first account). It is deterministic: one
// seed, no clock, so the same program always writes the same file.
//
//	go run ./internal/labgen > assets/replay.jsonl
//
// (or go generate ./assets). Everything in it is synthetic: the turns, the
// relevance marks and the recorded tool calls were drawn from fixed
// probabilities, not taken from any model. The lab's value is in
// measuring your own turns; this replay shows what the reports look like.
package main

import (
	"bytes"
	"os"

	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/attache/attache/assets"

	"github.com/attache/attache/hostcore/lab"
	"github.com/attache/attache/internal/threengram"
)

// Sessions and TurnsPerSession size the replay: 30 × 8 = 240 turns at
// least, a few sessions running longer.
const (
	Sessions        = 30
	TurnsPerSession = 8
	Tenant          = "acme"
)

// The draw's probabilities, per turn.
const (
	pNothingNeeded = 0.15 // a greeting or a thank-you
	pNotAttached   = 0.12 // the data needed is a memory the person did not attach
	pFetch         = 0.72 // the model calls get_memories for what it needs
	pSearchFirst   = 0.25 // ... after a search
	pWrongID       = 0.05 // ... with an id that is not on the server
	pBadCall       = 0.03 // ... with arguments the server refuses
	pChangeAttach  = 0.20 // the person changes the attachments before the turn
)

var start = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)

var asks = []string{
	"A customer asks about %s on %s: what did we decide?",
	"Ticket %s (%s): the customer says it is still broken, what do we know?",
	"Can you summarize where %s stands for %s?",
	"The customer wants a date for the %s work on %s. What was promised?",
	"Is the %s note for %s still current?",
	"Draft a reply about %s for the %s customer.",
}

var smallTalk = []string{"Thanks, that helps.", "Hi, I have a new ticket.", "OK, closing this one.", "Can you make it shorter?"}

func main() {
	out, err := Generate(assets.Corpus)
	if err != nil {
		fmt.Fprintln(os.Stderr, "labgen:", err)
		os.Exit(1)
	}
	os.Stdout.Write(out)
}

// line is a replay line as written: attached left out when it is the
// previous turn's set.
type line struct {
	Session   string         `json:"session"`
	Turn      int            `json:"turn"`
	At        time.Time      `json:"at"`
	User      string         `json:"user"`
	Relevant  []string       `json:"relevant"`
	Attached  *[]string      `json:"attached,omitempty"`
	ToolCalls []lab.ToolCall `json:"toolCalls,omitempty"`
}

// Generate returns the replay for corpus (assets.Corpus).
func Generate(corpus []byte) ([]byte, error) {
	var all []threengram.CorpusMemory
	if err := json.Unmarshal(corpus, &all); err != nil {
		return nil, fmt.Errorf("reading the corpus: %w", err)
	}
	byTopic := map[string][]threengram.CorpusMemory{}
	var topics []string
	for _, m := range all {
		if m.Tenant != Tenant {
			continue
		}
		if _, ok := byTopic[m.Topic]; !ok {
			topics = append(topics, m.Topic)
		}
		byTopic[m.Topic] = append(byTopic[m.Topic], m)
	}
	slices.Sort(topics)
	if len(topics) == 0 {
		return nil, fmt.Errorf("the corpus has no memory of %s", Tenant)
	}
	r := rand.New(rand.NewPCG(13, 2026))
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for s := range Sessions {
		g := &session{r: r, name: fmt.Sprintf("s%02d", s+1), pool: byTopic[topics[r.IntN(len(topics))]], all: byTopic, topics: topics}
		at := start.Add(time.Duration(s) * 17 * time.Minute)
		n := TurnsPerSession + r.IntN(3)/2 // a third of them run a turn longer
		for i := range n {
			at = at.Add(time.Duration(20+r.IntN(70)) * time.Second)
			if err := enc.Encode(g.turn(i+1, at)); err != nil {
				return nil, err
			}
		}
	}
	return buf.Bytes(), nil
}

// session draws one session's turns.
type session struct {
	r        *rand.Rand
	name     string
	pool     []threengram.CorpusMemory // the session's topic
	all      map[string][]threengram.CorpusMemory
	topics   []string
	attached []string
}

func (g *session) pick() threengram.CorpusMemory { return g.pool[g.r.IntN(len(g.pool))] }

func (g *session) turn(n int, at time.Time) line {
	l := line{Session: g.name, Turn: n, At: at, Relevant: []string{}}
	if n == 1 || g.r.Float64() < pChangeAttach {
		next := []string{}
		for range 1 + g.r.IntN(3) {
			if u := threengram.MemoryURI(g.pick().ID); !slices.Contains(next, u) {
				next = append(next, u)
			}
		}
		g.attached = next
		l.Attached = &next
	}
	if n > 1 && g.r.Float64() < pNothingNeeded {
		l.User = smallTalk[g.r.IntN(len(smallTalk))]
		if g.r.Float64() < 0.2 { // the model looks anyway
			l.ToolCalls = []lab.ToolCall{search(g.pool[0].Topic)}
		}
		return l
	}
	// The data needed: one or two attached memories, or one the person
	// did not attach.
	var need []threengram.CorpusMemory
	if g.r.Float64() < pNotAttached {
		other := g.all[g.topics[g.r.IntN(len(g.topics))]]
		need = append(need, other[g.r.IntN(len(other))])
	} else {
		for _, u := range g.attached[:1+g.r.IntN(len(g.attached))] {
			need = append(need, g.byURI(u))
		}
	}
	m := need[0]
	l.User = fmt.Sprintf(asks[g.r.IntN(len(asks))], m.Topic, m.Project)
	var ids []string
	for _, m := range need {
		l.Relevant = append(l.Relevant, threengram.MemoryURI(m.ID))
		ids = append(ids, m.ID)
	}
	if g.r.Float64() >= pFetch {
		return l
	}
	if g.r.Float64() < pSearchFirst {
		l.ToolCalls = append(l.ToolCalls, search(m.Topic))
	}
	switch x := g.r.Float64(); {
	case x < pBadCall:
		l.ToolCalls = append(l.ToolCalls, lab.ToolCall{Name: "get_memories", Arguments: json.RawMessage(`{"ids":"` + ids[0] + `"}`)})
	case x < pBadCall+pWrongID:
		ids[0] = "m" + ids[0][2:] + "x" // an id the server does not have
		fallthrough
	default:
		args, _ := json.Marshal(map[string]any{"ids": ids})
		l.ToolCalls = append(l.ToolCalls, lab.ToolCall{Name: "get_memories", Arguments: args})
	}
	return l
}

func (g *session) byURI(u string) threengram.CorpusMemory {
	for _, m := range g.pool {
		if threengram.MemoryURI(m.ID) == u {
			return m
		}
	}
	return g.pool[0]
}

func search(topic string) lab.ToolCall {
	args, _ := json.Marshal(map[string]any{"query": topic, "limit": 5})
	return lab.ToolCall{Name: "search", Arguments: args}
}
