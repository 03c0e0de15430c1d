package hostcore_test

import (
	"context"
	"strings"
	"testing"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/threengram"
)

// A host given a transport factory reads through it: the reference server
// in-process answers as over stdio (each account its tenant), no process
// is started, the handshake says the transport was injected, and the tap
// records the messages that crossed it.
func TestInjectedTransport(t *testing.T) {
	var asked []string
	sc := threengramMem(t)
	h := newHost(t, &hostcore.HostOptions{Transport: func(s config.ServerConfig, a config.Account) hostcore.Dialer {
		asked = append(asked, s.Name+"/"+a.Name)
		return inProcessTransport(s, a)
	}})
	ctx := context.Background()
	acme, globex := conn(t, h, sc, "acme"), conn(t, h, sc, "globex")
	id := someIDs(t, acme)[0]
	res, err := acme.Read(ctx, threengram.MemoryURI(id), hostcore.ReadUse)
	if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, `"content"`) {
		t.Fatalf("read over the injected transport = %+v, %v", res, err)
	}
	if _, err := globex.Read(ctx, threengram.MemoryURI(id), hostcore.ReadUse); err == nil {
		t.Error("globex read acme's memory: the factory was not given the account")
	}
	info := acme.Info()
	if info.Handshake.Transport != hostcore.TransportInjected || info.PID != 0 || info.State != hostcore.StateConnected {
		t.Errorf("info = %+v; want connected over the injected transport, no process", info)
	}
	if strings.Join(asked, ",") != "threengram/acme,threengram/globex" {
		t.Errorf("the factory was asked for %q; want one transport per connection", asked)
	}
	if _, ok := acme.Tap().Find("resources/read", threengram.MemoryURI(id)); !ok {
		t.Error("the tap did not record the read")
	}
	if countSent(acme, "initialize")+countSent(acme, "server/discover") == 0 {
		t.Error("the tap did not record the handshake")
	}
}

// A factory that returns nil leaves the server to its command.
func TestInjectedTransportNilFallsBack(t *testing.T) {
	h := newHost(t, &hostcore.HostOptions{Transport: func(config.ServerConfig, config.Account) hostcore.Dialer { return nil }})
	c := conn(t, h, threengramStdio(t), "acme")
	if _, err := c.Session(context.Background()); err != nil {
		t.Fatal(err)
	}
	if info := c.Info(); info.Handshake.Transport != config.TransportStdio || info.PID == 0 {
		t.Errorf("info = %+v; want the server started over stdio", info)
	}
}
