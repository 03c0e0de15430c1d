package hostcore

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A server's command that names a file that is not there fails in ways
// that say little: "fork/exec ...: no such file or directory", or, for
// "node /path/index.js", an exit with Node's stack trace on stderr. The
// host names the file instead, in a sentence: "the server's command names
// /path, which does not exist".

// scriptExts are the extensions of the scripts interpreters are given.
var scriptExts = map[string]bool{
	".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".py": true, ".jar": true, ".rb": true, ".sh": true,
}

// looksLikePath reports whether a command-line argument names a file: it
// is absolute, starts with ./ or ../, or ends in a script's extension. An
// option (-x, --flag=value) never does.
func looksLikePath(arg string) bool {
	if arg == "" || strings.HasPrefix(arg, "-") || strings.Contains(arg, "://") {
		return false
	}
	return filepath.IsAbs(arg) || strings.HasPrefix(arg, "./") || strings.HasPrefix(arg, "../") ||
		scriptExts[strings.ToLower(filepath.Ext(arg))]
}

// resolve is path as the process saw it: relative to its directory.
func resolve(dir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	if dir == "" {
		if wd, err := os.Getwd(); err == nil {
			dir = wd
		}
	}
	return filepath.Join(dir, path)
}

// missingScript returns the first argument of cmd that names a file that
// does not exist, resolved against cmd's directory, or "".
func missingScript(cmd *exec.Cmd) string {
	if cmd == nil {
		return ""
	}
	for _, arg := range cmd.Args[1:] {
		if !looksLikePath(arg) {
			continue
		}
		if p := resolve(cmd.Dir, arg); fileMissing(p) {
			return p
		}
	}
	return ""
}

func fileMissing(path string) bool {
	_, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// startError explains a command that could not be started: a missing
// file is named, anything else is left as it is.
func startError(cmd *exec.Cmd, err error) error {
	wrapped := &startFailure{path: cmd.Path, err: err}
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return newError(KindUsage, wrapped, "the server's command %s was not found on PATH", cmd.Path)
	case errors.Is(err, fs.ErrNotExist):
		return newError(KindUsage, wrapped, "the server's command names %s, which does not exist", resolve(cmd.Dir, cmd.Path))
	}
	return wrapped
}

// startFailure is a command that could not be started.
type startFailure struct {
	path string
	err  error
}

func (e *startFailure) Error() string { return "starting " + e.path + ": " + e.err.Error() }
func (e *startFailure) Unwrap() error { return e.err }
