package cache

import (
	"context"
	"errors"
	"testing"
)

// TestGetDecoded: the memory tier keeps what decode made of an entry, so a
// second hit decodes nothing; a write to the key drops it, and the next
// hit decodes the new value; a value decode refuses is an error, not a hit.
func TestGetDecoded(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, nil)
	k := readKey("threengram://memory/m-1")
	decodes := 0
	decode := func(v []byte) (any, error) {
		decodes++
		if string(v) == "bad" {
			return nil, errors.New("not a read")
		}
		return string(v), nil
	}
	get := func() any {
		t.Helper()
		e, v, ok, err := s.GetDecoded(ctx, k, "acme", decode)
		if !ok || err != nil {
			t.Fatalf("GetDecoded = %v, %v", ok, err)
		}
		if e.Value != nil || e.Key != k {
			t.Fatalf("entry = %+v, want the key and no value", e)
		}
		return v
	}
	mustPut(t, s, Entry{Key: k, Scope: Private, Account: "acme", Value: []byte("one")})
	if v := get(); v != "one" || decodes != 1 {
		t.Fatalf("first hit = %v after %d decodes, want one after 1", v, decodes)
	}
	if v := get(); v != "one" || decodes != 1 {
		t.Fatalf("memory hit = %v after %d decodes, want one after 1", v, decodes)
	}
	if st, _ := s.Stats(ctx, Filter{}); st.MemoryHits != 1 {
		t.Fatalf("%d memory hits, want 1", st.MemoryHits)
	}
	mustPut(t, s, Entry{Key: k, Scope: Private, Account: "acme", Value: []byte("two")})
	if v := get(); v != "two" || decodes != 2 {
		t.Fatalf("after a put = %v after %d decodes, want two after 2", v, decodes)
	}
	mustPut(t, s, Entry{Key: k, Scope: Private, Account: "acme", Value: []byte("bad")})
	if _, _, ok, err := s.GetDecoded(ctx, k, "acme", decode); ok || err == nil {
		t.Fatalf("undecodable entry: ok %v, err %v; want an error", ok, err)
	}
	if _, _, ok, err := s.GetDecoded(ctx, readKey("threengram://memory/none"), "acme", decode); ok || err != nil {
		t.Fatalf("absent entry: ok %v, err %v; want a miss", ok, err)
	}
}
