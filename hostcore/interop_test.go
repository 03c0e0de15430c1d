package hostcore_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/expand"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/internal/npmpeer"
)

// peer returns the path of an npm peer's entry point under .peers/ (see
// npmpeer.Entry).
func peer(t *testing.T, pkg string) string { return npmpeer.Entry(t, pkg) }

func everything(t *testing.T) config.ServerConfig {
	return config.ServerConfig{Name: "everything", Command: "node", Args: []string{peer(t, "server-everything"), "stdio"}}
}

func TestEverythingListsAllResourcesAndTemplates(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, everything(t), "")
	ctx := context.Background()
	var uris []string
	for r, err := range c.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		uris = append(uris, r.URI)
	}
	static := 0
	for _, u := range uris {
		if strings.HasPrefix(u, "demo://resource/static/document/") && strings.HasSuffix(u, ".md") {
			static++
		}
	}
	if static != 7 {
		t.Errorf("listed %d static documents; want 7: %v", static, uris)
	}
	var tmpls []string
	for tm, err := range c.Templates(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		tmpls = append(tmpls, tm.URITemplate)
	}
	for _, want := range []string{"demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/blob/{resourceId}"} {
		if !slices.Contains(tmpls, want) {
			t.Errorf("templates %v lack %s", tmpls, want)
		}
	}
	if v := c.Info().ProtocolVersion; v == "" {
		t.Error("no negotiated protocol version recorded")
	}
}

// wireContents decodes the contents of the raw response, as sent.
func wireContents(t *testing.T, raw []byte) []map[string]string {
	t.Helper()
	var env struct {
		Result struct {
			Contents []map[string]string `json:"contents"`
		} `json:"result"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatalf("raw response %s: %v", raw, err)
	}
	return env.Result.Contents
}

func TestEverythingReadsByteExact(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, everything(t), "")
	ctx := context.Background()
	for _, uri := range []string{"demo://resource/static/document/architecture.md", "demo://resource/dynamic/text/1"} {
		res, err := c.ReadServer(ctx, uri)
		if err != nil {
			t.Fatal(err)
		}
		wire := wireContents(t, res.Raw.Response)
		if len(wire) != 1 || res.Contents[0].IsBlob || res.Contents[0].Text != wire[0]["text"] || len(res.Contents[0].Text) == 0 {
			t.Errorf("%s: text differs from the wire", uri)
		}
	}
	uri, err := expand.URI("demo://resource/dynamic/blob/{resourceId}", map[string]string{"resourceId": "2"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.ReadServer(ctx, uri)
	if err != nil {
		t.Fatal(err)
	}
	wire := wireContents(t, res.Raw.Response)
	want, err := base64.StdEncoding.DecodeString(wire[0]["blob"])
	if err != nil || !res.Contents[0].IsBlob || !bytes.Equal(res.Contents[0].Blob, want) || len(want) == 0 {
		t.Errorf("blob differs from the wire (%v): got %d bytes, want %d", err, len(res.Contents[0].Blob), len(want))
	}
}

func TestEverythingCompletionAndNotFound(t *testing.T) {
	h := newHost(t, nil)
	c := conn(t, h, everything(t), "")
	ctx := context.Background()
	got, err := c.Complete(ctx, "demo://resource/dynamic/text/{resourceId}", "resourceId", "1", nil)
	if err != nil || len(got.Values) == 0 {
		t.Fatalf("completion = %+v, %v", got, err)
	}
	for _, v := range got.Values {
		if !strings.HasPrefix(v, "1") {
			t.Errorf("completion value %q does not start with 1", v)
		}
	}
	_, err = c.ReadServer(ctx, "demo://resource/static/document/missing.md")
	if !errors.Is(err, fault.ErrNotFound) {
		t.Errorf("missing resource = %v; want NotFound", err)
	}
}
