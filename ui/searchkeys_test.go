package ui

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/attache/attache/hostcore"
)

// A page's search keys, made in one buffer, are each resource's fields
// lower-cased as strings.ToLower lowers them, ASCII or not.
func TestSearchKeysLowerEachResource(t *testing.T) {
	rs := []hostcore.Resource{
		{URI: "test://A/B", Name: "Resource-1", Title: "The TITLE", Description: "Some Words"},
		{URI: "file:///École/İstanbul.TXT", Name: "ÉCOLE", Description: "ΣΑΣ"},
		{URI: "x://bad\xffUTF8", Name: "Bad\xc3"},
		{URI: "x://plain"},
		{},
	}
	var want []string
	for _, r := range rs {
		want = append(want, strings.ToLower(r.Name+"\x00"+r.Title+"\x00"+r.URI+"\x00"+r.Description))
	}
	if diff := cmp.Diff(want, searchKeys(rs)); diff != "" {
		t.Errorf("searchKeys (-want +got):\n%s", diff)
	}
}
