package sqlitefile

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeSoundFile writes a database of several pages, a table and its
// index, to path and returns its bytes.
func writeSoundFile(t *testing.T, path string) []byte {
	t.Helper()
	db := rawDB(t, path, "")
	_, err := db.Exec(`CREATE TABLE t (x TEXT); CREATE INDEX t_x ON t (x);
		INSERT INTO t WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
			SELECT i || hex(zeroblob(100)) FROM n;`)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) < 8*4096 {
		t.Fatalf("the file has %d bytes; want several pages", len(b))
	}
	return b
}

// writeDamagedFile writes good to path with pages 3 to 5 overwritten by noise.
func writeDamagedFile(t *testing.T, path string, good []byte) {
	t.Helper()
	bad := bytes.Clone(good)
	copy(bad[2*4096:5*4096], bytes.Repeat([]byte{0xA5, 0x5A, 0x00, 0xFF}, 3*1024))
	if err := os.WriteFile(path, bad, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.db")
	b := writeSoundFile(t, good)
	bad := filepath.Join(dir, "bad.db")
	writeDamagedFile(t, bad, b)
	notDB := filepath.Join(dir, "text.db")
	if err := os.WriteFile(notDB, bytes.Repeat([]byte("not a database\n"), 1000), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, pragma := range []Pragma{QuickCheck, IntegrityCheck} {
		for _, tt := range []struct {
			path        string
			wantCorrupt bool
		}{{good, false}, {bad, true}, {notDB, true}} {
			t.Run(string(pragma)+"/"+filepath.Base(tt.path), func(t *testing.T) {
				err := Check(context.Background(), rawDB(t, tt.path, ""), pragma)
				if got := errors.Is(err, ErrCorrupt); got != tt.wantCorrupt || (!tt.wantCorrupt && err != nil) {
					t.Errorf("Check = %v; want ErrCorrupt %v", err, tt.wantCorrupt)
				}
				if IsCorrupt(err) != tt.wantCorrupt {
					t.Errorf("IsCorrupt(%v) = %v; want %v", err, !tt.wantCorrupt, tt.wantCorrupt)
				}
				if tt.wantCorrupt && !strings.HasPrefix(err.Error(), string(pragma)) {
					t.Errorf("Check = %v; want an error naming %s", err, pragma)
				}
			})
		}
	}
}

func TestIsCorrupt(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("database is locked"), false},
		{context.Canceled, false},
		{errors.Join(errors.New("quick_check: x"), ErrCorrupt), true},
	}
	for _, tt := range tests {
		if got := IsCorrupt(tt.err); got != tt.want {
			t.Errorf("IsCorrupt(%v) = %v; want %v", tt.err, got, tt.want)
		}
	}
}
