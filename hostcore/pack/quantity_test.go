package pack

import "testing"

// Quantities read right for 1 and for every other number, the regular
// nouns and the others.
func TestQuantities(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{Quantity(1, "token"), "1 token"},
		{Quantity(0, "token"), "0 tokens"},
		{Quantity(8000, "token"), "8,000 tokens"},
		{QuantityOf(1, "entry", "entries"), "1 entry"},
		{QuantityOf(2, "entry", "entries"), "2 entries"},
		{QuantityOf(1024, "memory", "memories"), "1,024 memories"},
		{QuantityOf(0, "memory", "memories"), "0 memories"},
		{Plural(1, "attachment", "attachments"), "attachment"},
		{Plural(3, "attachment", "attachments"), "attachments"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
