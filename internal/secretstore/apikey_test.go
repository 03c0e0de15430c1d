package secretstore

import (
	"os"
	"strings"
	"testing"
)

// API keys kept in the fallback file: set, read, listed by name only,
// deleted; the file is private.
func TestAPIKeysInFile(t *testing.T) {
	dir := t.TempDir()
	var warned []string
	s := Open(dir, &Options{File: true, Warn: func(m string) { warned = append(warned, m) }})
	if _, ok, err := s.APIKey("local"); ok || err != nil {
		t.Fatalf("a key before any was set: %v, %v", ok, err)
	}
	for _, kv := range [][2]string{{"local", "sk-one"}, {"claude", "sk-two"}, {"local", "sk-three"}} {
		if err := s.SetAPIKey(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	if key, ok, err := s.APIKey("local"); key != "sk-three" || !ok || err != nil {
		t.Errorf("APIKey(local) = %q, %v, %v; want the last one set", key, ok, err)
	}
	names, err := s.APIKeyProviders()
	if err != nil || strings.Join(names, ",") != "claude,local" {
		t.Errorf("APIKeyProviders = %v, %v", names, err)
	}
	fi, err := os.Stat(s.KeyFilePath())
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file: %v, mode %v; want 0600", err, fi.Mode().Perm())
	}
	if had, err := s.DeleteAPIKey("local"); !had || err != nil {
		t.Errorf("DeleteAPIKey(local) = %v, %v", had, err)
	}
	if had, _ := s.DeleteAPIKey("local"); had {
		t.Error("deleted twice")
	}
	if _, ok, _ := s.APIKey("local"); ok {
		t.Error("the key survived its deletion")
	}
	// The grants' file is another file: keys never land among grants.
	if _, err := os.Stat(s.FilePath()); !os.IsNotExist(err) {
		t.Errorf("the grants file was written: %v", err)
	}
	if err := s.SetAPIKey("x", ""); err == nil {
		t.Error("an empty key was kept")
	}
}
