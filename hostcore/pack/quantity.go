package pack

// QuantityOf says n of a noun whose plural is not the singular with an
// "s": one for 1, else many, after n with its digits grouped by commas:
// "1 entry", "12 entries", "1,024 memories". Quantity is the same for the
// nouns that take an "s".
func QuantityOf(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return grouped(n) + " " + many
}

// Plural is noun as n of it reads: one for 1, else many ("1 of 1
// attachment sent", "0 of 3 attachments sent").
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
