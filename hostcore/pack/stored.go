package pack

import (
	"crypto/sha256"
	"io"

	"github.com/attache/attache/hostcore/pack/cl100k"
)

// StoredCount is a count kept outside the process, so that a later process
// need not load a tokenizer's table to know what a body costs: the count
// Counter made of the text whose SHA-256 is Subject (an item's section, as
// Tokens counts it, without its images).
type StoredCount struct {
	// Counter is the NamedCounter's Name.
	Counter string
	// Subject is the SHA-256 of the exact text counted.
	Subject [sha256.Size]byte
	// Tokens is the count.
	Tokens int
}

// CountStore keeps the counts of one item between processes: the host
// gives each item it read through its cache the counts stored with the
// cache entry (see Item.Counts). LoadCount returns the count by counter,
// if one is kept; SaveCount keeps c, replacing the one by c.Counter. Both
// are best effort (a store that fails has no count, or keeps none: the
// item is counted again), and must be safe for concurrent use.
type CountStore interface {
	LoadCount(counter string) (StoredCount, bool)
	SaveCount(c StoredCount)
}

// NamedCounter is a TokenCounter whose counts may be kept between
// processes. Name names the tokenizer, its encoding and its version, and
// how an item is turned into the text counted: two counters of one Name
// count every text alike. Counts of a TokenCounter with no Name are never
// stored nor taken from a CountStore.
type NamedCounter interface {
	TokenCounter
	Name() string
}

// DefaultCounterName is DefaultTokenCounter's Name: its encoding, the
// tokenizer and table versions whose counts it makes (cl100k.Reference:
// package cl100k counts as they do, so counts stored before it are still
// its own), and the version of the section rendering
// counted (sectionVersion). A change to any of them is a new name, so no
// count made by another is used.
const DefaultCounterName = TokenEncoding + " " + cl100k.Reference + " section/" + sectionVersion

// sectionVersion is bumped when Section.Markdown changes what it renders.
// A stored count is of the rendered text (its Subject is that text's
// digest), so a changed rendering is recounted anyway; the version only
// keeps stores from holding counts no one will use again.
const sectionVersion = "1"

// counted is what it costs to count the section md of it with count: the
// count kept in it.Counts, when it holds one by name of exactly md, else
// count(md), which is then kept there. A count kept is used only if its
// counter and subject match and it is not negative: a count of other text,
// by another counter, or damaged, is counted again.
func counted(it *Item, name, md string, count func(string) int) int {
	if it.Counts == nil || name == "" {
		return count(md)
	}
	h := sha256.New()
	io.WriteString(h, md)
	var subject [sha256.Size]byte
	h.Sum(subject[:0])
	if c, ok := it.Counts.LoadCount(name); ok && c.Counter == name && c.Subject == subject && c.Tokens >= 0 {
		return c.Tokens
	}
	tokens := count(md)
	it.Counts.SaveCount(StoredCount{Counter: name, Subject: subject, Tokens: tokens})
	return tokens
}

// counterName is counter's Name, or "" for a counter with none.
func counterName(counter TokenCounter) string {
	if n, ok := counter.(NamedCounter); ok {
		return n.Name()
	}
	return ""
}
