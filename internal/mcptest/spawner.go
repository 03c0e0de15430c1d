package mcptest

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ChildPIDURI is the spawner's one resource: the PID of its child, as text.
const ChildPIDURI = "test://spawner/child-pid"

// serveSpawner starts the long-lived child (Options.Child), writes
// "child-pid=N" to Options.Stderr, and serves a go-sdk server over in and
// out. It never stops the child: the child is left to whoever owns the
// process group, which is the point of the mode. The child gets no stdio of
// its own, so it holds none of the server's pipes open.
func serveSpawner(ctx context.Context, in io.ReadCloser, out io.WriteCloser, o Options) error {
	child := o.Child()
	child.Stdin, child.Stdout, child.Stderr = nil, nil, nil
	if err := child.Start(); err != nil {
		out.Close()
		return fmt.Errorf("starting the spawner's child: %w", err)
	}
	go child.Wait() // reap it if it ends while we run
	pid := strconv.Itoa(child.Process.Pid)
	fmt.Fprintf(o.Stderr, "child-pid=%s\n", pid)
	srv := mcp.NewServer(&mcp.Implementation{Name: "mcptest-spawner", Version: "1.0.0"},
		&mcp.ServerOptions{Logger: o.Logger})
	srv.AddResource(&mcp.Resource{URI: ChildPIDURI, Name: "child-pid", MIMEType: "text/plain"},
		textHandler(pid, mcp.Cacheable{}))
	return runServer(ctx, srv, in, out)
}
