// Package cmdfile finds the file a server's command names that is not
// there.
//
// A server's command that names a file that is not there fails in ways
// that say little: "fork/exec ...: no such file or directory", or, for
// "node /path/index.js", an exit with Node's stack trace on stderr. The
// host names the file instead, in a sentence: "the server's command names
// /path, which does not exist". This package says which file that is; it
// starts nothing, and only looks at the file system.
package cmdfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// scriptExts are the extensions of the scripts interpreters are given.
var scriptExts = map[string]bool{
	".js": true, ".mjs": true, ".cjs": true, ".ts": true, ".py": true, ".jar": true, ".rb": true, ".sh": true,
}

// LooksLikePath reports whether a command-line argument names a file: it
// is absolute, starts with ./ or ../, or ends in a script's extension. An
// option (-x, --flag=value) never does.
func LooksLikePath(arg string) bool {
	if arg == "" || strings.HasPrefix(arg, "-") || strings.Contains(arg, "://") {
		return false
	}
	return filepath.IsAbs(arg) || strings.HasPrefix(arg, "./") || strings.HasPrefix(arg, "../") ||
		scriptExts[strings.ToLower(filepath.Ext(arg))]
}

// Resolve is path as a process started in dir sees it: relative to dir,
// or to the working directory when dir is "".
func Resolve(dir, path string) string {
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

// Missing returns the first of args (a command's arguments, without the
// command itself) that names a file that does not exist, resolved against
// dir, the command's directory; or "".
func Missing(dir string, args []string) string {
	for _, arg := range args {
		if !LooksLikePath(arg) {
			continue
		}
		if p := Resolve(dir, arg); fileMissing(p) {
			return p
		}
	}
	return ""
}

func fileMissing(path string) bool {
	_, err := os.Stat(path)
	return errors.Is(err, fs.ErrNotExist)
}
