package cmdfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/attache/attache/hostcore/cmdfile"
)

func TestMissing(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "there.js"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"present script", []string{"there.js"}, ""},
		{"missing script", []string{"--inspect", "gone.js"}, filepath.Join(dir, "gone.js")},
		{"missing relative path", []string{"./bin/server"}, filepath.Join(dir, "bin/server")},
		{"options and URLs are no paths", []string{"-y", "--flag=x.js", "https://x/y.js", "pkg"}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := cmdfile.Missing(dir, tt.args); got != tt.want {
				t.Errorf("Missing(%v) = %q, want %q", tt.args, got, tt.want)
			}
		})
	}
}
