package demo

import (
	"math"
	"slices"
	"strings"
	"unicode"
)

// Retrieval is Okapi BM25 over words: the question's words, less the
// words that say nothing of a subject (stopwords), each cut to a stem by a
// few suffix rules, scored against every passage. It is deterministic: the
// same question and passages always give the same scores and the same
// best passage (ties go to the earlier passage).

// BM25's constants, the usual ones.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// stopwords are the words of a question that say nothing of its subject:
// function words, and the verbs people ask with ("what did we decide
// about", "tell me what you know").
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but nor of to in on at for from by with without about into over
		under as is are was were be been being am do does did done doing have has had having can could should would
		will shall may might must not no yes any some all every each so if then than too very just also only
		what which who whom whose when where why how that this these those there here it its it's we our ours us you
		your yours i me my mine they them their theirs he him his she her hers one ones
		tell say said says know knew known think thought decide decided deciding mean meant remember recall
		please anything something nothing thing things like get got give gave show find look up out more much many
		happen happens happened happening going go goes went came come comes
		well want wanted need needed let lets let's ok okay hi hello thanks thank attached attachment context
		memory memories again now ever still yet`) {
		m[w] = true
	}
	return m
}()

// term is a word of a text as retrieval counts it: its stem, and the word
// as written (lower case), for the answer to name.
type term struct {
	stem, word string
}

// terms splits text into its words of two letters or more, lower case,
// less the stopwords, in order.
func terms(text string) []term {
	var out []term
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	}) {
		w = strings.Trim(w, "'")
		w = strings.TrimSuffix(w, "'s")
		if len([]rune(w)) < 2 || stopwords[w] {
			continue
		}
		out = append(out, term{stem: stem(w), word: w})
	}
	return out
}

// stem cuts a few English suffixes (plurals, then -ing and -ed, then a
// final y, as Porter's stemmer turns it into i), so that "memories" meets
// "memory" and "deployed" meets "deploy".
func stem(w string) string {
	n := len(w)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		w = w[:n-3] + "y"
	case n > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "ches") ||
		strings.HasSuffix(w, "xes")):
		w = w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		w = w[:n-1]
	}
	n = len(w)
	switch {
	case n > 5 && strings.HasSuffix(w, "ing"):
		w = w[:n-3]
	case n > 4 && strings.HasSuffix(w, "ed"):
		w = w[:n-2]
	}
	if n = len(w); n > 3 && strings.HasSuffix(w, "y") {
		w = w[:n-1] + "i"
	}
	return w
}

// searchWord is the word to search for with a tool: the word as written,
// singular ("gateways" searches for "gateway"), so that the person asked
// to allow the call reads a word of theirs.
func (t term) searchWord() string {
	w, n := t.word, len(t.word)
	switch {
	case n > 4 && strings.HasSuffix(w, "ies"):
		return w[:n-3] + "y"
	case n > 4 && (strings.HasSuffix(w, "sses") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "ches") ||
		strings.HasSuffix(w, "xes")):
		return w[:n-2]
	case n > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:n-1]
	}
	return w
}

// query is a question's distinct terms, in the order first written.
func query(question string) []term {
	var q []term
	for _, t := range terms(question) {
		if !slices.ContainsFunc(q, func(x term) bool { return x.stem == t.stem }) {
			q = append(q, t)
		}
	}
	return q
}

// match is a passage's score against a query, and the query's terms it
// holds.
type match struct {
	index   int     // in the passages scored
	score   float64 // BM25
	matched []term  // the query's terms the passage holds, in the query's order
}

// answers reports whether the passage holds most of the query: more than
// half of its terms (the one term of a one-word query).
func (m match) answers(q []term) bool { return len(q) > 0 && 2*len(m.matched) > len(q) }

// best scores every passage (each a text) against q with BM25 and returns
// the best match; ok is false when no passage holds any of q's terms.
func best(q []term, passages []string) (m match, ok bool) {
	docs := make([]map[string]int, len(passages))
	lengths, total := make([]int, len(passages)), 0
	df := map[string]int{}
	for i, p := range passages {
		docs[i] = map[string]int{}
		for _, t := range terms(p) {
			docs[i][t.stem]++
			lengths[i]++
		}
		total += lengths[i]
		for s := range docs[i] {
			df[s]++
		}
	}
	if len(passages) == 0 || total == 0 {
		return match{}, false
	}
	avg := float64(total) / float64(len(passages))
	n := float64(len(passages))
	for i := range passages {
		cur := match{index: i}
		for _, t := range q {
			tf := float64(docs[i][t.stem])
			if tf == 0 {
				continue
			}
			idf := math.Log(1 + (n-float64(df[t.stem])+0.5)/(float64(df[t.stem])+0.5))
			cur.score += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(lengths[i])/avg))
			cur.matched = append(cur.matched, t)
		}
		if len(cur.matched) > 0 && (!ok || cur.score > m.score) {
			m, ok = cur, true
		}
	}
	return m, ok
}

// words lists terms as written, quoted: "“api”, “gateway”".
func words(ts []term) string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = "“" + t.word + "”"
	}
	return strings.Join(out, ", ")
}
