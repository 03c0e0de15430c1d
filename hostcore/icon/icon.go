// Package icon fetches the icons servers name for their resources,
// templates and themselves, under the host's policy (see Fetcher). It
// knows nothing of sessions: hostcore's listings carry each icon's Source,
// and a screen asks a Fetcher for its bytes.
package icon

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/vincent-petithory/dataurl"

	"github.com/attache/attache/hostcore/fault"
)

// maxIconBytes bounds an icon download.
const maxIconBytes = 1 << 20

// Fetcher fetches server-supplied icons under the host's policy: only
// https: and data: URIs, only PNG and JPEG (sniffed from the bytes, not
// trusted from a header), at most 1 MiB, and never with credentials: the
// client has no cookie jar, adds no headers and follows no redirect to
// anything but https.
type Fetcher struct {
	// Client is the HTTP client; nil means a fresh one with a 10 s timeout.
	// Tests give one that trusts their TLS server.
	Client *http.Client
}

// Icon is an icon's bytes and its sniffed type.
type Icon struct {
	MIMEType string
	Data     []byte
}

// Source is an icon a server names for a resource, a template or
// itself: where it is (an https: or data: URI, as the fetcher allows), and
// what the server says of it, with MCP's field names.
type Source struct {
	Source   string   `json:"src"`
	MIMEType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	// Theme is "light" or "dark": the background the icon is drawn for.
	Theme string `json:"theme,omitempty"`
}

// Fetch returns the icon at src, or an error saying why it is refused.
func (f *Fetcher) Fetch(ctx context.Context, src Source) (Icon, error) {
	u, err := url.Parse(src.Source)
	if err != nil {
		return Icon{}, fault.New(fault.KindInvalidParams, err, "icon %q is not a URI", fault.Clip(src.Source))
	}
	var data []byte
	switch strings.ToLower(u.Scheme) {
	case "data":
		d, err := dataurl.DecodeString(src.Source)
		if err != nil {
			return Icon{}, fault.New(fault.KindInvalidParams, err, "icon data: URI does not decode")
		}
		data = d.Data
	case "https":
		if data, err = f.download(ctx, u); err != nil {
			return Icon{}, err
		}
	default:
		return Icon{}, fault.New(fault.KindInvalidParams, nil, "icon scheme %q refused: only https: and data: icons are shown", u.Scheme)
	}
	if len(data) > maxIconBytes {
		return Icon{}, fault.New(fault.KindInvalidParams, nil, "icon refused: over %d bytes", maxIconBytes)
	}
	mime := http.DetectContentType(data)
	if mime != "image/png" && mime != "image/jpeg" {
		return Icon{}, fault.New(fault.KindInvalidParams, nil, "icon refused: %s is not PNG or JPEG", mime)
	}
	return Icon{MIMEType: mime, Data: data}, nil
}

func (f *Fetcher) download(ctx context.Context, u *url.URL) ([]byte, error) {
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
		return nil, fault.New(fault.KindInvalidParams, err, "icon request")
	}
	resp, err := noCreds.Do(req)
	if err != nil {
		return nil, fetchError(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fault.New(fault.KindTransport, nil, "fetching icon: HTTP %d", resp.StatusCode)
	}
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, io.LimitReader(resp.Body, maxIconBytes+1)); err != nil {
		return nil, fetchError(err)
	}
	return buf.Bytes(), nil
}

// fetchError is the error of a download that failed: out of time, canceled,
// or the connection's (the client's errors are a *url.Error, a network
// failure).
func fetchError(err error) error {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return fault.New(fault.KindTimeout, err, "fetching icon: the server did not answer in time")
	case errors.Is(err, context.Canceled):
		return fault.New(fault.KindCanceled, err, "fetching icon: canceled")
	}
	return fault.New(fault.KindTransport, err, "fetching icon: the connection to the server failed")
}
