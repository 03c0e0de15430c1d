package ctl

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
)

// FullCommand is the binary that attachectl hands the commands needing
// Full to, as git runs git-<command>: looked for beside attachectl first,
// then on PATH. Both binaries run this package, with the same commands,
// flags and exit codes, so to a person attachectl stays one tool.
const FullCommand = "attachectl-full"

// needsFull marks a command that needs Full: always when the
// annotation's value is empty, else only when one of the flags it lists
// (comma-separated) is given.
const needsFull = "attache/needs-full"

// handOver runs FullCommand in place of this process when the command line
// names a command that needs Full, and reports whether it did; its code
// is then the exit code (the hand-over failed, and said why on stderr).
// It runs before any work, so nothing is done twice.
func handOver(root *cobra.Command, args []string, stderr io.Writer) (code int, handed bool) {
	cmd, rest, err := root.Find(args)
	if err != nil {
		return 0, false // cobra says what is wrong, here
	}
	flags, ok := cmd.Annotations[needsFull]
	if !ok || (flags != "" && !givesFlag(cmd, rest, strings.Split(flags, ","))) {
		return 0, false
	}
	path, err := fullPath()
	if err != nil {
		fmt.Fprintf(stderr, "attachectl: %s needs %s, which is neither beside attachectl nor on PATH (go build ./cmd/attachectl-full, or make, builds it): %v\n",
			cmd.CommandPath(), FullCommand, err)
		return exitUsage, true
	}
	code, err = runInstead(path, args)
	if err != nil {
		fmt.Fprintf(stderr, "attachectl: running %s: %v\n", path, err)
		return exitUsage, true
	}
	return code, true
}

// givesFlag reports whether args, before a "--", set one of the named
// flags of cmd (--name, --name=value, or its shorthand). It reads the
// words without parsing them, so that the flags are parsed once, by the
// command that runs.
func givesFlag(cmd *cobra.Command, args, names []string) bool {
	for _, w := range args {
		if w == "--" {
			return false
		}
		for _, n := range names {
			if w == "--"+n || strings.HasPrefix(w, "--"+n+"=") {
				return true
			}
			if f := cmd.Flags().Lookup(n); f != nil && f.Shorthand != "" && strings.HasPrefix(w, "-"+f.Shorthand) && !strings.HasPrefix(w, "--") {
				return true
			}
		}
	}
	return false
}

// fullPath finds FullCommand: beside this executable (symbolic links
// followed), else on PATH.
func fullPath() (string, error) {
	if self, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		p := filepath.Join(filepath.Dir(self), FullCommand)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	return exec.LookPath(FullCommand)
}
