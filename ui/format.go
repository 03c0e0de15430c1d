package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/pack"
)

// count formats n with thousands separators: 12,345.
func count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// byteSize formats a size for people: 812 B, 12.3 KB, 4.0 MB.
func byteSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/1000/1000)
	}
}

// span formats a duration to the precision a person needs: 850 µs, 12 ms,
// 3.4 s, 5m10s, 23h59m, 24h.
func span(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%d µs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d < time.Hour:
		return d.Truncate(time.Second).String()
	default:
		h, m := int(d.Hours()), int(d.Minutes())%60
		if m == 0 {
			return fmt.Sprintf("%dh", h)
		}
		return fmt.Sprintf("%dh%02dm", h, m)
	}
}

// cacheBadge is the cache part of a read, in one line: "HIT · private ·
// acme · 23h59m left", and how prominent to make it.
func cacheBadge(c hostcore.CacheInfo) (string, widget.Importance) {
	parts := []string{strings.ToUpper(string(c.Status))}
	if c.Scope != "" {
		parts = append(parts, c.Scope)
	}
	if c.Account != "" {
		parts = append(parts, "account "+c.Account)
	}
	switch c.Status {
	case hostcore.CacheHit, hostcore.CacheMiss, hostcore.CacheRefresh:
		if c.TTL > 0 {
			parts = append(parts, span(c.TTLLeft)+" left")
		} else {
			parts = append(parts, "not cacheable")
		}
	case hostcore.CacheStale:
		parts = append(parts, "expired "+span(c.Age-c.TTL)+" ago")
	}
	if c.Age > 0 {
		parts = append(parts, "age "+span(c.Age))
	}
	return strings.Join(parts, " · "), cacheImportance(c.Status)
}

func cacheImportance(s hostcore.CacheStatus) widget.Importance {
	switch s {
	case hostcore.CacheHit:
		return widget.SuccessImportance
	case hostcore.CacheStale:
		return widget.WarningImportance
	case hostcore.CacheMiss, hostcore.CacheRefresh:
		return widget.HighImportance
	}
	return widget.MediumImportance
}

// capabilities summarizes what a server declared, by name: "resources
// (subscribe, listChanged) · tools · completions". It reads the declaration
// as JSON so that it names every capability, including ones this host does
// not use yet.
func capabilities(caps any) string {
	raw, err := json.Marshal(caps)
	if err != nil || string(raw) == "null" {
		return ""
	}
	var m map[string]map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	for i, name := range names {
		var flags []string
		for flag, v := range m[name] {
			if b, ok := v.(bool); ok && b {
				flags = append(flags, flag)
			}
		}
		if len(flags) > 0 {
			slices.Sort(flags)
			names[i] = name + " (" + strings.Join(flags, ", ") + ")"
		}
	}
	return strings.Join(names, " · ")
}

// kindTitle is an error kind as a heading: "Not found".
func kindTitle(k hostcore.Kind) string {
	s := string(k)
	if s == "" {
		return "Error"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// explain splits err into what a person sees: the kind, the message, what to
// do next and the detail. Errors that are not a hostcore.Error are shown as
// they are, without a kind.
func explain(err error) (kind hostcore.Kind, msg, hint, detail string) {
	var he *hostcore.Error
	if !errors.As(err, &he) {
		return "", err.Error(), "", ""
	}
	if cause := errors.Unwrap(he); cause != nil {
		detail = cause.Error()
	}
	if lines := he.Stderr(); len(lines) > 0 {
		detail = strings.TrimSpace(detail + "\n\nThe server's stderr, last " + pack.Quantity(len(lines), "line") + ":\n" + strings.Join(lines, "\n"))
	}
	return he.Kind(), he.Message(), he.Hint(), detail
}

// oneLine is err as a single sentence with its kind, for a status line.
func oneLine(err error) string {
	kind, msg, hint, _ := explain(err)
	s := msg
	if kind != "" {
		s = kindTitle(kind) + ": " + msg
	}
	if hint != "" {
		s += " — " + hint
	}
	return s
}

// priorityText is a priority for people: "0.7", "1 (required)".
func priorityText(p float64) string {
	s := strconv.FormatFloat(p, 'f', -1, 64)
	if p >= 1 {
		s += " (required)"
	}
	return s
}

// capitalized is s with its first letter upper case: an error's message
// as the start of a sentence.
func capitalized(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
