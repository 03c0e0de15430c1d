// Command benchstate lays out the large state of issue 15's start-up
// measurement in a directory, for scripts/bench-startup.sh:
//
//	benchstate --dir DIR --mcptestd PATH
//
// DIR/config.json configures 10 servers (mcptestd's paged mode; "catalog"
// has 50,000 resources, 100 a page, and says its pages keep for a day, so
// that a host caches them); DIR/data holds a state with 500 attachments in
// 20 conversations and a cache holding every page of the catalog (listed
// through the host, as the app would have); and
// DIR/xdg/fyne/dev.attache.app/preferences.json makes the app open on the
// catalog and the last conversation. It prints nothing on success.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/attache/attache/hostcore"
	"github.com/attache/attache/hostcore/config"
	"github.com/attache/attache/internal/hostcache"
	"github.com/attache/attache/internal/mcptest"
	"github.com/attache/attache/internal/state"
)

const (
	servers       = 10
	conversations = 20
	perConv       = 25 // 500 attachments
	catalogSize   = 50_000
	pageSize      = 100
	// catalogTTL is how long the catalog's pages keep: long enough that
	// the cache is warm for every launch of a measurement.
	catalogTTL = "24h"
)

func main() {
	dir := flag.String("dir", "", "directory to lay the state out in")
	mcptestd := flag.String("mcptestd", "", "path to the mcptestd binary")
	flag.Parse()
	if *dir == "" || *mcptestd == "" {
		fmt.Fprintln(os.Stderr, "usage: benchstate --dir DIR --mcptestd PATH")
		os.Exit(2)
	}
	if err := run(context.Background(), *dir, *mcptestd); err != nil {
		fmt.Fprintln(os.Stderr, "benchstate:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, dir, mcptestd string) error {
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		return err
	}
	cfg, err := writeConfig(filepath.Join(dir, "config.json"), mcptestd)
	if err != nil {
		return err
	}
	last, err := writeState(ctx, state.DefaultPath(data))
	if err != nil {
		return err
	}
	if err := warmCatalog(ctx, cfg, data); err != nil {
		return err
	}
	return writePrefs(filepath.Join(dir, "xdg", "fyne", "dev.attache.app", "preferences.json"), last)
}

func writeConfig(path, mcptestd string) (*config.Config, error) {
	cfg, err := config.LoadConfig(path)
	if err != nil {
		return nil, err
	}
	for i := range servers {
		name, n := fmt.Sprintf("server-%d", i), 1000
		if i == 0 {
			name, n = "catalog", catalogSize
		}
		args := []string{"--mode", "paged", "--resources", fmt.Sprint(n), "--page-size", fmt.Sprint(pageSize), "--stdio"}
		if i == 0 {
			args = append(args, "--list-ttl", catalogTTL)
		}
		sc := config.ServerConfig{Name: name, Command: mcptestd, Args: args}
		if err := cfg.Upsert(sc); err != nil {
			return nil, err
		}
	}
	return cfg, cfg.Save()
}

// writeState adds the conversations and attachments and returns the id of
// the last conversation.
func writeState(ctx context.Context, path string) (int64, error) {
	st, err := state.Open(path, nil)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	var last int64
	for c := range conversations {
		conv, err := st.CreateConversation(ctx, fmt.Sprintf("conversation %d", c+1))
		if err != nil {
			return 0, err
		}
		for i := range perConv {
			uri := mcptest.PagedURI(c*perConv + i)
			a := hostcore.Attachment{ConversationID: conv.ID, Server: hostcore.ServerRef{Name: "catalog"},
				URI: uri, Origin: hostcore.FromList, Title: uri}
			if _, err := st.AddAttachment(ctx, a); err != nil {
				return 0, err
			}
		}
		last = conv.ID
	}
	return last, nil
}

// warmCatalog lists every page of the catalog through a host with the
// data directory's cache, so that they are cached as the app keeps them.
func warmCatalog(ctx context.Context, cfg *config.Config, data string) error {
	store, bodies, err := hostcache.Open(data, 0, nil)
	if err != nil {
		return err
	}
	defer store.Close()
	h := hostcore.NewHost(cfg, &hostcore.HostOptions{Cache: bodies})
	defer h.Close()
	c, err := h.Conn("catalog", "")
	if err != nil {
		return err
	}
	n := 0
	for _, err := range c.Resources(ctx, nil) {
		if err != nil {
			return err
		}
		n++
	}
	if n != catalogSize {
		return fmt.Errorf("listed %d resources of the catalog, want %d", n, catalogSize)
	}
	// The templates are listed too, as the picker does; then the cache
	// must hold every page of both, or the catalog is not warm.
	for _, err := range c.Templates(ctx, nil) {
		if err != nil {
			return err
		}
	}
	st, err := bodies.Stats(ctx, hostcore.CacheFilter{})
	if err != nil {
		return err
	}
	if want := catalogSize/pageSize + 2; st.Entries != want {
		return fmt.Errorf("the cache holds %d entries after listing the catalog, want %d (every page): the catalog is not warm", st.Entries, want)
	}
	return nil
}

func writePrefs(path string, conv int64) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(map[string]any{"server": "catalog", "account": "", "conversation": conv})
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}
