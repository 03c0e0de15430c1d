package subrecord

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/attache/attache/hostcore/pack"
)

// DiffContents is a unified diff of two read bodies of uri, each entry's
// text (a blob as one line naming its type and size), or "" when their
// text is the same.
func DiffContents(uri string, before, after []pack.Content) string {
	d, err := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(diffLines(before)), B: difflib.SplitLines(diffLines(after)),
		FromFile: uri + " (before)", ToFile: uri + " (now)", Context: 3,
	})
	if err != nil {
		return ""
	}
	return d
}

// diffLines is a body as the lines a diff compares.
func diffLines(cs []pack.Content) string {
	var out []byte
	for _, c := range cs {
		if c.IsBlob {
			out = append(out, "[binary "+c.MIMEType+", "+pack.Quantity(len(c.Blob), "byte")+", sha256 "+shortDigest(c.Blob)+"]\n"...)
			continue
		}
		out = append(out, c.Text...)
		if len(c.Text) > 0 && c.Text[len(c.Text)-1] != '\n' {
			out = append(out, '\n')
		}
	}
	return string(out)
}

// shortDigest names bytes by the start of their SHA-256, so that a diff
// of two blobs of one size still shows that they differ.
func shortDigest(b []byte) string {
	d := sha256.Sum256(b)
	return hex.EncodeToString(d[:6])
}
