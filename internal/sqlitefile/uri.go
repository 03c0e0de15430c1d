package sqlitefile

import (
	"net/url"
	"path/filepath"
	"strings"
)

// URI returns the driver's name for the database file at path, an absolute
// path: a file: URI, so that a path holding '?', '#' or '%' stays a path
// instead of starting the query or an escape. params is the URI's query,
// the driver's parameters as they follow the '?', such as
// "_journal_mode=WAL&_busy_timeout=5000"; it is used as given.
func URI(path, params string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive: file:///C:/...
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: params}
	return u.String()
}
