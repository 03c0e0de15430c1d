// Command readfloor is the floor of a cached read as a whole process: it
// links only SQLite, opens the cache file, reads one entry's body by its
// resource uri, prints it and exits. No config, no partition, no digest
// check, no access time: what is left is starting a Go process, opening
// the file and one point read. scripts/bench.sh runs it beside
// attachectl read, interleaved, so that how close the CLI comes to what a
// process of this machine can do is measured, not guessed.
//
//	readfloor CACHE.db URI
package main

import (
	"database/sql"
	"fmt"
	"os"

	_ "github.com/mattn/go-sqlite3"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: readfloor CACHE.db URI")
		os.Exit(2)
	}
	db, err := sql.Open("sqlite3", "file:"+os.Args[1]+"?mode=ro&_busy_timeout=5000")
	if err != nil {
		fmt.Fprintln(os.Stderr, "readfloor:", err)
		os.Exit(1)
	}
	defer db.Close()
	var body []byte
	err = db.QueryRow(`SELECT value FROM entries WHERE method = 'resources/read' AND param = ? LIMIT 1`, os.Args[2]).Scan(&body)
	if err != nil {
		fmt.Fprintln(os.Stderr, "readfloor:", err)
		os.Exit(1)
	}
	os.Stdout.Write(body)
}
