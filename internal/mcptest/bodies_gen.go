package mcptest

import (
	"fmt"
	"strings"
)

// The generators of the bodies mode. They draw from a fixed vocabulary
// with a fixed-seed generator, so that a body is the same in every process
// and on every run.

var bodyWords = strings.Fields(`the a billing webhook staging database quarterly audit deploy
release freeze rollback budget latency owner approver retention job platform team feature flag
schema migration index cache partition token account tenant resource template subscription
notification server client session transport request response cursor page listing memory
attachment context ranking priority audience annotation handoff decision fact note review
must should never always before after during while because depends rewritten moved noted
found fails passes blocks waits retries recovers measured reported shipped planned agreed`)

// bodyRand is a small fixed-seed generator (xorshift64*).
type bodyRand uint64

func (r *bodyRand) next() uint64 {
	x := uint64(*r)
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*r = bodyRand(x)
	return x * 2685821657736338717
}

// intn returns a number in [0, n).
func (r *bodyRand) intn(n int) int { return int(r.next() % uint64(n)) }

func (r *bodyRand) word() string { return bodyWords[r.intn(len(bodyWords))] }

// sentence is n words, capitalized, with a full stop.
func (r *bodyRand) sentence(n int) string {
	var b strings.Builder
	for i := range n {
		w := r.word()
		if i == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	b.WriteByte('.')
	return b.String()
}

// proseLines is size bytes of text: lines of 3 to 20 words, a blank line
// now and then, and every 50th line a long one of about 600 bytes.
func proseLines(size int) string {
	r := bodyRand(0x9e3779b97f4a7c15)
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		switch {
		case i%50 == 49:
			for b.Len() < size && lineLen(&b) < 600 {
				b.WriteString(r.sentence(4+r.intn(8)) + " ")
			}
		case i%9 == 8:
		default:
			b.WriteString(r.sentence(3 + r.intn(18)))
		}
		b.WriteByte('\n')
	}
	return b.String()[:size]
}

// lineLen is the length of the last line written to b.
func lineLen(b *strings.Builder) int {
	s := b.String()
	return len(s) - strings.LastIndexByte(s, '\n') - 1
}

// jsonItems is a compact JSON array of objects, as long as fits in size
// bytes (at least "[]").
func jsonItems(size int) string {
	r := bodyRand(0x2545f4914f6cdd1d)
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; ; i++ {
		item := fmt.Sprintf(`{"id":%d,"name":"%s %s","tags":["%s","%s"],"note":"%s","owner":{"team":"%s","on_call":%t},"score":%d.%02d}`,
			i, r.word(), r.word(), r.word(), r.word(), r.sentence(8+r.intn(30)), r.word(), r.intn(2) == 0, r.intn(100), r.intn(100))
		sep := 0
		if i > 0 {
			sep = 1
		}
		if b.Len()+sep+len(item)+1 > size {
			break
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(item)
	}
	b.WriteByte(']')
	return b.String()
}

// markdownDoc is a Markdown document of whole blocks, as long as fits in
// size bytes.
func markdownDoc(size int) string {
	r := bodyRand(0xbf58476d1ce4e5b9)
	var b strings.Builder
	for i := 0; ; i++ {
		block := markdownBlock(&r, i)
		if b.Len()+len(block) > size {
			break
		}
		b.WriteString(block)
	}
	return b.String()
}

// markdownBlock is the i-th block of a generated document, ending in a
// blank line.
func markdownBlock(r *bodyRand, i int) string {
	switch i % 12 {
	case 0:
		return fmt.Sprintf("## Section %d: %s %s\n\n", i/12+1, r.word(), r.word())
	case 2:
		return fmt.Sprintf("- The `%s-%s` tool (tools/%s.ts): %s\n- **%s** %s\n- A [link to %s](https://example.com/%s) and *%s*.\n\n",
			r.word(), r.word(), r.word(), r.sentence(12), r.word(), r.sentence(9), r.word(), r.word(), r.sentence(4))
	case 4:
		return fmt.Sprintf("```go\nfunc %s(ctx context.Context) error {\n\treturn %s(ctx, %q)\n}\n```\n\n", r.word(), r.word(), r.sentence(5))
	case 6:
		return fmt.Sprintf("> %s %s\n\n", r.sentence(10), r.sentence(7))
	case 8:
		return fmt.Sprintf("1. %s\n2. %s\n3. %s\n\n", r.sentence(6), r.sentence(8), r.sentence(5))
	case 10:
		return fmt.Sprintf("| name | owner | note |\n|---|---|---|\n| %s | %s | %s |\n| %s | %s | %s |\n\n",
			r.word(), r.word(), r.sentence(4), r.word(), r.word(), r.sentence(5))
	}
	var p []string
	for range 3 + r.intn(5) {
		s := r.sentence(6 + r.intn(14))
		if r.intn(3) == 0 {
			s += " See `" + r.word() + "` and **" + r.word() + " " + r.word() + "**."
		}
		p = append(p, s)
	}
	return strings.Join(p, " ") + "\n\n"
}

// htmlDoc is an HTML page of whole elements, as long as fits in size
// bytes.
func htmlDoc(size int) string {
	r := bodyRand(0x94d049bb133111eb)
	head, tail := "<!DOCTYPE html>\n<html><head><title>Generated</title><style>p{color:red}</style></head><body>\n", "</body></html>\n"
	var b strings.Builder
	b.WriteString(head)
	for i := 0; ; i++ {
		var el string
		switch i % 6 {
		case 0:
			el = fmt.Sprintf("<h2>Section %d: %s</h2>\n", i/6+1, r.word())
		case 2:
			el = fmt.Sprintf("<ul><li><code>%s</code> %s</li><li><a href=\"https://example.com/%s\">%s</a></li></ul>\n", r.word(), r.sentence(8), r.word(), r.sentence(3))
		case 4:
			el = fmt.Sprintf("<pre>%s\n  %s</pre>\n", r.sentence(5), r.sentence(4))
		default:
			el = fmt.Sprintf("<p>%s <b>%s</b> <em>%s</em> %s</p>\n", r.sentence(10), r.word(), r.word(), r.sentence(12))
		}
		if b.Len()+len(el)+len(tail) > size {
			break
		}
		b.WriteString(el)
	}
	b.WriteString(tail)
	return b.String()
}

// latin1 is size bytes of ISO-8859-1 text: prose with é, ü and ñ, which
// are one byte each there and not valid UTF-8.
func latin1(size int) []byte {
	s := strings.NewReplacer("e", "\xe9", "u", "\xfc", "n", "\xf1").Replace(proseLines(size))
	return []byte(s)
}

// binaryBytes is size bytes that no one would take for text.
func binaryBytes(size int) []byte {
	r := bodyRand(0xd6e8feb86659fd93)
	out := make([]byte, size)
	for i := range out {
		out[i] = byte(r.next())
	}
	if size >= 4 {
		copy(out, "\x00\x01\x02\x03")
	}
	return out
}
