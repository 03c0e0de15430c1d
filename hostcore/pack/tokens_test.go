package pack

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// The default counter is tiktoken's cl100k_base, loaded offline: the French
// sentence is where it differs from o200k_base (which counts 9), and special
// token text is counted as text instead of panicking.
func TestTokenDefaultCounter(t *testing.T) {
	c := DefaultTokenCounter()
	for _, tt := range []struct {
		text string
		want int
	}{
		{"", 0},
		{"hello world", 2},
		{"Les annotations sont la véritable politique de mémoire.", 11},
		{"<|endoftext|>", 7},
	} {
		if got := c.Count(tt.text); got != tt.want {
			t.Errorf("Count(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
	if DefaultTokenCounter() != c {
		t.Error("DefaultTokenCounter returned a second counter; the memo would not be shared")
	}
}

// countingFake counts one token per byte and how often it was asked.
type countingFake struct{ calls atomic.Int64 }

func (f *countingFake) count(s string) int { f.calls.Add(1); return len(s) }

// A text counted once is not counted again, and the memo forgets the least
// recently used text first, not the oldest inserted.
func TestTokenMemoLRU(t *testing.T) {
	fake := &countingFake{}
	m := newMemoCounter(fake.count, 3)
	for _, s := range []string{"a", "bb", "ccc", "a"} { // "a" is now the most recent
		m.Count(s)
	}
	if got := fake.calls.Load(); got != 3 {
		t.Fatalf("after counting a, bb, ccc, a: %d counts, want 3", got)
	}
	m.Count("dddd") // evicts "bb", the least recently used
	if m.len() != 3 {
		t.Errorf("memo holds %d entries, want its bound 3", m.len())
	}
	before := fake.calls.Load()
	if got := m.Count("a"); got != 1 {
		t.Errorf("Count(a) = %d, want 1", got)
	}
	if fake.calls.Load() != before {
		t.Error(`"a" was recounted: the memo evicted a recently used entry`)
	}
	m.Count("bb")
	if fake.calls.Load() != before+1 {
		t.Error(`"bb" was not recounted: the memo did not evict the least recently used entry`)
	}
}

// Texts of the same length are told apart by their hash.
func TestTokenMemoKeysByContent(t *testing.T) {
	m := newMemoCounter(func(s string) int { return int(s[0]) }, 8)
	if a, b := m.Count("ab"), m.Count("ba"); a == b {
		t.Errorf(`Count("ab") = Count("ba") = %d: same-length texts shared an entry`, a)
	}
}

// Run with -race: many goroutines counting overlapping texts all get the
// right count and the memo stays within its bound.
func TestTokenMemoConcurrent(t *testing.T) {
	m := newMemoCounter((&countingFake{}).count, 50)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				s := fmt.Sprintf("text %d", (i+g)%80)
				if got := m.Count(s); got != len(s) {
					t.Errorf("Count(%q) = %d, want %d", s, got, len(s))
				}
			}
		})
	}
	wg.Wait()
	if m.len() > 50 {
		t.Errorf("memo holds %d entries, over its bound 50", m.len())
	}
}

func TestTokenQuantity(t *testing.T) {
	for _, tt := range []struct {
		n    int
		unit string
		want string
	}{
		{0, "token", "0 tokens"},
		{1, "token", "1 token"},
		{999, "byte", "999 bytes"},
		{1000, "token", "1,000 tokens"},
		{12345, "byte", "12,345 bytes"},
		{1234567, "token", "1,234,567 tokens"},
		{-4321, "token", "-4,321 tokens"},
	} {
		if got := Quantity(tt.n, tt.unit); got != tt.want {
			t.Errorf("Quantity(%d, %q) = %q, want %q", tt.n, tt.unit, got, tt.want)
		}
	}
}

// The memo key of an item follows everything its Markdown is rendered from:
// changing any of it is counted afresh (a stale count would misstate the
// budget), and changing anything else is not counted again.
func TestTokenItemKey(t *testing.T) {
	base := func() *Item {
		return &Item{ID: "a", Server: "s", Account: "acc", URI: "x://a",
			Annotations: Annotations{LastModified: "2025-01-01T00:00:00Z"},
			Contents: []Content{
				{URI: "x://a/1", MIMEType: "text/plain", Text: "body"},
				{URI: "x://a/2", MIMEType: "image/png", Blob: []byte("png!"), IsBlob: true},
			}}
	}
	for _, tt := range []struct {
		name    string
		change  func(*Item)
		recount bool
	}{
		{"server", func(it *Item) { it.Server = "t" }, true},
		{"account", func(it *Item) { it.Account = "acd" }, true},
		{"uri", func(it *Item) { it.URI = "x://b" }, true},
		{"lastModified", func(it *Item) { it.Annotations.LastModified = "2025-01-01T00:00:01Z" }, true},
		{"entry uri", func(it *Item) { it.Contents[0].URI = "x://a/3" }, true},
		{"entry mimeType", func(it *Item) { it.Contents[0].MIMEType = "text/markdow" }, true},
		{"text of the same length", func(it *Item) { it.Contents[0].Text = "bodz" }, true},
		{"blob size", func(it *Item) { it.Contents[1].Blob = []byte("png!!") }, true},
		{"text turned blob", func(it *Item) { it.Contents[0].IsBlob = true; it.Contents[0].Blob = []byte("body") }, true},
		{"fields swapping text", func(it *Item) { it.Server, it.Account = "sa", "cc" }, true},
		{"one entry fewer", func(it *Item) { it.Contents = it.Contents[:1] }, true},
		{"image bytes of the same size", func(it *Item) { it.Contents[1].Blob = []byte("PNG!") }, false},
		{"id, order, pin, priority", func(it *Item) {
			it.ID, it.Order, it.Pinned, it.PriorityOverride = "b", 9, true, prio(1)
		}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fake := &countingFake{}
			m := newMemoCounter(fake.count, 16)
			itemTokens(base(), m)
			changed := base()
			tt.change(changed)
			got := itemTokens(changed, m)
			if recounted := fake.calls.Load() == 2; recounted != tt.recount {
				t.Errorf("recounted = %v, want %v", recounted, tt.recount)
			}
			if want := len(sectionOf(changed).Markdown()) + ImageTokens*strings.Count(sectionOf(changed).Markdown(), "[image:"); got != want {
				t.Errorf("itemTokens = %d, want %d", got, want)
			}
		})
	}
}

// Tokens is what Rank counts for an item it includes.
func TestTokensIsWhatRankCounts(t *testing.T) {
	items := []*Item{
		{ID: "a", URI: "test://a", Contents: []Content{{URI: "test://a", MIMEType: "text/plain", Text: strings.Repeat("a few words of text. ", 40)}}},
		{ID: "b", URI: "test://b", Server: "s", Contents: []Content{{URI: "test://b", MIMEType: "image/png", IsBlob: true, Blob: []byte{1, 2, 3}}}},
	}
	p := Rank(items, nil)
	for _, d := range p.Decisions {
		if got := Tokens(d.Item, nil); got != d.Tokens || got == 0 {
			t.Errorf("Tokens(%s) = %d; Rank counted %d", d.Item.ID, got, d.Tokens)
		}
	}
}
