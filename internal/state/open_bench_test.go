package state

import (
	"context"
	"fmt"
	"testing"

	"github.com/attache/attache/hostcore"
)

// BenchmarkOpenState opens a state file holding 20 conversations of 25
// attachments each (the large state), closed cleanly before, as
// every start of the app and every attachectl does. Closing is not timed.
func BenchmarkOpenState(b *testing.B) {
	path := DefaultPath(b.TempDir())
	s, err := Open(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for c := range 20 {
		conv, err := s.CreateConversation(ctx, fmt.Sprint("conversation ", c))
		if err != nil {
			b.Fatal(err)
		}
		for i := range 25 {
			_, err := s.AddAttachment(ctx, hostcore.Attachment{ConversationID: conv.ID, Origin: hostcore.FromList,
				Server: hostcore.ServerRef{Name: fmt.Sprint("server-", i%10), Command: "threengram"},
				URI:    fmt.Sprintf("threengram://memory/c%d-m%d", c, i)})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, err := Open(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		if s.file.Checked != "" {
			b.Fatalf("checked on open (%s): the benchmark measured the wrong open", s.file.Checked)
		}
		b.StopTimer()
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
