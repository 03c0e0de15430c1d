package ui

import (
	"testing"
)

// Attachments belong to a conversation: a new one starts empty, switching
// back shows the first one's, and a rename keeps the conversation.
func TestConversations(t *testing.T) {
	h := newHarness(t)
	id := h.memoryIDs("acme", "m5", 1)[0]
	h.attachIDs(id)
	bar, p := h.app.conversations, h.app.attachments
	first := h.app.sh.conv

	h.do(func() { bar.create("Research") })
	h.settle()
	if h.app.sh.conv.Title != "Research" || len(p.rows) != 0 {
		t.Fatalf("after New: conversation %q with %d attachments, want an empty Research", h.app.sh.conv.Title, len(p.rows))
	}
	if got := bar.choose.Selected; got != "Research" {
		t.Errorf("the conversation menu shows %q", got)
	}

	h.do(func() { bar.choose.SetSelected(first.Title) }) // switch back, as the menu does
	h.settle()
	if h.app.sh.conv.ID != first.ID || len(p.rows) != 1 || p.rows[0].att.URI != "threengram://memory/"+id {
		t.Fatalf("after switching back: conversation %d with %d attachments", h.app.sh.conv.ID, len(p.rows))
	}
	if got := h.app.sh.prefs.Int(prefConversation); got != int(first.ID) {
		t.Errorf("remembered conversation %d, want %d", got, first.ID)
	}

	h.do(func() { bar.rename("Renamed") })
	h.settle()
	if h.app.sh.conv.ID != first.ID || h.app.sh.conv.Title != "Renamed" || bar.choose.Selected != "Renamed" {
		t.Errorf("after rename: conversation %+v, menu %q", h.app.sh.conv, bar.choose.Selected)
	}
	if len(p.rows) != 1 {
		t.Errorf("the rename lost the attachments: %d rows", len(p.rows))
	}
	assertMarkup(t, "conversation_bar.xml", bar.choose)
}

// Removing a conversation switches away from it; Undo brings it back with
// its attachments.
func TestRemoveConversationUndo(t *testing.T) {
	h := newHarness(t)
	id := h.memoryIDs("acme", "m5", 1)[0]
	h.attachIDs(id)
	bar, p := h.app.conversations, h.app.attachments
	first := h.app.sh.conv
	h.do(func() { bar.create("Other") })
	h.settle()
	h.do(func() { bar.choose.SetSelected(first.Title) })
	h.settle()

	h.do(bar.remove)
	h.settle()
	if h.app.sh.conv.ID == first.ID || len(bar.all) != 1 || !bar.undo.Visible() {
		t.Fatalf("after Remove: on %q, %d conversations, undo shown %v", h.app.sh.conv.Title, len(bar.all), bar.undo.Visible())
	}
	h.do(bar.restore)
	h.settle()
	if h.app.sh.conv.ID != first.ID || len(p.rows) != 1 || len(bar.all) != 2 || bar.undo.Visible() {
		t.Errorf("after Undo: on %q with %d attachments, %d conversations", h.app.sh.conv.Title, len(p.rows), len(bar.all))
	}
}
