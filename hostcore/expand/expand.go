// Package expand expands the RFC 6570 URI templates servers advertise, as
// the host allows: each value stays in its segment. It knows nothing of
// sessions; hostcore expands a template through it before a read.
package expand

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/yosida95/uritemplate/v3"

	"github.com/attache/attache/hostcore/fault"
)

// Expansion is not authorization: the server still checks every read. But a
// host that lets a value escape its segment sends a well-formed request for
// something the person never asked for, so the host refuses such values
// rather than trusting the server to catch them.

// Variables returns the variable names of an RFC 6570 template, in
// order of first appearance.
func Variables(template string) ([]string, error) {
	t, err := uritemplate.New(template)
	if err != nil {
		return nil, fault.New(fault.KindInvalidParams, err, "%q is not a valid URI template", template)
	}
	return t.Varnames(), nil
}

// expression matches one template expression, to learn each variable's
// operator. Substitution itself is uritemplate's.
var expression = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{([+#./;?&]?)([^}]*)\}`) })

// unencodedOperators pass reserved characters through unencoded (RFC 6570
// reserved and fragment expansion).
const unencodedOperators = "+#"

// URI expands an RFC 6570 template with values, percent-encoding each
// value (uritemplate does the encoding). It refuses, with a reason a person
// can read: a missing variable; a dot-segment value ("." or ".."); a value
// with "/", "?", "#", "&", "%" or ".." for a variable the template passes
// through unencoded ({+var}, {#var}); and a result that is not an absolute
// URI with the template's scheme.
func URI(template string, values map[string]string) (string, error) {
	t, err := uritemplate.New(template)
	if err != nil {
		return "", fault.New(fault.KindInvalidParams, err, "%q is not a valid URI template", template)
	}
	ops := operators(template)
	vals := uritemplate.Values{}
	for _, name := range t.Varnames() {
		v, ok := values[name]
		if !ok || v == "" {
			return "", fault.New(fault.KindInvalidParams, nil, "a value for %q is missing", name)
		}
		if err := checkValue(name, v, ops[name]); err != nil {
			return "", err
		}
		vals.Set(name, uritemplate.String(utf8AsBytes(v)))
	}
	for name := range values {
		if !slices.Contains(t.Varnames(), name) {
			return "", fault.New(fault.KindInvalidParams, nil, "the template has no variable %q", name)
		}
	}
	out, err := t.Expand(vals)
	if err != nil {
		return "", fault.New(fault.KindInvalidParams, err, "expanding %q", template)
	}
	return out, checkExpanded(template, out)
}

func checkValue(name, v, op string) error {
	if v == "." || v == ".." {
		return fault.New(fault.KindInvalidParams, nil, "%q cannot be %q: it would be a dot-segment that leaves its place in the URI", name, v)
	}
	if op != "" && strings.Contains(unencodedOperators, op) {
		if i := strings.IndexAny(v, "/?#&%"); i >= 0 || strings.Contains(v, "..") {
			return fault.New(fault.KindInvalidParams, nil,
				"%q may not contain %q: the template passes it through unencoded ({%s%s}), so it would escape its segment",
				name, offending(v, i), op, name)
		}
	}
	return nil
}

func offending(v string, i int) string {
	if i < 0 {
		return ".."
	}
	return v[i : i+1]
}

// checkExpanded checks that the result parses as an absolute URI with the
// template's scheme and has no dot-segment the template did not have.
func checkExpanded(template, out string) error {
	u, err := url.Parse(out)
	if err != nil {
		return fault.New(fault.KindInvalidParams, err, "the expanded URI %q does not parse", out)
	}
	scheme, _, _ := strings.Cut(template, ":")
	if !u.IsAbs() || !strings.EqualFold(u.Scheme, scheme) {
		return fault.New(fault.KindInvalidParams, nil, "the expanded URI %q is not an absolute %s: URI", out, scheme)
	}
	for _, seg := range strings.Split(u.EscapedPath(), "/") {
		if (seg == "." || seg == "..") && !strings.Contains(template, "/"+seg) {
			return fault.New(fault.KindInvalidParams, nil, "the expanded URI %q has a dot-segment", out)
		}
	}
	return nil
}

// operators maps each variable to the operator of its first expression.
func operators(template string) map[string]string {
	ops := map[string]string{}
	for _, m := range expression().FindAllStringSubmatch(template, -1) {
		for _, spec := range strings.Split(m[2], ",") {
			name := strings.TrimRight(strings.SplitN(spec, ":", 2)[0], "*")
			if _, seen := ops[name]; !seen {
				ops[name] = m[1]
			}
		}
	}
	return ops
}

// utf8AsBytes works around uritemplate v3.0.2 percent-encoding a code point
// by its numeric bytes (é, U+00E9, becomes %E9) instead of its UTF-8 bytes
// (%C3%A9), as RFC 6570 requires. Each byte of v's UTF-8 encoding at or
// above 0x80 is handed over as the rune of the same value, which the library
// encodes as exactly that one byte. ASCII passes through unchanged, so the
// library still decides what is reserved and what is encoded.
func utf8AsBytes(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		b.WriteRune(rune(v[i]))
	}
	return b.String()
}
