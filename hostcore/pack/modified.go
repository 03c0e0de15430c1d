package pack

import (
	"strings"
	"time"
)

// modifiedLayouts are the ISO 8601 shapes servers send for lastModified,
// after normalization to upper case with a "T" between date and time.
// Fractional seconds, with a dot or a comma, are accepted after the seconds
// of any layout; a time without a zone is taken as UTC.
var modifiedLayouts = []string{
	time.RFC3339,
	"2006-01-02T15:04:05",
	"2006-01-02T15:04:05Z0700",
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04",
	"2006-01-02",
}

// parseModified parses a lastModified annotation; ok is false when it is
// absent or in no shape ISO 8601 allows here.
func parseModified(s string) (t time.Time, ok bool) {
	if s == "" {
		return time.Time{}, false
	}
	if t, ok := parseModifiedPlain(s); ok {
		return t, true
	}
	// RFC 3339 is the common case, on time.Parse's fast path. It needs a
	// zone after the date's ten characters; without one it can only fail,
	// and a failed parse costs an error's allocations.
	tried := strings.ContainsAny(s[min(len(s), 10):], "Zz+-")
	if tried {
		if t, err := time.Parse(time.RFC3339, s); err == nil {
			return t, true
		}
	}
	norm := strings.ToUpper(strings.TrimSpace(s))
	if len(norm) > 10 && norm[10] == ' ' {
		norm = norm[:10] + "T" + norm[11:]
	}
	layouts := modifiedLayouts
	if norm == s || !strings.ContainsAny(norm[min(len(norm), 10):], "Z+-") {
		layouts = layouts[1:] // RFC 3339 has failed on it, or could only fail
	}
	for _, layout := range layouts {
		if t, err := time.Parse(layout, norm); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// parseModifiedPlain parses the shape nearly every server sends,
// "2006-01-02T15:04:05" with an optional fraction of a second (a dot or a
// comma, then 1 to 9 digits) and an optional zone ("Z" or "+07:00"), by
// hand: time.Parse costs several times as much, and Rank, which keeps
// nothing of the items, parses every item's date each time it ranks.
// It accepts only what time.Parse, under the layouts above, reads as the
// same instant; anything else (another shape, a field out of range, a
// lower-case letter, spaces) is left to time.Parse: ok is false.
func parseModifiedPlain(s string) (t time.Time, ok bool) {
	if len(s) < 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' {
		return time.Time{}, false
	}
	year, ok1 := digits(s[0:4])
	month, ok2 := digits(s[5:7])
	day, ok3 := digits(s[8:10])
	hour, ok4 := digits(s[11:13])
	minute, ok5 := digits(s[14:16])
	sec, ok6 := digits(s[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || month < 1 || month > 12 || day < 1 ||
		day > daysIn(time.Month(month), year) || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false
	}
	rest, nsec := s[19:], 0
	if len(rest) > 0 && (rest[0] == '.' || rest[0] == ',') {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n == 1 || n > 10 {
			return time.Time{}, false
		}
		frac, _ := digits(rest[1:n])
		for range 10 - n {
			frac *= 10
		}
		rest, nsec = rest[n:], frac
	}
	offset := 0
	switch {
	case rest == "" || rest == "Z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		hh, okh := digits(rest[1:3])
		mm, okm := digits(rest[4:6])
		if !okh || !okm || hh > 23 || mm > 59 {
			return time.Time{}, false
		}
		offset = hh*3600 + mm*60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return time.Time{}, false
	}
	t = time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC)
	if offset != 0 {
		t = t.Add(-time.Duration(offset) * time.Second)
	}
	return t, true
}

// digits is the decimal number s spells, and whether s is all digits.
func digits(s string) (n int, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// daysIn is the number of days in month m of year.
func daysIn(m time.Month, year int) int {
	if m == time.February {
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	}
	return 31 - int(m-1)%7%2
}
