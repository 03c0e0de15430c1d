// Command attache is the Attaché desktop app: an MCP host that lets a person
// attach resources, above all threengram memories, to a model's context.
// Its wiring is internal/desktop's; the screenshot scenes are another
// command (cmd/attache-scenes), so that this one links the product only.
//
// "attache demo-server --db PATH" serves the embedded threengram demo over
// stdio (the built-in "demo" server runs the app's own binary that way).
package main

import (
	"os"
	"time"

	"github.com/attache/attache/internal/desktop"
)

func main() {
	start := time.Now()
	os.Exit(desktop.Main(start, os.Args[1:], nil))
}
