package wire

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"
)

// TestExtractBig takes the large text and blob of a reply out of blocks
// of any size, and leaves small values, other keys and other places alone.
func TestExtractBig(t *testing.T) {
	blob := bytes.Repeat([]byte("\x00\xffblob"), BigValueMin/3)
	text := strings.Repeat("é text ", BigValueMin/4)
	msg := `{"jsonrpc":"2.0","id":7,"result":{"contents":[{"uri":"x://a","text":"small"},{"uri":"x://b","blob":"` +
		base64.StdEncoding.EncodeToString(blob) + `","mimeType":"application/octet-stream"},{"uri":"x://c","text":"` + text +
		`"}],"other":{"text":"` + strings.Repeat("z", BigValueMin) + `"},"ttlMs":5}}`
	for _, size := range []int{1, 7, 4096, len(msg)} {
		var b blocks
		for i := 0; i < len(msg); i += size {
			b.bs = append(b.bs, []byte(msg[i:min(i+size, len(msg))]))
		}
		b.n = len(msg)
		got := extractBig(&b)
		if got == nil || len(got.values) != 2 {
			t.Fatalf("block size %d: %+v; want two values", size, got)
		}
		if v := got.values[0]; v.Entry != 1 || !v.Blob || !bytes.Equal(v.Data, blob) {
			t.Errorf("block size %d: first value entry %d blob %v, %d bytes; want the blob of entry 1", size, v.Entry, v.Blob, len(v.Data))
		}
		if v := got.values[1]; v.Entry != 2 || v.Blob || v.Text != text {
			t.Errorf("block size %d: second value entry %d blob %v; want the text of entry 2", size, v.Entry, v.Blob)
		}
		var sdk struct {
			Result struct {
				Contents []map[string]string `json:"contents"`
				TTLMs    int                 `json:"ttlMs"`
			} `json:"result"`
		}
		if err := json.Unmarshal(got.sdk, &sdk); err != nil || sdk.Result.Contents[0]["text"] != "small" ||
			sdk.Result.Contents[1]["blob"] != "" || sdk.Result.Contents[2]["text"] != "" || sdk.Result.TTLMs != 5 {
			t.Errorf("block size %d: go-sdk's message %.300s: %v", size, got.sdk, err)
		}
		if !json.Valid(got.tap) || !bytes.Contains(got.tap, []byte("read by the host and left out of this record")) {
			t.Errorf("block size %d: the tap's message %.300s", size, got.tap)
		}
	}
}
