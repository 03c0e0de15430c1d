package mcptest_test

import (
	"bytes"
	"image"
	_ "image/jpeg" // registers the JPEG decoder
	_ "image/png"  // registers the PNG decoder
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/attache/attache/internal/mcptest"
)

func TestImageBlobs(t *testing.T) {
	tests := []struct {
		uri, mime, format string
		want              []byte
	}{
		{mcptest.ImagePNGURI, "image/png", "png", mcptest.ImagePNG()},
		{mcptest.ImageJPEGURI, "image/jpeg", "jpeg", mcptest.ImageJPEG()},
	}
	eachTransport(t, mcptest.ModeImage, nil, func(t *testing.T, cs *mcp.ClientSession) {
		list, err := cs.ListResources(testContext(t), nil)
		if err != nil || len(list.Resources) != 2 {
			t.Fatalf("resources = %+v, %v; want 2", list, err)
		}
		for _, r := range list.Resources {
			if len(r.Icons) != 1 || !strings.HasPrefix(r.Icons[0].Source, "data:image/png;base64,") {
				t.Errorf("%s: icons %+v, want one data: PNG", r.URI, r.Icons)
			}
		}
		for _, tt := range tests {
			got := readOne(t, cs, tt.uri)
			if got.MIMEType != tt.mime || !bytes.Equal(got.Blob, tt.want) {
				t.Errorf("%s: %s, %d bytes; want %s, %d bytes", tt.uri, got.MIMEType, len(got.Blob), tt.mime, len(tt.want))
			}
			cfg, format, err := image.DecodeConfig(bytes.NewReader(got.Blob))
			if err != nil || format != tt.format || cfg.Width != 96 || cfg.Height != 64 {
				t.Errorf("%s decodes as %s %dx%d, %v; want %s 96x64", tt.uri, format, cfg.Width, cfg.Height, err, tt.format)
			}
		}
	})
}
