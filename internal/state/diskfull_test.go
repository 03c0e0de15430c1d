package state

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/internal/fulldisk"
)

// TestFullDiskReadsStill: on a disk too full to open the file for
// writing, the person's conversations open read-only and read as before;
// a change fails with ErrDiskFull, which is hostcore's disk-full kind too,
// and keeps nothing. Close is clean. With room again, changes work.
func TestFullDiskReadsStill(t *testing.T) {
	ctx := context.Background()
	dir := fulldisk.Mount(t, 1<<20)
	path := DefaultPath(dir)
	s, err := Open(path, &Options{Now: testClock()})
	if err != nil {
		t.Fatal(err)
	}
	c := newConversation(t, s, "Launch prep")
	if _, err := s.AddAttachment(ctx, attachment(c.ID, "mem://1")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	free := fulldisk.Fill(t, dir)

	if s, err = Open(path, nil); err != nil {
		t.Fatalf("Open on a full disk: %v", err)
	}
	if !s.ReadOnly() {
		t.Error("the store does not say it is read-only")
	}
	all, err := s.Conversations(ctx)
	if err != nil || len(all) != 1 || all[0].Title != "Launch prep" {
		t.Errorf("Conversations on a full disk = %v, %v", all, err)
	}
	if atts, err := s.Attachments(ctx, c.ID); err != nil || len(atts) != 1 {
		t.Errorf("Attachments on a full disk = %v, %v", atts, err)
	}
	if _, err := s.CreateConversation(ctx, "more"); !errors.Is(err, ErrDiskFull) || !errors.Is(err, fault.ErrDiskFull) {
		t.Errorf("CreateConversation on a full disk = %v; want ErrDiskFull (and hostcore's)", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close on a full disk: %v", err)
	}
	free()
	s = openTest(t, path)
	if s.ReadOnly() {
		t.Error("read-only with room again")
	}
	newConversation(t, s, "more")
}

// TestDiskFillsWhileWriting: a store open for writing when the disk fills
// refuses the change that finds no room with ErrDiskFull, keeps nothing of
// it, and still reads what it held.
func TestDiskFillsWhileWriting(t *testing.T) {
	ctx := context.Background()
	dir := fulldisk.Mount(t, 1<<20)
	s := openTest(t, DefaultPath(dir))
	c := newConversation(t, s, "Launch prep")
	fulldisk.Fill(t, dir)
	var err error
	n := 0
	for ; n < 1000 && err == nil; n++ { // until the -wal file finds no room
		_, err = s.AddAttachment(ctx, attachment(c.ID, fmt.Sprintf("mem://%d/%s", n, strings.Repeat("x", 2000))))
	}
	if !errors.Is(err, ErrDiskFull) {
		t.Fatalf("AddAttachment on a full disk = %v; want ErrDiskFull", err)
	}
	atts, rerr := s.Attachments(ctx, c.ID)
	if rerr != nil || len(atts) != n-1 {
		t.Errorf("after the refused change: %d attachments, %v; want the %d acknowledged", len(atts), rerr, n-1)
	}
	if all, err := s.Conversations(ctx); err != nil || len(all) != 1 {
		t.Errorf("Conversations on a full disk = %v, %v", all, err)
	}
}
