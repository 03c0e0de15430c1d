package cache

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
)

// The floors of the store's figures: what SQLite itself costs on this
// machine, with none of the Store's work (partitions, digests, the memory
// tier, the session record), measured in the same run as the Store's
// figures so that scripts/bench.sh can put each beside its floor.

// BenchmarkFloorSQLitePointRead is a bare point read of one 4 KiB value on
// an open connection: the floor of a hit.
func BenchmarkFloorSQLitePointRead(b *testing.B) {
	path := filepath.Join(b.TempDir(), "floor.db")
	db := floorDB(b, path, 1, benchValue)
	defer db.Close()
	b.ReportAllocs()
	for b.Loop() {
		floorRead(b, db, 0)
	}
}

// BenchmarkFloorSQLiteOpen256MiB opens a bare SQLite file of 256 MiB of
// 64 KiB values with the cache's connection settings, reads one value and
// closes it: the floor of opening the cache (BenchmarkOpen256MiB) and the
// state store.
func BenchmarkFloorSQLiteOpen256MiB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "floor.db")
	floorDB(b, path, 4096, make([]byte, 64<<10)).Close()
	b.ReportAllocs()
	for b.Loop() {
		db, err := sql.Open("sqlite3", dsn(path))
		if err != nil {
			b.Fatal(err)
		}
		floorRead(b, db, 4095)
		db.Close()
	}
}

// floorDB makes a table of n values at path.
func floorDB(b *testing.B, path string, n int, value []byte) *sql.DB {
	b.Helper()
	db, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t (k TEXT PRIMARY KEY, v BLOB)`); err != nil {
		b.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		if _, err := tx.Exec(`INSERT INTO t VALUES (?, ?)`, fmt.Sprint("threengram://memory/m-", i), value); err != nil {
			b.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	return db
}

func floorRead(b *testing.B, db *sql.DB, i int) {
	var v []byte
	if err := db.QueryRow(`SELECT v FROM t WHERE k = ?`, fmt.Sprint("threengram://memory/m-", i)).Scan(&v); err != nil || len(v) == 0 {
		b.Fatal(len(v), err)
	}
}
