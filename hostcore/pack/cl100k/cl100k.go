// Package cl100k counts the tokens of a text in OpenAI's cl100k_base
// encoding, exactly as github.com/pkoukk/tiktoken-go v0.1.8's
// EncodeOrdinary does with github.com/pkoukk/tiktoken-go-loader v0.0.2's
// table, without that table's cost of loading.
//
// tiktoken-go builds its encoder on a process's first count: it decodes
// 100,256 lines of base64, fills a map of them and its inverse, and sorts
// every token, about 100 ms of CPU and 25 MB. This package reads the same
// ranks from a table compiled into the binary in the form a lookup uses
// (see table.go), so its first count costs what any other does, plus
// compiling the split pattern (about 0.1 ms). Its tests check that the
// table is the loader's, rank for rank and byte for byte, and that it
// counts as tiktoken-go does.
//
// It does no I/O and keeps no state but the compiled pattern. Count is
// safe for concurrent use.
package cl100k

import (
	"math"
	"sync"

	"github.com/dlclark/regexp2"
)

// Reference names the tokenizer and table whose counts Count makes, by
// the versions its tests compare it with (TestReferenceVersions checks
// that they are the ones go.mod requires). A counter that keeps counts
// names them with it: Count's counts are theirs.
const Reference = "tiktoken-go v0.1.8 tiktoken-go-loader v0.0.2"

// Pattern is how cl100k_base splits a text into pieces before merging
// each one's bytes: tiktoken-go v0.1.8's PatStr for cl100k_base, compiled
// with regexp2 as it does.
const Pattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`

var splitter = sync.OnceValue(func() *regexp2.Regexp {
	return regexp2.MustCompile(Pattern, regexp2.None)
})

// Count is the number of tokens of s, special tokens' text
// ("<|endoftext|>") counted as plain text, as tiktoken-go's
// EncodeOrdinary counts it. Invalid UTF-8 is counted as tiktoken-go does:
// each invalid byte as U+FFFD.
func Count(s string) int {
	re, t := splitter(), ranks()
	runes := []rune(s)
	n := 0
	m, _ := re.FindRunesMatch(runes) // no error: no timeout is set
	for m != nil {
		n += t.pieceTokens(string(runes[m.Index : m.Index+m.Length]))
		m, _ = re.FindNextMatch(m)
	}
	return n
}

// pieceTokens is the number of tokens a piece of the split encodes to:
// one if it is a token, else as many as merging its bytes by rank leaves.
func (t *table) pieceTokens(piece string) int {
	if _, ok := t.rank(piece); ok || len(piece) == 1 {
		return 1
	}
	return t.mergedParts(piece)
}

// mergedParts is tiktoken-go's bytePairMerge, counting the parts it leaves
// rather than making their tokens: start from the piece's bytes and merge
// the adjacent pair of lowest rank until no pair is a token.
func (t *table) mergedParts(piece string) int {
	var buf [64][2]int
	parts := buf[:0]
	if len(piece)+1 > len(buf) {
		parts = make([][2]int, 0, len(piece)+1)
	}
	for i := 0; i <= len(piece); i++ {
		parts = append(parts, [2]int{i, math.MaxInt}) // MaxInt: no rank
	}
	rankOf := func(start, skip int) int {
		if start+skip+2 < len(parts) {
			if r, ok := t.rank(piece[parts[start][0]:parts[start+skip+2][0]]); ok {
				return r
			}
		}
		return math.MaxInt
	}
	for i := 0; i < len(parts)-2; i++ {
		parts[i][1] = rankOf(i, 0)
	}
	for len(parts) > 1 {
		minRank, i := math.MaxInt, -1
		for j := 0; j < len(parts)-1; j++ {
			if parts[j][1] < minRank {
				minRank, i = parts[j][1], j
			}
		}
		if i < 0 {
			break
		}
		parts[i][1] = rankOf(i, 1)
		if i > 0 {
			parts[i-1][1] = rankOf(i-1, 1)
		}
		parts = append(parts[:i+1], parts[i+2:]...)
	}
	return len(parts) - 1
}
