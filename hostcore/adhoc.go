package hostcore

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/redact"
)

// An ad-hoc server (attachectl --stdio or --url, an attachment whose
// server is no longer configured) is named for what it runs or where it
// points, so that two of them in one conversation are told apart (their
// tools, their warnings, their grants) and the same one has the same name
// in every process: "ad-hoc-" + the command's base name or the URL's host
// + "-" + 8 hex digits of a digest of the command line and working
// directory, or of the URL without its userinfo. Credentials (headers,
// environment, userinfo) never enter the name.

// AdHocPrefix begins the name of every ad-hoc server.
const AdHocPrefix = "ad-hoc-"

// legacyAdHocName is what every ad-hoc server was called before: the
// attachments stored then still carry it.
const legacyAdHocName = "ad-hoc"

// AdHoc returns sc named as an ad-hoc server (see above).
func AdHoc(sc config.ServerConfig) config.ServerConfig {
	sc.Name = AdHocName(sc)
	return sc
}

// AdHocName is the name of sc as an ad-hoc server.
func AdHocName(sc config.ServerConfig) string {
	h := sha256.New()
	var base string
	if sc.IsHTTP() {
		u := redact.WithoutUserinfo(sc.URL)
		fmt.Fprintf(h, "url:%d:%s;", len(u), u)
		if p, err := url.Parse(u); err == nil {
			base = p.Hostname()
		}
	} else {
		for _, part := range append([]string{sc.Command, sc.Cwd}, sc.Args...) {
			fmt.Fprintf(h, "%d:%s;", len(part), part)
		}
		base = filepath.Base(sc.Command)
	}
	return AdHocPrefix + nameWord(base) + "-" + hex.EncodeToString(h.Sum(nil))[:8]
}

// IsAdHocName reports whether name is an ad-hoc server's.
func IsAdHocName(name string) bool {
	return name == legacyAdHocName || strings.HasPrefix(name, AdHocPrefix)
}

// nameWord keeps letters, digits, '.', '_' and '-' of s, at most 24 of
// them; "server" if none is left.
func nameWord(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= 24 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 || b.String() == "." || b.String() == ".." {
		return "server"
	}
	return b.String()
}
