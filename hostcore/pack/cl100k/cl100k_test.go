package cl100k

import (
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"path"
	"strings"
	"testing"

	tiktoken "github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/attache/attache/assets"
)

// reference is tiktoken-go's cl100k_base with the loader's table: the
// counter this package replaces.
func reference(t testing.TB) *tiktoken.Tiktoken {
	t.Helper()
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	enc, err := tiktoken.GetEncoding("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// Count counts every text as tiktoken-go's EncodeOrdinary does: the demo
// corpus, whole and memory by memory, and texts made to reach the corners
// of the split and the merge.
func TestCountAsTiktoken(t *testing.T) {
	enc := reference(t)
	check := func(name, s string) {
		t.Helper()
		if got, want := Count(s), len(enc.EncodeOrdinary(s)); got != want {
			t.Errorf("%s: Count = %d, tiktoken-go counts %d (text %.80q)", name, got, want, s)
		}
	}
	for _, tt := range []struct{ name, text string }{
		{"empty", ""},
		{"one byte", "a"},
		{"prose", "hello world"},
		{"french", "Les annotations sont la véritable politique de mémoire."},
		{"special tokens as text", "<|endoftext|><|fim_prefix|>a<|fim_middle|>b<|fim_suffix|><|endofprompt|>"},
		{"contractions", "I'll say it's what they'd've DONE, can't WE'RE"},
		{"numbers", "1 12 123 1234 12345678901234567890 3.14159 1,000,000"},
		{"whitespace", "a  b\t\tc\n\n\nd \r\n e   \n  \n"},
		{"trailing spaces", "end   "},
		{"code", "func main() {\n\tfmt.Println(\"hi\") // comment\n\treturn x<<2|y&^z\n}\n"},
		{"json", `{"content":"x","contentLength":1,"topic":"t","nested":{"a":[1,2,3]}}`},
		{"cjk", "日本語のテキストと中文文本，还有한국어 텍스트。"},
		{"emoji", "👍🏽 👨‍👩‍👧‍👦 🇫🇷 ✨✨✨"},
		{"rtl and combining", "مرحبا بالعالم שלום e\u0301 a\u0300\u0301\u0302"},
		{"invalid utf-8", "ok \xff\xfe bad \xc3 half \xe2\x82 and \x80"},
		{"nul and control", "\x00\x01\x02 \x1b[31mred\x1b[0m"},
		{"long word", strings.Repeat("pneumonoultramicroscopicsilicovolcanoconiosis", 20)},
		{"long run", strings.Repeat("=", 300) + strings.Repeat("ab", 200)},
		{"base64", "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="},
	} {
		check(tt.name, tt.text)
	}
	var corpus []struct{ Content, Topic string }
	if err := json.Unmarshal(assets.Corpus, &corpus); err != nil {
		t.Fatal(err)
	}
	for _, m := range corpus {
		check("memory on "+m.Topic, m.Content)
	}
	check("the whole corpus", string(assets.Corpus))
	check("the replay", string(assets.Replay))
}

// Random texts drawn from pieces that stress the split and the merge
// count as tiktoken-go counts them.
func TestCountAsTiktokenRandom(t *testing.T) {
	enc := reference(t)
	pieces := []string{"a", "the", " The", "ing", "'s", "'LL", " ", "  ", "\n", "\r\n", "\t", "1", "23", "4567",
		".", "!!", "{", "}", "<|endoftext|>", "é", "ß", "日本", "한", "👍", "\u0301", "\xff", "\xe2\x82", "x" + strings.Repeat("y", 70)}
	r := rand.New(rand.NewPCG(24, 4))
	for i := range 2000 {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := b.String()
		if got, want := Count(s), len(enc.EncodeOrdinary(s)); got != want {
			t.Fatalf("text %d %q: Count = %d, tiktoken-go counts %d", i, s, got, want)
		}
	}
}

// FuzzCount compares Count with tiktoken-go on any text.
func FuzzCount(f *testing.F) {
	enc := reference(f)
	for _, s := range []string{"hello world", "<|endoftext|>", "\xff\xfe", "日本語 123"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Count(s), len(enc.EncodeOrdinary(s)); got != want {
			t.Fatalf("Count(%q) = %d, tiktoken-go counts %d", s, got, want)
		}
	})
}

// BenchmarkCount is a 16 KiB Markdown body, counted by this package and by
// tiktoken-go with its table loaded.
func BenchmarkCount(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 16<<10; i++ {
		sb.WriteString("## Note of the week\n\nThe build of release 3.1 moved the cache to `cache.db`; see issue #124 for why the seal covers the digest.\n\n")
	}
	s := sb.String()
	b.Run("cl100k", func(b *testing.B) {
		for b.Loop() {
			Count(s)
		}
	})
	b.Run("tiktoken-go", func(b *testing.B) {
		enc := reference(b)
		for b.Loop() {
			enc.EncodeOrdinary(s)
		}
	})
}

// TestReferenceVersions: Reference says the versions of the tokenizer and
// table that these tests compare Count with (the ones go.mod requires), so
// that upgrading either makes every kept count someone else's, or fails
// here until Reference says so. (A test binary's build info lists no
// modules, so it asks the go command.)
func TestReferenceVersions(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Path}} {{.Version}}",
		"github.com/pkoukk/tiktoken-go", "github.com/pkoukk/tiktoken-go-loader").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	var want []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		mod, version, _ := strings.Cut(l, " ")
		want = append(want, path.Base(mod)+" "+version)
	}
	if got := strings.Join(want, " "); got != Reference {
		t.Errorf("Reference = %q; go.mod requires %q", Reference, got)
	}
}
