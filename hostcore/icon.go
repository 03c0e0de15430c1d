package hostcore

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/vincent-petithory/dataurl"
)

// maxIconBytes bounds an icon download.
const maxIconBytes = 1 << 20

// IconFetcher fetches server-supplied icons under the host's policy: only
// https: and data: URIs, only PNG and JPEG (sniffed from the bytes, not
// trusted from a header), at most 1 MiB, and never with credentials: the
// client has no cookie jar, adds no headers and follows no redirect to
// anything but https.
type IconFetcher struct {
	// Client is the HTTP client; nil means a fresh one with a 10 s timeout.
	// Tests give one that trusts their TLS server.
	Client *http.Client
}

// Icon is an icon's bytes and its sniffed type.
type Icon struct {
	MIMEType string
	Data     []byte
}

// IconSource is an icon a server names for a resource, a template or
// itself: where it is (an https: or data: URI, as the fetcher allows), and
// what the server says of it, with MCP's field names.
type IconSource struct {
	Source   string   `json:"src"`
	MIMEType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	// Theme is "light" or "dark": the background the icon is drawn for.
	Theme string `json:"theme,omitempty"`
}

// iconsOf converts go-sdk's icons.
func iconsOf(icons []mcp.Icon) []IconSource {
	if len(icons) == 0 {
		return nil
	}
	out := make([]IconSource, len(icons))
	for i, ic := range icons {
		out[i] = IconSource{Source: ic.Source, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: string(ic.Theme)}
	}
	return out
}

// Fetch returns the icon at src, or an error saying why it is refused.
func (f *IconFetcher) Fetch(ctx context.Context, src IconSource) (Icon, error) {
	u, err := url.Parse(src.Source)
	if err != nil {
		return Icon{}, newError(KindInvalidParams, err, "icon %q is not a URI", clip(src.Source))
	}
	var data []byte
	switch strings.ToLower(u.Scheme) {
	case "data":
		d, err := dataurl.DecodeString(src.Source)
		if err != nil {
			return Icon{}, newError(KindInvalidParams, err, "icon data: URI does not decode")
		}
		data = d.Data
	case "https":
		if data, err = f.download(ctx, u); err != nil {
			return Icon{}, err
		}
	default:
		return Icon{}, newError(KindInvalidParams, nil, "icon scheme %q refused: only https: and data: icons are shown", u.Scheme)
	}
	if len(data) > maxIconBytes {
		return Icon{}, newError(KindInvalidParams, nil, "icon refused: over %d bytes", maxIconBytes)
	}
	mime := http.DetectContentType(data)
	if mime != "image/png" && mime != "image/jpeg" {
		return Icon{}, newError(KindInvalidParams, nil, "icon refused: %s is not PNG or JPEG", mime)
	}
	return Icon{MIMEType: mime, Data: data}, nil
}

func (f *IconFetcher) download(ctx context.Context, u *url.URL) ([]byte, error) {
	client := f.Client
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	noCreds := *client
	noCreds.Jar = nil
	noCreds.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
		if req.URL.Scheme != "https" {
			return fmt.Errorf("icon redirect to %s refused", req.URL.Scheme)
		}
		return nil
	}
	u2 := *u
	u2.User = nil // never send userinfo
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u2.String(), nil)
	if err != nil {
		return nil, newError(KindInvalidParams, err, "icon request")
	}
	resp, err := noCreds.Do(req)
	if err != nil {
		return nil, classify(err, "fetching icon", "", 0)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, newError(KindTransport, nil, "fetching icon: HTTP %d", resp.StatusCode)
	}
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, io.LimitReader(resp.Body, maxIconBytes+1)); err != nil {
		return nil, classify(err, "fetching icon", "", 0)
	}
	return buf.Bytes(), nil
}
