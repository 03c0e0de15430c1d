package wire

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A pinned message outlives the record's bounds, shows as pinned, and
// keeps its place before the newer messages; unpinned, it is let go.
func TestPinSurvivesTrimming(t *testing.T) {
	tap := NewTap(nil)
	send := func(i int) {
		tap.Record(Sent, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":"a://%d"}}`, i, i))
	}
	for i := range 10 {
		send(i)
	}
	first := tap.Messages()[2].Seq
	if err := tap.Pin(first); err != nil {
		t.Fatal(err)
	}
	for i := 10; i < tapCapacity+100; i++ {
		send(i)
	}
	entries, dropped := tap.History()
	if entries[0].Seq != first || !entries[0].Pinned || !strings.Contains(string(entries[0].Raw), `"a://2"`) {
		t.Fatalf("the oldest entry is %d %s (pinned %v); want the pinned message %d", entries[0].Seq, entries[0].Raw, entries[0].Pinned, first)
	}
	if len(entries) != tapCapacity+1 || dropped != 99 { // 100 past the window, one of them kept
		t.Errorf("%d entries, %d let go; want the window of %d and the pin, 99 let go", len(entries), dropped, tapCapacity)
	}
	for _, e := range entries[1:] {
		if e.Pinned {
			t.Fatalf("message %d shows as pinned", e.Seq)
		}
	}
	tap.Unpin(first)
	entries, dropped = tap.History()
	if entries[0].Seq == first || dropped != 100 || tap.Pinned() != 0 {
		t.Errorf("after Unpin the oldest is %d, %d let go, %d pinned; want the pin let go", entries[0].Seq, dropped, tap.Pinned())
	}
	if err := tap.Pin(first); !errors.Is(err, ErrNotHeld) {
		t.Errorf("pinning a message let go = %v; want not found", err)
	}
}

// Pins are bounded: past maxPins, a pin is refused with a usage error.
func TestPinsAreBounded(t *testing.T) {
	tap := NewTap(nil)
	for i := range maxPins + 1 {
		tap.Record(Received, fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"notifications/message","params":{"n":%d}}`, i))
	}
	msgs := tap.Messages()
	for _, m := range msgs[:maxPins] {
		if err := tap.Pin(m.Seq); err != nil {
			t.Fatal(err)
		}
	}
	if err := tap.Pin(msgs[maxPins].Seq); !errors.Is(err, ErrPinLimit) || !strings.Contains(err.Error(), "unpin one first") {
		t.Errorf("pin %d = %v; want a usage error", maxPins+1, err)
	}
}

// Clear, when an authorization context ends, lets the pinned messages go
// with the rest: a pin must not keep a private body past its account.
func TestClearLetsThePinsGo(t *testing.T) {
	tap := NewTap(nil)
	for i := range tapCapacity + 5 {
		tap.Record(Received, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{"contents":[{"uri":"a://%d","text":"private %d"}]}}`, i, i, i))
	}
	msgs := tap.Messages()
	if err := tap.Pin(msgs[0].Seq); err != nil {
		t.Fatal(err)
	}
	tap.Record(Received, []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`)) // trims the pinned one into the kept list
	tap.Clear()
	if entries, dropped := tap.History(); len(entries) != 0 || dropped != 0 || tap.Pinned() != 0 {
		t.Errorf("after Clear: %d entries, %d let go, %d pinned; want nothing", len(entries), dropped, tap.Pinned())
	}
	tap.Record(Sent, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	if entries, _ := tap.History(); len(entries) != 1 || entries[0].Pinned {
		t.Errorf("after Clear a new message records as %+v", entries)
	}
}
