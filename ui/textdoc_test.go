package ui

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
)

// A body is shown as it is, but for what a monospace row cannot draw:
// tabs go to the next tab stop, every line ending is a newline, a control
// character shows as its picture, bytes that are not UTF-8 as U+FFFD.
func TestDisplayText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"tabs to the stops", "a\tbc\td\n\tx", "a   bc  d\n    x"},
		{"CRLF and a lone CR", "one\r\ntwo\rthree", "one\ntwo\nthree"},
		{"escapes show", "\x1b[31mred\x00\x7f", "␛[31mred␀␡"},
		{"invalid UTF-8", "caf\xe9 ok", "caf\uFFFD ok"},
		{"runes kept", "naïve — 日本", "naïve — 日本"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := displayText(tt.in); got != tt.want {
				t.Errorf("displayText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	clean := strings.Repeat("plain text\n", 1000)
	if got, ascii := displayText(clean); unsafe.StringData(got) != unsafe.StringData(clean) || !ascii {
		t.Error("clean ASCII text was copied, or not seen as ASCII")
	}
}

// rowsText is the text of each row.
func rowsText(d *textDoc, rows []textRow) []string {
	var out []string
	for _, r := range rows {
		out = append(out, d.text[r.start:r.end])
	}
	return out
}

// Wrapped rows break after a space that leaves the row at least half
// full, else at the width; with wrapping off a line is a row. Columns are
// runes, not bytes.
func TestTextDocRows(t *testing.T) {
	tests := []struct {
		name, text string
		wrap       bool
		want       []string
	}{
		{"short lines stay", "ab cd\nef", true, []string{"ab cd", "ef"}},
		{"at the last space", "aaa bbb ccc", true, []string{"aaa bbb ", "ccc"}},
		{"hard without a space", "abcdefghijk", true, []string{"abcdefghij", "k"}},
		{"a space too early is not used", "a bcdefghijklmn", true, []string{"a bcdefghi", "jklmn"}},
		{"runes, not bytes", "ééééééééééé", true, []string{"éééééééééé", "é"}},
		{"wrapping off", "aaa bbb ccc ddd eee\n\nx", false, []string{"aaa bbb ccc ddd eee", "", "x"}},
		{"an empty body is one row", "", true, []string{""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newTextDoc(tt.text)
			if diff := cmp.Diff(tt.want, rowsText(d, d.rows(10, tt.wrap))); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
	}
	d := newTextDoc("short\n" + strings.Repeat("x", 700) + "\nénd")
	if d.widest != 700 || d.lines() != 3 {
		t.Errorf("widest %d, lines %d; want 700 and 3", d.widest, d.lines())
	}
	rows := d.rows(80, true)
	if got := rowsText(d, rows[len(rows)-1:]); got[0] != "énd" || rowOf(rows, len(d.text)-1) != len(rows)-1 {
		t.Errorf("the last row is %q (row of the last byte %d of %d)", got, rowOf(rows, len(d.text)-1), len(rows))
	}
}

// A search ignores case, finds every match in order with its offsets in
// the text shown, and stops at the limit saying there are more.
func TestTextDocFind(t *testing.T) {
	d := newTextDoc("Billing webhook\nthe BILLING webhook, billing\tWebhook; Ünïcode ünÏcode")
	got, more := d.find("billing webhook", 10)
	if len(got) != 2 || more {
		t.Fatalf("found %v (more %v), want two", got, more)
	}
	for _, m := range got {
		if s := strings.ToLower(d.text[m.start:m.end]); s != "billing webhook" {
			t.Errorf("match %v is %q", m, d.text[m.start:m.end])
		}
	}
	if got, _ := d.find("ÜNÏCODE", 10); len(got) != 2 || d.text[got[1].start:got[1].end] != "ünÏcode" {
		t.Errorf("a non-ASCII query found %v", got)
	}
	if got, more := d.find("i", 3); len(got) != 3 || !more {
		t.Errorf("with a limit of 3: %d matches, more %v", len(got), more)
	}
	if got, _ := d.find("", 10); got != nil {
		t.Errorf("an empty query found %v", got)
	}
}
