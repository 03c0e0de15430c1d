package ui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2/widget"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/fault"
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

// capabilities lists what a server declared, in MCP's names and order,
// each with the flags it set: "completions · resources (listChanged,
// subscribe) · tools".
func capabilities(caps hostcore.Capabilities) string {
	type flag struct {
		name string
		on   bool
	}
	declared := []struct {
		name  string
		on    bool
		flags []flag
	}{
		{"completions", caps.Completions, nil},
		{"experimental", len(caps.Experimental) > 0, nil},
		{"extensions", len(caps.Extensions) > 0, nil},
		{"logging", caps.Logging, nil},
		{"prompts", caps.Prompts, []flag{{"listChanged", caps.PromptListChanged}}},
		{"resources", caps.Resources, []flag{{"listChanged", caps.ResourceListChanged}, {"subscribe", caps.Subscribe}}},
		{"tools", caps.Tools, []flag{{"listChanged", caps.ToolListChanged}}},
	}
	var parts []string
	for _, c := range declared {
		if !c.on {
			continue
		}
		var set []string
		for _, f := range c.flags {
			if f.on {
				set = append(set, f.name)
			}
		}
		if len(set) > 0 {
			parts = append(parts, c.name+" ("+strings.Join(set, ", ")+")")
		} else {
			parts = append(parts, c.name)
		}
	}
	return strings.Join(parts, " · ")
}

// kindTitle is an error kind as a heading: "Not found".
func kindTitle(k fault.Kind) string {
	s := string(k)
	if s == "" {
		return "Error"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// explain splits err into what a person sees: the kind, the message, what to
// do next and the detail. Errors that are not a fault.Error are shown as
// they are, without a kind.
func explain(err error) (kind fault.Kind, msg, hint, detail string) {
	var he *fault.Error
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
