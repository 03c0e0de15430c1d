package ui

import "fmt"

// filterNote says that a filter hides everything: "No resource matches
// “x”: the search hides all 40. Clear it to see them." It is "" while
// something shows, with no filter, or with nothing to hide.
func filterNote(q string, shown, total int, noun, field string) string {
	if q == "" || shown > 0 || total == 0 {
		return ""
	}
	return fmt.Sprintf("No %s matches “%s”: the %s hides all %d. Clear it to see them.", noun, q, field, total)
}
