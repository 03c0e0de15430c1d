package cl100k

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"testing"

	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
)

//go:generate go test -run ^TestTable$ -update .

var update = flag.Bool("update", false, "rewrite cl100k_base.ranks from tiktoken-go-loader's table")

// tableBits is the index's size: 1<<18 slots for 100,256 tokens, so a
// lookup of a piece that is no token (most of a merge's) probes about 1.6
// slots.
const tableBits = 18

// loaderRanks is cl100k_base as tiktoken-go-loader loads it.
func loaderRanks(t testing.TB) map[string]int {
	t.Helper()
	r, err := tiktoken_loader.NewOfflineLoader().LoadTiktokenBpe("cl100k_base.tiktoken")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The embedded table is exactly the file that the loader's table makes;
// with -update (go generate), it is rewritten from it.
func TestTable(t *testing.T) {
	want, err := buildTable(loaderRanks(t), tableBits)
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile("cl100k_base.ranks", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal([]byte(tableFile), want) {
		t.Fatalf("cl100k_base.ranks (%d bytes) is not what tiktoken-go-loader's table makes (%d bytes): run go generate ./hostcore/pack/cl100k", len(tableFile), len(want))
	}
}

// Every token of the loader's table has its rank in the embedded one, its
// bytes are the loader's byte for byte, and the table holds nothing more.
func TestTableRanks(t *testing.T) {
	want := loaderRanks(t)
	ranks := ranks()
	if ranks.n != len(want) {
		t.Fatalf("the table holds %d tokens, the loader's %d", ranks.n, len(want))
	}
	for tok, r := range want {
		if got, ok := ranks.rank(tok); !ok || got != r {
			t.Fatalf("rank(%q) = %d, %v; the loader's is %d", tok, got, ok, r)
		}
		if got := ranks.token(r); got != tok {
			t.Fatalf("token(%d) = %q; the loader's is %q", r, got, tok)
		}
	}
	for _, s := range []string{"", "not a token at all", "\x00\x00\x00\x00\x00"} {
		if r, ok := ranks.rank(s); ok {
			t.Errorf("rank(%q) = %d: found a text that is no token", s, r)
		}
	}
}

// A damaged table is refused, not read out of bounds.
func TestTableDamaged(t *testing.T) {
	for name, file := range map[string]string{
		"empty":     "",
		"magic":     "cl100k\x00\x02" + tableFile[8:],
		"truncated": tableFile[:len(tableFile)/2],
		"too many":  tableFile[:8] + string(binary.LittleEndian.AppendUint32(nil, 1<<tableBits)) + tableFile[12:],
	} {
		if _, err := parseTable(file); err == nil {
			t.Errorf("%s: parsed", name)
		}
	}
}

// buildTable lays out ranks (token bytes to rank, ranks 0 to len-1, each
// once) as a table file with 1<<bits slots.
func buildTable(ranks map[string]int, bits uint) ([]byte, error) {
	n := len(ranks)
	if n >= 1<<bits {
		return nil, fmt.Errorf("%d tokens do not fit %d slots", n, 1<<bits)
	}
	byRank := make([]string, n)
	for tok, r := range ranks {
		if r < 0 || r >= n || byRank[r] != "" {
			return nil, fmt.Errorf("rank %d of %q: ranks must be 0 to %d, each once", r, tok, n-1)
		}
		byRank[r] = tok
	}
	out := binary.LittleEndian.AppendUint32([]byte(tableMagic), uint32(n))
	out = binary.LittleEndian.AppendUint32(out, uint32(bits))
	off := 0
	for r := 0; r <= n; r++ {
		out = binary.LittleEndian.AppendUint32(out, uint32(off))
		if r < n {
			off += len(byRank[r])
		}
	}
	slots := make([]uint32, 1<<bits)
	mask := uint64(1)<<bits - 1
	for r, tok := range byRank {
		i := slotOf(tok, bits)
		for slots[i] != 0 {
			i = (i + 1) & mask
		}
		slots[i] = uint32(r + 1)
	}
	for _, v := range slots {
		out = binary.LittleEndian.AppendUint32(out, v)
	}
	for _, tok := range byRank {
		out = append(out, tok...)
	}
	return out, nil
}
