package ui

// SearchMemories types query into Search memories (the Memories tab) and
// runs it, as Enter there does.
func (a *App) SearchMemories(query string) {
	a.picker.show(TabByID)
	s := a.picker.byID.search
	s.query.SetText(query)
	s.run(false)
}

// SearchHit is the id of the i-th result of the last search, "" if none.
func (a *App) SearchHit(i int) string {
	s := a.picker.byID.search
	if i < 0 || i >= len(s.hits) {
		return ""
	}
	return s.hits[i].ID
}

// FocusSearchHit puts the keyboard on the i-th result of the last search,
// as Down from the search field does.
func (a *App) FocusSearchHit(i int) { a.picker.byID.search.focus(i) }
