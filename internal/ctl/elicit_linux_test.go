//go:build linux

package ctl

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/attache/attache/internal/npmpeer"
)

// TestElicitOnATerminal: on a terminal, attachectl asks for each field,
// with its default in brackets, then for the action: the person types a
// name and presses Enter to accept.
func TestElicitOnATerminal(t *testing.T) {
	url := npmpeer.TS2(t)
	p := openPTY(t)
	cmd := exec.Command(binPath, "--url", url, "read", "ts2://mrtr/elicit")
	cmd.Env = append(os.Environ(), privateEnv(t)...)
	var stdout bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.slave, &stdout, p.slave
	// The terminal holds typed lines until the program reads them.
	if _, err := p.master.Write([]byte("Grace Hopper\n\n")); err != nil {
		t.Fatal(err)
	}
	err := cmd.Run()
	shown := p.screen(t)
	if err != nil || stdout.String() != "hello Grace Hopper\n" {
		t.Fatalf("read: %v, %q\nterminal:\n%s", err, stdout.String(), shown)
	}
	for _, want := range []string{" asks (reading ts2://mrtr/elicit): Who is reading?", "Name [Ada]: ", "send it? [a]ccept, [d]ecline, [c]ancel", `answered accept: {"name":"Grace Hopper"}`} {
		if !strings.Contains(shown, want) {
			t.Errorf("the terminal did not show %q:\n%s", want, shown)
		}
	}
}
