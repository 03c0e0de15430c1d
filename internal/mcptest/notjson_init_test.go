package mcptest_test

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/attache/attache/internal/mcptest"
)

// TestNotJSONAtInitialize: the handshake itself gets garbage, over stdio
// after InitStderrLines lines on stderr, and over HTTP as a 200
// application/json body.
func TestNotJSONAtInitialize(t *testing.T) {
	t.Run("stdio", func(t *testing.T) {
		var stderr syncBuffer
		clientIn, serverOut := io.Pipe()
		serverIn, clientOut := io.Pipe()
		go mcptest.ServeStdio(testContext(t), mcptest.ModeNotJSONInit, serverIn, serverOut, &mcptest.Options{Stderr: &stderr})
		t.Cleanup(func() { clientOut.Close() })
		go io.WriteString(clientOut, initialize+"\n")
		line, err := bufio.NewReader(clientIn).ReadString('\n')
		if err != nil || line != "this is not json\n" {
			t.Errorf("initialize answered %q, %v; want the garbage line", line, err)
		}
		lines := strings.Split(strings.TrimSuffix(stderr.String(), "\n"), "\n")
		if len(lines) != mcptest.InitStderrLines || lines[len(lines)-1] != fmt.Sprintf("stderr line %d", mcptest.InitStderrLines) {
			t.Errorf("stderr %q; want %d lines", stderr.String(), mcptest.InitStderrLines)
		}
	})
	t.Run("http", func(t *testing.T) {
		resp, body := post(t, httpServer(t, mcptest.ModeNotJSONInit, nil), initialize, nil)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" || body != "this is not json" {
			t.Errorf("initialize answered %d %s %q; want 200 application/json garbage", resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	})
}
