package cache

import (
	"fmt"
	"testing"
)

func sized(uri string, size int64) Entry {
	return Entry{Key: readKey(uri), Scope: Public, Size: size}
}

func TestAnswersBounds(t *testing.T) {
	tests := []struct {
		name       string
		maxEntries int
		maxBytes   int64
		sizes      []int64
		want       string // the uris held, after a get of u0
	}{
		{"by entries", 2, 1000, []int64{1, 1, 1}, "[u0 u2]"},
		{"by bytes", 10, 10, []int64{4, 4, 4}, "[u0 u2]"},
		{"too large for the tier", 10, 10, []int64{4, 11}, "[u0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := newAnswers(tt.maxEntries, tt.maxBytes)
			for i, size := range tt.sizes {
				a.promote(a.generation(), "acme", sized(fmt.Sprint("u", i), size))
				if i == 1 {
					a.get(readKey("u0"), "acme") // u0 is now more recent than u1
				}
			}
			var held []string
			for i := range tt.sizes {
				if _, ok := a.get(readKey(fmt.Sprint("u", i)), "acme"); ok {
					held = append(held, fmt.Sprint("u", i))
				}
			}
			if fmt.Sprint(held) != tt.want {
				t.Errorf("held %v; want %s", held, tt.want)
			}
			if a.bytes > tt.maxBytes || a.len() > tt.maxEntries {
				t.Errorf("tier holds %d answers, %d bytes; bounds %d, %d", a.len(), a.bytes, tt.maxEntries, tt.maxBytes)
			}
		})
	}
}

func TestAnswersKeyedByAsker(t *testing.T) {
	a := newAnswers(10, 1000)
	a.promote(a.generation(), "acme", sized("u", 1))
	if _, ok := a.get(readKey("u"), "globex"); ok {
		t.Error("an answer given to acme was given to globex")
	}
	a.promote(a.generation(), "globex", sized("u", 1))
	a.dropKeys(readKey("u"))
	if a.len() != 0 || a.bytes != 0 || len(a.byKey) != 0 {
		t.Errorf("after dropKeys: %d answers, %d bytes, %d keys; want none", a.len(), a.bytes, len(a.byKey))
	}
}

func TestAnswersRefuseStalePromotion(t *testing.T) {
	a := newAnswers(10, 1000)
	gen := a.generation()
	a.dropWhere(func(Entry) bool { return false }) // any drop, even of nothing
	if a.promote(gen, "acme", sized("u", 1)) {
		t.Error("promote with a generation from before a drop succeeded")
	}
	if !a.promote(a.generation(), "acme", sized("u", 1)) {
		t.Error("promote with the current generation failed")
	}
}

func TestDisabledAnswers(t *testing.T) {
	a := newAnswers(-1, 1000)
	if a.promote(a.generation(), "acme", sized("u", 1)) {
		t.Error("the disabled tier kept an answer")
	}
	if _, ok := a.get(readKey("u"), "acme"); ok {
		t.Error("the disabled tier answered")
	}
	a.dropKeys(readKey("u"))
	a.clear()
}
