//go:build ignore

// Corpusgen writes assets/corpus.json, the sample corpus that the threengram
// reference server loads on first run. It is deterministic: the same program
// always writes the same file, so the corpus can be regenerated and reviewed.
//
//	go run assets/corpusgen/main.go > assets/corpus.json
package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/attache/attache/internal/threengram"
)

type memory = threengram.CorpusMemory

type tenant struct {
	name     string
	projects []string
	people   []string
}

var tenants = []tenant{
	{"acme", []string{"rocket-sled", "anvil-api", "roadrunner-web"}, []string{"Wile", "Marvin", "Daffy", "Tasha"}},
	{"globex", []string{"hammock", "doomsday-ui", "payroll"}, []string{"Hank", "Frank", "Homer", "Lenny"}},
	{"initech", []string{"tps-reports", "y2k-patch", "stapler"}, []string{"Peter", "Samir", "Michael", "Joanna"}},
}

var topics = []string{"architecture", "deployment", "onboarding", "testing", "security", "billing",
	"performance", "release", "incident", "customer", "hiring", "tooling", "database", "api-design"}

var memoryTypes = []string{"fact", "decision", "preference", "commitment", "note", "incident", "handoff"}

var scopes = []string{"project", "team", "personal"}

var subjects = []string{"the build pipeline", "the staging database", "the login flow", "our API gateway",
	"the nightly export", "the mobile release", "the billing webhook", "the search index",
	"the cache layer", "the on-call rota", "the feature flags", "the data retention job"}

var verbs = []string{"must be reviewed before", "was moved behind", "now depends on", "is owned by",
	"should not block", "fails when it meets", "was rewritten to use", "is measured against"}

var objects = []string{"the Friday freeze", "a second approver", "the new queue", "the platform team",
	"the quarterly audit", "an empty payload", "structured logging", "the p99 latency budget"}

func main() {
	r := rand.New(rand.NewPCG(2026, 728))
	base := time.Date(2025, 1, 6, 9, 0, 0, 0, time.UTC)
	var out []memory
	seq := 0
	for _, t := range tenants {
		n := 110 + r.IntN(20)
		for i := 0; i < n; i++ {
			seq++
			mt := memoryTypes[r.IntN(len(memoryTypes))]
			m := memory{
				ID:         makeID(r),
				Tenant:     t.name,
				Topic:      topics[r.IntN(len(topics))],
				MemoryType: mt,
				Scope:      scopes[r.IntN(len(scopes))],
				Project:    t.projects[r.IntN(len(t.projects))],
				RecordedAt: base.Add(time.Duration(seq*7+r.IntN(6)) * time.Hour).Format(time.RFC3339),
				Status:     "active",
			}
			m.Tags = pickTags(r, m)
			m.Content = body(r, t, m, i)
			if mt == "commitment" {
				m.CommitmentStatus = []string{"open", "open", "done", "dropped"}[r.IntN(4)]
			}
			if r.IntN(12) == 0 {
				m.Status = "archived"
			}
			out = append(out, m)
			// Some memories were revised: the predecessor's validTo is closed
			// and a successor with a new id carries the new content.
			if r.IntN(10) == 0 {
				seq++
				succ := m
				succ.ID = makeID(r)
				succ.RecordedAt = base.Add(time.Duration(seq*7) * time.Hour).Format(time.RFC3339)
				succ.Content = "Revised: " + sentence(r, t) + " " + m.Content
				out[len(out)-1].ValidTo = succ.RecordedAt
				out[len(out)-1].SupersededBy = succ.ID
				out = append(out, succ)
			}
		}
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

const idAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

func makeID(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("m")
	for range 9 {
		b.WriteByte(idAlphabet[r.IntN(len(idAlphabet))])
	}
	return b.String()
}

func pickTags(r *rand.Rand, m memory) []string {
	tags := []string{m.Topic}
	extra := []string{"q3", "q4", "urgent", "follow-up", "customer-facing", "internal", "tech-debt"}
	for range r.IntN(3) {
		tags = append(tags, extra[r.IntN(len(extra))])
	}
	return tags
}

func sentence(r *rand.Rand, t tenant) string {
	who := t.people[r.IntN(len(t.people))]
	return fmt.Sprintf("%s noted that %s %s %s.", who, subjects[r.IntN(len(subjects))],
		verbs[r.IntN(len(verbs))], objects[r.IntN(len(objects))])
}

// body writes the memory's content. One in fifteen is a long document (a
// postmortem or a handoff) of well over 8 KiB, so that excerpts truncate.
func body(r *rand.Rand, t tenant, m memory, i int) string {
	var b strings.Builder
	switch {
	case i%15 == 7:
		fmt.Fprintf(&b, "# %s %s for %s\n\n", strings.ToUpper(m.Topic[:1])+m.Topic[1:], m.MemoryType, m.Project)
		for p := 0; p < 18+r.IntN(10); p++ {
			fmt.Fprintf(&b, "## Part %d\n\n", p+1)
			for s := 0; s < 6+r.IntN(4); s++ {
				b.WriteString(sentence(r, t))
				b.WriteByte(' ')
			}
			b.WriteString("\n\n")
		}
	case r.IntN(3) == 0:
		for s := 0; s < 3+r.IntN(8); s++ {
			b.WriteString(sentence(r, t))
			b.WriteByte(' ')
		}
	default:
		b.WriteString(sentence(r, t))
	}
	return strings.TrimSpace(b.String())
}
