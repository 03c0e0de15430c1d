package icon_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/hostcore/icon"
)

func pngBytes(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestIconPolicy(t *testing.T) {
	pngData := pngBytes(t)
	var sawAuth, sawCookie bool
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawAuth = sawAuth || r.Header.Get("Authorization") != ""
		sawCookie = sawCookie || r.Header.Get("Cookie") != ""
		switch r.URL.Path {
		case "/icon.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write(pngData)
		case "/icon.svg":
			w.Header().Set("Content-Type", "image/png") // lies: the host sniffs
			w.Write([]byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`))
		}
	}))
	defer srv.Close()
	f := &icon.Fetcher{Client: srv.Client()}
	ctx := context.Background()
	dataURI := "data:image/png;base64," + base64.StdEncoding.EncodeToString(pngData)
	for _, tt := range []struct {
		name, src string
		ok        bool
	}{
		{"https png", srv.URL + "/icon.png", true},
		{"data png", dataURI, true},
		{"svg disguised as png", srv.URL + "/icon.svg", false},
		{"http refused", "http://example.com/icon.png", false},
		{"file refused", "file:///etc/passwd", false},
		{"javascript refused", "javascript:alert(1)", false},
		{"data text refused", "data:text/plain;base64,aGVsbG8=", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			icon, err := f.Fetch(ctx, icon.Source{Source: tt.src})
			if tt.ok && (err != nil || icon.MIMEType != "image/png" || !bytes.Equal(icon.Data, pngData)) {
				t.Errorf("Fetch = %v, %v; want the PNG", icon.MIMEType, err)
			}
			if !tt.ok && !errors.Is(err, fault.ErrInvalidParams) {
				t.Errorf("Fetch = %v; want a refusal", err)
			}
		})
	}
	if sawAuth || sawCookie {
		t.Error("an icon request carried credentials")
	}
}
