package ctl

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"
)

// What a server sends is shown, never obeyed. A server's strings (its
// name, a resource's title, an error message, a completion value) reach a
// person's terminal through attachectl, and a terminal obeys what it is
// sent: ESC ] 0 ; … BEL retitles the window, ESC [ 2 J clears the screen,
// U+009B is CSI on some terminals, and a newline forges a line of output
// that scripts reading one line per item would trust. So every such string
// is printed escaped, one line of it:
//
//   - C0 controls, DEL, C1 controls (U+0080–U+009F), invalid UTF-8 bytes,
//     and the Unicode line separators and bidirectional overrides are
//     written as Go escapes (\n, \x1b, \u009b, \xff, \u202e). An escape
//     sequence thus shows as its harmless text (\x1b]0;pwned\x07) instead
//     of being stripped: a person can see that the server sent one.
//   - A line is at most maxLine bytes of that; the rest is cut with
//     "…(N more bytes; -v shows all)", N counting the server's bytes.
//     With --verbose it is printed whole, still escaped.
//
// A body the person asked for (read, export) is printed as a body, lines
// and tabs kept, but when stdout is a terminal every other control is
// escaped the same way, so a body cannot drive the terminal either. Sent
// to a file (--out) or a pipe, a body's bytes are left exactly as the
// server sent them: a script or a file gets the real document.

// maxLine bounds one server-supplied string on a line of output.
const maxLine = 500

// line returns s escaped to print on one line, cut at maxLine bytes
// unless --verbose.
func (a *app) line(s string) string { return oneLine(s, a.flags.verbose) }

// oneLine escapes s (see the top of this file) and, unless all, cuts it
// at maxLine bytes of output.
func oneLine(s string, all bool) string {
	if safe(s, false) && (all || len(s) <= maxLine) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		piece, size := escaped(s[i:], false)
		if !all && b.Len()+len(piece) > maxLine {
			fmt.Fprintf(&b, "…(%d more bytes; -v shows all)", len(s)-i)
			break
		}
		b.WriteString(piece)
		i += size
	}
	return b.String()
}

// bodyText returns a text body escaped for a terminal: newlines, tabs and
// CRLF line ends kept, every other control escaped. It is never cut.
func bodyText(s string) string {
	if safe(s, true) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		piece, size := escaped(s[i:], true)
		b.WriteString(piece)
		i += size
	}
	return b.String()
}

// safe reports whether s needs no escaping at all (the common case, which
// then costs no allocation).
func safe(s string, body bool) bool {
	for i := 0; i < len(s); {
		piece, size := escaped(s[i:], body)
		if len(piece) != size || piece != s[i:i+size] {
			return false
		}
		i += size
	}
	return true
}

// escaped returns the first rune of s as it is printed, and its size in s.
// In a body, newlines, tabs and a carriage return before a newline stay.
func escaped(s string, body bool) (string, int) {
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && size == 1:
		return fmt.Sprintf(`\x%02x`, s[0]), 1
	case body && (r == '\n' || r == '\t' || r == '\r' && strings.HasPrefix(s[1:], "\n")):
		return s[:1], 1
	case r == '\n':
		return `\n`, 1
	case r == '\r':
		return `\r`, 1
	case r == '\t':
		return `\t`, 1
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf(`\x%02x`, r), 1
	case r >= 0x80 && r <= 0x9f, r == 0x2028, r == 0x2029, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return fmt.Sprintf(`\u%04x`, r), size
	}
	return s[:size], size
}

// jsonText escapes, in encoded JSON, what encoding/json leaves raw but a
// terminal may obey: C1 controls and bidirectional overrides. They can only
// occur inside strings, where \uXXXX decodes to the same rune, so the
// JSON means exactly what it meant.
func jsonText(b []byte) []byte {
	if safe(string(b), true) {
		return b
	}
	var out bytes.Buffer
	out.Grow(len(b) + 16)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			fmt.Fprintf(&out, `\u%04x`, r)
		} else {
			out.Write(b[i : i+size])
		}
		i += size
	}
	return out.Bytes()
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// body returns a body to print on stdout: escaped for a terminal, exact
// for anything else.
func (a *app) body(s string) string {
	if isTerminal(a.stdout) {
		return bodyText(s)
	}
	return s
}
