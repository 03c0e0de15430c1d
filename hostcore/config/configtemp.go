package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A config is saved through a temporary file beside it (replaceFile),
// named .<name>.<pid>-<random>.tmp. A process killed between its write and
// its rename leaves that file behind, holding the config as it was about
// to be; the next load removes the ones no live saver can still rename.

// staleConfigTemp is the age past which a temporary config is stale
// whoever wrote it: a save takes milliseconds.
const staleConfigTemp = time.Hour

// configTempPattern is the pattern of path's temporary files, for
// os.CreateTemp, with this process's pid in it.
func configTempPattern(path string) string {
	return fmt.Sprintf(".%s.%d-*.tmp", filepath.Base(path), os.Getpid())
}

// removeStaleConfigTemps removes path's temporary files whose pid runs no
// process, and those older than staleConfigTemp (earlier versions wrote
// them without a pid). Another live process's fresh one, which it may be
// renaming now, and this process's own, are left alone.
func removeStaleConfigTemps(path string, now time.Time) {
	prefix := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".")
	temps, _ := filepath.Glob(globQuote(prefix) + "*.tmp")
	for _, tmp := range temps {
		fi, err := os.Lstat(tmp)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		pidText, _, found := strings.Cut(strings.TrimPrefix(tmp, prefix), "-")
		pid, err := strconv.Atoi(pidText)
		dead := found && err == nil && pid > 0 && pid != os.Getpid() && !processAlive(pid)
		if dead || now.Sub(fi.ModTime()) > staleConfigTemp {
			os.Remove(tmp)
		}
	}
}

// globQuote escapes the metacharacters of filepath.Match in a literal path.
func globQuote(p string) string {
	return strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`).Replace(p)
}
