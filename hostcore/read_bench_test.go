package hostcore_test

import (
	"context"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/threengram"
)

// benchRead measures one resources/read of a threengram memory through the
// host (no cache: every iteration reaches the server).
func benchRead(b *testing.B, sc hostcore.ServerConfig) {
	h := newHost(b, nil)
	c := conn(b, h, sc, "acme")
	uri := threengram.MemoryURI(someIDs(b, c)[0])
	ctx := context.Background()
	if _, err := c.ReadServer(ctx, uri); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := c.ReadServer(ctx, uri); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadStdio(b *testing.B) { benchRead(b, threengramStdio(b)) }

func BenchmarkReadHTTP(b *testing.B) {
	sc, _ := threengramHTTP(b)
	benchRead(b, sc)
}
