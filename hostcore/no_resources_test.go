package hostcore_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/hostcore/fault"
	"github.com/attache/attache/internal/npmpeer"
)

// TestReadNeverSentWithoutResources: the npm server-filesystem declares
// tools only; a read of it is refused by the host, "NAME offers no
// resources", and no resources/read goes on the wire.
func TestReadNeverSentWithoutResources(t *testing.T) {
	entry := npmpeer.Entry(t, "server-filesystem")
	sc := config.ServerConfig{Name: "fs", Command: "node", Args: []string{entry, t.TempDir()}}
	h := newHost(t, &hostcore.HostOptions{Cache: openCache(t, t.TempDir())})
	c := conn(t, h, sc, "")
	_, err := c.Read(context.Background(), "file:///etc/hostname", hostcore.ReadUse)
	var he *fault.Error
	if !errors.Is(err, fault.ErrNotFound) || !errors.As(err, &he) || !strings.HasSuffix(he.Message(), "fs offers no resources") {
		t.Fatalf("read: %v; want not found, fs offers no resources", err)
	}
	if strings.Contains(tapText(c), `"resources/read"`) {
		t.Error("a resources/read was sent to a server without the resources capability")
	}
}
