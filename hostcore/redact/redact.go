// Package redact hides what a server receives as a credential where a
// person or a file would see it: a URL's userinfo. hostcore hides the rest
// (headers, environment, resolved inputs) with the secrets it knows.
package redact

import (
	"net/url"
	"strings"
)

// Mark is the text shown in place of a secret.
const Mark = "[redacted]"

// URL returns raw with its userinfo replaced by Mark, for display.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.LastIndex(raw, "@"); i >= 0 {
			if j := strings.Index(raw, "://"); j >= 0 && j < i {
				return raw[:j+3] + Mark + raw[i:]
			}
		}
		return raw
	}
	if u.User == nil {
		return raw
	}
	u.User = url.User(Mark)
	return strings.Replace(u.String(), url.PathEscape(Mark), Mark, 1)
}

// WithoutUserinfo returns raw without its userinfo: what may be kept of a
// URL that a server is reached at.
func WithoutUserinfo(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	u.User = nil
	return u.String()
}
