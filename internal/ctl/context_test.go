package ctl

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestContextAttachRankExport(t *testing.T) {
	env := privateEnv(t)
	r := ctl(t, env, "context", "new", "launch")
	if r.code != 0 || strings.TrimSpace(r.stdout) != "1" {
		t.Fatalf("context new: %+v", r)
	}
	ids := strings.Fields(ctl(t, env, "complete", "demo", "threengram://memory/{id}", "id", "m").stdout)
	for _, id := range ids[:3] {
		if r := ctl(t, env, "attach", "launch", "demo", "--id", id); r.code != 0 {
			t.Fatalf("attach %s: %+v", id, r)
		}
	}
	foreign := strings.Fields(ctl(t, env, "complete", "demo", "--account", "globex", "threengram://memory/{id}", "id", "m").stdout)[0]
	if r := ctl(t, env, "attach", "launch", "demo", "--id", foreign); r.code != exitNotFound {
		t.Errorf("attaching another tenant's memory: %+v; want exit 3", r)
	}
	if r := ctl(t, env, "attach", "launch", "demo", "threengram://memory/"+ids[3]); r.code != 0 {
		t.Errorf("attach by uri: %+v", r)
	}
	r = ctl(t, env, "context", "show", "1")
	if r.code != 0 || strings.Count(r.stdout, "threengram://memory/") != 4 || !strings.Contains(r.stdout, "id ") {
		t.Errorf("context show: %+v", r)
	}
	r = ctl(t, env, "context", "show", "launch", "--live")
	if r.code != 0 || strings.Count(r.stdout, "active") < 3 {
		t.Errorf("context show --live: %+v; want each memory's live status", r)
	}
	r = ctl(t, env, "rank", "launch", "--json")
	var p packingJSON
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &p) != nil || len(p.Decisions) != 4 || p.Budget != 8000 {
		t.Fatalf("rank --json: %+v", r)
	}
	for _, d := range p.Decisions {
		if d.Verdict != "included" || d.Tokens == 0 || d.Server != "demo" || d.Account != "acme" {
			t.Errorf("decision %+v", d)
		}
	}
	// A budget smaller than the first item drops it, with the reason.
	r = ctl(t, env, "rank", "launch", "--budget", "50")
	if r.code != 0 || !strings.Contains(r.stdout, "dropped") || !strings.Contains(r.stdout, "of 50 tokens used") {
		t.Errorf("rank --budget 50: %+v", r)
	}
	// A budget over the largest is refused with the largest named.
	r = ctl(t, env, "rank", "launch", "--budget", "3000000")
	if r.code != exitUsage || !strings.Contains(r.stderr, "--budget: 3,000,000 tokens is over the largest budget, 2,000,000 tokens") {
		t.Errorf("rank --budget 3000000: %+v; want exit 2 and the largest budget", r)
	}
	r = ctl(t, env, "export", "launch", "--format", "md")
	if r.code != 0 || strings.Count(r.stdout, "## threengram://memory/") != 4 || !strings.Contains(r.stdout, "- account: acme") {
		t.Errorf("export md: %+v", r)
	}
	r = ctl(t, env, "export", "1", "--format", "json")
	var doc map[string]any
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &doc) != nil {
		t.Errorf("export json: %+v", r)
	}
	if r := ctl(t, env, "export", "1", "--format", "pdf"); r.code != exitUsage {
		t.Errorf("export pdf: %+v; want exit 2", r)
	}
	if r := ctl(t, env, "rank", "nosuch"); r.code != exitNotFound {
		t.Errorf("rank of a missing conversation: %+v; want exit 3", r)
	}
}
